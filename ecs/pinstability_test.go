package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type (
	pinA struct{ N int }
	pinB struct{ N int }
	pinC struct{ N int }
)

// TestMapNRemoveWithHooksMovesOnce: a MapN Remove in a world with hooks
// takes its types away in a single table move, as without hooks. It used to
// remove them one at a time, so the entity passed through the tables in
// between: a row went into and out of a table that neither held the entity
// before nor holds it after, invalidating the pointers into that table
// (pointer stability).
func TestMapNRemoveWithHooksMovesOnce(t *testing.T) {
	w := ecs.NewWorld()
	var log []string
	ecs.OnRemove(w, func(e ecs.Entity, v *pinA) { log = append(log, fmt.Sprint("A", v.N)) })
	ecs.OnRemove(w, func(e ecs.Entity, v *pinB) { log = append(log, fmt.Sprint("B", v.N)) })
	c := ecs.NewMap[pinC](w)
	bc := ecs.NewMap2[pinB, pinC](w)
	ab := ecs.NewMap2[pinA, pinB](w)
	abc := ecs.NewMap3[pinA, pinB, pinC](w)

	p := bc.Spawn(pinB{1}, pinC{1}) // the only row of table {B,C}
	e := abc.Spawn(pinA{2}, pinB{2}, pinC{2})
	w.Shrink() // {B,C} is full: a row moving in would reallocate its columns
	ptr := c.Get(p)

	ab.Remove(e) // e moves from {A,B,C} to {C}; {B,C} must not change

	if got := c.Get(p); got != ptr {
		t.Fatalf("Map2.Remove of another entity, from {A,B,C} to {C}, moved the C of the entity of {B,C}: %p, was %p", got, ptr)
	}
	*ptr = pinC{3}
	if got := c.Get(p).N; got != 3 {
		t.Fatalf("write through the kept pointer: Get reads %d, want 3", got)
	}
	if got := c.Get(e).N; got != 2 || ab.Has(e) {
		t.Fatalf("after Remove: C %d (want 2), has A or B %v", got, ab.Has(e))
	}
	if !slices.Equal(log, []string{"A2", "B2"}) {
		t.Fatalf("OnRemove hooks: %v, want [A2 B2]", log)
	}
}

// TestMapNRemoveHooksSeeTheEntityWhole: the OnRemove hooks of a MapN Remove
// all run before the move, with the values still in place, the changes they
// make wait until the entity has moved.
func TestMapNRemoveHooksSeeTheEntityWhole(t *testing.T) {
	w := ecs.NewWorld()
	a := ecs.NewMap[pinA](w)
	c := ecs.NewMap[pinC](w)
	ab := ecs.NewMap2[pinA, pinB](w)
	var log []string
	ecs.OnRemove(w, func(e ecs.Entity, v *pinA) { log = append(log, fmt.Sprint("A", v.N)) })
	ecs.OnRemove(w, func(e ecs.Entity, v *pinB) {
		// A is still there, and the value is the one being removed.
		pa, ok := a.TryGet(e)
		log = append(log, fmt.Sprint("B", v.N, " A present ", ok && pa.N == 4))
		c.Remove(e) // deferred until the Remove is complete
		if !c.Has(e) {
			t.Error("a hook's Remove took effect during the MapN Remove")
		}
	})
	e := ecs.NewMap3[pinA, pinB, pinC](w).Spawn(pinA{4}, pinB{5}, pinC{6})
	ab.Remove(e)
	if !slices.Equal(log, []string{"A4", "B5 A present true"}) {
		t.Fatalf("OnRemove hooks: %q", log)
	}
	if a.Has(e) || ab.Has(e) || c.Has(e) || !w.Alive(e) {
		t.Fatalf("after Remove: A %v, A or B %v, C %v, alive %v; want only alive", a.Has(e), ab.Has(e), c.Has(e), w.Alive(e))
	}
}
