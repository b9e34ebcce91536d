package ecs_test

import (
	"fmt"
	"slices"
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
	s.pos.SetCmd(c, b, cpPos{X: 7}) // overrides b's hull position
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

// TestPrefabSpawnCmdNodes: every node of an instance recorded in a buffer
// is a pending entity; an override recorded on a child node lands on that
// child after the instance is filled. OnAdd hooks see the prefab's
// values, the override fires OnSet, and enter observers, settled after
// the whole buffer, see the final values.
func TestPrefabSpawnCmdNodes(t *testing.T) {
	s := newShip(t)
	p := ecs.NewPrefab(s.w, s.hull)
	s.w.Despawn(s.doomed) // as checkInstance expects
	t1, ok1 := p.Node(s.t1)
	radar, ok2 := p.Node(s.radar)
	if !ok1 || !ok2 {
		t.Fatal("template entities are not nodes")
	}
	var hooks []string
	ecs.OnAdd(s.w, func(e ecs.Entity, v *cpPos) { hooks = append(hooks, fmt.Sprint("add ", e, *v)) })
	ecs.OnSet(s.w, func(e ecs.Entity, v *cpPos) { hooks = append(hooks, fmt.Sprint("set ", e, *v)) })
	var entered []string
	ecs.NewQuery1[cpPos](s.w).OnEnter(func(e ecs.Entity) { entered = append(entered, fmt.Sprint(e, *s.pos.Get(e))) })

	c := s.w.NewCommands()
	nodes := p.SpawnCmdNodes(c, []ecs.Entity{s.outside}) // appends to what dst holds
	if len(nodes) != 1+p.Len() || nodes[0] != s.outside {
		t.Fatalf("SpawnCmdNodes returned %v, want %v and %d pending entities", nodes, s.outside, p.Len())
	}
	inst := nodes[1:]
	for i, e := range inst {
		if e.String() != fmt.Sprintf("pending%d", i+1) {
			t.Fatalf("node %d is %v, want pending%d (node order)", i, e, i+1)
		}
	}
	s.pos.SetCmd(c, inst[t1], cpPos{X: 42})            // overrides a child's value
	s.rare.SetCmd(c, inst[radar], cpRare{9})           // and a sparse one
	s.aim.SetCmd(c, inst[radar], cpAim{At: s.outside}) // a type the radar lacks
	s.h.SetParentCmd(c, inst[0], s.folder)             // the pending root as a child
	second := p.SpawnCmdNodes(c, nil)
	if second[0].String() != fmt.Sprintf("pending%d", p.Len()+1) {
		t.Fatalf("second instance's root %v: numbering does not follow", second[0])
	}
	s.w.Apply(c)

	ents := make([]ecs.Entity, len(inst))
	for i, e := range inst {
		ents[i], _ = c.Resolve(e)
	}
	if got := s.h.Children(ents[0]); !slices.Equal(got, ents[1:]) {
		t.Fatalf("instance root's children %v, want the resolved nodes %v", got, ents[1:])
	}
	if par, _ := s.h.Parent(ents[0]); par != s.folder {
		t.Fatalf("instance root's parent %v, want %v", par, s.folder)
	}
	if got := *s.pos.Get(ents[t1]); got != (cpPos{X: 42}) {
		t.Fatalf("overridden turret at %v, want {42 0}", got)
	}
	if s.rare.Get(ents[radar]).N != 9 || s.aim.Get(ents[radar]).At != s.outside {
		t.Fatalf("radar: rare %v, aim %v", *s.rare.Get(ents[radar]), *s.aim.Get(ents[radar]))
	}
	if s.aim.Get(ents[t1]).At != ents[radar] {
		t.Fatal("the override undid the prefab's pointing into the instance")
	}
	r2, _ := c.Resolve(second[0])
	s.checkInstance(t, r2, 0)

	want := []string{
		fmt.Sprint("add ", ents[0], cpPos{0, 0}), fmt.Sprint("add ", ents[1], cpPos{0, 1}),
		fmt.Sprint("add ", ents[2], cpPos{-1, 0}), fmt.Sprint("add ", ents[3], cpPos{1, 0}),
		fmt.Sprint("set ", ents[t1], cpPos{42, 0}),
	}
	if len(hooks) != 2*p.Len()+1 || !slices.Equal(hooks[:len(want)], want) {
		t.Fatalf("hooks %q\nwant %q then the second instance's adds", hooks, want)
	}
	if len(entered) != 2*p.Len() || !slices.Contains(entered, fmt.Sprint(ents[t1], cpPos{42, 0})) {
		t.Fatalf("observers saw %q: want every node once, the turret at its final {42 0}", entered)
	}

	other := ecs.NewWorld()
	testhelp.MustPanic(t, func() { p.SpawnCmdNodes(other.NewCommands(), nil) }, "Prefab.SpawnCmdNodes", "another world")
}

// TestPrefabSpawnCmdNodesDespawnedChild: a node despawned by a change
// recorded after the spawn goes after the instance is filled, alone (its
// parent stays), as a despawn of that child would.
func TestPrefabSpawnCmdNodesDespawnedChild(t *testing.T) {
	s := newShip(t)
	p := ecs.NewPrefab(s.w, s.hull)
	t2, _ := p.Node(s.t2)
	c := s.w.NewCommands()
	inst := p.SpawnCmdNodes(c, nil)
	c.Despawn(inst[t2])
	s.w.Apply(c)
	root, _ := c.Resolve(inst[0])
	gone, _ := c.Resolve(inst[t2])
	if s.w.Alive(gone) || !s.w.Alive(root) || s.h.NumChildren(root) != 2 {
		t.Fatalf("turret alive %v, root alive %v with %d children", s.w.Alive(gone), s.w.Alive(root), s.h.NumChildren(root))
	}
}
