package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TryAdd agrees with Add in every queued state: it returns false exactly
// when Add would panic, and otherwise does what Add does.
func TestTryAddAgreesWithAdd(t *testing.T) {
	type setup func(w *ecs.World, a *ecs.Map[bundleA], b *ecs.Map[bundleB], e ecs.Entity)
	states := []struct {
		name  string
		setup setup // runs inside the loop, before the Add
		want  bool  // whether an Add of B is accepted
	}{
		{"nothing queued, lacks B", func(*ecs.World, *ecs.Map[bundleA], *ecs.Map[bundleB], ecs.Entity) {}, true},
		{"nothing queued, has B", func(_ *ecs.World, _ *ecs.Map[bundleA], b *ecs.Map[bundleB], e ecs.Entity) { b.Set(e, bundleB{9}) }, false},
		{"Set of B queued", func(w *ecs.World, _ *ecs.Map[bundleA], b *ecs.Map[bundleB], e ecs.Entity) {
			b.Set(e, bundleB{9})
		}, false},
		{"Remove of B queued", func(_ *ecs.World, _ *ecs.Map[bundleA], b *ecs.Map[bundleB], e ecs.Entity) { b.Remove(e) }, true},
		{"Despawn queued", func(w *ecs.World, _ *ecs.Map[bundleA], _ *ecs.Map[bundleB], e ecs.Entity) { w.Despawn(e) }, true},
		{"batch over B queued", func(w *ecs.World, _ *ecs.Map[bundleA], b *ecs.Map[bundleB], _ ecs.Entity) {
			b.AddMatching(ecs.NewQuery1[bundleT](w), bundleB{8})
		}, true},
	}
	for _, st := range states {
		for _, handle := range []string{"Map", "Map2"} {
			t.Run(st.name+"/"+handle, func(t *testing.T) {
				for _, try := range []bool{false, true} {
					w := ecs.NewWorld()
					a, b := ecs.NewMap[bundleA](w), ecs.NewMap[bundleB](w)
					ab := ecs.NewMap2[bundleA, bundleB](w)
					e := ecs.NewMap[bundleT](w).Spawn(bundleT{})
					if st.name == "nothing queued, has B" {
						st.setup(w, a, b, e) // before the loop: B is there, nothing queued
					}
					add := func() bool {
						if handle == "Map" {
							if try {
								return b.TryAdd(e, bundleB{1})
							}
							b.Add(e, bundleB{1})
							return true
						}
						if try {
							return ab.TryAdd(e, bundleA{1}, bundleB{1})
						}
						ab.Add(e, bundleA{1}, bundleB{1})
						return true
					}
					for range ecs.NewQuery1[bundleT](w).All() {
						if st.name != "nothing queued, has B" {
							st.setup(w, a, b, e)
						}
						if !try {
							if st.want {
								add()
							} else {
								testhelp.MustPanic(t, func() { add() }, "already has")
							}
							continue
						}
						if got := add(); got != st.want {
							t.Fatalf("TryAdd returned %v, want %v (Add panics: %v)", got, st.want, !st.want)
						}
					}
					if try && !st.want && w.Alive(e) {
						if v, ok := b.TryGet(e); ok && v.V == 1 {
							t.Fatal("a refused TryAdd wrote its value")
						}
					}
				}
			})
		}
	}
}

// The guard of the issue that motivated TryAdd: with a Set of B queued,
// Has answers for the current state (no B yet), so a Has guard does not
// protect Add; TryAdd does.
func TestTryAddGuardsAddInsideALoop(t *testing.T) {
	w := ecs.NewWorld()
	a, b := ecs.NewMap[bundleA](w), ecs.NewMap[bundleB](w)
	ab := ecs.NewMap2[bundleA, bundleB](w)
	e := ecs.NewMap[bundleT](w).Spawn(bundleT{})
	for range ecs.NewQuery1[bundleT](w).All() {
		b.Set(e, bundleB{7})
		if a.Has(e) || b.Has(e) {
			t.Fatal("Has must answer for the current state inside a loop")
		}
		if ab.TryAdd(e, bundleA{1}, bundleB{2}) {
			t.Fatal("TryAdd accepted an Add that a queued Set makes a duplicate")
		}
		testhelp.MustPanic(t, func() { ab.Add(e, bundleA{1}, bundleB{2}) }, "already has")
	}
	if a.Has(e) || b.Get(e).V != 7 {
		t.Fatal("the queued Set must win and the refused Add change nothing")
	}
	if !ab.TryAdd(w.Spawn(), bundleA{1}, bundleB{2}) || ab.TryAdd(ecs.Entity{}, bundleA{}, bundleB{}) {
		t.Fatal("TryAdd outside a loop: true for a bare entity, false for a dead one")
	}
}
