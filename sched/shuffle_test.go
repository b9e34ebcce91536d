package sched_test

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

// startOrders runs, on one worker, five systems that conflict with nothing
// (one stage), a writer and a reader of Pos, and two systems ordered by
// After, for ticks ticks, and returns the order in which the systems
// started, one line per tick.
func startOrders(t *testing.T, ticks int, opts ...sched.SchedulerOption) []string {
	w := ecs.NewWorld()
	s := sched.New(w, append([]sched.SchedulerOption{sched.Workers(1)}, opts...)...)
	defer s.Close()
	var started []string
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		mustAdd(t, s, name, func() { started = append(started, name) })
	}
	mustAdd(t, s, "write", func() { started = append(started, "write") }, sched.Writes[Pos]())
	mustAdd(t, s, "read", func() { started = append(started, "read") }, sched.Reads[Pos]())
	mustAdd(t, s, "later", func() { started = append(started, "later") }, sched.After("sooner"))
	mustAdd(t, s, "sooner", func() { started = append(started, "sooner") })
	var out []string
	for range ticks {
		started = started[:0]
		s.Run()
		out = append(out, strings.Join(started, " "))
	}
	return out
}

// TestShuffleStartOrder: Shuffle starts the systems of a stage in an order
// drawn for each tick from the seed, the same for the same seed, and keeps
// the systems that conflict or are ordered in their order.
func TestShuffleStartOrder(t *testing.T) {
	const ticks = 12
	plain := startOrders(t, ticks)
	for _, line := range plain[1:] {
		if line != plain[0] {
			t.Fatalf("without Shuffle the order changed from %q to %q", plain[0], line)
		}
	}
	one, again, two := startOrders(t, ticks, sched.Shuffle(1)), startOrders(t, ticks, sched.Shuffle(1)), startOrders(t, ticks, sched.Shuffle(2))
	if !slices.Equal(one, again) {
		t.Fatalf("seed 1 twice:\n%q\n%q", one, again)
	}
	if slices.Equal(one, two) {
		t.Fatalf("seeds 1 and 2 drew the same orders: %q", one)
	}
	differs := false
	for tick, line := range one {
		fields := strings.Fields(line)
		if !slices.Equal(slices.Sorted(slices.Values(fields)), slices.Sorted(slices.Values(strings.Fields(plain[0])))) {
			t.Fatalf("tick %d ran %q, not the systems of %q", tick, line, plain[0])
		}
		at := func(name string) int { return slices.Index(fields, name) }
		if at("write") > at("read") || at("sooner") > at("later") {
			t.Fatalf("tick %d: %q runs a system before one it must follow", tick, line)
		}
		differs = differs || line != plain[0]
	}
	if !differs {
		t.Fatalf("Shuffle(1) kept the order of record for %d ticks: %q", ticks, one)
	}
}

// forEachOrders runs one ForEach of n items, and a second one of n items,
// per tick on one worker, and returns the order in which the items ran,
// per tick and call.
func forEachOrders(t *testing.T, ticks, n int, opts ...sched.SchedulerOption) [][2][]int {
	w := ecs.NewWorld()
	s := sched.New(w, append([]sched.SchedulerOption{sched.Workers(1)}, opts...)...)
	defer s.Close()
	items := make([]int, n)
	for i := range items {
		items[i] = i
	}
	var cur [2][]int
	mustAdd(t, s, "loop", func(ctx *sched.Context) {
		for k := range cur {
			sched.ForEach(ctx, items, func(i int) { cur[k] = append(cur[k], i) })
		}
	})
	var out [][2][]int
	for range ticks {
		cur = [2][]int{}
		s.Run()
		out = append(out, cur)
	}
	return out
}

// TestShuffleForEachOrder: with one worker, Shuffle runs each ForEach's
// items in an order drawn from the seed, each item once, another order for
// the next call of the same Update, the same orders for the same seed.
func TestShuffleForEachOrder(t *testing.T) {
	const ticks, n = 6, 40
	identity := make([]int, n)
	for i := range identity {
		identity[i] = i
	}
	for _, c := range forEachOrders(t, ticks, n) {
		if !slices.Equal(c[0], identity) || !slices.Equal(c[1], identity) {
			t.Fatalf("without Shuffle one worker ran the items in the order %v", c)
		}
	}
	got := forEachOrders(t, ticks, n, sched.Shuffle(7))
	if again := forEachOrders(t, ticks, n, sched.Shuffle(7)); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Fatalf("seed 7 twice gave other orders:\n%v\n%v", got, again)
	}
	if other := forEachOrders(t, ticks, n, sched.Shuffle(8)); fmt.Sprint(other) == fmt.Sprint(got) {
		t.Fatal("seeds 7 and 8 gave the same orders")
	}
	for tick, c := range got {
		for k, order := range c {
			if !slices.Equal(slices.Sorted(slices.Values(order)), identity) {
				t.Fatalf("tick %d call %d ran %v: not every item once", tick, k, order)
			}
			if slices.Equal(order, identity) {
				t.Fatalf("tick %d call %d ran the items in order", tick, k)
			}
		}
		if slices.Equal(c[0], c[1]) {
			t.Fatalf("tick %d: both calls drew the order %v", tick, c[0])
		}
	}
	if slices.Equal(got[0][0], got[1][0]) {
		t.Fatal("two ticks drew the same order")
	}
}

// TestShuffleForEachOnWorkers: on several workers every item runs exactly
// once under Shuffle, and a panic names the item that panicked.
func TestShuffleForEachOnWorkers(t *testing.T) {
	for _, workers := range []int{2, 4} {
		w := ecs.NewWorld()
		s := sched.New(w, sched.Workers(workers), sched.Shuffle(uint64(workers)))
		items := make([]int, 1000)
		for i := range items {
			items[i] = i
		}
		runs := make([]atomic.Int32, len(items))
		mustAdd(t, s, "count", func(ctx *sched.Context) {
			sched.ForEach(ctx, items, func(i int) { runs[i].Add(1) })
			sched.ForEach(ctx, items[:3], func(i int) { // fewer items than workers, and one
				runs[i].Add(1)
				sched.ForEach(ctx, items[i:i+1], func(i int) { runs[i].Add(1) })
			})
		})
		const ticks = 20
		for range ticks {
			s.Run()
		}
		for i := range runs {
			want := int32(ticks)
			if i < 3 {
				want = 3 * ticks
			}
			if got := runs[i].Load(); got != want {
				t.Fatalf("%d workers: item %d ran %d times in %d ticks, want %d", workers, i, got, ticks, want)
			}
		}
		mustAdd(t, s, "fail", func(ctx *sched.Context) {
			sched.ForEach(ctx, items[:50], func(i int) {
				if i == 37 {
					panic("item 37")
				}
			})
		})
		testhelp.MustPanic(t, s.Run, `system "fail", item 37 panicked: item 37`)
		if plan := s.Plan(); !strings.Contains(plan, fmt.Sprintf("shuffled with seed %d", workers)) {
			t.Fatalf("the plan does not name the seed:\n%s", plan)
		}
		s.Close()
	}
}

// TestDeterministicUnderShuffle: determinismRun's world, with its spawns,
// despawns, outputs and data-parallel loops, is the same under every
// shuffle seed, on one worker and on two, as without Shuffle.
func TestDeterministicUnderShuffle(t *testing.T) {
	ticks, seeds := 300, uint64(6)
	if testing.Short() {
		ticks, seeds = 100, 3
	}
	want, _, _, _ := determinismRun(t, 1, ticks)
	for seed := range seeds {
		for _, workers := range []int{1, 2} {
			if got, _, _, _ := determinismRun(t, workers, ticks, sched.Shuffle(seed)); got != want {
				t.Errorf("Shuffle(%d) on %d workers: hash %016x, without Shuffle %016x", seed, workers, got, want)
			}
		}
	}
}
