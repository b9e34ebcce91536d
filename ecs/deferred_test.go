package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// deferredFixture holds a world with three Position+Velocity entities.
type deferredFixture struct {
	w    *ecs.World
	pos  *ecs.Map[Position]
	vel  *ecs.Map[Velocity]
	mass *ecs.Map[Mass]
	q    *ecs.Query2[Position, Velocity]
	es   []ecs.Entity
}

func newDeferredFixture() *deferredFixture {
	w := ecs.NewWorld()
	f := &deferredFixture{w: w, pos: ecs.NewMap[Position](w), vel: ecs.NewMap[Velocity](w),
		mass: ecs.NewMap[Mass](w), q: ecs.NewQuery2[Position, Velocity](w)}
	pv := ecs.NewMap2[Position, Velocity](w)
	for i := range 3 {
		f.es = append(f.es, pv.Spawn(Position{float64(i), 0}, Velocity{1, 1}))
	}
	return f
}

// changes makes one of each structural change and checks none is visible
// yet; it returns the spawned entity.
func (f *deferredFixture) changes(t *testing.T) ecs.Entity {
	t.Helper()
	if !f.w.IsIterating() {
		t.Fatal("IsIterating is false inside a loop")
	}
	f.w.Despawn(f.es[0])
	f.mass.Add(f.es[1], Mass{7})
	f.vel.Remove(f.es[2])
	s := ecs.NewMap2[Position, Velocity](f.w).Spawn(Position{100, 100}, Velocity{})
	if !f.w.Alive(f.es[0]) || f.mass.Has(f.es[1]) || !f.vel.Has(f.es[2]) || f.pos.Has(s) || !f.w.Alive(s) {
		t.Fatal("a structural change took effect inside the loop")
	}
	return s
}

// checkApplied checks the effect of changes after the loop ended.
func (f *deferredFixture) checkApplied(t *testing.T, s ecs.Entity) {
	t.Helper()
	if f.w.IsIterating() {
		t.Fatal("world still iterating after the loop")
	}
	if f.w.Alive(f.es[0]) || f.mass.Get(f.es[1]).V != 7 || f.vel.Has(f.es[2]) || *f.pos.Get(s) != (Position{100, 100}) {
		t.Fatal("deferred changes not applied after the loop")
	}
	if got := f.q.Count(); got != 2 { // es[1] and the spawned one
		t.Fatalf("Count = %d after applying, want 2", got)
	}
}

func TestDeferredInEveryForm(t *testing.T) {
	forms := map[string]func(f *deferredFixture, body func()){
		"chunks": func(f *deferredFixture, body func()) {
			for c := range f.q.Chunks() {
				for range c.Entities {
					body()
				}
			}
		},
		"range": func(f *deferredFixture, body func()) {
			for range f.q.All() {
				body()
			}
		},
		"cursor": func(f *deferredFixture, body func()) {
			it := f.q.Iter()
			for it.Next() {
				body()
			}
		},
		"range-break": func(f *deferredFixture, body func()) {
			for range f.q.All() {
				body()
				break
			}
		},
		"chunks-break": func(f *deferredFixture, body func()) {
			for range f.q.Chunks() {
				body()
				break
			}
		},
		"cursor-close": func(f *deferredFixture, body func()) {
			it := f.q.Iter()
			for it.Next() {
				body()
				break
			}
			it.Close()
			it.Close() // closing twice is harmless
		},
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			f := newDeferredFixture()
			var s ecs.Entity
			visits := 0
			form(f, func() {
				if visits == 0 {
					s = f.changes(t)
				}
				visits++
			})
			if visits == 0 {
				t.Fatal("loop body never ran")
			}
			f.checkApplied(t, s)
		})
	}
}

func TestDeferredOrderIsKept(t *testing.T) {
	f := newDeferredFixture()
	e := f.es[1]
	old := *f.vel.Get(e)
	for range f.q.All() {
		f.mass.Add(e, Mass{1})
		f.mass.Remove(e) // add then remove: absent
		f.vel.Remove(e)
		// A Remove of Velocity is queued, so Set queues an add after it
		// instead of writing now: the value survives the loop.
		f.vel.Set(e, Velocity{9, 9})
		if *f.vel.Get(e) != old {
			t.Fatal("Set after a queued Remove wrote at once")
		}
		f.pos.Remove(f.es[2])
		f.pos.Set(f.es[2], Position{5, 5}) // queued after the Remove: kept
	}
	testhelp.MustPanic(t, func() {
		for range f.q.All() {
			f.pos.Add(f.es[0], Position{}) // present now: panics at once
		}
	}, "Add[ecs_test.Position]", "already has")
	f.w.Recover()
	if f.mass.Has(e) {
		t.Error("add then remove left the component")
	}
	if v, ok := f.vel.TryGet(e); !ok || *v != (Velocity{9, 9}) {
		t.Errorf("remove then Set left Velocity %v, %v; want {9 9}", v, ok)
	}
	if p, ok := f.pos.TryGet(f.es[2]); !ok || *p != (Position{5, 5}) {
		t.Errorf("remove then Set left Position %v, %v; want {5 5}", p, ok)
	}
}

func TestDeferredChangesToDespawnedAreDropped(t *testing.T) {
	f := newDeferredFixture()
	e := f.es[0]
	for range f.q.All() {
		if f.w.Alive(e) && !f.mass.Has(e) {
			f.w.Despawn(e)
			// Still alive now; changes queued after the despawn are
			// dropped when applied, whatever e has now.
			f.mass.Add(e, Mass{1})
			f.pos.Add(e, Position{}) // e has Position now: judged after the despawn
			f.pos.Set(e, Position{1, 1})
			if *f.pos.Get(e) == (Position{1, 1}) {
				t.Error("Set after a queued despawn wrote at once")
			}
			f.pos.Remove(e)
			f.w.Despawn(e) // despawning twice in one batch is harmless
		}
	}
	if f.w.Alive(e) || f.w.Len() != 2 {
		t.Fatalf("Alive=%v Len=%d", f.w.Alive(e), f.w.Len())
	}
}

func TestNestedIterationAppliesAtOutermostEnd(t *testing.T) {
	f := newDeferredFixture()
	pq := ecs.NewQuery1[Position](f.w)
	outer := 0
	for r := range f.q.All() {
		inner := 0
		it := pq.Iter()
		for it.Next() {
			inner++
			if outer == 0 && inner == 1 {
				f.mass.Add(it.Entity(), Mass{3})
			}
		}
		for range pq.Chunks() {
		}
		// The inner loops ended but the outer one runs: still deferred.
		if f.mass.Has(f.es[0]) {
			t.Fatal("change applied when an inner loop ended")
		}
		if inner != 3 {
			t.Fatalf("inner loop saw %d entities, want 3", inner)
		}
		r.A.X += 10 // writes through pointers are immediate
		outer++
	}
	if !f.mass.Has(f.es[0]) || f.pos.Get(f.es[2]).X != 12 {
		t.Fatal("nested change or write lost")
	}
}

func TestPanicInChunksLoopUnlocks(t *testing.T) {
	f := newDeferredFixture()
	var s ecs.Entity
	func() {
		defer func() { _ = recover() }()
		for range f.q.Chunks() {
			s = f.changes(t)
			panic("boom")
		}
	}()
	f.checkApplied(t, s)
}

func TestPanicInRangeOrCursorLoopThenRecover(t *testing.T) {
	for _, form := range []string{"range", "cursor"} {
		t.Run(form, func(t *testing.T) {
			f := newDeferredFixture()
			var s ecs.Entity
			func() {
				defer func() {
					if r := recover(); r != "boom" {
						t.Fatalf("recovered %v", r)
					}
				}()
				if form == "range" {
					for range f.q.All() {
						s = f.changes(t)
						panic("boom")
					}
				} else {
					it := f.q.Iter()
					for it.Next() {
						s = f.changes(t)
						panic("boom")
					}
				}
			}()
			// The world believes the loop still runs: changes stay queued,
			// and more are queued behind them, in order.
			if !f.w.IsIterating() || !f.w.Alive(f.es[0]) {
				t.Fatal("state after the panic is not the documented one")
			}
			f.mass.Remove(f.es[1]) // queued after the add
			f.w.Recover()
			if f.mass.Has(f.es[1]) {
				t.Fatal("change queued after the panic applied out of order")
			}
			f.mass.Add(f.es[1], Mass{7}) // immediate again
			f.checkApplied(t, s)
			f.w.Recover() // no open iteration: does nothing
			if f.w.IsIterating() {
				t.Fatal("Recover left the world iterating")
			}
		})
	}
}

func TestBatchOperationsInsideIterationAreDeferred(t *testing.T) {
	f := newDeferredFixture()
	mq := ecs.NewQuery1[Mass](f.w)
	for range f.q.All() {
		if f.mass.Has(f.es[0]) {
			continue
		}
		f.mass.AddMatching(f.q, Mass{2})
		if f.mass.Has(f.es[0]) {
			t.Fatal("AddMatching applied inside the loop")
		}
	}
	if mq.Count() != 3 {
		t.Fatalf("AddMatching reached %d entities", mq.Count())
	}
	for range mq.All() {
		f.vel.RemoveMatching(mq)
		f.w.DespawnMatching(mq)
	}
	if f.w.Len() != 0 {
		t.Fatalf("Len = %d after deferred DespawnMatching", f.w.Len())
	}
}

func TestCloseAfterRecoverKeepsTheLockBalanced(t *testing.T) {
	f := newDeferredFixture()
	it := f.q.Iter()
	func() {
		defer func() {
			_ = recover()
			f.w.Recover()
		}()
		for it.Next() {
			panic("boom")
		}
	}()
	it.Close() // the cursor's iteration was ended by Recover
	for r := range f.q.All() {
		f.w.Despawn(r.Entity)
		if !f.w.Alive(r.Entity) || !f.w.IsIterating() {
			t.Fatal("a despawn inside a loop was not deferred after Close following Recover")
		}
	}
	if f.w.Len() != 0 || f.w.IsIterating() {
		t.Fatalf("Len %d, iterating %v", f.w.Len(), f.w.IsIterating())
	}
}

func TestSpawnBatchOfZeroOnAFullTable(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pv.SpawnBatch(8, Position{}, Velocity{}) // fills the first allocation exactly
	pv.SpawnBatch(0, Position{}, Velocity{}) // under -race, checkptr rejects a past-the-end address
	pv.SpawnBatchFunc(0, func(ecs.Entity, *Position, *Velocity) { t.Fatal("init called for an empty batch") })
	ecs.NewMap[Position](w).SpawnBatch(0, Position{})
	if w.Len() != 8 {
		t.Fatalf("Len = %d", w.Len())
	}
}

func TestCursorGetAfterTheEndIsNil(t *testing.T) {
	f := newDeferredFixture()
	it := f.q.Iter()
	for it.Next() {
	}
	if p, v := it.Get(); p != nil || v != nil {
		t.Fatal("Get after the end returned an address")
	}
	it = f.q.Iter()
	it.Next()
	it.Close()
	if p, _ := it.Get(); p != nil {
		t.Fatal("Get after Close returned an address")
	}
}

func TestSpawnBatchFuncInitDefersStructuralChanges(t *testing.T) {
	f := newDeferredFixture()
	pv := ecs.NewMap2[Position, Velocity](f.w)
	var made []ecs.Entity
	pv.SpawnBatchFunc(3, func(e ecs.Entity, p *Position, _ *Velocity) {
		if !f.w.IsIterating() {
			t.Fatal("init runs with structural changes immediate")
		}
		made = append(made, e)
		f.w.Despawn(e)                   // deferred until the batch ends
		pv.Spawn(Position{}, Velocity{}) // likewise
		p.X = 42                         // still lands in the right row
		f.mass.AddMatching(f.q, Mass{1}) // likewise
	})
	for _, e := range made {
		if f.w.Alive(e) {
			t.Fatal("despawn inside init lost")
		}
	}
	if f.q.Count() != 6 || f.mass.Has(made[0]) {
		t.Fatalf("Count = %d after the batch", f.q.Count())
	}
}

func TestRecoverInsideALiveLoopKeepsTheCountBalanced(t *testing.T) {
	f := newDeferredFixture()
	for range f.q.Chunks() {
		f.w.Recover() // misuse: the loop is still running
	}
	for range f.q.All() {
		f.w.Recover()
	}
	for r := range f.q.All() {
		f.w.Despawn(r.Entity)
		if !f.w.Alive(r.Entity) {
			t.Fatal("the iteration count went negative: despawn not deferred")
		}
	}
	if f.w.Len() != 0 {
		t.Fatalf("Len = %d", f.w.Len())
	}
}
