package sched_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

// runRecovered runs one tick and returns what it panicked with, if anything.
func runRecovered(s *sched.Scheduler) (r any) {
	defer func() { r = recover() }()
	s.Run()
	return nil
}

// A hook that panics while the end-of-tick buffers apply fails that tick
// only: the world is recovered and the next tick runs.
func TestHookPanicAtTickEndLeavesTheWorldUsable(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	pos := ecs.NewMap[Pos](w)
	boom := true
	ecs.OnAdd(w, func(ecs.Entity, *Pos) {
		if boom {
			boom = false
			panic("hook boom")
		}
	})
	q := ecs.NewQuery1[Pos](w)
	s.AddFunc("spawner", func(ctx *sched.Context) {
		c := ctx.Commands()
		pos.SetCmd(c, c.Spawn(), Pos{X: 1})
	}, sched.Spawns(), sched.Adds[Pos](), sched.ApplyAtTickEnd())
	s.AddFunc("reader", func(*sched.Context) {
		for range q.All() {
		}
	}, sched.Reads[Pos]())
	if r := runRecovered(s); r == nil {
		t.Fatal("the hook's panic was lost")
	}
	if r := runRecovered(s); r != nil {
		t.Fatalf("the tick after a hook panic at the end of a tick failed: %v", r)
	}
	if w.IsIterating() || q.Count() != 2 {
		t.Fatalf("iterating %v, %d entities with Pos; want false and 2", w.IsIterating(), q.Count())
	}
}

// When a hook or the merge function panics during an Output's merge, the
// stage's values count neither as applied nor as dropped: Applied +
// Dropped stays the number of values emitted in completed stages.
func TestOutputCountsOnlyCompletedStages(t *testing.T) {
	for _, where := range []string{"hook", "merge"} {
		t.Run(where, func(t *testing.T) {
			w := ecs.NewWorld()
			s := sched.New(w, sched.Workers(1))
			defer s.Close()
			hp := ecs.NewMap[Health](w)
			a, b, c := hp.Spawn(Health{}), hp.Spawn(Health{}), hp.Spawn(Health{})
			fail := true
			if where == "hook" {
				ecs.OnSet(w, func(e ecs.Entity, _ *Health) {
					if fail && e == b {
						panic("boom")
					}
				})
			}
			out := sched.NewOutput(s, func(cur, next Health) Health {
				if fail && where == "merge" && next.HP == 7 {
					panic("boom")
				}
				return Health{cur.HP + next.HP}
			})
			s.AddFunc("emit", func(ctx *sched.Context) {
				out.Emit(ctx, a, Health{1})
				out.Emit(ctx, b, Health{7})
				out.Emit(ctx, c, Health{1})
			}, sched.Emits[Health]())
			if r := runRecovered(s); r == nil {
				t.Fatal("no panic")
			}
			if out.Applied() != 0 || out.Dropped() != 0 {
				t.Fatalf("after a failed stage: applied %d, dropped %d; want 0, 0", out.Applied(), out.Dropped())
			}
			fail = false
			s.Run()
			if out.Applied() != 3 || out.Dropped() != 0 {
				t.Fatalf("after a good stage: applied %d, dropped %d; want 3, 0", out.Applied(), out.Dropped())
			}
		})
	}
}

// An Output belongs to one scheduler: a system of another emitting into it
// panics, naming the system, instead of writing into a stranger's buffer.
func TestEmitIntoAnotherSchedulersOutputPanics(t *testing.T) {
	w1, w2 := ecs.NewWorld(), ecs.NewWorld()
	s1, s2 := sched.New(w1, sched.Workers(1)), sched.New(w2, sched.Workers(1))
	defer s1.Close()
	defer s2.Close()
	out := sched.NewOutput[Health](s1, nil)
	s1.AddFunc("mine", func(*sched.Context) {}, sched.Emits[Health]())
	e := w2.Spawn()
	s2.AddFunc("a", func(*sched.Context) {})
	s2.AddFunc("stranger", func(ctx *sched.Context) { out.Emit(ctx, e, Health{99}) }, sched.Emits[Health]())
	testhelp.MustPanic(t, s2.Run, `system "stranger": Emit[sched_test.Health] into an Output of another scheduler`)
	s1.Run()
	if out.Dropped() != 0 || out.Applied() != 0 {
		t.Fatalf("the stranger's value reached the output: applied %d, dropped %d", out.Applied(), out.Dropped())
	}
}

// Func(nil) is a nil system, refused at registration.
func TestAddRefusesANilFunc(t *testing.T) {
	s := sched.New(ecs.NewWorld())
	defer s.Close()
	testhelp.MustPanic(t, func() { s.Add("nil", sched.Func(nil)) }, `sched: Add "nil": nil system`)
}

// Count is checked in debug mode like a pass: it depends on the query's
// terms and filters.
func TestDebugModeChecksCount(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.NewQuery1[Pos](w, ecs.With(ecs.C[Vel]()))
	s := sched.New(w, sched.Debug())
	defer s.Close()
	s.AddFunc("count", func(*sched.Context) { _ = q.Count() }, sched.Reads[Pos]())
	testhelp.MustPanic(t, s.Run, `system "count" reads component sched_test.Vel (query filter)`)
}
