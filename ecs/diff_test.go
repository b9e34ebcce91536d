package ecs_test

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// pfx is the package path part of the test types' stable names.
const pfx = "github.com/tessera-ecs/tessera/ecs_test."

type dfPos struct{ X, Y float32 }
type dfVel struct{ X, Y float32 }
type dfBag struct {
	Name  string
	Items []int32
	Grid  [2][2]int8
}

// Clone copies the items, so that snapshots share nothing with the world.
func (b dfBag) Clone() dfBag { b.Items = append([]int32(nil), b.Items...); return b }

// Checksum hashes the items too, which the checksum cannot see by itself.
func (b *dfBag) Checksum() uint64 {
	h := fnv.New64a()
	h.Write([]byte(b.Name))
	for _, x := range b.Items {
		h.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)})
	}
	h.Write([]byte{byte(b.Grid[0][0]), byte(b.Grid[0][1]), byte(b.Grid[1][0]), byte(b.Grid[1][1]), byte(len(b.Items))})
	return h.Sum64()
}

type dfMark struct{ N int }
type dfLink struct{ W float64 }
type dfClock struct{ Tick int64 }
type dfPing struct{ N int }

// dfWorld builds a world of n entities with positions, every third with a
// velocity, every fifth with a sparse mark, a bag on the first, a Multi
// relation from each entity to the next and a resource.
func dfWorld(n int) (*ecs.World, []ecs.Entity) {
	w := ecs.NewWorld()
	ecs.Register[dfMark](w, ecs.Sparse())
	pos, vel, bag, mark := ecs.NewMap[dfPos](w), ecs.NewMap[dfVel](w), ecs.NewMap[dfBag](w), ecs.NewMap[dfMark](w)
	link := ecs.NewRelation[dfLink](w, ecs.Multi())
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = w.Spawn()
		pos.Set(es[i], dfPos{float32(i), float32(2 * i)})
		if i%3 == 0 {
			vel.Set(es[i], dfVel{1, -1})
		}
		if i%5 == 0 {
			mark.Set(es[i], dfMark{i})
		}
	}
	bag.Set(es[0], dfBag{Name: "first", Items: []int32{1, 2, 3}})
	for i := 1; i < n; i++ {
		link.Set(es[i-1], es[i], dfLink{float64(i)})
	}
	ecs.AddResource(w, &dfClock{Tick: 7})
	return w, es
}

func TestDiffOfEqualWorldsIsEmpty(t *testing.T) {
	a, _ := dfWorld(50)
	b, _ := dfWorld(50)
	if r := ecs.Diff(a, b, 10); !r.Equal() || r.Entities != 0 || len(r.Parts) != 0 {
		t.Fatalf("equal worlds differ:\n%v", &r)
	}
	if d := ecs.DiffChecksums(a.Checksums(nil), b.Checksums(nil)); len(d) != 0 {
		t.Fatalf("equal worlds' checksums differ: %v", d)
	}
}

// TestDiffNamesTheField changes one field of one value in each kind of
// place and checks that Diff names exactly it, with both values, and that
// the per-part checksums name its part only.
func TestDiffNamesTheField(t *testing.T) {
	cases := []struct {
		name   string
		change func(w *ecs.World, es []ecs.Entity)
		want   ecs.Difference
	}{
		{"table float", func(w *ecs.World, es []ecs.Entity) { ecs.NewMap[dfPos](w).Get(es[7]).Y = 1.5 },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfPos", Field: "Y", A: "14", B: "1.5"}},
		{"negative zero", func(w *ecs.World, es []ecs.Entity) { ecs.NewMap[dfPos](w).Get(es[0]).X = float32(math.Copysign(0, -1)) },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfPos", Field: "X", A: "0", B: "-0"}},
		{"slice element", func(w *ecs.World, es []ecs.Entity) { ecs.NewMap[dfBag](w).Get(es[0]).Items[2] = 9 },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfBag", Field: "Items[2]", A: "3", B: "9"}},
		{"slice length", func(w *ecs.World, es []ecs.Entity) {
			b := ecs.NewMap[dfBag](w).Get(es[0])
			b.Items = b.Items[:2]
		}, ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfBag", Field: "Items.len", A: "3", B: "2"}},
		{"array in array", func(w *ecs.World, es []ecs.Entity) { ecs.NewMap[dfBag](w).Get(es[0]).Grid[1][0] = -4 },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfBag", Field: "Grid[1][0]", A: "0", B: "-4"}},
		{"string", func(w *ecs.World, es []ecs.Entity) { ecs.NewMap[dfBag](w).Get(es[0]).Name = "last" },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfBag", Field: "Name", A: `"first"`, B: `"last"`}},
		{"sparse", func(w *ecs.World, es []ecs.Entity) { ecs.NewMap[dfMark](w).Get(es[10]).N = -1 },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartComponent, Type: pfx + "dfMark", Field: "N", A: "10", B: "-1"}},
		{"relation value", func(w *ecs.World, es []ecs.Entity) {
			ecs.NewRelation[dfLink](w, ecs.Multi()).Set(es[3], es[4], dfLink{0.25})
		}, ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartRelation, Type: "Relation[" + pfx + "dfLink]", Field: "Values[0].W", A: "4", B: "0.25"}},
		{"relation target", func(w *ecs.World, es []ecs.Entity) {
			l := ecs.NewRelation[dfLink](w, ecs.Multi())
			l.Remove(es[3], es[4])
			l.Set(es[3], es[9], dfLink{4})
		}, ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartRelation, Type: "Relation[" + pfx + "dfLink]", Field: "Targets[0]", A: "5v0", B: "10v0"}},
		{"resource", func(w *ecs.World, es []ecs.Entity) { ecs.GetResource[dfClock](w).Tick = 8 },
			ecs.Difference{Kind: ecs.ValueDiffers, Part: ecs.PartResource, Type: pfx + "dfClock", Field: "Tick", A: "7", B: "8"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, es := dfWorld(20)
			b, esb := dfWorld(20)
			c.change(b, esb)
			r := ecs.Diff(a, b, 100)
			if len(r.Differences) == 0 {
				t.Fatalf("no difference found")
			}
			got := r.Differences[0]
			want := c.want
			if want.Part != ecs.PartResource {
				want.Entity = got.Entity // checked below by index
			}
			if got != want {
				t.Fatalf("first difference\n got %v\nwant %v\nreport:\n%v", got, want, &r)
			}
			if want.Part == ecs.PartComponent {
				idx := map[string]int{pfx + "dfPos": 7, pfx + "dfBag": 0, pfx + "dfMark": 10}[want.Type]
				if c.name == "negative zero" {
					idx = 0
				}
				if got.Entity != es[idx] {
					t.Fatalf("difference on entity %v, want %v", got.Entity, es[idx])
				}
			}
			if want.Part != ecs.PartRelation && r.Total != 1 {
				t.Fatalf("%d differences, want 1:\n%v", r.Total, &r)
			}
			parts := ecs.DiffChecksums(a.Checksums(nil), b.Checksums(nil))
			if len(parts) != 1 || parts[0].Kind != want.Part || parts[0].Name != strings.TrimSuffix(want.Type, ".sources") {
				t.Fatalf("per-part checksums name %v, want only %v %s", parts, want.Part, want.Type)
			}
			if a.Checksum() == b.Checksum() {
				t.Fatalf("world checksums agree on different worlds")
			}
		})
	}
}

func TestDiffEntitiesAndComponentsOnOneSide(t *testing.T) {
	a, es := dfWorld(10)
	b, esb := dfWorld(10)
	b.Despawn(esb[4])
	ecs.NewMap[dfVel](b).Set(esb[1], dfVel{3, 4})
	ecs.NewMap[dfMark](b).Remove(esb[5])
	r := ecs.Diff(a, b, 100)
	has := func(k ecs.DiffKind, typ string, e ecs.Entity) bool {
		for _, d := range r.Differences {
			if d.Kind == k && d.Type == typ && d.Entity == e {
				return true
			}
		}
		return false
	}
	if !has(ecs.OnlyInA, "entities", es[4]) {
		t.Errorf("despawned entity not reported:\n%v", &r)
	}
	if !has(ecs.OnlyInB, pfx+"dfVel", es[1]) {
		t.Errorf("added component not reported:\n%v", &r)
	}
	if !has(ecs.OnlyInA, pfx+"dfMark", es[5]) {
		t.Errorf("removed sparse component not reported:\n%v", &r)
	}
	// The despawn frees an index (the free list differs) and drops the
	// pairs from 3 to 4 and 4 to 5; the despawned entity's own
	// components are not reported one by one.
	for _, d := range r.Differences {
		if d.Entity == es[4] && d.Type != "entities" {
			t.Errorf("a component of the despawned entity reported: %v", d)
		}
	}
	if !has(ecs.ValueDiffers, "entities", ecs.Entity{}) {
		t.Errorf("free list difference not reported:\n%v", &r)
	}
}

func TestDiffSnapshotAgainstWorld(t *testing.T) {
	w, es := dfWorld(30)
	var s ecs.Snapshot
	w.Snapshot(&s)
	if r := ecs.Diff(&s, w, 10); !r.Equal() {
		t.Fatalf("a snapshot differs from its world:\n%v", &r)
	}
	ecs.NewMap[dfPos](w).Get(es[12]).X = 100
	r := ecs.Diff(&s, w, 10)
	if r.Total != 1 || r.Differences[0].Entity != es[12] || r.Differences[0].Field != "X" || r.Differences[0].A != "12" || r.Differences[0].B != "100" {
		t.Fatalf("snapshot against world:\n%v", &r)
	}
	var s2 ecs.Snapshot
	w.Snapshot(&s2)
	if r2 := ecs.Diff(&s, &s2, 10); r2.Total != 1 || r2.Differences[0] != r.Differences[0] {
		t.Fatalf("snapshot against snapshot:\n%v", &r2)
	}
	w.Restore(&s)
	if r := ecs.Diff(&s, w, 10); !r.Equal() {
		t.Fatalf("restored world differs from its snapshot:\n%v", &r)
	}
}

func TestDiffCountsPastTheLimit(t *testing.T) {
	a, _ := dfWorld(200)
	b, esb := dfWorld(200)
	pos := ecs.NewMap[dfPos](b)
	for _, e := range esb {
		pos.Get(e).X += 1
	}
	r := ecs.Diff(a, b, 5)
	if r.Total != 200 || len(r.Differences) != 5 || r.Entities != 200 {
		t.Fatalf("total %d, kept %d, entities %d; want 200, 5, 200", r.Total, len(r.Differences), r.Entities)
	}
	if len(r.Parts) != 1 || r.Parts[0].N != 200 || r.Parts[0].Type != pfx+"dfPos" {
		t.Fatalf("counts per part: %+v", r.Parts)
	}
	if r := ecs.Diff(a, b, 0); r.Total != 200 || len(r.Differences) != 0 {
		t.Fatalf("limit 0: total %d, kept %d", r.Total, len(r.Differences))
	}
	if s := r.String(); !strings.Contains(s, "200 differences on 200 entities (the first 5 below)") {
		t.Fatalf("report text:\n%s", s)
	}
}

// TestDiffOrder builds two worlds with the same entities and values, whose
// rows lie in another order: the checksum differs, and Diff says where the
// iteration orders part.
func TestDiffOrder(t *testing.T) {
	build := func(moved bool) (*ecs.World, ecs.Entity) {
		w := ecs.NewWorld()
		pos, vel := ecs.NewMap[dfPos](w), ecs.NewMap[dfVel](w)
		ecs.Register[dfMark](w, ecs.Sparse())
		mark := ecs.NewMap[dfMark](w)
		a, b := w.Spawn(), w.Spawn()
		pos.Set(a, dfPos{1, 1})
		pos.Set(b, dfPos{2, 2})
		if moved { // a leaves the table and comes back after b
			vel.Set(a, dfVel{})
			vel.Remove(a)
		}
		mark.Set(a, dfMark{})
		mark.Set(b, dfMark{})
		return w, a
	}
	a, ea := build(false)
	b, _ := build(true)
	if a.Checksum() == b.Checksum() {
		t.Fatalf("row order does not change the checksum")
	}
	r := ecs.Diff(a, b, 10)
	if r.Total != 1 || r.Differences[0].Kind != ecs.OrderDiffers || r.Differences[0].Entity != ea ||
		r.Differences[0].Type != pfx+"dfPos" {
		t.Fatalf("order difference not reported:\n%v", &r)
	}
	parts := ecs.DiffChecksums(a.Checksums(nil), b.Checksums(nil))
	// dfPos's rows, and so every entity's order, changed.
	if len(parts) != 2 || parts[0].Kind != ecs.PartEntities || parts[1].Name != pfx+"dfPos" {
		t.Fatalf("parts %v, want the entity index's and dfPos's", parts)
	}
}

// TestDiffAgreesWithChecksums mutates random worlds at random and checks
// that Diff finds no difference exactly when the checksums agree, and that
// every part it names is a part whose checksum differs.
func TestDiffAgreesWithChecksums(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		a, _ := dfWorld(40)
		b, es := dfWorld(40)
		mutateDF(rng, b, es)
		r := ecs.Diff(a, b, 1000)
		parts := ecs.DiffChecksums(a.Checksums(nil), b.Checksums(nil))
		if r.Equal() != (a.Checksum() == b.Checksum()) || r.Equal() != (len(parts) == 0) {
			t.Fatalf("seed %d: diff equal %v, checksums equal %v, parts %v\n%v", seed, r.Equal(), a.Checksum() == b.Checksum(), parts, &r)
		}
		differs := map[string]bool{}
		for _, p := range parts {
			differs[p.Name] = true
		}
		for _, p := range r.Parts {
			if !differs[p.Type] {
				t.Fatalf("seed %d: diff names %s, whose checksum agrees (%v)\n%v", seed, p.Type, parts, &r)
			}
		}
	}
}

func TestChecksumsCoverEventsAndResources(t *testing.T) {
	a, _ := dfWorld(5)
	b, _ := dfWorld(5)
	qa, qb := ecs.EventsOf[dfPing](a), ecs.EventsOf[dfPing](b)
	qa.NewReader()
	qb.NewReader()
	qa.Send(dfPing{1})
	qb.Send(dfPing{2})
	parts := ecs.DiffChecksums(a.Checksums(nil), b.Checksums(nil))
	if len(parts) != 1 || parts[0].Kind != ecs.PartEvents || parts[0].Name != pfx+"dfPing" {
		t.Fatalf("parts %v, want the ping queue", parts)
	}
	ecs.RemoveResource[dfClock](b)
	parts = ecs.DiffChecksums(a.Checksums(nil), b.Checksums(nil))
	if len(parts) != 2 || parts[0].Kind != ecs.PartResource {
		t.Fatalf("parts %v, want the clock (in a only) and the queue", parts)
	}
	got := a.Checksums(nil)
	if got[0].Kind != ecs.PartEntities {
		t.Fatalf("first part %v, want the entity index", got[0])
	}
	if again := a.Checksums(got[:0]); len(again) != len(got) {
		t.Fatalf("reusing dst: %d parts, want %d", len(again), len(got))
	}
}

// dfHidden keeps its state behind a map, which Diff cannot walk: its
// Checksum sees it, so Diff reports the whole values.
type dfHidden struct{ M map[string]int }

func (h *dfHidden) Checksum() uint64 { return uint64(h.M["k"]) }

// Clone copies the map.
func (h dfHidden) Clone() dfHidden { return dfHidden{M: map[string]int{"k": h.M["k"]}} }

type dfLeaves struct {
	C complex64
	B bool
	U uint16
	I int
}

func TestDiffFormatsEveryKind(t *testing.T) {
	a, b := ecs.NewWorld(), ecs.NewWorld()
	ea := ecs.NewMap2[dfHidden, dfLeaves](a).Spawn(dfHidden{map[string]int{"k": 1}}, dfLeaves{C: 1 + 2i, B: true, U: 7, I: -1})
	ecs.NewMap2[dfHidden, dfLeaves](b).Spawn(dfHidden{map[string]int{"k": 2}}, dfLeaves{C: 1 - 2i, B: false, U: 8, I: -2})
	r := ecs.Diff(a, b, 10)
	got := map[string][2]string{}
	for _, d := range r.Differences {
		if d.Entity != ea {
			t.Fatalf("difference on %v, want %v", d.Entity, ea)
		}
		got[d.Field] = [2]string{d.A, d.B}
	}
	want := map[string][2]string{
		"":  {"{M:map[k:1]}", "{M:map[k:2]}"},
		"C": {"(1+2i)", "(1-2i)"}, "B": {"true", "false"}, "U": {"7", "8"}, "I": {"-1", "-2"},
	}
	if len(got) != len(want) {
		t.Fatalf("fields %v, want %v", got, want)
	}
	for f, v := range want {
		if got[f] != v {
			t.Errorf("field %q: %v, want %v", f, got[f], v)
		}
	}
	for _, c := range []struct {
		d    ecs.Difference
		want string
	}{
		{ecs.Difference{Kind: ecs.OnlyInA, Part: ecs.PartResource, Type: "r", A: "{1}"}, "resource r: only in A: {1}"},
		{ecs.Difference{Kind: ecs.OnlyInB, Part: ecs.PartComponent, Type: "c", Entity: ea, B: "{2}"}, "entity " + ea.String() + " component c: only in B: {2}"},
		{ecs.Difference{Kind: ecs.OrderDiffers, Part: ecs.PartEvents, Type: "e", Field: "iteration order"}, "events e field iteration order: order differs"},
	} {
		if s := c.d.String(); s != c.want {
			t.Errorf("String() = %q, want %q", s, c.want)
		}
	}
	if s := ecs.DiffKind(9).String() + ecs.PartKind(0).String(); s != "DiffKind(9)PartKind(0)" {
		t.Errorf("unknown kinds print as %q", s)
	}
	var empty ecs.DiffReport
	if empty.String() != "no differences\n" {
		t.Errorf("an empty report prints %q", empty.String())
	}
}

type dfA struct{ N int32 }
type dfB struct{ N int32 }

// TestChecksumsSeeTableOrder: two worlds with the same entities and values
// in tables of disjoint types made in another order. Every type's rows are
// the same, but a query over every entity sees them in another order: the
// entity index's part and Diff say so.
func TestChecksumsSeeTableOrder(t *testing.T) {
	one := ecs.NewWorld()
	ecs.NewMap[dfA](one).Spawn(dfA{1})
	ecs.NewMap[dfB](one).Spawn(dfB{2})
	two := ecs.NewWorld()
	e1, e2 := two.Spawn(), two.Spawn()
	ecs.NewMap[dfB](two).Add(e2, dfB{2})
	ecs.NewMap[dfA](two).Add(e1, dfA{1})
	if one.Checksum() == two.Checksum() {
		t.Fatalf("the table order does not change the checksum")
	}
	parts := ecs.DiffChecksums(one.Checksums(nil), two.Checksums(nil))
	if len(parts) != 1 || parts[0].Kind != ecs.PartEntities {
		t.Fatalf("parts %v, want the entity index's", parts)
	}
	r := ecs.Diff(one, two, 5)
	if r.Total != 1 || r.Differences[0].Kind != ecs.OrderDiffers || r.Differences[0].Part != ecs.PartEntities {
		t.Fatalf("Diff:\n%v", &r)
	}
}

// sameNamedResources adds two resources whose types share a package path
// and name (both declared inside a function), which only the order of
// first use tells apart.
func sameNamedResources(w *ecs.World) {
	{
		type twin struct{ N int32 }
		ecs.AddResource(w, &twin{1})
	}
	{
		type twin struct{ M int64 }
		ecs.AddResource(w, &twin{2})
	}
}

// TestChecksumOfSameNamedResourcesIsStable: the order in which checksums
// and Diff walk resources does not follow a map's random order, even for
// types of one name.
func TestChecksumOfSameNamedResourcesIsStable(t *testing.T) {
	w, _ := dfWorld(3)
	sameNamedResources(w)
	sum, parts := w.Checksum(), w.Checksums(nil)
	for range 200 {
		if w.Checksum() != sum || len(ecs.DiffChecksums(parts, w.Checksums(nil))) != 0 {
			t.Fatalf("the checksum of an unchanged world changed")
		}
	}
	var s ecs.Snapshot
	w.Snapshot(&s)
	for range 50 {
		if r := ecs.Diff(&s, w, 5); !r.Equal() {
			t.Fatalf("a world differs from its snapshot:\n%v", &r)
		}
	}
}
