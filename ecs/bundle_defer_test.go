package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type (
	bundleA struct{ V int }
	bundleB struct{ V int }
	bundleT struct{}
)

// A MapN change is one table move on every path: inside a loop it is
// queued as one change, and its hooks see the entity as outside a loop.
func TestMap2ChangesInsideALoopAreOneMove(t *testing.T) {
	for _, path := range []string{"direct", "loop", "command buffer"} {
		t.Run(path, func(t *testing.T) {
			w := ecs.NewWorld()
			a, b := ecs.NewMap[bundleA](w), ecs.NewMap[bundleB](w)
			var addSaw, removeSaw []bool
			ecs.OnAdd(w, func(e ecs.Entity, _ *bundleA) { addSaw = append(addSaw, b.Has(e)) })
			ecs.OnRemove(w, func(e ecs.Entity, _ *bundleB) { removeSaw = append(removeSaw, a.Has(e)) })
			ab, tm := ecs.NewMap2[bundleA, bundleB](w), ecs.NewMap[bundleT](w)
			e := tm.Spawn(bundleT{})
			c := w.NewCommands()
			run := func(f func(), cmd func()) {
				switch path {
				case "direct":
					f()
				case "loop":
					for range ecs.NewQuery1[bundleT](w).All() {
						f()
						if n := w.Pending(); n != 1 {
							t.Fatalf("a Map2 change inside a loop queued %d changes, want 1", n)
						}
					}
				default:
					cmd()
					w.Apply(c)
				}
			}
			run(func() { ab.Add(e, bundleA{1}, bundleB{2}) }, func() { ab.SetCmd(c, e, bundleA{1}, bundleB{2}) })
			if len(addSaw) != 1 || !addSaw[0] {
				t.Fatalf("OnAdd[A] saw B: %v, want [true]", addSaw)
			}
			if x, y := ab.Get(e); x.V != 1 || y.V != 2 {
				t.Fatalf("after Add: %v %v", *x, *y)
			}
			run(func() { ab.Remove(e) }, func() { ab.RemoveCmd(c, e) })
			if len(removeSaw) != 1 || !removeSaw[0] {
				t.Fatalf("OnRemove[B] saw A: %v, want [true]", removeSaw)
			}
			if a.Has(e) || b.Has(e) || !tm.Has(e) {
				t.Fatal("after Remove the entity must keep T alone")
			}
			addSaw = nil
			var s ecs.Entity
			run(func() { s = ab.Spawn(bundleA{3}, bundleB{4}) }, func() { s = ab.SpawnCmd(c, bundleA{3}, bundleB{4}) })
			if path == "command buffer" {
				s, _ = c.Resolve(s)
			}
			if len(addSaw) != 1 || !addSaw[0] || !ab.Has(s) {
				t.Fatalf("OnAdd[A] of a spawn saw B: %v, want [true]", addSaw)
			}
		})
	}
}
