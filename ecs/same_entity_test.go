package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Regression tests for deferred changes to one entity inside one loop,
// judged against the changes queued before them (the table in the package
// documentation), in both storages.

type Health struct{ V int }

// eachStorage runs f once with Health in tables and once sparse.
func eachStorage(t *testing.T, f func(t *testing.T, w *ecs.World, hp *ecs.Map[Health])) {
	for _, sparse := range []bool{false, true} {
		name := "table"
		if sparse {
			name = "sparse"
		}
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			if sparse {
				ecs.Register[Health](w, ecs.Sparse())
			}
			f(t, w, ecs.NewMap[Health](w))
		})
	}
}

func wantHealth(t *testing.T, hp *ecs.Map[Health], e ecs.Entity, want int) {
	t.Helper()
	h, ok := hp.TryGet(e)
	switch {
	case want < 0 && ok:
		t.Fatalf("entity %v has Health %v; want none", e, *h)
	case want >= 0 && !ok:
		t.Fatalf("entity %v has no Health; want %d", e, want)
	case want >= 0 && h.V != want:
		t.Fatalf("entity %v has Health %d; want %d", e, h.V, want)
	}
}

func TestRemoveThenAddInLoopKeepsTheNewValue(t *testing.T) {
	eachStorage(t, func(t *testing.T, w *ecs.World, hp *ecs.Map[Health]) {
		e := hp.Spawn(Health{1})
		q := ecs.NewQuery1[Health](w)
		for range q.All() {
			hp.Remove(e)
			hp.Add(e, Health{2})
		}
		wantHealth(t, hp, e, 2)
		for range q.All() {
			hp.Remove(e)
			hp.Set(e, Health{3}) // used to write at once, then lose to the Remove
			if hp.Get(e).V != 2 {
				t.Fatal("Set after a queued Remove wrote at once")
			}
		}
		wantHealth(t, hp, e, 3)
		it := q.Iter()
		for it.Next() {
			// Present, nothing queued: a duplicate, refused at once.
			testhelp.MustPanic(t, func() { hp.Add(e, Health{9}) }, "already has", "use Set")
		}
		it.Close()
		wantHealth(t, hp, e, 3)
	})
}

func TestAddAfterQueuedAddIsADuplicate(t *testing.T) {
	eachStorage(t, func(t *testing.T, w *ecs.World, hp *ecs.Map[Health]) {
		e := w.Spawn()
		hp.Spawn(Health{})
		for range ecs.NewQuery1[Health](w).All() {
			hp.Add(e, Health{1})
			testhelp.MustPanic(t, func() { hp.Add(e, Health{2}) }, "Add[ecs_test.Health]", e.String(), "already has", "queued", "use Set")
			hp.Set(e, Health{3}) // overwrites the queued value when applied
		}
		wantHealth(t, hp, e, 3)
	})
}

func TestAddThenRemoveInLoopLeavesNothing(t *testing.T) {
	eachStorage(t, func(t *testing.T, w *ecs.World, hp *ecs.Map[Health]) {
		e := w.Spawn()
		hp.Spawn(Health{})
		for range ecs.NewQuery1[Health](w).All() {
			hp.Set(e, Health{1})
			hp.Remove(e)
		}
		wantHealth(t, hp, e, -1)
	})
}

func TestChangesAfterQueuedDespawnAreDropped(t *testing.T) {
	eachStorage(t, func(t *testing.T, w *ecs.World, hp *ecs.Map[Health]) {
		e := hp.Spawn(Health{1})
		n := w.Len()
		for range ecs.NewQuery1[Health](w).All() {
			w.Despawn(e)
			hp.Add(e, Health{2}) // has Health now, but the despawn comes first
			hp.Set(e, Health{3})
			w.Despawn(e)
		}
		if w.Alive(e) || w.Len() != n-1 {
			t.Fatalf("Alive %v, Len %d; want despawned", w.Alive(e), w.Len())
		}
	})
}

func TestBatchQueuedMakesAddAnOverwrite(t *testing.T) {
	eachStorage(t, func(t *testing.T, w *ecs.World, hp *ecs.Map[Health]) {
		e := w.Spawn()
		q := ecs.NewQuery1[Health](w)
		hp.Spawn(Health{})
		for range q.All() {
			hp.AddMatching(q, Health{7}) // selects its entities when applied
			hp.Add(e, Health{8})         // not judged a duplicate: the batch may or may not reach e
		}
		wantHealth(t, hp, e, 8)
	})
}

func TestMapNAddAfterQueuedRemove(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[Velocity](w, ecs.Sparse())
	pv := ecs.NewMap2[Position, Velocity](w)
	e := pv.Spawn(Position{1, 1}, Velocity{1, 1})
	for range ecs.NewQuery1[Position](w).All() {
		pv.Remove(e)
		pv.Add(e, Position{2, 2}, Velocity{2, 2})
		testhelp.MustPanic(t, func() { pv.Add(e, Position{}, Velocity{}) }, "Add[ecs_test.Position]", "already has")
	}
	p, v := pv.Get(e)
	if *p != (Position{2, 2}) || *v != (Velocity{2, 2}) {
		t.Fatalf("Map2 remove then add: %v %v", *p, *v)
	}
}

func TestHookChangesAreJudgedAfterTheQueue(t *testing.T) {
	// A hook that reacts to an add while a despawn of the same entity is
	// queued behind it: its change is dropped with the entity, no panic.
	w := ecs.NewWorld()
	hp := ecs.NewMap[Health](w)
	pos := ecs.NewMap[Position](w)
	ecs.OnAdd(w, func(e ecs.Entity, _ *Health) { pos.Set(e, Position{1, 1}) })
	e := w.Spawn()
	anchor := hp.Spawn(Health{})
	for range ecs.NewQuery1[Health](w).All() {
		hp.Add(e, Health{1})
		w.Despawn(e)
	}
	if w.Alive(e) || !w.Alive(anchor) || !pos.Has(anchor) {
		t.Fatalf("Alive(e) %v, Alive(anchor) %v, anchor has Position %v", w.Alive(e), w.Alive(anchor), pos.Has(anchor))
	}
}
