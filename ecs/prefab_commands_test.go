package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TestPrefabSpawnCmd: instances recorded in a Commands buffer are filled
// when it is applied, with the prefab as it is then, and changes recorded
// after the spawn apply on top.
func TestPrefabSpawnCmd(t *testing.T) {
	s := newShip(t)
	p := ecs.NewPrefab(s.w, s.hull)
	s.w.Despawn(s.doomed)
	c := s.w.NewCommands()
	a := p.SpawnCmd(c)
	b := p.SpawnCmd(c)
	s.pos.AddCmd(c, b, cpPos{X: 7}) // overrides b's hull position
	gone := p.SpawnCmd(c)
	c.Despawn(gone) // the whole instance goes: the cascade takes the tree
	if s.w.Alive(a) {
		t.Fatal("a pending entity is alive before Apply")
	}
	*ecs.PrefabValue[cpPos](p, 0) = cpPos{X: 3} // before Apply: the instances see it
	before := s.w.Len()
	s.w.Apply(c)
	ra, ok1 := c.Resolve(a)
	rb, ok2 := c.Resolve(b)
	if !ok1 || !ok2 {
		t.Fatal("the roots do not resolve")
	}
	s.checkInstance(t, ra, 3)
	s.checkInstance(t, rb, 7)
	if got := s.w.Len() - before; got != 8 {
		t.Fatalf("%d entities more after Apply, want 8 (two instances of 4)", got)
	}
	if rg, _ := c.Resolve(gone); s.w.Alive(rg) {
		t.Fatal("the despawned instance's root lives")
	}

	other := ecs.NewWorld()
	testhelp.MustPanic(t, func() { p.SpawnCmd(other.NewCommands()) }, "another world")
}
