package sched

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// TestPoolRunsEveryItemOnce: whatever the number of items, workers and
// spin, every item of a job runs exactly once, also when items start jobs
// of their own (which the waiting goroutines help with), and do returns
// only after all of them.
func TestPoolRunsEveryItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 5, 8} {
		for _, spin := range []time.Duration{0, 50 * time.Microsecond} {
			p := newPool(workers, spin)
			for n := 0; n <= 40; n++ {
				t.Run(fmt.Sprintf("workers=%d/spin=%v/n=%d", workers, spin, n), func(t *testing.T) {
					outer := make([]atomic.Int32, n)
					inner := make([]atomic.Int32, n*7)
					p.do(0, n, func(i, who int) {
						if who < 0 || who >= workers {
							t.Errorf("item %d ran on worker %d of %d", i, who, workers)
						}
						outer[i].Add(1)
						p.do(who, 7, func(k, _ int) { inner[i*7+k].Add(1) }, itemLabel, nil)
					}, itemLabel, nil)
					for i := range outer {
						if got := outer[i].Load(); got != 1 {
							t.Fatalf("item %d ran %d times", i, got)
						}
					}
					for i := range inner {
						if got := inner[i].Load(); got != 1 {
							t.Fatalf("nested item %d of item %d ran %d times", i%7, i/7, got)
						}
					}
				})
			}
			p.close()
		}
	}
}

func itemLabel(i int) string { return fmt.Sprint("item ", i) }

// TestPoolSharesAreContiguous: a worker that is free from the start runs a
// contiguous share of the items, its own, before it steals.
func TestPoolSharesAreContiguous(t *testing.T) {
	p := newPool(2, time.Millisecond)
	defer p.close()
	const n = 64
	who := make([]int, n)
	var started atomic.Int32
	p.do(0, n, func(i, w int) {
		if started.Add(1) == 1 {
			// Hold the first item until the other worker has started, so
			// both take part.
			for deadline := time.Now().Add(5 * time.Second); started.Load() < 2 && time.Now().Before(deadline); {
			}
		}
		who[i] = w
		time.Sleep(20 * time.Microsecond)
	}, itemLabel, nil)
	if who[0] != 0 {
		t.Errorf("item 0 ran on worker %d, want the caller (0)", who[0])
	}
	if started.Load() != n {
		t.Fatalf("%d items started, want %d", started.Load(), n)
	}
	if who[n/2] != 1 {
		t.Errorf("item %d (the first of worker 1's share) ran on worker %d; items by worker: %v", n/2, who[n/2], who)
	}
}

// TestRunOrderPutsRecordingSystemsFirst: within a stage, the systems that
// record structural changes come first (for the caller's share), each group
// in the order of record.
func TestRunOrderPutsRecordingSystemsFirst(t *testing.T) {
	mk := func(name string, d decl) *system { return &system{name: name, decl: d} }
	st := []*system{
		mk("read", decl{}),
		mk("spawn", decl{spawns: true}),
		mk("write", decl{}),
		mk("structural", decl{structural: true}),
		mk("late", decl{atTickEnd: true, spawns: true}),
	}
	var got []string
	for _, x := range runOrder(st) {
		got = append(got, x.name)
	}
	want := []string{"spawn", "structural", "late", "read", "write"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("runOrder = %v, want %v", got, want)
	}
}

// TestPoolWorkersKeepTheirSharesOfConcurrentJobs: when two jobs run at once
// (a stage of two systems that each split the same rows), each worker runs
// its own share of both, the rows it ran before, rather than the whole of
// the job it happens to be in: between its own items a worker takes its
// share of the job the other one started.
func TestPoolWorkersKeepTheirSharesOfConcurrentJobs(t *testing.T) {
	p := newPool(2, time.Millisecond)
	defer p.close()
	const n = 24
	var ran [2][n]int // job, item: the worker that ran it
	p.do(0, 2, func(job, who int) {
		p.do(who, n, func(i, w int) {
			time.Sleep(200 * time.Microsecond)
			ran[job][i] = w
		}, itemLabel, nil)
	}, itemLabel, nil)
	for job := range ran {
		own := 0
		for i, w := range ran[job] {
			if w == i*2/n { // share k is items [k*n/2, (k+1)*n/2)
				own++
			}
		}
		if own < n*3/4 {
			t.Errorf("job %d: %d of %d items ran on the worker whose share they are in (%v), want most", job, own, n, ran[job])
		}
	}
}

// TestPoolClosesWhileWorkersHelp closes pools right after jobs whose
// workers may still be offering their own job again between items (help):
// close must neither race with that offer nor make it send on a closed
// channel. Run it with -race.
func TestPoolClosesWhileWorkersHelp(t *testing.T) {
	for _, workers := range []int{2, 3, 5} {
		for range 100 {
			p := newPool(workers, 0)
			var ran atomic.Int32
			p.do(0, 16, func(_, who int) {
				ran.Add(1)
				p.do(who, 3, func(int, int) { ran.Add(1) }, itemLabel, nil)
			}, itemLabel, nil)
			p.close()
			if got := ran.Load(); got != 16*4 {
				t.Fatalf("%d workers: %d of %d items ran", workers, got, 16*4)
			}
		}
	}
}
