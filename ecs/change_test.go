package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Tracked is a component type that keeps change ticks in the tests.
type Tracked struct{ V int }

// TrackedSparse is one in sparse storage.
type TrackedSparse struct{ V int }

func newTrackedWorld() *ecs.World {
	w := ecs.NewWorld()
	ecs.Register[Tracked](w, ecs.TrackChanges())
	ecs.Register[TrackedSparse](w, ecs.TrackChanges(), ecs.Sparse())
	return w
}

// passAll, passChunks and passIter run one pass of q in one form and
// return the entities it visited, sorted by index for comparison.
func passAll[T any](q *ecs.Query1[T]) []ecs.Entity {
	var es []ecs.Entity
	for r := range q.All() {
		es = append(es, r.Entity)
	}
	return sortedEntities(es)
}

func passChunks[T any](q *ecs.Query1[T]) []ecs.Entity {
	var es []ecs.Entity
	for ch := range q.Chunks() {
		if len(ch.A) != len(ch.Entities) {
			panic("chunk slices of different lengths")
		}
		es = append(es, ch.Entities...)
	}
	return sortedEntities(es)
}

func passIter[T any](q *ecs.Query1[T]) []ecs.Entity {
	var es []ecs.Entity
	it := q.Iter()
	for it.Next() {
		if it.Get() == nil {
			panic("nil component")
		}
		es = append(es, it.Entity())
	}
	return sortedEntities(es)
}

func passAppend[T any](q *ecs.Query1[T]) []ecs.Entity {
	var es []ecs.Entity
	for _, ch := range q.AppendChunks(nil, 3) {
		es = append(es, ch.Entities...)
	}
	return sortedEntities(es)
}

func sortedEntities(es []ecs.Entity) []ecs.Entity {
	slices.SortFunc(es, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	return es
}

var passForms = []struct {
	name string
	tbl  func(*ecs.Query1[Tracked]) []ecs.Entity
	sp   func(*ecs.Query1[TrackedSparse]) []ecs.Entity
}{
	{"All", passAll[Tracked], passAll[TrackedSparse]},
	{"Chunks", passChunks[Tracked], passChunks[TrackedSparse]},
	{"Iter", passIter[Tracked], passIter[TrackedSparse]},
	{"AppendChunks", passAppend[Tracked], passAppend[TrackedSparse]},
}

func wantEntities(t *testing.T, what string, got []ecs.Entity, want ...ecs.Entity) {
	t.Helper()
	want = sortedEntities(slices.Clone(want))
	if !slices.Equal(got, want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

func TestChangedSeesEachChangeOnce(t *testing.T) {
	for _, form := range passForms {
		t.Run(form.name, func(t *testing.T) {
			w := newTrackedWorld()
			m := ecs.NewMap[Tracked](w)
			var es []ecs.Entity
			for i := range 6 {
				es = append(es, m.Spawn(Tracked{i}))
			}
			changed := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
			added := ecs.NewQuery1[Tracked](w, ecs.Added[Tracked]())
			wantEntities(t, "first Changed pass", form.tbl(changed), es...)
			wantEntities(t, "first Added pass", form.tbl(added), es...)
			wantEntities(t, "second Changed pass", form.tbl(changed))
			m.Set(es[1], Tracked{10})
			m.Get(es[4]).V = 40
			m.MarkChanged(es[4])
			wantEntities(t, "Changed after Set and MarkChanged", form.tbl(changed), es[1], es[4])
			wantEntities(t, "Added after Set", form.tbl(added))
			wantEntities(t, "Changed, again", form.tbl(changed))
			// A move to another table keeps the value's ticks.
			ecs.NewMap[Velocity](w).Add(es[2], Velocity{})
			wantEntities(t, "Changed after a move", form.tbl(changed))
			// Remove and add again: added.
			m.Remove(es[3])
			m.Add(es[3], Tracked{3})
			e := m.Spawn(Tracked{6})
			wantEntities(t, "Added after re-add and spawn", form.tbl(added), es[3], e)
			wantEntities(t, "Changed after re-add and spawn", form.tbl(changed), es[3], e)
			// A despawn and a recycled index: the new entity is added.
			w.Despawn(es[0])
			e2 := m.Spawn(Tracked{7})
			if e2.Index() != es[0].Index() {
				t.Fatalf("index not recycled: %v after %v", e2, es[0])
			}
			wantEntities(t, "Added after recycling", form.tbl(added), e2)
			if err := ecs.CheckChangeTicks(w); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestChangedSparse(t *testing.T) {
	for _, form := range passForms {
		t.Run(form.name, func(t *testing.T) {
			w := newTrackedWorld()
			m := ecs.NewMap[TrackedSparse](w)
			var es []ecs.Entity
			for i := range 2100 { // three blocks of the sparse set
				es = append(es, m.Spawn(TrackedSparse{i}))
			}
			changed := ecs.NewQuery1[TrackedSparse](w, ecs.Changed[TrackedSparse]())
			if got := form.sp(changed); len(got) != len(es) {
				t.Fatalf("first pass: %d entities, want %d", len(got), len(es))
			}
			wantEntities(t, "second pass", form.sp(changed))
			m.Set(es[5], TrackedSparse{-1})
			m.Set(es[2050], TrackedSparse{-1})
			m.Remove(es[7]) // the last slot moves into slot 7 with its ticks
			wantEntities(t, "after Set", form.sp(changed), es[5], es[2050])
			m.Add(es[7], TrackedSparse{})
			wantEntities(t, "after re-add", form.sp(changed), es[7])
			if err := ecs.CheckChangeTicks(w); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestChangedTwoQueriesAndOwnWrites(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	a, b := m.Spawn(Tracked{1}), m.Spawn(Tracked{2})
	// A query that filters on Changed and writes what it reads does not
	// feed itself; another query sees its writes once.
	clamp := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked](), ecs.MarksChanged[Tracked]())
	watch := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	wantEntities(t, "watch, first", passAll(watch), a, b)
	wantEntities(t, "clamp, first", passAll(clamp), a, b)
	wantEntities(t, "clamp, second", passAll(clamp))
	wantEntities(t, "watch sees clamp's writes", passAll(watch), a, b)
	wantEntities(t, "watch, again", passAll(watch))
	// A Set inside a pass of clamp is not seen by clamp next time.
	for r := range clamp.All() {
		_ = r
	}
	m.Set(b, Tracked{5})
	for range clamp.All() {
		m.Set(a, Tracked{6})
	}
	wantEntities(t, "clamp after a Set during its pass", passAll(clamp))
	wantEntities(t, "watch", passAll(watch), a, b)
}

func TestMarksChangedMarksWholeTables(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	var es []ecs.Entity
	for i := range 5 {
		es = append(es, m.Spawn(Tracked{i}))
	}
	watch := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	passAll(watch)
	writer := ecs.NewQuery1[Tracked](w, ecs.MarksChanged[Tracked]())
	for ch := range writer.Chunks() {
		for i := range ch.A {
			ch.A[i].V++
		}
	}
	wantEntities(t, "after a writing pass", passAll(watch), es...)
	reader := ecs.NewQuery1[Tracked](w)
	for r := range reader.All() {
		r.A.V++
	}
	wantEntities(t, "after a pass that does not declare MarksChanged", passAll(watch))
}

func TestChangedDeferredAndStructural(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	vel := ecs.NewMap[Velocity](w)
	a, b, c := m.Spawn(Tracked{1}), vel.Spawn(Velocity{}), m.Spawn(Tracked{3})
	changed := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	passAll(changed)
	loop := ecs.NewQuery1[Velocity](w)
	for r := range loop.All() {
		m.Add(r.Entity, Tracked{2}) // deferred: applied when the loop ends
		m.Remove(c)
		m.Add(c, Tracked{4}) // remove, then add, on one entity in one loop
		m.Set(a, Tracked{5})
	}
	wantEntities(t, "after deferred changes", passAll(changed), a, b, c)
	cmds := w.NewCommands()
	d := cmds.Spawn()
	m.SetCmd(cmds, d, Tracked{9})
	w.Apply(cmds)
	real, ok := cmds.Resolve(d)
	if !ok {
		t.Fatal("the pending entity did not resolve")
	}
	wantEntities(t, "after a command buffer", passAll(changed), real)
}

func TestChangedCopyEntityLoadRestore(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	sp := ecs.NewMap[TrackedSparse](w)
	a := m.Spawn(Tracked{1})
	sp.Add(a, TrackedSparse{1})
	tq := ecs.NewQuery1[Tracked](w, ecs.Added[Tracked]())
	sq := ecs.NewQuery1[TrackedSparse](w, ecs.Added[TrackedSparse]())
	passAll(tq)
	passAll(sq)
	var snap ecs.Snapshot
	w.Snapshot(&snap)
	b := w.CopyEntity(a)
	wantEntities(t, "after CopyEntity", passAll(tq), b)
	wantEntities(t, "after CopyEntity, sparse", passAll(sq), b)
	w.Restore(&snap)
	// Both passes had seen a when the snapshot was taken: a restore
	// rewinds them and the ticks, and is no add itself.
	wantEntities(t, "after Restore", passAll(tq))
	wantEntities(t, "after Restore, sparse", passAll(sq))
	w.Restore(&snap)
	if again := w.CopyEntity(a); again != b {
		t.Fatalf("CopyEntity after Restore made %v, the first time %v", again, b)
	}
	wantEntities(t, "after Restore and CopyEntity", passAll(tq), b)
	wantEntities(t, "after Restore and CopyEntity, sparse", passAll(sq), b)
	var buf strings.Builder
	if err := w.SaveJSON(&buf); err != nil {
		t.Fatal(err)
	}
	w2 := newTrackedWorld()
	if err := w2.LoadJSON(strings.NewReader(buf.String())); err != nil {
		t.Fatal(err)
	}
	q2 := ecs.NewQuery1[Tracked](w2, ecs.Added[Tracked]())
	if got := passAll(q2); len(got) != 2 {
		t.Fatalf("after LoadJSON: %v, want two entities (a load is an add)", got)
	}
}

func TestChangeTicksWrap(t *testing.T) {
	for _, start := range []uint32{1<<32 - 5, 1<<31 - 5} {
		w := ecs.NewWorld()
		ecs.Register[Tracked](w, ecs.TrackChanges())
		ecs.SetChangeTick(w, start)
		m := ecs.NewMap[Tracked](w)
		var es []ecs.Entity
		for i := range 4 {
			es = append(es, m.Spawn(Tracked{i}))
		}
		q := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
		wantEntities(t, "first pass", passAll(q), es...)
		// Ten passes across the wrap point, one Set before each.
		for i := range 10 {
			e := es[i%len(es)]
			m.Set(e, Tracked{i})
			wantEntities(t, "a pass across the wrap", passAll(q), e)
		}
		if ecs.ChangeTick(w) > 100 && start > 1<<31 {
			t.Fatalf("tick %d: the counter did not wrap", ecs.ChangeTick(w))
		}
		// A value untouched while the clock runs 2^33 ticks (two full
		// wraps) stays unchanged for a query that runs every 2^29 ticks...
		idle := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
		passAll(idle)
		for range 16 {
			ecs.SkipTicks(w, 1<<29)
			wantEntities(t, "after skipped ticks", passAll(q))
		}
		// ...and a change is seen by a query idle all that time (which,
		// idle for more than 2^30 ticks, may see unchanged values too).
		m.Set(es[2], Tracked{-1})
		if got := passAll(idle); !slices.Contains(got, es[2]) {
			t.Fatalf("the idle query: got %v, want %v among them", got, es[2])
		}
		wantEntities(t, "the query that kept running", passAll(q), es[2])
		if err := ecs.CheckChangeTicks(w); err != nil {
			t.Fatal(err)
		}
	}
}

func TestChangeFilterMisuse(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Velocity](w)
	e := m.Spawn(Velocity{})
	// Tracked tells ahead which of the calls below are valid.
	if m.Tracked() || !ecs.NewMap[Tracked](w).Tracked() {
		t.Fatalf("Tracked: %v for Velocity, %v for Tracked; want false, true", m.Tracked(), ecs.NewMap[Tracked](w).Tracked())
	}
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Velocity](w, ecs.Changed[Velocity]()) }, "does not track changes")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Velocity](w, ecs.Added[Velocity]()) }, "does not track changes")
	testhelp.MustPanic(t, func() { m.MarkChanged(e) }, "does not track changes")
	tm := ecs.NewMap[Tracked](w)
	testhelp.MustPanic(t, func() { tm.MarkChanged(e) }, "does not have")
	w.Despawn(e)
	testhelp.MustPanic(t, func() { tm.MarkChanged(e) }, "MarkChanged")
	q := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	testhelp.MustPanic(t, func() { q.OnEnter(func(ecs.Entity) {}) }, "Added or Changed")
}

func TestChangedInParallelSection(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	a, b := m.Spawn(Tracked{1}), m.Spawn(Tracked{2})
	q1 := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	q2 := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	passAll(q1)
	passAll(q2)
	w.Parallel().Begin()
	m.Set(a, Tracked{3}) // a system writing in the stage
	wantEntities(t, "q1 in the section", passAll(q1), a)
	w.Parallel().End()
	m.Set(b, Tracked{4})
	wantEntities(t, "q1 after the section", passAll(q1), b)
	wantEntities(t, "q2", passAll(q2), a, b)
}

func TestMapNMarkChangedAndEarlyBreak(t *testing.T) {
	w := newTrackedWorld()
	m2 := ecs.NewMap2[Tracked, Velocity](w)
	a, b := m2.Spawn(Tracked{1}, Velocity{}), m2.Spawn(Tracked{2}, Velocity{})
	q := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	passAll(q)
	m2.MarkChanged(b)
	wantEntities(t, "after Map2.MarkChanged", passAll(q), b)
	testhelp.MustPanic(t, func() { ecs.NewMap2[Velocity, Position](w).MarkChanged(a) }, "none of the types")
	testhelp.MustPanic(t, func() { ecs.NewMap2[Tracked, Position](w).MarkChanged(a) }, "does not have")
	// A pass that breaks early ends a pass: the rows it did not reach are
	// not reported again.
	m2.MarkChanged(a)
	m2.MarkChanged(b)
	for range q.All() {
		break
	}
	wantEntities(t, "after a pass that broke early", passAll(q))
}

// TestChangedScanPositions changes single rows and pairs of rows at every
// position of a 70-row table, so the scan's eight-at-a-time steps and its
// tail both find them.
func TestChangedScanPositions(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	var es []ecs.Entity
	for i := range 70 {
		es = append(es, m.Spawn(Tracked{i}))
	}
	q := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	passAll(q)
	for i := range es {
		for _, j := range []int{i, (i * 7) % len(es)} {
			m.Set(es[j], Tracked{-j})
		}
		want := []ecs.Entity{es[i]}
		if j := (i * 7) % len(es); j != i {
			want = append(want, es[j])
		}
		wantEntities(t, "after Sets", passChunks(q), want...)
	}
}
