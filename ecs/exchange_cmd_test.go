package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// ExchangeCmd records an Exchange applied as one move, on live and pending
// entities, and its hooks see what Exchange's hooks see.
func TestExchangeCmd(t *testing.T) {
	w := ecs.NewWorld()
	idle, walk := ecs.NewMap[exIdle](w), ecs.NewMap[exWalk](w)
	var log []string
	ecs.OnRemove(w, func(e ecs.Entity, v *exIdle) {
		log = append(log, fmt.Sprintf("remove idle walk=%v", walk.Has(e)))
	})
	ecs.OnAdd(w, func(e ecs.Entity, v *exWalk) {
		log = append(log, fmt.Sprintf("add walk %d idle=%v", v.Speed, idle.Has(e)))
	})
	wf := ecs.NewMap2[exWalk, exFacing](w)
	fromIdle := ecs.NewTypeSet(w, ecs.C[exIdle]())
	live := idle.Spawn(exIdle{})
	c := w.NewCommands()
	wf.ExchangeCmd(c, live, fromIdle, exWalk{Speed: 2}, exFacing{Dir: 3})
	pending := idle.SpawnCmd(c, exIdle{})
	walk.ExchangeCmd(c, pending, fromIdle, exWalk{Speed: 4})
	if c.Len() != 3 {
		t.Fatalf("Len = %d, want 3", c.Len())
	}
	if len(log) != 0 || walk.Has(live) {
		t.Fatal("a recorded exchange applied before Apply")
	}
	w.Apply(c)
	want := []string{"remove idle walk=false", "add walk 2 idle=false", "remove idle walk=false", "add walk 4 idle=false"}
	if !slices.Equal(log, want) {
		t.Fatalf("hooks saw %q, want %q", log, want)
	}
	p, _ := c.Resolve(pending)
	if idle.Has(live) || idle.Has(p) || walk.Get(live).Speed != 2 || walk.Get(p).Speed != 4 || !wf.Has(live) {
		t.Fatal("after Apply: wrong components")
	}
	testhelp.MustPanic(t, func() { wf.ExchangeCmd(c, live, ecs.NewTypeSet(w, ecs.C[exWalk]()), exWalk{}, exFacing{}) }, "ExchangeCmd", "is both removed")
	testhelp.MustPanic(t, func() { wf.ExchangeCmd(c, live, nil, exWalk{}, exFacing{}) }, "ExchangeCmd", "nil or belongs to another world")
	testhelp.MustPanic(t, func() { wf.ExchangeCmd(ecs.NewWorld().NewCommands(), live, fromIdle, exWalk{}, exFacing{}) }, "another world")
	if c.Len() != 0 {
		t.Fatal("a refused ExchangeCmd was recorded")
	}
}
