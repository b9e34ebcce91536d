package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// cmdHookLog registers OnAdd, OnSet and OnRemove hooks on Position, Velocity
// and Mass that record "add Position 3v0" and the like.
func cmdHookLog(w *ecs.World) *[]string {
	var log []string
	rec := func(what string, e ecs.Entity) { log = append(log, what+" "+e.String()) }
	ecs.OnAdd(w, func(e ecs.Entity, _ *Position) { rec("add Position", e) })
	ecs.OnAdd(w, func(e ecs.Entity, _ *Velocity) { rec("add Velocity", e) })
	ecs.OnAdd(w, func(e ecs.Entity, _ *Mass) { rec("add Mass", e) })
	ecs.OnSet(w, func(e ecs.Entity, _ *Position) { rec("set Position", e) })
	ecs.OnSet(w, func(e ecs.Entity, _ *Velocity) { rec("set Velocity", e) })
	ecs.OnSet(w, func(e ecs.Entity, _ *Mass) { rec("set Mass", e) })
	ecs.OnRemove(w, func(e ecs.Entity, _ *Position) { rec("remove Position", e) })
	ecs.OnRemove(w, func(e ecs.Entity, _ *Velocity) { rec("remove Velocity", e) })
	ecs.OnRemove(w, func(e ecs.Entity, _ *Mass) { rec("remove Mass", e) })
	return &log
}

func TestMapNSpawnCmd(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pos := ecs.NewMap[Position](w)
	a := w.Spawn()
	log := cmdHookLog(w)
	q := ecs.NewQuery2[Position, Velocity](w)
	var entered []ecs.Entity
	q.OnEnter(func(e ecs.Entity) { entered = append(entered, e) })
	tables := len(w.Stats().Tables)

	c := w.NewCommands()
	p1 := pv.SpawnCmd(c, Position{1, 2}, Velocity{3, 4})
	p2 := c.Spawn()
	p3 := pv.SpawnCmd(c, Position{5, 6}, Velocity{7, 8})
	if p1.String() != "pending1" || p2.String() != "pending2" || p3.String() != "pending3" {
		t.Fatalf("pending entities %v %v %v", p1, p2, p3)
	}
	if c.Len() != 3 || w.Len() != 1 || q.Count() != 0 {
		t.Fatalf("recording changed the world, or Len %d != 3", c.Len())
	}
	if _, ok := c.Resolve(p1); ok {
		t.Fatal("Resolve before Apply succeeded")
	}
	w.Apply(c)

	var es []ecs.Entity
	for _, p := range []ecs.Entity{p1, p2, p3} {
		e, ok := c.Resolve(p)
		if !ok || !w.Alive(e) {
			t.Fatalf("Resolve(%v) = %v, %v (alive %v)", p, e, ok, w.Alive(e))
		}
		es = append(es, e)
	}
	// Spawned in the order recorded, after a.
	if es[0].Index() != a.Index()+1 || es[1].Index() != a.Index()+2 || es[2].Index() != a.Index()+3 {
		t.Fatalf("spawned %v after %v, want consecutive indices in record order", es, a)
	}
	if p, v := pv.Get(es[0]); *p != (Position{1, 2}) || *v != (Velocity{3, 4}) {
		t.Fatalf("%v has %v, %v", es[0], *p, *v)
	}
	if p, v := pv.Get(es[2]); *p != (Position{5, 6}) || *v != (Velocity{7, 8}) {
		t.Fatalf("%v has %v, %v", es[2], *p, *v)
	}
	if pv.Has(es[1]) || pos.Has(es[1]) {
		t.Fatal("the plain Spawn got components")
	}
	want := []string{"add Position " + es[0].String(), "add Velocity " + es[0].String(),
		"add Position " + es[2].String(), "add Velocity " + es[2].String()}
	if !slices.Equal(*log, want) {
		t.Fatalf("hooks %q\nwant %q", *log, want)
	}
	if !slices.Equal(entered, []ecs.Entity{es[0], es[2]}) {
		t.Fatalf("entered %v, want %v", entered, []ecs.Entity{es[0], es[2]})
	}
	// Made directly in the table of both types: no table of Position alone
	// on the way.
	if n := len(w.Stats().Tables); n != tables {
		t.Fatalf("%d tables after SpawnCmd, want %d (no intermediate table)", n, tables)
	}
}

func TestMapNSetCmd(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel, mass := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w), ecs.NewMap[Mass](w)
	pv := ecs.NewMap2[Position, Velocity](w)
	e := pos.Spawn(Position{9, 9})
	x := pos.Spawn(Position{})
	log := cmdHookLog(w)
	// When Position's hook runs, e has its new Velocity already: the types
	// arrive together, in one move, as with Map2.Add.
	var velAtHook []Velocity
	ecs.OnSet(w, func(e ecs.Entity, _ *Position) {
		v, _ := vel.TryGet(e)
		if v == nil {
			velAtHook = append(velAtHook, Velocity{-1, -1})
			return
		}
		velAtHook = append(velAtHook, *v)
	})

	c := w.NewCommands()
	pv.SetCmd(c, e, Position{1, 1}, Velocity{2, 2}) // overwrites Position, adds Velocity
	c.Despawn(x)
	pv.SetCmd(c, x, Position{}, Velocity{}) // x is dead by then: dropped
	// Changes to a pending entity apply in the order recorded.
	p := c.Spawn()
	pv.SetCmd(c, p, Position{1, 0}, Velocity{1, 0})
	pv.SetCmd(c, p, Position{2, 0}, Velocity{2, 0})
	pv.RemoveCmd(c, p)
	mass.SetCmd(c, p, Mass{3})
	pv.SetCmd(c, p, Position{4, 0}, Velocity{4, 0})
	if c.Len() != 9 || vel.Has(e) {
		t.Fatalf("Len %d, or recording changed the world", c.Len())
	}
	w.Apply(c)
	n, _ := c.Resolve(p)
	if pp, vv := pv.Get(e); *pp != (Position{1, 1}) || *vv != (Velocity{2, 2}) {
		t.Fatalf("e has %v, %v", *pp, *vv)
	}
	if w.Alive(x) {
		t.Fatal("x survived its despawn")
	}
	if pp, vv := pv.Get(n); *pp != (Position{4, 0}) || *vv != (Velocity{4, 0}) || *mass.Get(n) != (Mass{3}) {
		t.Fatalf("the spawned entity has %v, %v, %v", *pp, *vv, *mass.Get(n))
	}
	es, ns := e.String(), n.String()
	want := []string{
		"set Position " + es, "add Velocity " + es,
		"remove Position " + x.String(), // the despawn
		"add Position " + ns, "add Velocity " + ns,
		"set Position " + ns, "set Velocity " + ns,
		"remove Position " + ns, "remove Velocity " + ns,
		"add Mass " + ns,
		"add Position " + ns, "add Velocity " + ns,
	}
	if !slices.Equal(*log, want) {
		t.Fatalf("hooks %q\nwant %q", *log, want)
	}
	if want := []Velocity{{2, 2}, {2, 0}}; !slices.Equal(velAtHook, want) {
		t.Fatalf("Velocity seen by Position's OnSet: %v, want %v", velAtHook, want)
	}
}

func TestMapNRemoveCmd(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel, mass := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w), ecs.NewMap[Mass](w)
	pv := ecs.NewMap2[Position, Velocity](w)
	pvm := ecs.NewMap3[Position, Velocity, Mass](w)
	e := pvm.Spawn(Position{1, 1}, Velocity{2, 2}, Mass{3})
	f := pos.Spawn(Position{})
	g := pv.Spawn(Position{}, Velocity{})
	log := cmdHookLog(w)
	// Both OnRemove hooks run while e still has both types: one move.
	var hadVel []bool
	ecs.OnRemove(w, func(e ecs.Entity, _ *Position) { hadVel = append(hadVel, vel.Has(e)) })
	c := w.NewCommands()
	pv.RemoveCmd(c, e)
	pv.RemoveCmd(c, f) // has only Position
	c.Despawn(g)
	pv.RemoveCmd(c, g) // dead by then: dropped
	w.Apply(c)
	if pos.Has(e) || vel.Has(e) || *mass.Get(e) != (Mass{3}) {
		t.Fatalf("e: position %v, velocity %v, mass %v", pos.Has(e), vel.Has(e), mass.Has(e))
	}
	if !w.Alive(f) || pos.Has(f) {
		t.Fatal("f kept its Position")
	}
	want := []string{"remove Position " + e.String(), "remove Velocity " + e.String(),
		"remove Position " + f.String(),
		"remove Position " + g.String(), "remove Velocity " + g.String()}
	if !slices.Equal(*log, want) {
		t.Fatalf("hooks %q\nwant %q", *log, want)
	}
	if !slices.Equal(hadVel, []bool{true, false, true}) {
		t.Fatalf("Velocity present during OnRemove[Position]: %v", hadVel)
	}
}

func TestMapNCmdChecks(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pvm := ecs.NewMap3[Position, Velocity, Mass](w)
	e := pv.Spawn(Position{}, Velocity{})
	c := w.NewCommands()
	w.Despawn(e)
	testhelp.MustPanic(t, func() { pv.SetCmd(c, e, Position{}, Velocity{}) },
		"ecs: Map2[ecs_test.Position,ecs_test.Velocity].SetCmd: entity "+e.String()+" is not alive")
	testhelp.MustPanic(t, func() { pvm.RemoveCmd(c, e) },
		"ecs: Map3[ecs_test.Position,ecs_test.Velocity,ecs_test.Mass].RemoveCmd: entity "+e.String()+" is not alive")
	other := w.NewCommands()
	p := other.Spawn()
	testhelp.MustPanic(t, func() { pv.RemoveCmd(c, p) },
		"Map2[ecs_test.Position,ecs_test.Velocity].RemoveCmd: entity pending1 is not a pending entity of this Commands buffer")
	testhelp.MustPanic(t, func() { ecs.NewMap2[Position, Velocity](ecs.NewWorld()).SpawnCmd(c, Position{}, Velocity{}) },
		"Map2[ecs_test.Position,ecs_test.Velocity].SpawnCmd: the Commands buffer belongs to another world")
	if c.Len() != 0 {
		t.Fatalf("rejected changes were recorded: %d", c.Len())
	}

	// Every type is reported to the access checker.
	f := w.Spawn()
	var l accessLog
	w.Parallel().SetAccessChecker(&l)
	q := pv.SpawnCmd(c, Position{}, Velocity{})
	pv.SetCmd(c, q, Position{}, Velocity{})
	pv.RemoveCmd(c, f)
	w.Parallel().SetAccessChecker(nil)
	want := []string{"SpawnCmd write spawn", "SpawnCmd Position write add", "SpawnCmd Velocity write add",
		"SetCmd Position write add", "SetCmd Velocity write add",
		"RemoveCmd Position write remove", "RemoveCmd Velocity write remove"}
	if !slices.Equal(l.got, want) {
		t.Fatalf("checker saw %q\nwant %q", l.got, want)
	}
}

func TestMapNCmdAllocs(t *testing.T) {
	ecs.SkipAllocsUnderRelocate(t)
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pvm := ecs.NewMap3[Position, Velocity, Mass](w)
	e := pv.Spawn(Position{}, Velocity{})
	c := w.NewCommands()
	round := func() {
		p := pvm.SpawnCmd(c, Position{1, 0}, Velocity{}, Mass{})
		pv.SetCmd(c, e, Position{2, 0}, Velocity{})
		pv.SetCmd(c, p, Position{3, 0}, Velocity{})
		pvm.RemoveCmd(c, e)
		pv.SetCmd(c, e, Position{4, 0}, Velocity{})
		c.Despawn(p)
		w.Apply(c)
		if r, ok := c.Resolve(p); !ok || w.Alive(r) {
			panic("the spawned entity must resolve, and be dead")
		}
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Fatalf("%v allocations per record-and-apply round, want 0", n)
	}
	if p, _ := pv.Get(e); *p != (Position{4, 0}) || w.Len() != 1 {
		t.Fatalf("e has %v; %d entities", *p, w.Len())
	}
}

// TestCommandsResolve follows what a scheduler does with a system's buffer:
// record, Apply at the end of the stage, Resolve at the start of the
// system's next run, then record again.
func TestCommandsResolve(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	pv := ecs.NewMap2[Position, Velocity](w)
	a := pos.Spawn(Position{})
	c := w.NewCommands()

	p1 := c.Spawn()
	p2 := pv.SpawnCmd(c, Position{7, 7}, Velocity{})
	pos.SetCmd(c, p1, Position{1, 1})
	w.Apply(c)

	w.Parallel().Begin() // the next run of the system
	e1, ok1 := c.Resolve(p1)
	e2, ok2 := c.Resolve(p2)
	if !ok1 || !ok2 || *pos.Get(e1) != (Position{1, 1}) || *pos.Get(e2) != (Position{7, 7}) {
		t.Fatalf("Resolve: %v %v, %v %v", e1, ok1, e2, ok2)
	}
	if again, ok := c.Resolve(p1); !ok || again != e1 {
		t.Fatal("a second Resolve differs")
	}
	for _, bad := range []ecs.Entity{{}, a, e1} {
		if r, ok := c.Resolve(bad); ok || r != (ecs.Entity{}) {
			t.Fatalf("Resolve(%v) = %v, %v for a non-pending entity", bad, r, ok)
		}
	}
	testhelp.MustPanic(t, func() { pos.SetCmd(c, p1, Position{}) }, "pending1", "not a pending entity", "Commands.Resolve")
	// Recording again forgets the mapping; pending numbers start again.
	q := c.Spawn()
	pos.SetCmd(c, q, Position{3, 3})
	w.Parallel().End()
	if q != p1 {
		t.Fatalf("pending numbering after Apply: %v, want %v", q, p1)
	}
	if _, ok := c.Resolve(p1); ok {
		t.Fatal("the old mapping survived a new recording")
	}
	if _, ok := c.Resolve(p2); ok {
		t.Fatal("Resolve found a pending entity that the next Apply has not made")
	}
	w.Apply(c)
	e3, ok := c.Resolve(q)
	if !ok || e3 == e1 || *pos.Get(e3) != (Position{3, 3}) {
		t.Fatalf("second round: %v %v", e3, ok)
	}
	if _, ok := c.Resolve(p2); ok {
		t.Fatal("Resolve of a number the second Apply did not make succeeded")
	}
	// Reset forgets the mapping too; a pending entity despawned by its own
	// buffer still resolves, to a dead entity.
	c.Reset()
	if _, ok := c.Resolve(q); ok {
		t.Fatal("the mapping survived Reset")
	}
	d := c.Spawn()
	c.Despawn(d)
	w.Apply(c)
	if r, ok := c.Resolve(d); !ok || w.Alive(r) {
		t.Fatalf("a despawned spawn resolves to %v, %v (alive %v)", r, ok, w.Alive(r))
	}
	// An empty Apply forgets the previous mapping: it made nothing.
	w.Apply(c)
	if _, ok := c.Resolve(d); ok {
		t.Fatal("the mapping survived an empty Apply")
	}
}

func TestResourceHandle(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewResource[Gravity](w)
	if h.Has() || ecs.HasResource[Gravity](w) {
		t.Fatal("a new handle made a resource")
	}
	if v, ok := h.TryGet(); v != nil || ok {
		t.Fatalf("TryGet of an absent resource: %v, %v", v, ok)
	}
	testhelp.MustPanic(t, func() { h.Get() }, "ecs: Resource[ecs_test.Gravity].Get: the world has no such resource")
	g := &Gravity{9.8}
	ecs.AddResource(w, g) // made after the handle: the handle sees it
	if h.Get() != g || !h.Has() {
		t.Fatal("the handle does not see AddResource")
	}
	if v, ok := h.TryGet(); v != g || !ok {
		t.Fatal("TryGet does not see AddResource")
	}
	g2 := &Gravity{1.6}
	h.Set(g2) // replaces
	if ecs.GetResource[Gravity](w) != g2 || ecs.NewResource[Gravity](w).Get() != g2 {
		t.Fatal("Set is not seen by GetResource or another handle")
	}
	testhelp.MustPanic(t, func() { ecs.AddResource(w, g) }, "already has")
	if !ecs.RemoveResource[Gravity](w) || h.Has() || ecs.RemoveResource[Gravity](w) {
		t.Fatal("RemoveResource is not seen by the handle")
	}
	h.Set(g)
	if !ecs.HasResource[Gravity](w) || ecs.GetResource[Gravity](w) != g {
		t.Fatal("Set of an absent resource does not add it")
	}
	if !h.Remove() || h.Remove() || ecs.HasResource[Gravity](w) || ecs.GetResource[Gravity](w) != nil {
		t.Fatal("Remove")
	}
	testhelp.MustPanic(t, func() { h.Set(nil) }, "Resource[ecs_test.Gravity].Set", "nil pointer")
	ecs.AddResource(w, g)
	if n := testing.AllocsPerRun(100, func() { h.Get().G++ }); n != 0 {
		t.Fatalf("Get allocates %v", n)
	}

	// Accesses are reported; the other world's are not.
	w2 := ecs.NewWorld()
	h2 := ecs.NewResource[Gravity](w2)
	pos2 := ecs.NewMap[Position](w2)
	e2 := pos2.Spawn(Position{})
	var l accessLog
	w.Parallel().SetAccessChecker(&l)
	h.Get()
	h.TryGet()
	h.Has()
	h.Set(g2)
	h.Remove()
	testhelp.MustPanic(t, func() { h.Get() }, "no such resource")
	h2.Set(g)
	h2.Get()
	pos2.Get(e2)
	w.Parallel().SetAccessChecker(nil)
	want := []string{"Resource.Get Gravity resource", "Resource.TryGet Gravity resource", "Resource.Has Gravity resource",
		"Resource.Set Gravity write resource", "Resource.Remove Gravity write resource", "Resource.Get Gravity resource"}
	if !slices.Equal(l.got, want) {
		t.Fatalf("checker saw %q\nwant %q", l.got, want)
	}

	// In a parallel section: reads and Set work through the handle, making a
	// handle does not.
	w.Parallel().Begin()
	h.Set(g)
	if h.Get() != g {
		t.Fatal("Set in a parallel section")
	}
	testhelp.MustPanic(t, func() { ecs.NewResource[Mass](w) }, "NewResource", "parallel section", "make handles once, outside systems")
	w.Parallel().End()
}

// TestMakingHandlesInASystemPanics checks the messages of the handles and
// queries made inside a parallel section, where a scheduler runs systems.
func TestMakingHandlesInASystemPanics(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	pos.Spawn(Position{})
	before := len(w.Stats().Components)
	w.Parallel().Begin()
	query := []string{"parallel section", "build queries once, outside systems (before the first Run), and reuse them",
		"a query is a cache the world keeps up to date", "leaks", "scan of all tables"}
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w) }, append([]string{"ecs: NewQuery1:"}, query...)...)
	testhelp.MustPanic(t, func() { ecs.NewQuery2[Position, Rare](w) }, append([]string{"ecs: NewQuery2:"}, query...)...)
	testhelp.MustPanic(t, func() { ecs.NewQuery8[Position, Rare, Mass, Velocity, Burning, Gravity, bit0, bit1](w) },
		append([]string{"ecs: NewQuery8:"}, query...)...)
	handle := []string{"parallel section", "make handles once, outside systems (before the first Run), and reuse them"}
	testhelp.MustPanic(t, func() { ecs.NewMap[Rare](w) }, append([]string{"ecs: NewMap:"}, handle...)...)
	testhelp.MustPanic(t, func() { ecs.NewMap2[Position, Rare](w) }, append([]string{"ecs: NewMap2:"}, handle...)...)
	testhelp.MustPanic(t, func() {
		ecs.NewMap12[Position, Rare, Mass, Velocity, Burning, Gravity, bit0, bit1, pair[bit0, bit0], pair[bit0, bit1], pair[bit1, bit0], pair[bit1, bit1]](w)
	},
		append([]string{"ecs: NewMap12:"}, handle...)...)
	w.Parallel().End()
	// The refused calls registered no type.
	if after := len(w.Stats().Components); after != before {
		t.Fatalf("%d component types after the refused calls, %d before", after, before)
	}
}

func ExampleCommands_Resolve() {
	type Position struct{ X, Y float64 }
	type Velocity struct{ X, Y float64 }
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	c := w.NewCommands()

	p := pv.SpawnCmd(c, Position{1, 2}, Velocity{0, 1}) // a pending entity
	fmt.Println(p, w.Alive(p), w.Len())

	w.Apply(c)
	e, ok := c.Resolve(p)
	pos, vel := pv.Get(e)
	fmt.Println(ok, w.Alive(e), *pos, *vel)

	c.Spawn() // recording again forgets the mapping
	_, ok = c.Resolve(p)
	fmt.Println(ok)
	// Output:
	// pending1 false 0
	// true true {1 2} {0 1}
	// false
}

// TestMapNCmdSparse mixes a sparse type with a table type: SpawnCmd puts
// the table type in its table and the sparse one in its set, SetCmd and
// RemoveCmd reach both storages.
func TestMapNCmdSparse(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[Burning](w, ecs.Sparse())
	pb := ecs.NewMap2[Position, Burning](w)
	burn := ecs.NewMap[Burning](w)
	q := ecs.NewQuery2[Position, Burning](w)
	var entered []ecs.Entity
	q.OnEnter(func(e ecs.Entity) { entered = append(entered, e) })
	e := w.Spawn()
	f := burn.Spawn(Burning{1})
	c := w.NewCommands()
	p := pb.SpawnCmd(c, Position{1, 0}, Burning{2})
	pb.SetCmd(c, e, Position{3, 0}, Burning{4})
	pb.SetCmd(c, f, Position{5, 0}, Burning{6}) // overwrites f's Burning
	pb.RemoveCmd(c, e)
	w.Apply(c)
	n, _ := c.Resolve(p)
	if pp, b := pb.Get(n); *pp != (Position{1, 0}) || *b != (Burning{2}) {
		t.Fatalf("spawned: %v, %v", *pp, *b)
	}
	if pp, b := pb.Get(f); *pp != (Position{5, 0}) || *b != (Burning{6}) {
		t.Fatalf("f: %v, %v", *pp, *b)
	}
	if !w.Alive(e) || pb.Has(e) || burn.Has(e) {
		t.Fatal("e kept a component RemoveCmd took away")
	}
	// e gained and lost both within the buffer: it never entered.
	if !slices.Equal(entered, []ecs.Entity{n, f}) {
		t.Fatalf("entered %v, want %v", entered, []ecs.Entity{n, f})
	}
}
