package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TestMapSpawnCmd: Map.SpawnCmd records one change that makes the entity
// with its value at Apply, in record order with the buffer's other
// changes; hooks fire as the changes apply and observers see the values
// the whole buffer left.
func TestMapSpawnCmd(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	a := w.Spawn()
	log := cmdHookLog(w)
	q := ecs.NewQuery1[Position](w)
	var entered []string
	q.OnEnter(func(e ecs.Entity) { entered = append(entered, fmt.Sprint(e, *pos.Get(e))) })

	c := w.NewCommands()
	p1 := pos.SpawnCmd(c, Position{1, 2})
	p2 := c.Spawn()
	p3 := pos.SpawnCmd(c, Position{3, 4})
	pos.SetCmd(c, p3, Position{5, 6}) // overrides the spawned value
	if p1.String() != "pending1" || p2.String() != "pending2" || p3.String() != "pending3" {
		t.Fatalf("pending entities %v %v %v", p1, p2, p3)
	}
	if c.Len() != 4 || w.Len() != 1 || q.Count() != 0 {
		t.Fatalf("Len %d, want 4 (one per SpawnCmd), or recording changed the world", c.Len())
	}
	w.Apply(c)

	var es []ecs.Entity
	for i, p := range []ecs.Entity{p1, p2, p3} {
		e, ok := c.Resolve(p)
		if !ok || !w.Alive(e) || e.Index() != a.Index()+uint32(i)+1 {
			t.Fatalf("Resolve(%v) = %v, %v (alive %v), want index %d: spawned in record order", p, e, ok, w.Alive(e), a.Index()+uint32(i)+1)
		}
		es = append(es, e)
	}
	if *pos.Get(es[0]) != (Position{1, 2}) || *pos.Get(es[2]) != (Position{5, 6}) || pos.Has(es[1]) {
		t.Fatalf("values %v %v, the plain spawn has one %v", *pos.Get(es[0]), *pos.Get(es[2]), pos.Has(es[1]))
	}
	e0, e2 := es[0].String(), es[2].String()
	if want := []string{"add Position " + e0, "add Position " + e2, "set Position " + e2}; !slices.Equal(*log, want) {
		t.Fatalf("hooks %q\nwant %q", *log, want)
	}
	if want := []string{e0 + " {1 2}", e2 + " {5 6}"}; !slices.Equal(entered, want) {
		t.Fatalf("entered %q, want %q (observers settle after the whole buffer)", entered, want)
	}
}

// TestMapSpawnCmdSparse: a sparse type's SpawnCmd puts the entity in the
// table of no type and its value in the type's set.
func TestMapSpawnCmdSparse(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[Burning](w, ecs.Sparse())
	burn := ecs.NewMap[Burning](w)
	pos := ecs.NewMap[Position](w)
	var added []Burning
	ecs.OnAdd(w, func(_ ecs.Entity, b *Burning) { added = append(added, *b) })
	q := ecs.NewQuery1[Burning](w)
	var entered []ecs.Entity
	q.OnEnter(func(e ecs.Entity) { entered = append(entered, e) })
	c := w.NewCommands()
	p := burn.SpawnCmd(c, Burning{7})
	pos.SetCmd(c, p, Position{1, 0})
	gone := burn.SpawnCmd(c, Burning{8})
	c.Despawn(gone)
	w.Apply(c)
	e, _ := c.Resolve(p)
	g, _ := c.Resolve(gone)
	if *burn.Get(e) != (Burning{7}) || *pos.Get(e) != (Position{1, 0}) {
		t.Fatalf("spawned %v with %v, %v", e, *burn.Get(e), *pos.Get(e))
	}
	if w.Alive(g) || q.Count() != 1 {
		t.Fatalf("the despawned spawn lives (%v), or %d entities have Burning", w.Alive(g), q.Count())
	}
	if !slices.Equal(added, []Burning{{7}, {8}}) || !slices.Equal(entered, []ecs.Entity{e}) {
		t.Fatalf("OnAdd saw %v, entered %v", added, entered)
	}
}

// TestMapSpawnCmdChecks: a buffer of another world is refused before
// anything is recorded, and the spawn and the type are reported to the
// access checker.
func TestMapSpawnCmdChecks(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	c := w.NewCommands()
	testhelp.MustPanic(t, func() { ecs.NewMap[Position](ecs.NewWorld()).SpawnCmd(c, Position{}) },
		"ecs: SpawnCmd[ecs_test.Position]: the Commands buffer belongs to another world")
	if c.Len() != 0 {
		t.Fatalf("the refused spawn was recorded: %d", c.Len())
	}
	var l accessLog
	w.Parallel().SetAccessChecker(&l)
	pos.SpawnCmd(c, Position{})
	w.Parallel().SetAccessChecker(nil)
	if want := []string{"SpawnCmd write spawn", "SpawnCmd Position write add"}; !slices.Equal(l.got, want) {
		t.Fatalf("checker saw %q\nwant %q", l.got, want)
	}
}

// TestMapSpawnCmdAllocs: recording and applying allocate nothing once the
// buffer and the table have grown.
func TestMapSpawnCmdAllocs(t *testing.T) {
	ecs.SkipAllocsUnderRelocate(t)
	w := ecs.NewWorld()
	ecs.Register[Burning](w, ecs.Sparse())
	pos, burn := ecs.NewMap[Position](w), ecs.NewMap[Burning](w)
	c := w.NewCommands()
	round := func() {
		p := pos.SpawnCmd(c, Position{1, 0})
		b := burn.SpawnCmd(c, Burning{2})
		c.Despawn(p)
		c.Despawn(b)
		w.Apply(c)
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Fatalf("%v allocations per record-and-apply round, want 0", n)
	}
	if w.Len() != 0 {
		t.Fatalf("%d entities left", w.Len())
	}
}

// Map.SpawnCmd records the spawn of an entity with one component; the
// entity is pending until the buffer is applied.
func ExampleMap_SpawnCmd() {
	type Position struct{ X, Y float64 }
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	c := w.NewCommands()

	p := pos.SpawnCmd(c, Position{1, 2})
	fmt.Println(p, w.Len())

	w.Apply(c)
	e, _ := c.Resolve(p)
	fmt.Println(e, *pos.Get(e))
	// Output:
	// pending1 0
	// 1v0 {1 2}
}
