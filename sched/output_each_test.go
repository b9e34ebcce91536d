package sched_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

type eachHeat float32

// eachWorld runs a program in which two systems emit float deltas (Sum,
// whose bits depend on the order of the adds) and marks (LastWins, where
// the last value shows the order) for n entities, some of them dead and
// some without the component. With perItem, the bulk of the values goes
// through ForEachEmit over row ranges, between plain Emits before and
// after it; without, the same values go through Emit in the same order on
// one goroutine. It returns the world's checksum and the outputs' counts.
func eachWorld(t *testing.T, n, workers int, perItem bool, opts ...sched.SchedulerOption) (uint64, [4]int) {
	t.Helper()
	w := ecs.NewWorld()
	heat, mark := ecs.NewMap[eachHeat](w), ecs.NewMap[Score](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		if i%9 == 2 {
			es[i] = w.Spawn() // no component: gains them from the first values
			continue
		}
		es[i] = heat.Spawn(eachHeat(float32(i) * 0.25))
		mark.Add(es[i], Score{-i})
	}
	for i := 3; i < len(es); i += 50 {
		w.Despawn(es[i])
	}
	s := sched.New(w, append([]sched.SchedulerOption{sched.Workers(workers)}, opts...)...)
	defer s.Close()
	sum := sched.NewOutput(s, sched.Sum[eachHeat])
	last := sched.NewOutput(s, sched.LastWins[Score])
	type span struct{ lo, hi int }
	var spans []span
	for lo := 0; lo < len(es); lo += 700 { // uneven pieces, some with no values
		spans = append(spans, span{lo, min(lo+700, len(es))})
	}
	for k, name := range []string{"a", "b"} {
		delta := func(i int) eachHeat { return eachHeat(float32(i%11)*0.1 + float32(k)*0.01) }
		s.AddFunc(name, func(ctx *sched.Context) {
			last.Emit(ctx, es[k], Score{1000 + k}) // before: overwritten below
			body := func(sp span, emit func(e ecs.Entity, h eachHeat, sc Score, both bool)) {
				for i := sp.lo; i < sp.hi; i++ {
					if (i/700)%4 == 3 {
						continue // an item that emits nothing
					}
					emit(es[i], delta(i), Score{i*10 + k}, i%3 == k)
				}
			}
			if perItem {
				// Two calls: the sum's values first, then the marks.
				sched.ForEachEmit(ctx, sum, spans, func(sp span, out *sched.Emitter[eachHeat]) {
					body(sp, func(e ecs.Entity, h eachHeat, _ Score, both bool) {
						out.Emit(e, h)
						if both {
							out.Emit(e, -h/2)
						}
					})
				})
				sched.ForEachEmit(ctx, last, spans, func(sp span, out *sched.Emitter[Score]) {
					body(sp, func(e ecs.Entity, _ eachHeat, sc Score, _ bool) { out.Emit(e, sc) })
				})
			} else {
				for _, sp := range spans {
					body(sp, func(e ecs.Entity, h eachHeat, _ Score, both bool) {
						sum.Emit(ctx, e, h)
						if both {
							sum.Emit(ctx, e, -h/2)
						}
					})
				}
				for _, sp := range spans {
					body(sp, func(e ecs.Entity, _ eachHeat, sc Score, _ bool) { last.Emit(ctx, e, sc) })
				}
			}
			last.Emit(ctx, es[len(es)-1-k], Score{2000 + k}) // after: wins
		}, sched.Emits[eachHeat](), sched.Emits[Score]())
	}
	for range 3 {
		s.Run()
	}
	return w.Checksum(), [4]int{sum.Applied(), sum.Dropped(), last.Applied(), last.Dropped()}
}

// TestForEachEmitMatchesOneGoroutine checks that values emitted per item
// reach the world as if one goroutine had emitted them item by item: the
// same checksum and counts as plain Emits, on 1, 2 and 4 workers, with the
// items run in shuffled orders, and with enough values for the gather to
// be split over the workers.
func TestForEachEmitMatchesOneGoroutine(t *testing.T) {
	for _, n := range []int{3000, 40_000} {
		want, wantCounts := eachWorld(t, n, 1, false)
		for _, workers := range []int{1, 2, 4} {
			got, counts := eachWorld(t, n, workers, true)
			if got != want || counts != wantCounts {
				t.Errorf("n=%d, %d workers: checksum %x, counts %v; plain Emit gives %x, %v", n, workers, got, counts, want, wantCounts)
			}
		}
		for _, seed := range []uint64{1, 2} {
			if got, counts := eachWorld(t, n, 2, true, sched.Shuffle(seed)); got != want || counts != wantCounts {
				t.Errorf("n=%d, shuffled with seed %d: checksum %x, counts %v; want %x, %v", n, seed, got, counts, want, wantCounts)
			}
		}
		if wantCounts[1] == 0 || wantCounts[0] < n {
			t.Fatalf("n=%d: counts %v: the program should drop values for dead entities and apply at least n", n, wantCounts)
		}
	}
}

// TestForEachEmitMisuse checks the refusals: an Emitter kept past its
// item, Output.Emit and Commands inside the items, ForEachEmit inside a
// ForEach, an Output of another scheduler, and in debug mode a system that
// did not declare Emits. Each fails loudly, and the scheduler runs again
// afterwards.
func TestForEachEmitMisuse(t *testing.T) {
	w := ecs.NewWorld()
	e := ecs.NewMap[Health](w).Spawn(Health{})
	items := []int{1, 2, 3}
	cases := []struct {
		name  string
		body  func(ctx *sched.Context, out *sched.Output[Health], other *sched.Output[Health])
		parts []string
	}{
		{"kept Emitter", func(ctx *sched.Context, out, _ *sched.Output[Health]) {
			var kept *sched.Emitter[Health]
			sched.ForEachEmit(ctx, out, items, func(i int, em *sched.Emitter[Health]) {
				if i == items[0] {
					kept = em
				}
			})
			kept.Emit(e, Health{1})
		}, []string{`system "sys"`, "after its ForEachEmit item returned"}},
		{"Output.Emit inside", func(ctx *sched.Context, out, _ *sched.Output[Health]) {
			sched.ForEachEmit(ctx, out, items, func(i int, _ *sched.Emitter[Health]) { out.Emit(ctx, e, Health{i}) })
		}, []string{`system "sys"`, "inside ForEach"}},
		{"Commands inside", func(ctx *sched.Context, out, _ *sched.Output[Health]) {
			sched.ForEachEmit(ctx, out, items, func(int, *sched.Emitter[Health]) { ctx.Commands() })
		}, []string{"Commands called inside ForEach"}},
		{"inside ForEach", func(ctx *sched.Context, out, _ *sched.Output[Health]) {
			sched.ForEach(ctx, items, func(int) {
				sched.ForEachEmit(ctx, out, items, func(int, *sched.Emitter[Health]) {})
			})
		}, []string{`system "sys"`, "inside ForEach"}},
		{"another scheduler", func(ctx *sched.Context, _, other *sched.Output[Health]) {
			sched.ForEachEmit(ctx, other, items, func(int, *sched.Emitter[Health]) {})
		}, []string{"Output of another scheduler"}},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			t.Run(c.name, func(t *testing.T) {
				s := sched.New(w, sched.Workers(workers))
				defer s.Close()
				s2 := sched.New(ecs.NewWorld())
				defer s2.Close()
				out, other := sched.NewOutput[Health](s, nil), sched.NewOutput[Health](s2, nil)
				mustAdd(t, s, "sys", func(ctx *sched.Context) { c.body(ctx, out, other) }, sched.Emits[Health](), sched.Structural())
				testhelp.MustPanic(t, s.Run, c.parts...)
				s.Enable("sys", false)
				mustAdd(t, s, "fine", func(ctx *sched.Context) {
					sched.ForEachEmit(ctx, out, items, func(i int, em *sched.Emitter[Health]) { em.Emit(e, Health{i}) })
				}, sched.Emits[Health]())
				s.Run()
				if got := out.Applied(); got != len(items) {
					t.Fatalf("after the refused tick, a clean ForEachEmit applied %d values, want %d", got, len(items))
				}
			})
		}
	}
	t.Run("undeclared in debug mode", func(t *testing.T) {
		s := sched.New(w, sched.Debug())
		defer s.Close()
		out := sched.NewOutput[Health](s, nil)
		mustAdd(t, s, "sys", func(ctx *sched.Context) {
			sched.ForEachEmit(ctx, out, items, func(int, *sched.Emitter[Health]) {})
		})
		testhelp.MustPanic(t, s.Run, `system "sys"`, "sched.Emits[sched_test.Health]()")
	})
}

// TestForEachEmitPanicDropsTheCall checks that a panic in an item fails the
// tick with the system and item named, that the call's values are dropped
// (none of them reaches the world), and that the next tick runs.
func TestForEachEmitPanicDropsTheCall(t *testing.T) {
	for _, workers := range []int{1, 2} {
		w := ecs.NewWorld()
		hp := ecs.NewMap[Health](w)
		e := hp.Spawn(Health{7})
		s := sched.New(w, sched.Workers(workers))
		out := sched.NewOutput(s, func(a, b Health) Health { return Health{a.HP + b.HP} })
		boom := true
		mustAdd(t, s, "sys", func(ctx *sched.Context) {
			sched.ForEachEmit(ctx, out, []int{0, 1, 2, 3}, func(i int, em *sched.Emitter[Health]) {
				em.Emit(e, Health{1})
				if boom && i == 2 {
					panic("item boom")
				}
			})
		}, sched.Emits[Health]())
		testhelp.MustPanic(t, s.Run, `system "sys"`, "item 2", "item boom")
		if got := hp.Get(e).HP; got != 7 {
			t.Fatalf("%d workers: after the failed tick Health is %d, want 7 (the call's values dropped)", workers, got)
		}
		boom = false
		s.Run()
		if got := hp.Get(e).HP; got != 11 {
			t.Fatalf("%d workers: after a clean tick Health is %d, want 11", workers, got)
		}
		s.Close()
	}
}
