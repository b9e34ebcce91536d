package ecs_test

import (
	"math"
	"testing"
	"unsafe"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type (
	sumPos    struct{ X, Y float64 }
	sumVel    struct{ X, Y float32 }
	sumTag    struct{}
	sumTarget struct{ E ecs.Entity } // an entity inside a value: its world's tag must not count
	sumName   struct{ S string }
	sumLife   struct{ Left int32 }  // sparse in every world of these tests
	sumClock  struct{ Tick uint64 } // a resource
	// sumPadded has 7 padding bytes after A, which Go leaves unspecified.
	sumPadded struct {
		A uint8
		B uint64
	}
	// sumRef holds a pointer: the checksum skips it.
	sumRef struct {
		N int
		P *int
	}
)

// sumDeep hashes what its slice holds through its own method.
type sumDeep struct{ L []int }

func (d sumDeep) Checksum() uint64 {
	var h uint64 = 14695981039346656037
	for _, x := range d.L {
		h = (h ^ uint64(x)) * 1099511628211
	}
	return h
}

// twoHistories builds one world in two ways: types first used in other
// orders, entities reaching their tables by other paths, and tables made
// and emptied on the way, with the same index, rows, sparse set and
// resource at the end.
func twoHistories(t *testing.T) (a, b *ecs.World, bEntities []ecs.Entity) {
	t.Helper()
	a = ecs.NewWorld()
	ecs.Register[sumLife](a, ecs.Sparse())
	pv := ecs.NewMap2[sumPos, sumVel](a)
	pos := ecs.NewMap[sumPos](a)
	life := ecs.NewMap[sumLife](a)
	a1 := pv.Spawn(sumPos{1, 2}, sumVel{3, 4})
	a2 := pos.Spawn(sumPos{5, 6})
	a3 := pv.Spawn(sumPos{7, 8}, sumVel{-1, 0.5})
	ecs.NewMap[sumTarget](a).Add(a3, sumTarget{a1})
	ecs.NewMap[sumName](a).Add(a1, sumName{"first"})
	life.Add(a3, sumLife{9})
	life.Add(a1, sumLife{10})
	a.Despawn(a2)
	ecs.AddResource(a, &sumClock{42})

	b = ecs.NewWorld()
	ecs.Register[sumLife](b, ecs.Sparse())
	tag := ecs.NewMap[sumTag](b) // first used here, not in a
	vel := ecs.NewMap[sumVel](b)
	bpos := ecs.NewMap[sumPos](b)
	blife := ecs.NewMap[sumLife](b)
	names := ecs.NewMap[sumName](b)
	b1 := b.Spawn()
	vel.Add(b1, sumVel{3, 4}) // through the table {sumVel}
	bpos.Add(b1, sumPos{1, 2})
	b2 := bpos.Spawn(sumPos{5, 6})
	tag.Add(b2, sumTag{}) // a table made and emptied
	tag.Remove(b2)
	b3 := ecs.NewMap2[sumPos, sumVel](b).Spawn(sumPos{7, 8}, sumVel{-1, 0.5})
	ecs.NewMap[sumTarget](b).Add(b3, sumTarget{b1}) // tables made in a's order: it is the iteration order
	names.Add(b1, sumName{"fir" + "st"})
	blife.Add(b3, sumLife{9})
	blife.Add(b1, sumLife{10})
	ecs.AddResource(b, &sumClock{42})
	b.Despawn(b2)
	return a, b, []ecs.Entity{b1, b2, b3}
}

func TestChecksumIsTheSameForTheSameWorldBuiltTwoWays(t *testing.T) {
	a, b, es := twoHistories(t)
	if a.Checksum() != b.Checksum() {
		t.Fatalf("the same world built two ways: checksums %x and %x", a.Checksum(), b.Checksum())
	}
	if first, again := a.Checksum(), a.Checksum(); first != again {
		t.Fatal("two checksums of one unchanged world differ")
	}
	base := b.Checksum()
	changes := []struct {
		name         string
		change, undo func()
	}{
		{"one float field", func() { ecs.NewMap[sumPos](b).Get(es[2]).Y = 8.5 }, func() { ecs.NewMap[sumPos](b).Get(es[2]).Y = 8 }},
		{"a sparse value", func() { ecs.NewMap[sumLife](b).Get(es[0]).Left++ }, func() { ecs.NewMap[sumLife](b).Get(es[0]).Left-- }},
		{"a string", func() { ecs.NewMap[sumName](b).Get(es[0]).S = "First" }, func() { ecs.NewMap[sumName](b).Get(es[0]).S = "first" }},
		{"an entity inside a value", func() { ecs.NewMap[sumTarget](b).Get(es[2]).E = es[2] }, func() { ecs.NewMap[sumTarget](b).Get(es[2]).E = es[0] }},
		{"a resource", func() { ecs.GetResource[sumClock](b).Tick++ }, func() { ecs.GetResource[sumClock](b).Tick-- }},
		{"+0 to -0", func() { ecs.NewMap[sumPos](b).Get(es[0]).X = 0 }, nil},
	}
	for _, c := range changes {
		c.change()
		if b.Checksum() == base {
			t.Errorf("changing %s left the checksum as it was", c.name)
		}
		if c.undo != nil {
			c.undo()
			if b.Checksum() != base {
				t.Errorf("undoing the change of %s did not give the checksum back", c.name)
			}
		}
	}
	zero := b.Checksum()
	ecs.NewMap[sumPos](b).Get(es[0]).X = math.Copysign(0, -1)
	if b.Checksum() == zero {
		t.Error("-0.0 and +0.0 give the same checksum; they behave differently and must differ")
	}
}

func TestChecksumSeesTheIndexAndTheOrder(t *testing.T) {
	build := func(order []int) *ecs.World {
		w := ecs.NewWorld()
		pos := ecs.NewMap[sumPos](w)
		var es []ecs.Entity
		for i := range 4 {
			es = append(es, pos.Spawn(sumPos{float64(i), 0}))
		}
		for _, i := range order {
			w.Despawn(es[i])
		}
		return w
	}
	// Despawning 0 then 3 or 3 then 0 leaves the same entities and values
	// but another free list (so other ids for the next spawns) and another
	// row order: both count.
	if build([]int{0, 3}).Checksum() == build([]int{3, 0}).Checksum() {
		t.Fatal("worlds whose next spawns get other ids have the same checksum")
	}
	if one, two := build([]int{0, 3}), build([]int{0, 3}); one.Checksum() != two.Checksum() {
		t.Fatal("two worlds built alike have different checksums")
	}
	// The storage counts.
	table, sparse := ecs.NewWorld(), ecs.NewWorld()
	ecs.Register[sumLife](sparse, ecs.Sparse())
	ecs.NewMap[sumLife](table).Spawn(sumLife{1})
	ecs.NewMap[sumLife](sparse).Spawn(sumLife{1})
	if table.Checksum() == sparse.Checksum() {
		t.Fatal("a type in a table and in a sparse set give the same checksum")
	}
}

func TestChecksumValueRules(t *testing.T) {
	one := func(v sumPadded, n float64, r sumRef, d sumDeep) uint64 {
		w := ecs.NewWorld()
		e := ecs.NewMap[sumPadded](w).Spawn(v)
		ecs.NewMap[sumPos](w).Add(e, sumPos{n, 1})
		ecs.NewMap[sumRef](w).Add(e, r)
		ecs.NewMap[sumDeep](w).Add(e, d)
		return w.Checksum()
	}
	var garbage sumPadded
	// SAFETY (test): writes the padding bytes between A and B.
	pad := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&garbage), 1)), 7)
	for i := range pad {
		pad[i] = 0xA5
	}
	garbage.A, garbage.B = 1, 2
	x, y := 5, 6
	base := one(sumPadded{A: 1, B: 2}, 1, sumRef{N: 3, P: &x}, sumDeep{[]int{1, 2}})
	if got := one(garbage, 1, sumRef{N: 3, P: &x}, sumDeep{[]int{1, 2}}); got != base {
		t.Error("padding bytes changed the checksum")
	}
	nan1, nan2 := math.Float64frombits(0x7FF8000000000001), math.Float64frombits(0xFFF0000000000123)
	if one(sumPadded{A: 1, B: 2}, nan1, sumRef{N: 3, P: &x}, sumDeep{[]int{1, 2}}) !=
		one(sumPadded{A: 1, B: 2}, nan2, sumRef{N: 3, P: &x}, sumDeep{[]int{1, 2}}) {
		t.Error("two NaN payloads give different checksums")
	}
	if one(sumPadded{A: 1, B: 2}, 1, sumRef{N: 3, P: &y}, sumDeep{[]int{1, 2}}) != base {
		t.Error("a pointer field counted: pointers are skipped")
	}
	if one(sumPadded{A: 1, B: 2}, 1, sumRef{N: 4, P: &x}, sumDeep{[]int{1, 2}}) == base {
		t.Error("the int beside a skipped pointer did not count")
	}
	if one(sumPadded{A: 1, B: 2}, 1, sumRef{N: 3, P: &x}, sumDeep{[]int{1, 3}}) == base {
		t.Error("a Checksummer's method was not used")
	}
}

func TestChecksumRefusesAParallelSection(t *testing.T) {
	w := ecs.NewWorld()
	w.Parallel().Begin()
	testhelp.MustPanic(t, func() { w.Checksum() }, "Checksum", "parallel section")
	w.Parallel().End()
	if w.Checksum() != ecs.NewWorld().Checksum() {
		t.Fatal("two empty worlds have different checksums")
	}
}

type (
	sumWave struct {
		C   complex64
		D   complex128
		U   uintptr
		Arr [2]int16
	}
	// sumBag hashes through a method on its pointer.
	sumBag struct{ M map[string]int }
)

func (b *sumBag) Checksum() uint64 { return uint64(b.M["x"])*31 + uint64(len(b.M)) }

func TestChecksumOtherKinds(t *testing.T) {
	sum := func(v sumWave, bag sumBag) uint64 {
		w := ecs.NewWorld()
		e := ecs.NewMap[sumWave](w).Spawn(v)
		ecs.NewMap[sumBag](w).Add(e, bag)
		return w.Checksum()
	}
	base := sumWave{C: complex(1, 2), D: complex(3, 4), U: 5, Arr: [2]int16{6, 7}}
	want := sum(base, sumBag{map[string]int{"x": 1}})
	for name, v := range map[string]sumWave{
		"complex64 imaginary part":  {C: complex(1, 2.5), D: complex(3, 4), U: 5, Arr: [2]int16{6, 7}},
		"complex128 imaginary part": {C: complex(1, 2), D: complex(3, 4.5), U: 5, Arr: [2]int16{6, 7}},
		"uintptr":                   {C: complex(1, 2), D: complex(3, 4), U: 6, Arr: [2]int16{6, 7}},
		"array element":             {C: complex(1, 2), D: complex(3, 4), U: 5, Arr: [2]int16{6, 8}},
	} {
		if sum(v, sumBag{map[string]int{"x": 1}}) == want {
			t.Errorf("changing the %s left the checksum as it was", name)
		}
	}
	if sum(base, sumBag{map[string]int{"x": 2}}) == want {
		t.Error("a pointer receiver's Checksum method was not used")
	}
	if sum(base, sumBag{map[string]int{"x": 1}}) != want {
		t.Error("the same values gave another checksum")
	}
}
