package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Map2.Set moves an entity that lacks some of the types once, so an enter
// observer of a query of all of them sees it once; an overwrite of types it
// has is not a structural change and tells no observer.
func TestMapNSetTellsObserversOnce(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	both := ecs.NewQuery2[Position, Velocity](w)
	var entered []ecs.Entity
	both.OnEnter(func(e ecs.Entity) { entered = append(entered, e) })
	e := ecs.NewMap[Position](w).Spawn(Position{X: 1})
	pv.Set(e, Position{X: 2}, Velocity{X: 3})
	pv.Set(e, Position{X: 4}, Velocity{X: 5})
	if !slices.Equal(entered, []ecs.Entity{e}) {
		t.Fatalf("entered %v, want %v once", entered, e)
	}
	if p, v := pv.Get(e); p.X != 4 || v.X != 5 {
		t.Fatalf("values %v %v after two Sets", *p, *v)
	}
}

// In a parallel section Map2.Set overwrites types the entity has, and
// refuses, before writing anything, an entity that lacks one; the batches
// are structural changes and refused too.
func TestMapNSetInParallelSection(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	e := pv.Spawn(Position{}, Velocity{})
	lone := ecs.NewMap[Position](w).Spawn(Position{X: 1})
	q := ecs.NewQuery1[Position](w)
	w.Parallel().Begin()
	pv.Set(e, Position{X: 1, Y: 2}, Velocity{X: 3, Y: 4})
	testhelp.MustPanic(t, func() { pv.Set(lone, Position{X: 5}, Velocity{}) }, "Set[ecs_test.Velocity]", "parallel section")
	testhelp.MustPanic(t, func() { pv.AddMatching(q, Position{}, Velocity{}) }, "AddMatching", "parallel section")
	testhelp.MustPanic(t, func() { pv.RemoveMatching(q) }, "RemoveMatching", "parallel section")
	w.Parallel().End()
	if p, v := pv.Get(e); *p != (Position{1, 2}) || *v != (Velocity{3, 4}) {
		t.Fatalf("after the section: %v %v", *p, *v)
	}
	if got := *ecs.NewMap[Position](w).Get(lone); got.X != 1 || pv.Has(lone) {
		t.Fatalf("the refused Set wrote %v", got)
	}
}

// Structural changes that hooks make during Map2.AddMatching and
// RemoveMatching wait for the whole batch, then apply; the batches work
// again afterwards.
func TestMapNBatchHooksChangesWaitForTheBatch(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	mass := ecs.NewMap[Mass](w)
	withMass := ecs.NewQuery1[Mass](w)
	ecs.OnAdd(w, func(e ecs.Entity, v *Velocity) {
		if withMass.Count() != 0 {
			t.Errorf("OnAdd of %v: a Mass was added before the batch ended", e)
		}
		mass.Add(e, Mass{V: v.X})
	})
	ecs.OnRemove(w, func(e ecs.Entity, _ *Velocity) { mass.Remove(e) })
	tagged := ecs.NewMap[Tag](w)
	q := ecs.NewQuery1[Tag](w)
	var es []ecs.Entity
	for range 3 {
		es = append(es, tagged.Spawn(Tag{}))
	}
	for round := range 2 {
		pv.AddMatching(q, Position{X: 1}, Velocity{X: 2})
		if withMass.Count() != 3 || w.Pending() != 0 {
			t.Fatalf("round %d: %d entities with Mass after AddMatching, want 3", round, withMass.Count())
		}
		pv.AddMatching(q, Position{X: 3}, Velocity{X: 4}) // overwrites: no OnAdd
		for _, e := range es {
			if p, v := pv.Get(e); p.X != 3 || v.X != 4 || mass.Get(e).V != 2 {
				t.Fatalf("round %d, entity %v: %v %v %v", round, e, *p, *v, *mass.Get(e))
			}
		}
		pv.RemoveMatching(q)
		if withMass.Count() != 0 || pv.Has(es[0]) || !tagged.Has(es[0]) {
			t.Fatalf("round %d: %d entities with Mass after RemoveMatching, want 0", round, withMass.Count())
		}
	}
}

// Batches of several types that keep firing each other end in the cascade
// panic, which names them with all their types.
func TestBatchesOfSeveralTypesUndoingEachOtherStop(t *testing.T) {
	w := ecs.NewWorld()
	ab := ecs.NewMap2[runA, runB](w)
	q := ecs.NewQuery1[runT](w)
	ecs.OnAdd(w, func(ecs.Entity, *runA) { ab.RemoveMatching(q) })
	ecs.OnRemove(w, func(ecs.Entity, *runA) { ab.AddMatching(q, runA{}, runB{}) })
	ecs.NewMap[runT](w).Spawn(runT{})
	msg := recovered(func() { ab.AddMatching(q, runA{}, runB{}) })
	for _, want := range []string{"did not settle", "AddMatching[ecs_test.runA,ecs_test.runB] over Query1[ecs_test.runT]", "RemoveMatching[ecs_test.runA,ecs_test.runB] over Query1[ecs_test.runT]"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not mention %q", msg, want)
		}
	}
	mustStayUsable(t, w)
}

// Set, AddMatching and RemoveMatching of Map2, directly and deferred in a
// loop, allocate nothing once the world's tables and buffers have grown.
func TestMapNSetAndBatchesDoNotAllocate(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pos := ecs.NewMap[Position](w)
	tagged := ecs.NewMap[Tag](w)
	for range 100 {
		tagged.Spawn(Tag{})
	}
	q := ecs.NewQuery1[Tag](w)
	e := pos.Spawn(Position{})
	round := func() {
		pv.AddMatching(q, Position{X: 1}, Velocity{X: 2})
		pv.AddMatching(q, Position{X: 3}, Velocity{X: 4})
		pv.RemoveMatching(q)
		pv.Set(e, Position{X: 5}, Velocity{X: 6})
		pv.Set(e, Position{X: 7}, Velocity{X: 8})
		pv.Remove(e)
		for range q.All() {
			pv.AddMatching(q, Position{X: 1}, Velocity{X: 2})
			pv.RemoveMatching(q)
			pv.Set(e, Position{X: 5}, Velocity{X: 6})
			break
		}
		pv.Remove(e)
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Fatalf("%v allocations per round, want 0", n)
	}
	if pos.Has(e) || ecs.NewQuery1[Velocity](w).Count() != 0 {
		t.Fatal("a round must leave no Position on e and no Velocity anywhere")
	}
}
