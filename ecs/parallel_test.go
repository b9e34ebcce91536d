package ecs_test

import (
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TestParallelSectionConcurrentPasses runs, on two goroutines at once, a pass
// that writes Position and one that reads Velocity and overwrites Mass with
// Set: allowed in a parallel section, and clean under go test -race.
func TestParallelSectionConcurrentPasses(t *testing.T) {
	w := ecs.NewWorld()
	pvm := ecs.NewMap3[Position, Velocity, Mass](w)
	for i := range 1000 {
		pvm.Spawn(Position{}, Velocity{float64(i), 1}, Mass{})
	}
	mass := ecs.NewMap[Mass](w)
	moved := ecs.NewQuery1[Position](w)
	vels := ecs.NewQuery1[Velocity](w)
	w.Parallel().Begin()
	if !w.Parallel().Active() || !w.IsIterating() {
		t.Fatal("a parallel section must report Parallel().Active and IsIterating")
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for r := range moved.All() {
			r.A.X += 2
		}
	})
	wg.Go(func() {
		for r := range vels.All() {
			mass.Set(r.Entity, Mass{r.A.X})
		}
	})
	wg.Wait()
	w.Parallel().End()
	if w.Parallel().Active() || w.IsIterating() {
		t.Fatal("Parallel().End left the world in a parallel section")
	}
	for r := range ecs.NewQuery3[Position, Velocity, Mass](w).All() {
		if r.A.X != 2 || r.C.V != r.B.X {
			t.Fatalf("entity %v: position %v, mass %v for velocity %v", r.Entity, *r.A, *r.C, *r.B)
		}
	}
}

func TestParallelSectionRefusesStructuralChanges(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	e := pos.Spawn(Position{})
	w.Parallel().Begin()
	testhelp.MustPanic(t, func() { w.Spawn() }, "Spawn", "parallel section", "Commands")
	testhelp.MustPanic(t, func() { w.Despawn(e) }, "Despawn", "parallel section")
	testhelp.MustPanic(t, func() { ecs.NewMap[Velocity](w).Add(e, Velocity{}) }, "NewMap", "parallel section")
	testhelp.MustPanic(t, func() { pos.Remove(e) }, "Remove[ecs_test.Position]", "parallel section")
	testhelp.MustPanic(t, func() { ecs.NewMap[Mass](w) }, "NewMap", "parallel section")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w) }, "NewQuery1", "parallel section")
	testhelp.MustPanic(t, func() { w.Parallel().Begin() }, "Parallel().Begin")
	pos.Set(e, Position{1, 2}) // an overwrite in place is allowed
	w.Parallel().End()
	testhelp.MustPanic(t, func() { w.Parallel().End() }, "Parallel().End", "no parallel section")
	if got := *pos.Get(e); got != (Position{1, 2}) || !w.Alive(e) {
		t.Fatalf("after the section: alive %v, position %v", w.Alive(e), got)
	}
}

func TestCommandsApplyInOrderWithPendingEntities(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	a := pos.Spawn(Position{1, 1})
	b := pos.Spawn(Position{2, 2})
	c := w.NewCommands()
	p := c.Spawn()
	if p.String() != "pending1" || w.Alive(p) {
		t.Fatalf("pending entity %v: alive %v", p, w.Alive(p))
	}
	pos.SetCmd(c, p, Position{9, 9})
	vel.SetCmd(c, p, Velocity{1, 0})
	vel.SetCmd(c, a, Velocity{3, 3})
	vel.SetCmd(c, a, Velocity{4, 4}) // overwrites the one before
	pos.RemoveCmd(c, b)
	c.Despawn(b)
	pos.SetCmd(c, b, Position{}) // b is dead by then: dropped
	if c.Len() != 8 || !pos.Has(b) || vel.Has(a) {
		t.Fatal("recording changed the world")
	}
	w.Apply(c)
	if c.Len() != 0 {
		t.Fatalf("Apply left %d changes in the buffer", c.Len())
	}
	if w.Alive(b) || *vel.Get(a) != (Velocity{4, 4}) {
		t.Fatalf("b alive %v, a's velocity %v", w.Alive(b), *vel.Get(a))
	}
	var spawned []ecs.Entity
	for r := range ecs.NewQuery2[Position, Velocity](w).All() {
		if r.Entity == a {
			continue
		}
		spawned = append(spawned, r.Entity)
		if *r.A != (Position{9, 9}) || *r.B != (Velocity{1, 0}) {
			t.Fatalf("spawned entity %v has %v, %v", r.Entity, *r.A, *r.B)
		}
	}
	if len(spawned) != 1 || spawned[0].Index() == 0 {
		t.Fatalf("spawned %v, want one real entity", spawned)
	}
	// The buffer is reusable, and its pending numbering starts again.
	if q := c.Spawn(); q != p {
		t.Fatalf("second use: pending %v, want %v", q, p)
	}
	c.Reset()
}

func TestCommandsChecks(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	e := pos.Spawn(Position{})
	c := w.NewCommands()
	w.Despawn(e)
	testhelp.MustPanic(t, func() { pos.SetCmd(c, e, Position{}) }, "SetCmd[ecs_test.Position]", e.String(), "not alive")
	testhelp.MustPanic(t, func() { c.Despawn(e) }, "Despawn", "not alive")
	other := w.NewCommands()
	p := other.Spawn()
	testhelp.MustPanic(t, func() { pos.RemoveCmd(c, p) }, "RemoveCmd[ecs_test.Position]", "pending1", "not a pending entity of this Commands buffer")
	testhelp.MustPanic(t, func() { ecs.NewMap[Position](ecs.NewWorld()).SetCmd(c, p, Position{}) }, "another world")
	testhelp.MustPanic(t, func() { ecs.NewWorld().Apply(c) }, "Apply", "another world")
	q := ecs.NewQuery1[Position](w)
	pos.Spawn(Position{})
	testhelp.MustPanic(t, func() {
		for range q.All() {
			w.Apply(c)
		}
	}, "Apply", "inside an iteration")
	w.Recover()
}

// TestCommandsRecordedConcurrently fills one buffer per goroutine inside a
// parallel section and applies them in a fixed order afterwards: the ids and
// the state do not depend on which goroutine ran first.
func TestCommandsRecordedConcurrently(t *testing.T) {
	run := func() []ecs.Entity {
		w := ecs.NewWorld()
		pos := ecs.NewMap[Position](w)
		for i := range 100 {
			pos.Spawn(Position{float64(i), 0})
		}
		q := ecs.NewQuery1[Position](w)
		bufs := []*ecs.Commands{w.NewCommands(), w.NewCommands()}
		w.Parallel().Begin()
		var wg sync.WaitGroup
		for k, c := range bufs {
			wg.Go(func() {
				for r := range q.All() {
					if int(r.A.X)%2 == k {
						pos.SetCmd(c, c.Spawn(), Position{r.A.X + 1000, 0})
						c.Despawn(r.Entity)
					}
				}
			})
		}
		wg.Wait()
		w.Parallel().End()
		for _, c := range bufs {
			w.Apply(c)
		}
		var out []ecs.Entity
		for r := range q.All() {
			out = append(out, r.Entity)
			if r.A.X < 1000 {
				t.Fatalf("entity %v kept position %v", r.Entity, *r.A)
			}
		}
		return out
	}
	first := run()
	if len(first) != 100 {
		t.Fatalf("%d entities, want 100", len(first))
	}
	for range 5 {
		if again := run(); !slices.EqualFunc(first, again, sameID) {
			t.Fatalf("ids or order differ between runs:\n%v\n%v", first, again)
		}
	}
}

func TestCommandsApplySettlesObserversOnce(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	e := pos.Spawn(Position{})
	q := ecs.NewQuery2[Position, Velocity](w)
	var events []string
	q.OnEnter(func(x ecs.Entity) { events = append(events, "enter "+x.String()) })
	q.OnLeave(func(x ecs.Entity) { events = append(events, "leave "+x.String()) })
	var added []ecs.Entity
	ecs.OnAdd(w, func(x ecs.Entity, _ *Velocity) { added = append(added, x) })
	c := w.NewCommands()
	vel.SetCmd(c, e, Velocity{}) // gained and lost within the buffer
	vel.RemoveCmd(c, e)
	p := c.Spawn()
	pos.SetCmd(c, p, Position{})
	vel.SetCmd(c, p, Velocity{})
	w.Apply(c)
	spawned := added[1]
	want := []string{"enter " + spawned.String()}
	if !slices.Equal(events, want) || len(added) != 2 || added[0] != e {
		t.Fatalf("events %v (want %v), OnAdd for %v", events, want, added)
	}
}

// accessLog records what a world reports to its access checker.
type accessLog struct{ got []string }

func (l *accessLog) CheckAccess(kind ecs.AccessKind, typ reflect.Type, write bool, op string) {
	s := op
	if typ != nil {
		s += " " + typ.Name()
	}
	if write {
		s += " write"
	}
	switch kind {
	case ecs.ResourceAccess:
		s += " resource"
	case ecs.SpawnAccess:
		s += " spawn"
	case ecs.DespawnAccess:
		s += " despawn"
	case ecs.AddAccess:
		s += " add"
	case ecs.RemoveAccess:
		s += " remove"
	}
	if kind.Structural() != (kind >= ecs.SpawnAccess) || kind.Structural() && !write {
		s += " (misreported)"
	}
	l.got = append(l.got, s)
}

func TestAccessCheckerSeesAccesses(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	e := pos.Spawn(Position{})
	q := ecs.NewQuery1[Position](w, ecs.With(ecs.C[Position]()))
	ecs.AddResource(w, &Gravity{})
	c := w.NewCommands()
	var l accessLog
	w.Parallel().SetAccessChecker(&l)
	for range q.All() {
	}
	pos.Get(e)
	pos.TryGet(e)
	vel.Has(e)
	pos.Set(e, Position{})
	vel.SetCmd(c, e, Velocity{})
	vel.RemoveCmd(c, e)
	c.Despawn(c.Spawn())
	c.Despawn(e)
	pv := ecs.NewMap2[Position, Velocity](w)
	w.Parallel().SetAccessChecker(nil)
	pv.Has(e) // before the checker: not seen
	w.Parallel().SetAccessChecker(&l)
	pv.Has(e)
	ecs.GetResource[Gravity](w)
	w.Parallel().SetAccessChecker(nil)
	pos.Get(e)
	want := []string{"query Position", "query filter Position", "Get Position", "TryGet Position", "Has Velocity", "Set Position write",
		"SetCmd Velocity write add", "RemoveCmd Velocity write remove", "Spawn write spawn", "Despawn write despawn",
		"Despawn write despawn", "Despawn Position write despawn",
		"Has Position", "Has Velocity", "GetResource Gravity resource"}
	if !slices.Equal(l.got, want) {
		t.Fatalf("checker saw %q\nwant %q", l.got, want)
	}
}

// Gravity is a resource of the access-checker test.
type Gravity struct{ G float64 }

func TestAppendChunksCutsRowRanges(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pvm := ecs.NewMap3[Position, Velocity, Mass](w)
	for i := range 10 {
		pv.Spawn(Position{float64(i), 0}, Velocity{})
	}
	for i := range 3 {
		pvm.Spawn(Position{float64(100 + i), 0}, Velocity{}, Mass{})
	}
	q := ecs.NewQuery3[Position, Velocity, Mass](w, ecs.Optional(ecs.C[Mass]()))
	chunks := q.AppendChunks(nil, 4)
	var sizes []int
	var xs []float64
	for _, c := range chunks {
		sizes = append(sizes, len(c.Entities))
		if len(c.A) != len(c.Entities) || (c.C != nil && len(c.C) != len(c.Entities)) {
			t.Fatalf("chunk slices of unequal length: %d entities, %d, %d", len(c.Entities), len(c.A), len(c.C))
		}
		for _, p := range c.A {
			xs = append(xs, p.X)
		}
	}
	if want := []int{4, 4, 2, 3}; !slices.Equal(sizes, want) {
		t.Fatalf("chunk sizes %v, want %v", sizes, want)
	}
	if chunks[0].C != nil || chunks[3].C == nil {
		t.Fatal("the optional column must be nil exactly where the table lacks it")
	}
	var want []float64
	for r := range q.All() {
		want = append(want, r.A.X)
	}
	if !slices.Equal(xs, want) {
		t.Fatalf("chunks visit %v, the range form %v", xs, want)
	}
	testhelp.MustPanic(t, func() { q.AppendChunks(nil, 0) }, "AppendChunks", "at least 1")
}

func TestParallelSectionEdgeCases(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	for range 3 {
		pos.Spawn(Position{})
	}
	q := ecs.NewQuery1[Position](w)
	w.Parallel().Begin()
	testhelp.MustPanic(t, func() { ecs.OnSet(w, func(ecs.Entity, *Position) {}) }, "OnSet", "parallel section")
	testhelp.MustPanic(t, func() { w.Reserve(10) }, "Reserve", "parallel section")
	w.Recover() // passes hold no count in a section: nothing to end
	if !w.Parallel().Active() {
		t.Fatal("Recover ended the parallel section")
	}
	it := q.Iter() // opened in the section, closed after it
	it.Next()
	w.Parallel().End()
	it.Close()
	if w.IsIterating() {
		t.Fatal("a cursor closed after Parallel().End left the world iterating")
	}
	// The count is balanced: a change inside a later loop is still deferred.
	for r := range q.All() {
		w.Despawn(r.Entity)
		if !w.Alive(r.Entity) {
			t.Fatal("a despawn inside a loop applied at once")
		}
	}
	if w.Len() != 0 {
		t.Fatalf("%d entities left", w.Len())
	}
}

func TestApplyHookEdgeCases(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	c := w.NewCommands()
	// A hook that records into the buffer being applied: applied in turn.
	ecs.OnAdd(w, func(e ecs.Entity, _ *Position) { vel.SetCmd(c, e, Velocity{1, 1}) })
	pos.SetCmd(c, c.Spawn(), Position{})
	w.Apply(c)
	if ecs.NewQuery2[Position, Velocity](w).Count() != 1 || c.Len() != 0 {
		t.Fatalf("the hook's change was not applied (buffer holds %d)", c.Len())
	}
	// A hook that panics: the buffer is emptied all the same, so applying it
	// again does not repeat the changes made before the panic.
	boom := true
	ecs.OnAdd(w, func(ecs.Entity, *Mass) {
		if boom {
			boom = false
			panic("hook")
		}
	})
	mass := ecs.NewMap[Mass](w)
	c.Spawn()
	mass.SetCmd(c, c.Spawn(), Mass{1})
	testhelp.MustPanic(t, func() { w.Apply(c) }, "hook")
	w.Recover() // the hook's panic left its iteration count raised
	if c.Len() != 0 {
		t.Fatalf("after a panic in Apply the buffer holds %d changes", c.Len())
	}
	before := w.Len()
	w.Apply(c)
	if w.Len() != before {
		t.Fatalf("re-applying spawned %d more entities", w.Len()-before)
	}
}
