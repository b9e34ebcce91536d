package sched_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type Warmth float32

// foldWorld runs a program whose outputs take the parallel fold on more
// than one worker: three systems emit float deltas (Sum, whose result
// depends on the order of the adds) for 30,000 entities, some of them
// several times, some without Warmth (they gain it, in first-value order),
// some dead, and a LastWins output for the same entities. It returns the
// world's checksum, the outputs' counts and the iteration order of Warmth.
func foldWorld(t *testing.T, workers int, opts ...sched.SchedulerOption) (uint64, [4]int, []ecs.Entity) {
	t.Helper()
	w := ecs.NewWorld()
	heat, score := ecs.NewMap[Warmth](w), ecs.NewMap[Score](w)
	const n = 30_000
	es := make([]ecs.Entity, n)
	for i := range es {
		if i%7 == 3 {
			es[i] = w.Spawn() // no Warmth: gains it from its first value
			continue
		}
		es[i] = heat.Spawn(Warmth(float32(i) * 0.37))
		score.Add(es[i], Score{i})
	}
	for i := 5; i < n; i += 101 {
		w.Despawn(es[i]) // values for it are dropped
	}
	s := sched.New(w, append([]sched.SchedulerOption{sched.Workers(workers)}, opts...)...)
	defer s.Close()
	sum := sched.NewOutput(s, sched.Sum[Warmth])
	last := sched.NewOutput(s, sched.LastWins[Score])
	for k, name := range []string{"a", "b", "c"} {
		s.AddFunc(name, func(ctx *sched.Context) {
			for i := n - 1 - k; i >= 0; i -= 1 + k { // a different order and subset per system
				sum.Emit(ctx, es[i], Warmth(float32(float32(i%13)*0.1)+float32(float32(k)*0.013)))
				if i%3 == k {
					sum.Emit(ctx, es[i], Warmth(-0.5))
					last.Emit(ctx, es[i], Score{i*10 + k})
				}
			}
		}, sched.Emits[Warmth](), sched.Emits[Score]())
	}
	for range 3 {
		s.Run()
	}
	var order []ecs.Entity
	for r := range ecs.NewQuery1[Warmth](w).All() {
		order = append(order, r.Entity)
	}
	return w.Checksum(), [4]int{sum.Applied(), sum.Dropped(), last.Applied(), last.Dropped()}, order
}

// TestParallelFoldMatchesOneWorker checks that outputs folded on several
// workers leave the world of a one-worker fold, bit for bit: values, the
// order in which entities gain the component, and the counts.
func TestParallelFoldMatchesOneWorker(t *testing.T) {
	want, wantCounts, wantOrder := foldWorld(t, 1)
	if wantCounts[1] == 0 || wantCounts[0] < 30_000 {
		t.Fatalf("counts %v: the program must apply many values and drop some", wantCounts)
	}
	for _, workers := range []int{2, 3, 8} {
		for _, opts := range [][]sched.SchedulerOption{nil, {sched.Shuffle(11)}} {
			got, counts, order := foldWorld(t, workers, opts...)
			if got != want || counts != wantCounts {
				t.Fatalf("%d workers, %d options: checksum %016x counts %v, one worker %016x %v", workers, len(opts), got, counts, want, wantCounts)
			}
			if len(order) != len(wantOrder) {
				t.Fatalf("%d workers: %d entities with Warmth, one worker %d", workers, len(order), len(wantOrder))
			}
			for i := range order {
				if order[i].Index() != wantOrder[i].Index() || order[i].String() != wantOrder[i].String() {
					t.Fatalf("%d workers: entity %d with Warmth is %v, one worker %v", workers, i, order[i], wantOrder[i])
				}
			}
		}
	}
}

// TestParallelFoldKeepsStatefulMergesSerial checks that a merge of the
// program's own, which may keep state, is called on one goroutine, in
// emission order, even with several workers and many values.
func TestParallelFoldKeepsStatefulMergesSerial(t *testing.T) {
	w := ecs.NewWorld()
	heat := ecs.NewMap[Warmth](w)
	const n = 10_000
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = heat.Spawn(0)
	}
	s := sched.New(w, sched.Workers(4))
	defer s.Close()
	var seen []Warmth // appended to by the merge: a race if two goroutines call it
	out := sched.NewOutput(s, func(cur, next Warmth) Warmth { seen = append(seen, next); return cur + next })
	s.AddFunc("emit", func(ctx *sched.Context) {
		for i, e := range es {
			out.Emit(ctx, e, Warmth(i))
		}
	}, sched.Emits[Warmth]())
	s.Run()
	if len(seen) != n {
		t.Fatalf("the merge was called %d times, want %d", len(seen), n)
	}
	for i, v := range seen {
		if v != Warmth(i) {
			t.Fatalf("call %d merged %v, want %v: not in emission order", i, v, Warmth(i))
		}
	}
}
