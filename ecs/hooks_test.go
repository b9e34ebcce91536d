package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// hookLog records hook calls as "kind:value" strings.
type hookLog []string

func (l *hookLog) take() []string {
	out := *l
	*l = nil
	return out
}

func TestHooksFireOnEveryPath(t *testing.T) {
	for storage, newWorld := range storages {
		t.Run(storage, func(t *testing.T) {
			w := newWorld()
			var log hookLog
			ecs.OnAdd(w, func(e ecs.Entity, v *Velocity) { log = append(log, fmt.Sprint("add:", v.X)) })
			ecs.OnSet(w, func(e ecs.Entity, v *Velocity) { log = append(log, fmt.Sprint("set:", v.X)) })
			ecs.OnRemove(w, func(e ecs.Entity, v *Velocity) { log = append(log, fmt.Sprint("remove:", v.X)) })
			vel := ecs.NewMap[Velocity](w)
			pv := ecs.NewMap2[Position, Velocity](w)
			check := func(what string, want ...string) {
				t.Helper()
				if got := log.take(); !slices.Equal(got, want) {
					t.Fatalf("%s: hooks %v, want %v", what, got, want)
				}
			}
			e := w.Spawn()
			vel.Add(e, Velocity{1, 0})
			check("Add", "add:1")
			vel.Set(e, Velocity{2, 0})
			check("Set overwrite", "set:2")
			vel.Remove(e)
			check("Remove", "remove:2")
			vel.Remove(e)
			check("Remove of an absent component")
			vel.Set(e, Velocity{3, 0})
			check("Set that adds", "add:3")
			w.Despawn(e)
			check("Despawn", "remove:3")
			f := vel.Spawn(Velocity{4, 0})
			check("Map.Spawn", "add:4")
			g := pv.Spawn(Position{}, Velocity{5, 0})
			check("Map2.Spawn", "add:5")
			pv.Remove(g)
			check("Map2.Remove", "remove:5")
			pv.Add(g, Position{}, Velocity{6, 0})
			check("Map2.Add", "add:6")
			pv.SpawnBatch(2, Position{}, Velocity{7, 0})
			check("SpawnBatch", "add:7", "add:7")
			pv.SpawnBatchFunc(1, func(_ ecs.Entity, _ *Position, v *Velocity) { v.X = 8 })
			check("SpawnBatchFunc", "add:8")
			q := ecs.NewQuery1[Velocity](w)
			for r := range q.All() {
				if r.Entity == f {
					vel.Remove(f)
				}
			}
			check("deferred remove", "remove:4")
			for range q.All() {
				vel.Set(f, Velocity{9, 0}) // f lacks one: a deferred add
				break
			}
			check("deferred add", "add:9")
			pos := ecs.NewQuery1[Position](w)
			vel.AddMatching(pos, Velocity{10, 0})
			check("AddMatching overwrite", "set:10", "set:10", "set:10", "set:10")
			vel.RemoveMatching(pos)
			check("RemoveMatching", "remove:10", "remove:10", "remove:10", "remove:10")
			vel.AddMatching(pos, Velocity{11, 0})
			check("AddMatching add", "add:11", "add:11", "add:11", "add:11")
			w.DespawnMatching(pos)
			check("DespawnMatching", "remove:11", "remove:11", "remove:11", "remove:11")
		})
	}
}

func TestHooksRunInRegistrationOrder(t *testing.T) {
	w := ecs.NewWorld()
	var log []int
	for i := range 3 {
		ecs.OnAdd(w, func(ecs.Entity, *Mass) { log = append(log, i) })
	}
	ecs.NewMap[Mass](w).Spawn(Mass{})
	if !slices.Equal(log, []int{0, 1, 2}) {
		t.Fatalf("order %v", log)
	}
}

func TestHookStructuralChangesAreDeferred(t *testing.T) {
	for storage, newWorld := range storages {
		t.Run(storage, func(t *testing.T) {
			w := newWorld()
			vel := ecs.NewMap[Velocity](w)
			red := ecs.NewMap[Red](w)
			ecs.OnAdd(w, func(e ecs.Entity, v *Velocity) {
				if !w.IsIterating() || !vel.Has(e) {
					t.Fatal("hook ran with changes immediate, or before the add")
				}
				red.Add(e, Red{})
				if red.Has(e) {
					t.Fatal("an add made in a hook was not deferred")
				}
			})
			// Removing Velocity fires a hook that itself records an add on
			// another entity; inside a flush these must apply exactly once
			// (a second Add would panic).
			other := w.Spawn()
			ecs.OnRemove(w, func(e ecs.Entity, v *Velocity) {
				if vel.Get(e) != v {
					t.Fatal("OnRemove value is not the entity's")
				}
				ecs.NewMap[Mass](w).Set(other, Mass{ecs.NewMap[Mass](w).Get(other).V + v.X})
			})
			ecs.NewMap[Mass](w).Add(other, Mass{})
			for i := range 3 {
				e := vel.Spawn(Velocity{float64(i + 1), 0})
				if !red.Has(e) {
					t.Fatal("hook's deferred add not applied after Spawn")
				}
			}
			q := ecs.NewQuery1[Velocity](w)
			for r := range q.All() {
				vel.Remove(r.Entity)
			}
			if got := ecs.NewMap[Mass](w).Get(other).V; got != 6 {
				t.Fatalf("hooks during a flush applied %v, want 1+2+3", got)
			}
		})
	}
}
