package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// bit0, bit1 and pair build 1024 distinct component types at compile time:
// level k instantiates pair with both bits, doubling the number of types.
// pair leaves its type parameters unused, so every instantiation has the
// underlying type struct{ N int }: the compiler then makes one copy of
// Map's methods for all 1024 (one GC shape) rather than one per type,
// which took about a minute of every build of these tests.
type (
	bit0           struct{}
	bit1           struct{}
	pair[A, B any] struct{ N int }
)

func types0[T any](visit func(func(w *ecs.World, e ecs.Entity, n int) bool)) {
	visit(func(w *ecs.World, e ecs.Entity, n int) bool {
		m := ecs.NewMap[T](w)
		var v T
		m.Add(e, v)
		return m.Has(e)
	})
}

func types1[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types0[pair[T, bit0]](v)
	types0[pair[T, bit1]](v)
}
func types2[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types1[pair[T, bit0]](v)
	types1[pair[T, bit1]](v)
}
func types3[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types2[pair[T, bit0]](v)
	types2[pair[T, bit1]](v)
}
func types4[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types3[pair[T, bit0]](v)
	types3[pair[T, bit1]](v)
}
func types5[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types4[pair[T, bit0]](v)
	types4[pair[T, bit1]](v)
}
func types6[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types5[pair[T, bit0]](v)
	types5[pair[T, bit1]](v)
}
func types7[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types6[pair[T, bit0]](v)
	types6[pair[T, bit1]](v)
}
func types8[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types7[pair[T, bit0]](v)
	types7[pair[T, bit1]](v)
}
func types9[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types8[pair[T, bit0]](v)
	types8[pair[T, bit1]](v)
}
func types10[T any](v func(func(*ecs.World, ecs.Entity, int) bool)) {
	types9[pair[T, bit0]](v)
	types9[pair[T, bit1]](v)
}

func TestThousandTwentyFourComponentTypes(t *testing.T) {
	w := ecs.NewWorld()
	all := w.Spawn()
	n := 0
	types10[bit0](func(add func(*ecs.World, ecs.Entity, int) bool) {
		// One entity gets every type; another gets just this one.
		if !add(w, all, n) || !add(w, w.Spawn(), n) {
			t.Fatalf("type %d: Add did not stick", n)
		}
		n++
	})
	if n != 1024 {
		t.Fatalf("made %d types, want 1024", n)
	}
	if got := len(w.Reflect().ComponentsOf(all, nil)); got != 1024 {
		t.Fatalf("the entity given every type holds %d components, want 1024", got)
	}
	// The entity with every type still reads each one, and queries across
	// the whole range of ids match.
	q := ecs.NewQuery2[pair[pair[pair[pair[pair[pair[pair[pair[pair[pair[bit0, bit0], bit0], bit0], bit0], bit0], bit0], bit0], bit0], bit0], bit0],
		pair[pair[pair[pair[pair[pair[pair[pair[pair[pair[bit0, bit1], bit1], bit1], bit1], bit1], bit1], bit1], bit1], bit1], bit1]](w)
	if got := q.Count(); got != 1 {
		t.Fatalf("query over the first and last types matched %d entities, want 1", got)
	}
	if w.Len() != 1025 {
		t.Fatalf("Len = %d", w.Len())
	}
}

func TestTagsTakeNoColumnMemory(t *testing.T) {
	ecs.SkipAllocsUnderRelocate(t)
	w := ecs.NewWorld()
	tags := ecs.NewMap2[Tag, struct{}](w)
	tags.SpawnBatch(1000, Tag{}, struct{}{})
	allocs := testing.AllocsPerRun(5, func() {
		tags.SpawnBatch(1000, Tag{}, struct{}{})
	})
	// Per batch: the entity column doubles at most once and the free list
	// grows; tag columns must add nothing per row.
	if allocs > 4 {
		t.Errorf("%v allocations per batch of 1000 tagged spawns", allocs)
	}
	q := ecs.NewQuery2[Tag, struct{}](w)
	n := 0
	for r := range q.All() {
		if r.A == nil || r.B == nil {
			t.Fatal("nil pointer to a tag")
		}
		n++
	}
	if n != 7000 { // 1000, then AllocsPerRun: one warm-up and five runs
		t.Fatalf("visited %d tagged entities, want 7000", n)
	}
}
