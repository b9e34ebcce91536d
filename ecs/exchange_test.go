package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type (
	exIdle   struct{ Since int }
	exWalk   struct{ Speed int }
	exFacing struct{ Dir int }
	exTag    struct{}
)

// Exchange removes and adds in one move, outside a loop and inside one,
// with table and sparse storage: OnRemove sees the entity before, OnAdd
// after, never in between.
func TestExchangeIsOneMove(t *testing.T) {
	for _, storage := range []string{"table", "sparse"} {
		for _, inLoop := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/loop=%v", storage, inLoop), func(t *testing.T) {
				w := ecs.NewWorld()
				if storage == "sparse" {
					ecs.Register[exIdle](w, ecs.Sparse())
					ecs.Register[exFacing](w, ecs.Sparse())
				}
				idle, walk, facing := ecs.NewMap[exIdle](w), ecs.NewMap[exWalk](w), ecs.NewMap[exFacing](w)
				var log []string
				ecs.OnRemove(w, func(e ecs.Entity, v *exIdle) {
					log = append(log, fmt.Sprintf("remove idle %d walk=%v", v.Since, walk.Has(e)))
				})
				ecs.OnAdd(w, func(e ecs.Entity, v *exWalk) {
					log = append(log, fmt.Sprintf("add walk %d idle=%v facing=%v", v.Speed, idle.Has(e), facing.Has(e)))
				})
				ecs.OnAdd(w, func(e ecs.Entity, v *exFacing) {
					log = append(log, fmt.Sprintf("add facing %d walk=%v", v.Dir, walk.Has(e)))
				})
				wf := ecs.NewMap2[exWalk, exFacing](w)
				fromIdle := ecs.NewTypeSet(w, ecs.C[exIdle]())
				e := ecs.NewMap2[exIdle, exTag](w).Spawn(exIdle{Since: 3}, exTag{})
				do := func() { wf.Exchange(e, fromIdle, exWalk{Speed: 5}, exFacing{Dir: 1}) }
				if inLoop {
					for range ecs.NewQuery1[exTag](w).All() {
						do()
						if n := w.Pending(); n != 1 {
							t.Fatalf("Exchange inside a loop queued %d changes, want 1", n)
						}
						if !idle.Has(e) || walk.Has(e) {
							t.Fatal("Exchange inside a loop took effect before the loop ended")
						}
					}
				} else {
					do()
				}
				want := []string{"remove idle 3 walk=false", "add walk 5 idle=false facing=true", "add facing 1 walk=true"}
				if !slices.Equal(log, want) {
					t.Fatalf("hooks saw %q, want %q", log, want)
				}
				if idle.Has(e) || walk.Get(e).Speed != 5 || facing.Get(e).Dir != 1 || !ecs.NewMap[exTag](w).Has(e) {
					t.Fatal("after Exchange: wrong components")
				}
				// Back, with Map's one-type form; removing a type e lacks is fine.
				log = nil
				toIdle := ecs.NewTypeSet(w, ecs.C[exWalk](), ecs.C[exFacing](), ecs.C[int]())
				idle.Exchange(e, toIdle, exIdle{Since: 9})
				if walk.Has(e) || facing.Has(e) || idle.Get(e).Since != 9 {
					t.Fatal("after Map.Exchange: wrong components")
				}
			})
		}
	}
}

func TestExchangePanics(t *testing.T) {
	w := ecs.NewWorld()
	wf := ecs.NewMap2[exWalk, exFacing](w)
	fromIdle := ecs.NewTypeSet(w, ecs.C[exIdle]())
	e := wf.Spawn(exWalk{}, exFacing{})
	testhelp.MustPanic(t, func() { wf.Exchange(e, fromIdle, exWalk{}, exFacing{}) }, "Map2[ecs_test.exWalk,ecs_test.exFacing].Exchange", "already has", e.String())
	testhelp.MustPanic(t, func() { wf.Exchange(e, ecs.NewTypeSet(w, ecs.C[exWalk]()), exWalk{}, exFacing{}) }, "is both removed")
	testhelp.MustPanic(t, func() { wf.Exchange(e, nil, exWalk{}, exFacing{}) }, "nil or belongs to another world")
	testhelp.MustPanic(t, func() { wf.Exchange(e, ecs.NewTypeSet(ecs.NewWorld(), ecs.C[exIdle]()), exWalk{}, exFacing{}) }, "another world")
	dead := w.Spawn()
	w.Despawn(dead)
	testhelp.MustPanic(t, func() { wf.Exchange(dead, fromIdle, exWalk{}, exFacing{}) }, dead.String())
	testhelp.MustPanic(t, func() { ecs.NewTypeSet(w, ecs.C[exIdle](), ecs.C[exIdle]()) }, "listed twice")
	testhelp.MustPanic(t, func() { ecs.NewTypeSet(w, ecs.ComponentType{}) }, "zero ComponentType")
	// Inside a loop, judged as Add against the queued state.
	x := ecs.NewMap[exTag](w).Spawn(exTag{})
	for range ecs.NewQuery1[exTag](w).All() {
		wf.Set(x, exWalk{}, exFacing{})
		testhelp.MustPanic(t, func() { wf.Exchange(x, fromIdle, exWalk{}, exFacing{}) }, "already has")
	}
	if n := w.Pending(); n != 0 {
		t.Fatalf("%d changes left queued", n)
	}
	if !wf.Has(x) || !wf.Has(e) {
		t.Fatal("a refused Exchange changed an entity")
	}
}

// ExampleMap2_Exchange changes an entity's state in one table move.
func ExampleMap2_Exchange() {
	type Idle struct{}
	type Walking struct{ Speed float32 }
	type Heading struct{ Deg float32 }
	w := ecs.NewWorld()
	startWalking := ecs.NewTypeSet(w, ecs.C[Idle]()) // made once, reused
	walk := ecs.NewMap2[Walking, Heading](w)
	e := ecs.NewMap[Idle](w).Spawn(Idle{})
	walk.Exchange(e, startWalking, Walking{Speed: 1.5}, Heading{Deg: 90})
	s, h := walk.Get(e)
	fmt.Println(ecs.NewMap[Idle](w).Has(e), s.Speed, h.Deg)
	// Output: false 1.5 90
}
