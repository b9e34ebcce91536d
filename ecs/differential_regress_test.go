package ecs_test

// Regression tests for bugs the differential harness found, each a small
// reproduction that returns a description of the bug, or "".

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// diffStaleInitRepro returns a description of the bug, or "". The bug: a
// pointer-free component of a despawned entity stayed in its table row
// (removeRow zeroed only pointer-holding columns), and SpawnBatchFunc,
// outside an iteration, handed that row to init as it was, while its
// documentation (and the same call inside an iteration) starts each entity
// "with zero components of these types".
func diffStaleInitRepro() string {
	w := ecs.NewWorld()
	m := ecs.NewMap2[diffPos, diffVel](w)
	w.Despawn(m.Spawn(diffPos{1, 2}, diffVel{3, 4}))
	var got string
	m.SpawnBatchFunc(1, func(_ ecs.Entity, p *diffPos, v *diffVel) {
		if *p != (diffPos{}) || *v != (diffVel{}) {
			got = fmt.Sprintf("init got %+v, %+v; want zero values", *p, *v)
		}
	})
	return got
}

// diffNextAfterCloseRepro returns a description of the bug, or "". The bug:
// Close did not reset the cursor's row count, so Next kept returning true for
// the rest of the current table, with the world's iteration lock already
// released.
func diffNextAfterCloseRepro() string {
	w := ecs.NewWorld()
	m := ecs.NewMap[diffPos](w)
	m.Add(w.Spawn(), diffPos{})
	m.Add(w.Spawn(), diffPos{})
	it := ecs.NewQuery1[diffPos](w).Iter()
	it.Next()
	it.Close()
	if it.Next() {
		return fmt.Sprintf("Next returned true after Close (IsIterating %v)", w.IsIterating())
	}
	return ""
}

// diffMapRemoveSettleRepro returns a description of the bug, or "". The
// bug: a MapN.Remove of several types, one with an OnRemove hook, settles
// observer membership after each type it removes instead of once when the
// operation is complete, so a query the entity matches only between the two
// removals sees it enter and leave.
func diffMapRemoveSettleRepro() string {
	w := ecs.NewWorld()
	ecs.OnRemove(w, func(ecs.Entity, *diffName) {})
	m := ecs.NewMap2[diffName, diffRef](w)
	e := m.Spawn(diffName{}, diffRef{})
	var got []string
	q := ecs.NewQuery1[diffRef](w, ecs.Without(ecs.C[diffName]()))
	q.OnEnter(func(ecs.Entity) { got = append(got, "enter") })
	q.OnLeave(func(ecs.Entity) { got = append(got, "leave") })
	m.Remove(e)
	if len(got) != 0 {
		return fmt.Sprintf("Map2[Name,Ref].Remove fired %v on Query1[Ref] Without(Name); want nothing", got)
	}
	return ""
}

func TestMapRemoveSettlesOnce(t *testing.T) {
	if msg := diffMapRemoveSettleRepro(); msg != "" {
		t.Error(msg)
	}
}

func TestSpawnBatchFuncInitStartsFromZero(t *testing.T) {
	if msg := diffStaleInitRepro(); msg != "" {
		t.Error(msg)
	}
}

func TestCursorNextAfterCloseIsFalse(t *testing.T) {
	if msg := diffNextAfterCloseRepro(); msg != "" {
		t.Error(msg)
	}
}
