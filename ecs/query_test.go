package ecs_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type (
	Red   struct{}
	Blue  struct{}
	Green struct{}
)

// filterWorld spawns one entity per combination of Position, Velocity, Red,
// Blue and Green (32 archetypes) and returns them keyed by a bitmask:
// 1 Position, 2 Velocity, 4 Red, 8 Blue, 16 Green.
func filterWorld() (*ecs.World, map[int]ecs.Entity) { return filterWorldIn(ecs.NewWorld()) }

// storages lists world set-ups for tests that must hold whatever the storage
// of the component types: all in tables, or Velocity, Red and Green in
// sparse sets.
var storages = map[string]func() *ecs.World{
	"table": ecs.NewWorld,
	"sparse": func() *ecs.World {
		w := ecs.NewWorld()
		ecs.Register[Velocity](w, ecs.Sparse())
		ecs.Register[Red](w, ecs.Sparse())
		ecs.Register[Green](w, ecs.Sparse(), ecs.CapacityHint(64))
		return w
	},
}

func filterWorldIn(w *ecs.World) (*ecs.World, map[int]ecs.Entity) {
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	red, blue, green := ecs.NewMap[Red](w), ecs.NewMap[Blue](w), ecs.NewMap[Green](w)
	es := map[int]ecs.Entity{}
	for mask := range 32 {
		e := w.Spawn()
		if mask&1 != 0 {
			pos.Add(e, Position{float64(mask), 0})
		}
		if mask&2 != 0 {
			vel.Add(e, Velocity{float64(mask), 0})
		}
		if mask&4 != 0 {
			red.Add(e, Red{})
		}
		if mask&8 != 0 {
			blue.Add(e, Blue{})
		}
		if mask&16 != 0 {
			green.Add(e, Green{})
		}
		es[mask] = e
	}
	return w, es
}

// masksWhere lists the masks of filterWorld that satisfy keep.
func masksWhere(keep func(m int) bool) []int {
	var out []int
	for m := range 32 {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// visitedMasks runs all three iteration forms of q and checks they agree,
// returning the sorted masks of the visited entities.
func visitedMasks(t *testing.T, es map[int]ecs.Entity, q *ecs.Query1[Position]) []int {
	t.Helper()
	byEntity := map[ecs.Entity]int{}
	for m, e := range es {
		byEntity[e] = m
	}
	var fromRange, fromChunks, fromCursor []int
	for r := range q.All() {
		if int(r.A.X) != byEntity[r.Entity] {
			t.Fatalf("range: %v has Position %v", r.Entity, *r.A)
		}
		fromRange = append(fromRange, byEntity[r.Entity])
	}
	for c := range q.Chunks() {
		for i, e := range c.Entities {
			if int(c.A[i].X) != byEntity[e] {
				t.Fatalf("chunks: %v has Position %v", e, c.A[i])
			}
			fromChunks = append(fromChunks, byEntity[e])
		}
	}
	it := q.Iter()
	for it.Next() {
		if int(it.Get().X) != byEntity[it.Entity()] {
			t.Fatalf("cursor: wrong Position for %v", it.Entity())
		}
		fromCursor = append(fromCursor, byEntity[it.Entity()])
	}
	if !slices.Equal(fromRange, fromChunks) || !slices.Equal(fromRange, fromCursor) {
		t.Fatalf("forms disagree: range %v chunks %v cursor %v", fromRange, fromChunks, fromCursor)
	}
	if q.Count() != len(fromRange) {
		t.Fatalf("Count %d, visited %d", q.Count(), len(fromRange))
	}
	slices.Sort(fromRange)
	return fromRange
}

func TestQueryFilters(t *testing.T) {
	cases := []struct {
		name    string
		filters []ecs.Filter
		keep    func(m int) bool
	}{
		{"none", nil, func(m int) bool { return m&1 != 0 }},
		{"with", []ecs.Filter{ecs.With(ecs.C[Red]())}, func(m int) bool { return m&1 != 0 && m&4 != 0 }},
		{"without", []ecs.Filter{ecs.Without(ecs.C[Red](), ecs.C[Blue]())}, func(m int) bool { return m&1 != 0 && m&12 == 0 }},
		{"anyof", []ecs.Filter{ecs.AnyOf(ecs.C[Red](), ecs.C[Green]())}, func(m int) bool { return m&1 != 0 && m&20 != 0 }},
		{"two anyof", []ecs.Filter{ecs.AnyOf(ecs.C[Red]()), ecs.AnyOf(ecs.C[Blue](), ecs.C[Green]())},
			func(m int) bool { return m&1 != 0 && m&4 != 0 && m&24 != 0 }},
		{"all kinds", []ecs.Filter{ecs.With(ecs.C[Velocity]()), ecs.Without(ecs.C[Green]()), ecs.AnyOf(ecs.C[Red](), ecs.C[Blue]())},
			func(m int) bool { return m&3 == 3 && m&16 == 0 && m&12 != 0 }},
	}
	for storage, newWorld := range storages {
		for _, c := range cases {
			t.Run(storage+"/"+c.name, func(t *testing.T) {
				w, es := filterWorldIn(newWorld())
				got := visitedMasks(t, es, ecs.NewQuery1[Position](w, c.filters...))
				if want := masksWhere(c.keep); !slices.Equal(got, want) {
					t.Fatalf("visited %v, want %v", got, want)
				}
			})
		}
	}
}

func TestQueryOptional(t *testing.T) {
	for storage, newWorld := range storages {
		t.Run(storage, func(t *testing.T) { testQueryOptional(t, newWorld()) })
	}
}

func testQueryOptional(t *testing.T, w *ecs.World) {
	w, es := filterWorldIn(w)
	q := ecs.NewQuery2[Position, Velocity](w, ecs.Optional(ecs.C[Velocity]()), ecs.With(ecs.C[Red]()))
	want := masksWhere(func(m int) bool { return m&5 == 5 })
	check := func(form string, e ecs.Entity, p *Position, v *Velocity) {
		m := int(p.X)
		if es[m] != e {
			t.Fatalf("%s: %v carries Position of %v", form, e, es[m])
		}
		if (v != nil) != (m&2 != 0) || (v != nil && int(v.X) != m) {
			t.Fatalf("%s: entity mask %d got Velocity %v", form, m, v)
		}
	}
	var got []int
	for r := range q.All() {
		check("range", r.Entity, r.A, r.B)
		got = append(got, int(r.A.X))
	}
	for c := range q.Chunks() {
		if (c.B == nil) == (int(c.A[0].X)&2 != 0) || (c.B != nil && len(c.B) != len(c.A)) {
			t.Fatal("chunks: Velocity column presence is wrong")
		}
		for i, e := range c.Entities {
			var v *Velocity
			if c.B != nil {
				v = &c.B[i]
			}
			check("chunks", e, &c.A[i], v)
		}
	}
	it := q.Iter()
	for it.Next() {
		p, v := it.Get()
		check("cursor", it.Entity(), p, v)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("visited %v, want %v", got, want)
	}
}

func TestQueryConstructorPanics(t *testing.T) {
	w := ecs.NewWorld()
	testhelp.MustPanic(t, func() { ecs.NewQuery2[Position, Position](w) }, "NewQuery2", "twice")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w, ecs.Optional(ecs.C[Velocity]())) }, "Optional", "Velocity")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w, ecs.Optional(ecs.C[Position]())) }, "every term is optional")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w, ecs.Without(ecs.C[Position]())) }, "required and excluded")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w, ecs.AnyOf()) }, "AnyOf")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w, ecs.With(ecs.ComponentType{})) }, "zero ComponentType")
	other := ecs.NewWorld()
	testhelp.MustPanic(t, func() { ecs.NewMap[Mass](w).AddMatching(ecs.NewQuery1[Position](other), Mass{}) }, "another world")
}

func TestQueryCacheFollowsNewTables(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.NewQuery1[Position](w, ecs.Without(ecs.C[Red]()))
	if q.Count() != 0 {
		t.Fatal("empty world matched")
	}
	pos, red := ecs.NewMap[Position](w), ecs.NewMap[Red](w)
	e := w.Spawn()
	pos.Add(e, Position{})
	ecs.NewMap[Mass](w).Add(e, Mass{}) // a table created after the query
	if q.Count() != 1 {
		t.Fatalf("Count = %d after new tables, want 1", q.Count())
	}
	red.Add(e, Red{})
	if q.Count() != 0 {
		t.Fatal("excluded table matched")
	}
}

func TestIterationOrderIsDeterministic(t *testing.T) {
	run := func() []ecs.Entity {
		w, _ := filterWorld()
		pos := ecs.NewMap[Position](w)
		q := ecs.NewQuery1[Position](w)
		var out []ecs.Entity
		for r := range q.All() {
			out = append(out, r.Entity)
		}
		for i, e := range out {
			if i%3 == 0 {
				pos.Remove(e)
			}
		}
		for r := range q.All() {
			out = append(out, r.Entity)
		}
		return out
	}
	a, b := run(), run()
	if !slices.EqualFunc(a, b, sameID) || len(a) == 0 {
		t.Fatalf("two identical runs visited %v and %v", a, b)
	}
}

func TestBatchOperations(t *testing.T) {
	for storage, newWorld := range storages {
		t.Run(storage, func(t *testing.T) { testBatchOperations(t, newWorld()) })
	}
}

func testBatchOperations(t *testing.T, w *ecs.World) {
	w, es := filterWorldIn(w)
	mass := ecs.NewMap[Mass](w)
	red := ecs.NewMap[Red](w)
	redQ := ecs.NewQuery1[Red](w)
	mass.Add(es[4], Mass{1}) // already has Mass: AddMatching overwrites
	mass.AddMatching(redQ, Mass{9})
	for _, m := range slices.Sorted(maps.Keys(es)) {
		e := es[m]
		v, ok := mass.TryGet(e)
		if (m&4 != 0) != ok || (ok && v.V != 9) {
			t.Fatalf("mask %d: Mass %v %v after AddMatching", m, v, ok)
		}
	}
	// Positions moved with their rows.
	pos := ecs.NewMap[Position](w)
	for _, m := range slices.Sorted(maps.Keys(es)) {
		e := es[m]
		if p, ok := pos.TryGet(e); ok && int(p.X) != m {
			t.Fatalf("mask %d: Position %v after the batch move", m, *p)
		}
	}
	red.RemoveMatching(ecs.NewQuery1[Mass](w, ecs.With(ecs.C[Blue]())))
	for _, m := range slices.Sorted(maps.Keys(es)) {
		e := es[m]
		if want := m&4 != 0 && m&8 == 0; red.Has(e) != want {
			t.Fatalf("mask %d: Red %v after RemoveMatching, want %v", m, red.Has(e), want)
		}
	}
	w.DespawnMatching(ecs.NewQuery1[Mass](w))
	for _, m := range slices.Sorted(maps.Keys(es)) {
		e := es[m]
		if w.Alive(e) != (m&4 == 0) {
			t.Fatalf("mask %d: Alive %v after DespawnMatching", m, w.Alive(e))
		}
	}
	if w.Len() != 16 {
		t.Fatalf("Len = %d", w.Len())
	}
	// Despawned indices are recycled with a new generation.
	n := w.Spawn()
	for _, e := range es { //tessera:nondeterministic-ok a membership test: any order gives the same verdict
		if e == n {
			t.Fatal("recycled a handle unchanged")
		}
	}
}

func TestZeroAllocations(t *testing.T) {
	w, q := newPosVelWorld(1000)
	pos := ecs.NewMap[Position](w)
	e := ecs.NewMap2[Position, Velocity](w).Spawn(Position{}, Velocity{})
	cases := map[string]func(){
		"chunks": func() { chunkLoop(q) },
		"range":  func() { rangeLoop(q) },
		"cursor": func() { cursorLoop(q) },
		"get":    func() { pos.Get(e).X++ },
		"tryget": func() { _, _ = pos.TryGet(e) },
		"has":    func() { _ = pos.Has(e) },
		"set":    func() { pos.Set(e, Position{1, 1}) },
	}
	for name, f := range cases {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
}
