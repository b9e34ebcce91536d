package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// memberOf is the split relation of these tests: a unit's faction.
type memberOf struct{ Rank int }

// splitScene is a world with factions (targets) and units (sources) that
// hold Position, linked by a split relation.
type splitScene struct {
	w        *ecs.World
	pos      *ecs.Map[Position]
	vel      *ecs.Map[Velocity]
	member   *ecs.Relation[memberOf]
	factions []ecs.Entity
	units    []ecs.Entity
}

func newSplitScene(t *testing.T, policy ecs.CleanupPolicy) *splitScene {
	t.Helper()
	w := ecs.NewWorld()
	s := &splitScene{w: w, pos: ecs.NewMap[Position](w), vel: ecs.NewMap[Velocity](w),
		member: ecs.NewRelation[memberOf](w, ecs.SplitByTarget(), ecs.OnTargetDespawn(policy))}
	for range 3 {
		s.factions = append(s.factions, w.Spawn())
	}
	for i := range 30 {
		u := s.pos.Spawn(Position{X: float64(i)})
		s.units = append(s.units, u)
		if i%5 != 4 { // every fifth unit has no faction
			s.member.Set(u, s.factions[i%3], memberOf{i})
		}
	}
	s.check(t)
	return s
}

// check fails t unless every unit is in its faction's table and every
// query form over To and ToVar yields exactly each faction's sources.
func (s *splitScene) check(t *testing.T) {
	t.Helper()
	if err := ecs.CheckSplitTables(s.w); err != nil {
		t.Fatal(err)
	}
	var v ecs.TargetVar
	byVar := ecs.NewQuery1[Position](s.w, s.member.ToVar(&v))
	for _, f := range s.factions {
		if !s.w.Alive(f) {
			continue
		}
		// The sources that have a Position, which the queries read.
		want := slices.DeleteFunc(s.member.Sources(f), func(e ecs.Entity) bool { return !s.pos.Has(e) })
		slices.SortFunc(want, cmpEntity)
		fixed := ecs.NewQuery1[Position](s.w, s.member.To(f))
		v.Set(f)
		for name, q := range map[string]*ecs.Query1[Position]{"To": fixed, "ToVar": byVar} {
			var all, chunks, cursor []ecs.Entity
			for r := range q.All() {
				if s.pos.Get(r.Entity) != r.A {
					t.Fatalf("%s: %v reads another entity's Position", name, r.Entity)
				}
				all = append(all, r.Entity)
			}
			for c := range q.Chunks() {
				if len(c.A) != len(c.Entities) {
					t.Fatalf("%s: a chunk of %d entities and %d positions", name, len(c.Entities), len(c.A))
				}
				chunks = append(chunks, c.Entities...)
			}
			for it := q.Iter(); it.Next(); {
				cursor = append(cursor, it.Entity())
			}
			for form, got := range map[string][]ecs.Entity{"All": all, "Chunks": chunks, "Iter": cursor} {
				slices.SortFunc(got, cmpEntity)
				if !slices.Equal(got, want) {
					t.Fatalf("%s %s of %v: %v, want the sources %v", name, form, f, got, want)
				}
			}
			if n := q.Count(); n != len(want) {
				t.Fatalf("%s Count of %v: %d, want %d", name, f, n, len(want))
			}
		}
	}
}

func cmpEntity(a, b ecs.Entity) int {
	switch {
	case a.Index() < b.Index():
		return -1
	case a.Index() > b.Index():
		return 1
	}
	return 0
}

// TestSplitByTargetTables: the sources of one target with the same
// component types are one table, handed out as one chunk.
func TestSplitByTargetTables(t *testing.T) {
	s := newSplitScene(t, ecs.RemovePairs)
	var v ecs.TargetVar
	v.Set(s.factions[1])
	for name, q := range map[string]*ecs.Query1[Position]{
		"To":    ecs.NewQuery1[Position](s.w, s.member.To(s.factions[1])),
		"ToVar": ecs.NewQuery1[Position](s.w, s.member.ToVar(&v)),
	} {
		n := 0
		for c := range q.Chunks() {
			n++
			if len(c.Entities) != 8 {
				t.Fatalf("%s: a chunk of %d sources, want all 8 of faction 1", name, len(c.Entities))
			}
		}
		if n != 1 {
			t.Fatalf("%s: %d chunks for one target's table, want 1", name, n)
		}
		if cs := q.AppendChunks(nil, 3); len(cs) != 3 || len(cs[2].Entities) != 2 {
			t.Fatalf("%s: AppendChunks of 3 rows over 8 sources: %d chunks", name, len(cs))
		}
	}
	// Without the filter the query sees every unit, in four tables: the
	// three factions' and the one of units without one.
	all := ecs.NewQuery1[Position](s.w)
	if got := all.Count(); got != 30 {
		t.Fatalf("Count %d, want 30", got)
	}
	chunks := 0
	for range all.Chunks() {
		chunks++
	}
	if chunks != 4 {
		t.Fatalf("%d chunks over the units, want 4 (three factions and none)", chunks)
	}
}

// TestSplitByTargetChanges moves sources between tables through every
// change of a pair and of their components, and checks after each.
func TestSplitByTargetChanges(t *testing.T) {
	s := newSplitScene(t, ecs.RemovePairs)
	u := s.units[0]
	s.member.Set(u, s.factions[2], memberOf{7}) // replace the target
	s.check(t)
	if got := s.member.Value(u, s.factions[2]).Rank; got != 7 {
		t.Fatalf("rank %d after the move, want 7", got)
	}
	if s.pos.Get(u).X != 0 {
		t.Fatal("the move lost the Position")
	}
	s.member.Remove(u, s.factions[2])
	s.check(t)
	s.member.Add(u, s.factions[0])
	s.vel.Add(u, Velocity{X: 1}) // a component change keeps the pair's table
	s.check(t)
	s.vel.Remove(u)
	s.pos.Remove(s.units[1])
	s.check(t)
	s.member.RemoveTargets(s.units[2])
	s.check(t)
	// Deferred inside a loop: applied, and placed, when the loop ends.
	for r := range ecs.NewQuery1[Position](s.w).All() {
		if r.Entity.Index()%2 == 0 {
			s.member.Set(r.Entity, s.factions[1], memberOf{})
		} else {
			s.member.RemoveTargets(r.Entity)
		}
	}
	s.check(t)
	c := s.w.NewCommands()
	s.member.SetCmd(c, s.units[3], s.factions[2], memberOf{})
	s.member.RemoveCmd(c, s.units[4], s.factions[1])
	s.w.Apply(c)
	s.check(t)
	clone := s.w.CopyEntity(s.units[6])
	if tg, _ := s.member.Target(clone); tg != s.factions[1] {
		t.Fatalf("the clone's target %v, want %v", tg, s.factions[1])
	}
	s.units = append(s.units, clone)
	s.check(t)
}

// TestSplitByTargetDespawn: despawning a target under each cleanup policy
// leaves every source in its place.
func TestSplitByTargetDespawn(t *testing.T) {
	s := newSplitScene(t, ecs.RemovePairs)
	gone := s.member.Sources(s.factions[0])
	s.w.Despawn(s.factions[0])
	s.check(t)
	for _, u := range gone {
		if !s.w.Alive(u) || s.member.HasTargets(u) {
			t.Fatalf("RemovePairs: %v dead or still paired", u)
		}
	}
	s.w.Despawn(s.units[1]) // a source: its row leaves its target's table
	s.check(t)

	s = newSplitScene(t, ecs.DespawnSources)
	gone = s.member.Sources(s.factions[2])
	s.w.Despawn(s.factions[2])
	for _, u := range gone {
		if s.w.Alive(u) {
			t.Fatalf("DespawnSources: %v lives on", u)
		}
	}
	s.check(t)
	// A despawn of a target deferred in a loop, then DespawnMatching.
	for range ecs.NewQuery1[Position](s.w).All() {
		if s.w.Alive(s.factions[1]) {
			s.w.Despawn(s.factions[1])
		}
	}
	s.check(t)
	s.w.DespawnMatching(ecs.NewQuery1[Position](s.w, s.member.To(s.factions[0])))
	if s.member.NumSources(s.factions[0]) != 0 {
		t.Fatal("DespawnMatching left sources of faction 0")
	}
	s.check(t)
}

// TestSplitByTargetRestoreAndSave: Snapshot, Restore, Save, Load and
// Merge keep the invariant and the queries.
func TestSplitByTargetRestoreAndSave(t *testing.T) {
	s := newSplitScene(t, ecs.RemovePairs)
	var snap ecs.Snapshot
	s.w.Snapshot(&snap)
	sum := s.w.Checksum()
	s.member.Set(s.units[0], s.factions[2], memberOf{})
	s.w.Despawn(s.factions[1])
	s.w.Restore(&snap)
	if s.w.Checksum() != sum {
		t.Fatal("the restore changed the checksum")
	}
	s.check(t)

	var file strings.Builder
	if err := s.w.Save(&file); err != nil {
		t.Fatal(err)
	}
	var jsonFile strings.Builder
	if err := s.w.SaveJSON(&jsonFile); err != nil {
		t.Fatal(err)
	}
	fromJSON := loadSplit(t, func(w *ecs.World) error { return w.LoadJSON(strings.NewReader(jsonFile.String())) })
	loaded := loadSplit(t, func(w *ecs.World) error { return w.Load(strings.NewReader(file.String())) })
	if fromJSON.w.Checksum() != loaded.w.Checksum() {
		t.Fatal("the JSON save and the binary one load to different worlds")
	}
	w := loaded.w
	mp, err := w.Merge(strings.NewReader(file.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.factions {
		m, _ := mp.Get(f)
		loaded.factions = append(loaded.factions, m)
	}
	loaded.check(t)
}

// loadSplit loads a save of a splitScene into a new world with the same
// declarations and checks it.
func loadSplit(t *testing.T, load func(*ecs.World) error) *splitScene {
	t.Helper()
	w := ecs.NewWorld()
	loaded := &splitScene{w: w, pos: ecs.NewMap[Position](w), vel: ecs.NewMap[Velocity](w),
		member: ecs.NewRelation[memberOf](w, ecs.SplitByTarget())}
	if err := load(w); err != nil {
		t.Fatal(err)
	}
	for r := range ecs.NewQuery1[Position](w).All() {
		loaded.units = append(loaded.units, r.Entity)
		if tg, ok := loaded.member.Target(r.Entity); ok && !slices.Contains(loaded.factions, tg) {
			loaded.factions = append(loaded.factions, tg)
		}
	}
	slices.SortFunc(loaded.units, cmpEntity)
	if len(loaded.factions) != 3 {
		t.Fatalf("%d factions after the load, want 3", len(loaded.factions))
	}
	loaded.check(t)
	return loaded
}

// TestSplitByTargetPrefab: instances whose pairs point inside their own
// tree each get their own table; pairs to outside targets share one.
func TestSplitByTargetPrefab(t *testing.T) {
	s := newSplitScene(t, ecs.RemovePairs)
	h := ecs.NewHierarchy(s.w)
	boss := s.pos.Spawn(Position{X: 100})
	grunt := s.pos.Spawn(Position{X: 101})
	h.SetParent(grunt, boss)
	s.member.Set(grunt, boss, memberOf{1})         // inside the tree
	s.member.Set(boss, s.factions[0], memberOf{2}) // outside it
	p := ecs.NewPrefab(s.w, boss)
	before := ecs.TableCount(s.w)
	p.SpawnBatch(3)
	if got := ecs.TableCount(s.w) - before; got != 3 {
		t.Fatalf("%d new tables for 3 instances, want 3 (one per instance boss)", got)
	}
	for r := range ecs.NewQuery1[Position](s.w).All() {
		if r.A.X == 100 && !slices.Contains(s.units, r.Entity) {
			s.factions = append(s.factions, r.Entity) // each boss is a target
		}
	}
	s.check(t)
	for range ecs.NewQuery1[Position](s.w).All() {
		p.Spawn() // deferred, filled when the loop ends
		break
	}
	s.check(t)
}

// TestSplitByTargetOptions: Multi cannot split; a second declaration
// must agree.
func TestSplitByTargetOptions(t *testing.T) {
	w := ecs.NewWorld()
	testhelp.MustPanic(t, func() { ecs.NewRelation[likes](w, ecs.Multi(), ecs.SplitByTarget()) }, "SplitByTarget needs an exclusive relation")
	ecs.NewRelation[guards](w, ecs.SplitByTarget())
	testhelp.MustPanic(t, func() { ecs.NewRelation[guards](w, ecs.OnTargetDespawn(ecs.RemovePairs)) }, "split by target true")
}
