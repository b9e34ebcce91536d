package ecs_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type mergePos struct{ X float64 }
type mergeHeat struct{ V int32 } // sparse
type mergeLink struct {
	To   ecs.Entity
	Many []ecs.Entity
}
type mergeFollow struct{ Target ecs.Entity } // sparse
type mergeName struct{ S string }
type mergeScore struct{ Points int }

// mergeWorld is a world whose values name other entities, in tables and
// in sparse sets, for the merge tests.
type mergeWorld struct {
	w      *ecs.World
	pos    *ecs.Map[mergePos]
	heat   *ecs.Map[mergeHeat]
	link   *ecs.Map[mergeLink]
	follow *ecs.Map[mergeFollow]
	name   *ecs.Map[mergeName]
	score  *mergeScore
	live   []ecs.Entity
	seen   []ecs.Entity // every entity ever spawned, dead ones too
}

func newMergeWorld() *mergeWorld {
	w := ecs.NewWorld()
	ecs.Register[mergeHeat](w, ecs.Sparse())
	ecs.Register[mergeFollow](w, ecs.Sparse())
	m := &mergeWorld{w: w, pos: ecs.NewMap[mergePos](w), heat: ecs.NewMap[mergeHeat](w), link: ecs.NewMap[mergeLink](w),
		follow: ecs.NewMap[mergeFollow](w), name: ecs.NewMap[mergeName](w), score: &mergeScore{}}
	ecs.AddResource(w, m.score)
	return m
}

// step makes one random change; the entities that values name are drawn
// from every entity ever spawned, so some are dead, and some are zero.
func (m *mergeWorld) step(r *rand.Rand) {
	pick := func() ecs.Entity { return m.live[r.IntN(len(m.live))] }
	target := func() ecs.Entity {
		if r.IntN(8) == 0 {
			return ecs.Entity{}
		}
		return m.seen[r.IntN(len(m.seen))]
	}
	op := r.IntN(10)
	if len(m.live) == 0 {
		op = 0
	}
	switch op {
	case 0, 1:
		e := m.pos.Spawn(mergePos{X: float64(r.IntN(1000))})
		m.live, m.seen = append(m.live, e), append(m.seen, e)
	case 2:
		i := r.IntN(len(m.live))
		m.w.Despawn(m.live[i])
		m.live = slices.Delete(m.live, i, i+1)
	case 3:
		m.heat.Set(pick(), mergeHeat{V: int32(r.IntN(100))})
	case 4:
		m.heat.Remove(pick())
	case 5:
		m.link.Set(pick(), mergeLink{To: target(), Many: []ecs.Entity{target(), target()}})
	case 6:
		m.link.Remove(pick())
	case 7:
		m.follow.Set(pick(), mergeFollow{Target: target()})
	case 8:
		m.name.Set(pick(), mergeName{S: fmt.Sprint("n", r.IntN(100))})
	case 9:
		m.score.Points++
	}
}

// describe renders e's components, with every entity value passed
// through ref first.
func (m *mergeWorld) describe(e ecs.Entity, ref func(ecs.Entity) ecs.Entity) string {
	var b strings.Builder
	if v, ok := m.pos.TryGet(e); ok {
		fmt.Fprintf(&b, "pos %v ", *v)
	}
	if v, ok := m.heat.TryGet(e); ok {
		fmt.Fprintf(&b, "heat %v ", *v)
	}
	if v, ok := m.link.TryGet(e); ok {
		fmt.Fprintf(&b, "link %v [", ref(v.To))
		for _, x := range v.Many {
			fmt.Fprintf(&b, "%v ", ref(x))
		}
		b.WriteString("] ")
	}
	if v, ok := m.follow.TryGet(e); ok {
		fmt.Fprintf(&b, "follow %v ", ref(v.Target))
	}
	if v, ok := m.name.TryGet(e); ok {
		fmt.Fprintf(&b, "name %q", v.S)
	}
	return b.String()
}

func same(e ecs.Entity) ecs.Entity { return e }

// randomMergeWorld is a mergeWorld after n random steps from seed.
func randomMergeWorld(seed uint64, n int) *mergeWorld {
	r := rand.New(rand.NewPCG(seed, 7))
	m := newMergeWorld()
	for range n {
		m.step(r)
	}
	return m
}

// checkMerged checks a merge of src into dst: every living entity of src
// has a new living entity in dst with the same components, its entity
// values mapped (to zero where they named no living entity of src); the
// entities dst had are untouched, and dst's resources too.
func checkMerged(t *testing.T, src, dst *mergeWorld, before map[ecs.Entity]string, score int, mp *ecs.EntityMapping) {
	t.Helper()
	if mp.Len() != src.w.Len() || dst.w.Len() != len(before)+src.w.Len() {
		t.Fatalf("mapping of %d, %d entities after the merge: want %d and %d + %d", mp.Len(), dst.w.Len(), src.w.Len(), len(before), src.w.Len())
	}
	mapped := func(e ecs.Entity) ecs.Entity {
		if n, ok := mp.Get(e); ok {
			return n
		}
		return ecs.Entity{}
	}
	made := map[ecs.Entity]bool{}
	for _, e := range src.live {
		n, ok := mp.Get(e)
		if !ok || !dst.w.Alive(n) || made[n] {
			t.Fatalf("%v: mapped to %v (%v), alive %v, twice %v", e, n, ok, dst.w.Alive(n), made[n])
		}
		if _, old := before[n]; old {
			t.Fatalf("%v mapped to %v, which dst had before", e, n)
		}
		made[n] = true
		if got, want := dst.describe(n, same), src.describe(e, mapped); got != want {
			t.Fatalf("%v became %v: %q, want %q", e, n, got, want)
		}
	}
	for e, want := range before {
		if got := dst.describe(e, same); !dst.w.Alive(e) || got != want {
			t.Fatalf("dst's own %v changed: %q, want %q", e, got, want)
		}
	}
	for _, e := range src.seen {
		if !src.w.Alive(e) {
			if n, ok := mp.Get(e); ok {
				t.Fatalf("dead %v mapped to %v", e, n)
			}
		}
	}
	if dst.score.Points != score {
		t.Fatalf("dst's resource changed: %d, want %d", dst.score.Points, score)
	}
}

// snapshotOwn records what dst's own entities hold before a merge.
func snapshotOwn(m *mergeWorld) map[ecs.Entity]string {
	out := map[ecs.Entity]string{}
	for _, e := range m.live {
		out[e] = m.describe(e, same)
	}
	return out
}

var mergeFormats = []struct {
	name  string
	save  func(*ecs.World, *bytes.Buffer) error
	merge func(*ecs.World, []byte) (*ecs.EntityMapping, error)
}{
	{"binary", func(w *ecs.World, b *bytes.Buffer) error { return w.Save(b) },
		func(w *ecs.World, d []byte) (*ecs.EntityMapping, error) { return w.Merge(bytes.NewReader(d)) }},
	{"json", func(w *ecs.World, b *bytes.Buffer) error { return w.SaveJSON(b) },
		func(w *ecs.World, d []byte) (*ecs.EntityMapping, error) { return w.MergeJSON(bytes.NewReader(d)) }},
}

// TestMerge merges random worlds into random worlds, in both formats, and
// checks the result entity by entity; the ids handed out are those the
// same world's spawns would have returned.
func TestMerge(t *testing.T) {
	for _, f := range mergeFormats {
		for seed := range uint64(40) {
			src := randomMergeWorld(seed, 20+int(seed)*3)
			var file bytes.Buffer
			if err := f.save(src.w, &file); err != nil {
				t.Fatal(err)
			}
			dst := randomMergeWorld(seed+1000, int(seed)*2)
			before, score := snapshotOwn(dst), dst.score.Points
			mp, err := f.merge(dst.w, file.Bytes())
			if err != nil {
				t.Fatalf("%s seed %d: %v", f.name, seed, err)
			}
			checkMerged(t, src, dst, before, score, mp)

			// The new ids are the next ones the world hands out, in the
			// order of the file's indices.
			twin := randomMergeWorld(seed+1000, int(seed)*2)
			var got []ecs.Entity
			for saved, n := range mp.All() {
				if !src.w.Alive(mustGet(t, src, saved)) {
					t.Fatalf("All yields %v, not alive in the source", saved)
				}
				got = append(got, n)
				if want := twin.w.Spawn(); n.Index() != want.Index() || n.Generation() != want.Generation() {
					t.Fatalf("%s seed %d: merged entity %v, where a spawn gives %v", f.name, seed, n, want)
				}
			}
			if len(got) != mp.Len() {
				t.Fatalf("All yields %d, Len %d", len(got), mp.Len())
			}
		}
	}
}

// mustGet returns src's living entity of the index and generation of a
// handle from EntityMapping.All (which carries no world's tag).
func mustGet(t *testing.T, src *mergeWorld, saved ecs.Entity) ecs.Entity {
	t.Helper()
	for _, e := range src.live {
		if e.Index() == saved.Index() && e.Generation() == saved.Generation() {
			return e
		}
	}
	t.Fatalf("%v is no living entity of the source", saved)
	return ecs.Entity{}
}

// TestMergeTwice merges one file twice: two disjoint copies, each naming
// its own entities.
func TestMergeTwice(t *testing.T) {
	src := randomMergeWorld(3, 60)
	var file bytes.Buffer
	if err := src.w.Save(&file); err != nil {
		t.Fatal(err)
	}
	dst := newMergeWorld()
	first, err := dst.w.Merge(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	dst.live = collect(first)
	before := snapshotOwn(dst)
	second, err := dst.w.Merge(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, src, dst, before, 0, second)
	for _, e := range src.live {
		a, _ := first.Get(e)
		b, _ := second.Get(e)
		if a == b {
			t.Fatalf("%v merged twice into the same %v", e, a)
		}
	}
}

// TestMergeObservers: a merge fires nothing, and the merged entities are
// members of an enter/leave observer's query afterwards, so removing a
// component from one fires its leave.
func TestMergeObservers(t *testing.T) {
	src := randomMergeWorld(5, 80)
	var file bytes.Buffer
	if err := src.w.Save(&file); err != nil {
		t.Fatal(err)
	}
	dst := randomMergeWorld(6, 30)
	q := ecs.NewQuery1[mergeHeat](dst.w)
	var events []string
	q.OnEnter(func(e ecs.Entity) { events = append(events, fmt.Sprint("enter ", e)) })
	q.OnLeave(func(e ecs.Entity) { events = append(events, fmt.Sprint("leave ", e)) })
	mp, err := dst.w.Merge(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 0 {
		t.Fatalf("the merge fired %v", events)
	}
	var heated ecs.Entity
	for _, e := range src.live {
		if src.heat.Has(e) {
			heated, _ = mp.Get(e)
			break
		}
	}
	if heated == (ecs.Entity{}) {
		t.Skip("no source entity has the sparse component")
	}
	dst.heat.Remove(heated)
	if want := []string{fmt.Sprint("leave ", heated)}; !slices.Equal(events, want) {
		t.Fatalf("removing a merged entity's component fired %v, want %v", events, want)
	}
	n := 0
	for range q.All() {
		n++
	}
	want := 0
	for _, e := range append(slices.Clone(dst.live), collect(mp)...) {
		if dst.heat.Has(e) {
			want++
		}
	}
	if n != want {
		t.Fatalf("the query sees %d entities, %d have the component", n, want)
	}
}

// collect returns the entities a merge made, in order.
func collect(mp *ecs.EntityMapping) []ecs.Entity {
	var out []ecs.Entity
	for _, n := range mp.All() {
		out = append(out, n)
	}
	return out
}

// TestMergeRefusesAndKeeps: a file Merge cannot read leaves the world as
// it was; an unknown type names itself; the file's resources are read
// without being known to the world.
func TestMergeRefusesAndKeeps(t *testing.T) {
	src := randomMergeWorld(9, 50)
	var file bytes.Buffer
	if err := src.w.Save(&file); err != nil {
		t.Fatal(err)
	}
	data := file.Bytes()
	dst := randomMergeWorld(10, 40)
	sum, n := dst.w.Checksum(), dst.w.Len()
	for cut := 0; cut < len(data); cut += 1 + cut/8 {
		if _, err := dst.w.Merge(bytes.NewReader(data[:cut])); err == nil {
			t.Fatalf("a file cut at byte %d of %d merged", cut, len(data))
		} else if !strings.HasPrefix(err.Error(), "ecs: Merge: ") {
			t.Fatalf("error without the operation: %v", err)
		}
		if dst.w.Checksum() != sum || dst.w.Len() != n {
			t.Fatalf("a failed merge (cut at %d) changed the world", cut)
		}
	}

	bare := ecs.NewWorld() // no types, no resources
	ecs.NewMap[mergePos](bare)
	if _, err := bare.Merge(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), "is not known to this world") {
		t.Fatalf("merge with unknown types: %v", err)
	}

	noRes := newMergeWorldWithout()
	mp, err := noRes.w.Merge(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("a merge needs no resource slot: %v", err)
	}
	if mp.Len() != src.w.Len() {
		t.Fatalf("merged %d of %d", mp.Len(), src.w.Len())
	}
}

// newMergeWorldWithout is a mergeWorld's types with no resource.
func newMergeWorldWithout() *mergeWorld {
	w := ecs.NewWorld()
	ecs.Register[mergeHeat](w, ecs.Sparse())
	ecs.Register[mergeFollow](w, ecs.Sparse())
	return &mergeWorld{w: w, pos: ecs.NewMap[mergePos](w), heat: ecs.NewMap[mergeHeat](w), link: ecs.NewMap[mergeLink](w),
		follow: ecs.NewMap[mergeFollow](w), name: ecs.NewMap[mergeName](w), score: &mergeScore{}}
}

// TestMergeInsideLoopPanics: Merge is a structural change of the whole
// world and refuses to run inside an iteration.
func TestMergeInsideLoopPanics(t *testing.T) {
	src := randomMergeWorld(1, 10)
	var file bytes.Buffer
	if err := src.w.Save(&file); err != nil {
		t.Fatal(err)
	}
	dst := randomMergeWorld(2, 10)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "Merge: called inside an iteration") {
			t.Fatalf("recovered %v", r)
		}
	}()
	for range ecs.NewQuery1[mergePos](dst.w).All() {
		_, _ = dst.w.Merge(bytes.NewReader(file.Bytes()))
	}
}

// FuzzMerge: no bytes make Merge panic; a failed merge leaves the world as
// it was, and a successful one leaves every entity value naming a living
// entity or none.
func FuzzMerge(f *testing.F) {
	for seed := range uint64(3) {
		var file bytes.Buffer
		if err := randomMergeWorld(seed, 40).w.Save(&file); err != nil {
			f.Fatal(err)
		}
		f.Add(file.Bytes())
	}
	// Files Save never writes: values that take no bytes in a resource,
	// which Merge skips, and in a field mergePos does not have.
	for _, c := range zeroSizeSchemas() {
		f.Add(resourceFile("x", c.s, c.value))
	}
	for _, b := range zeroSizeSeeds(defaultName[mergePos](), false) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, data := range withSectionCRCs(data) {
			fuzzMergeOnce(t, data)
		}
	})
}

// fuzzMergeOnce is FuzzMerge's check of one file.
func fuzzMergeOnce(t *testing.T, data []byte) {
	dst := randomMergeWorld(77, 20)
	sum, n := dst.w.Checksum(), dst.w.Len()
	mp, err := dst.w.Merge(bytes.NewReader(data))
	if err != nil {
		if dst.w.Checksum() != sum || dst.w.Len() != n {
			t.Fatalf("a failed merge (%v) changed the world", err)
		}
		return
	}
	if dst.w.Len() != n+mp.Len() {
		t.Fatalf("%d entities after merging %d into %d", dst.w.Len(), mp.Len(), n)
	}
	ok := func(e ecs.Entity) bool { return e == (ecs.Entity{}) || dst.w.Alive(e) }
	for _, e := range mp.All() {
		if !dst.w.Alive(e) {
			t.Fatalf("merged %v is not alive", e)
		}
		if l, has := dst.link.TryGet(e); has {
			if !ok(l.To) {
				t.Fatalf("%v links to %v %v, not alive", e, l.To, l.Many)
			}
			for _, x := range l.Many {
				if !ok(x) {
					t.Fatalf("%v links to %v, not alive", e, x)
				}
			}
		}
		if fl, has := dst.follow.TryGet(e); has && !ok(fl.Target) {
			t.Fatalf("%v follows %v, not alive", e, fl.Target)
		}
	}
}
