package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TestHierarchySetParentCmd: parent changes recorded in a buffer apply in
// order at World.Apply, with pending entities as children and as parents,
// reparenting and detaching as SetParent and RemoveParent do.
func TestHierarchySetParentCmd(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	pos := ecs.NewMap[Position](w)
	root, x, y, z := w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn()
	h.SetParent(y, root)
	h.SetParent(z, root)

	c := w.NewCommands()
	a := c.Spawn()
	b := pos.SpawnCmd(c, Position{1, 0})
	h.SetParentCmd(c, a, root) // pending child, live parent
	h.SetParentCmd(c, b, a)    // pending child, pending parent
	h.SetParentCmd(c, x, b)    // live child, pending parent
	h.SetParentCmd(c, y, a)    // reparented from root
	h.RemoveParentCmd(c, z)
	if got := h.Children(root); !slices.Equal(got, []ecs.Entity{y, z}) {
		t.Fatalf("recording changed the tree: root's children %v", got)
	}
	w.Apply(c)
	ra, _ := c.Resolve(a)
	rb, _ := c.Resolve(b)
	for _, tc := range []struct {
		parent ecs.Entity
		want   []ecs.Entity
	}{{root, []ecs.Entity{ra}}, {ra, []ecs.Entity{rb, y}}, {rb, []ecs.Entity{x}}, {z, nil}} {
		if got := h.Children(tc.parent); !slices.Equal(got, tc.want) {
			t.Errorf("children of %v: %v, want %v", tc.parent, got, tc.want)
		}
	}
	if p, ok := h.Parent(z); ok {
		t.Errorf("z kept the parent %v", p)
	}
	if h.Depth(x) != 3 || h.Root(x) != root {
		t.Errorf("x: depth %d, root %v", h.Depth(x), h.Root(x))
	}

	// An entity dead by the Apply: the change does nothing.
	doomed := w.Spawn()
	h.SetParentCmd(c, doomed, root)
	h.SetParentCmd(c, x, doomed)
	w.Despawn(doomed)
	w.Apply(c)
	if p, _ := h.Parent(x); p != rb || h.NumChildren(root) != 1 {
		t.Fatalf("x's parent %v, want %v; root has %d children", p, rb, h.NumChildren(root))
	}

	testhelp.MustPanic(t, func() { h.SetParentCmd(c, doomed, root) }, doomed.String(), "not alive")
	testhelp.MustPanic(t, func() { h.SetParentCmd(c, x, ecs.Entity{}) }, "SetCmd (target)")
	testhelp.MustPanic(t, func() { h.RemoveParentCmd(c, doomed) }, "RemoveTargetsCmd", doomed.String(), "not alive")
	testhelp.MustPanic(t, func() { h.SetParentCmd(ecs.NewWorld().NewCommands(), x, root) }, "another world")
	if c.Len() != 0 {
		t.Fatalf("refused changes were recorded: %d", c.Len())
	}
}

// TestHierarchySetParentCmdCycles: an entity made its own parent is
// refused when recorded; a cycle that depends on the tree is judged at
// Apply, where it panics as SetParent does and the rest of the buffer is
// dropped, leaving the world usable.
func TestHierarchySetParentCmdCycles(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	pos := ecs.NewMap[Position](w)
	a, b := w.Spawn(), w.Spawn()
	h.SetParent(b, a)
	c := w.NewCommands()
	p := c.Spawn()
	testhelp.MustPanic(t, func() { h.SetParentCmd(c, a, a) },
		"ecs: Hierarchy.SetParentCmd: making "+a.String()+" its own parent would close a cycle")
	testhelp.MustPanic(t, func() { h.SetParentCmd(c, p, p) }, "making pending1 its own parent")
	if c.Len() != 1 {
		t.Fatalf("%d changes recorded, want the spawn alone", c.Len())
	}

	// Not a cycle once the changes before it apply: a record-time check
	// on today's tree would refuse it.
	h.RemoveParentCmd(c, b)
	h.SetParentCmd(c, a, b)
	w.Apply(c)
	if pa, _ := h.Parent(a); pa != b || h.NumChildren(a) != 0 {
		t.Fatalf("a's parent %v, want %v; a has %d children", pa, b, h.NumChildren(a))
	}

	// A cycle of pending entities, and one through live entities.
	for _, tc := range []struct {
		name   string
		record func(c *ecs.Commands) []string
	}{
		{"pending", func(c *ecs.Commands) []string {
			p1, p2 := c.Spawn(), c.Spawn()
			h.SetParentCmd(c, p1, p2)
			h.SetParentCmd(c, p2, p1)
			return []string{"would close a cycle"}
		}},
		{"live", func(c *ecs.Commands) []string {
			h.SetParentCmd(c, b, a) // a is b's child
			return []string{"would close a cycle", "making " + a.String() + " the target of " + b.String()}
		}},
	} {
		c := w.NewCommands()
		want := tc.record(c)
		after := c.Spawn()
		pos.SetCmd(c, after, Position{1, 1})
		testhelp.MustPanic(t, func() { w.Apply(c) }, want...)
		if c.Len() != 0 {
			t.Fatalf("%s: %d changes left in the buffer", tc.name, c.Len())
		}
		if e, ok := c.Resolve(after); ok && w.Alive(e) {
			t.Fatalf("%s: the spawn recorded after the cycle was applied", tc.name)
		}
		pa, _ := h.Parent(a)
		if pb, ok := h.Parent(b); pa != b || ok {
			t.Fatalf("%s: the refused change altered the tree: a's parent %v, b's %v", tc.name, pa, pb)
		}
		// The world goes on: a direct change and another buffer apply.
		e := w.Spawn()
		h.SetParent(e, a)
		c2 := w.NewCommands()
		q := c2.Spawn()
		h.SetParentCmd(c2, q, e)
		w.Apply(c2)
		rq, _ := c2.Resolve(q)
		if got := slices.Collect(h.Ancestors(rq)); !slices.Equal(got, []ecs.Entity{e, a, b}) {
			t.Fatalf("%s: after the refused Apply, ancestors %v", tc.name, got)
		}
	}
}

// A system that records into a buffer builds a tree of entities that do
// not exist yet: pending entities serve as children and as parents.
func ExampleHierarchy_SetParentCmd() {
	type Name string
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	names := ecs.NewMap[Name](w)
	world := names.Spawn("world")

	c := w.NewCommands()
	ship := names.SpawnCmd(c, "ship")
	gun := names.SpawnCmd(c, "gun")
	h.SetParentCmd(c, gun, ship)   // both pending
	h.SetParentCmd(c, ship, world) // a pending child of a live parent
	w.Apply(c)

	g, _ := c.Resolve(gun)
	for _, e := range slices.Collect(h.Ancestors(g)) {
		fmt.Print(*names.Get(e), " ")
	}
	fmt.Println(h.Depth(g))
	// Output:
	// ship world 2
}
