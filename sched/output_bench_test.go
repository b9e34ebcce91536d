package sched

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// outputHP is the component the output benchmarks write: a float64 folded
// with Sum, the per-entity deltas of a game tick.
type outputHP float64

// outputFixture is a world of entities with outputHP and a scheduler with S
// emitting systems, built but never run: the benchmarks drive Emit and sync
// themselves, on one goroutine.
type outputFixture struct {
	s     *Scheduler
	m     *ecs.Map[outputHP]
	o     *Output[outputHP]
	ents  []ecs.Entity // in table order
	stage []*system
	share bool // system j emits to entities i with i%S == j; else every system to every entity
}

func newOutputFixture(b *testing.B, n, systems int, share bool) *outputFixture {
	return newOutputFixtureOn(b, 1, n, systems, share)
}

// newOutputFixtureOn is newOutputFixture with a scheduler of the given
// number of workers, which the sync may split its fold over.
func newOutputFixtureOn(b *testing.B, workers, n, systems int, share bool) *outputFixture {
	w := ecs.NewWorld()
	s := New(w, Workers(workers))
	b.Cleanup(s.Close)
	m := ecs.NewMap[outputHP](w)
	ents := n
	if !share {
		ents = n / systems // n outputs in all: each entity gets one per system
	}
	m.SpawnBatch(ents, 100)
	f := &outputFixture{s: s, m: m, share: share}
	for r := range ecs.NewQuery1[outputHP](w).All() {
		f.ents = append(f.ents, r.Entity)
	}
	f.o = NewOutput(s, Sum[outputHP])
	f.stage = oneStage(b, s, "emit", systems, Emits[outputHP]())
	return f
}

// oneStage adds n systems that do nothing, named prefix0, prefix1, ...,
// each declared with opt, builds s and returns its one stage: systems that
// may share a stage (emitters, senders) for benchmarks that drive their
// appends and the stage's sync themselves.
func oneStage(b *testing.B, s *Scheduler, prefix string, n int, opt Option) []*system {
	for j := range n {
		s.AddFunc(fmt.Sprintf("%s%d", prefix, j), func(*Context) {}, opt)
	}
	if err := s.Build(); err != nil {
		b.Fatal(err)
	}
	if len(s.stages) != 1 {
		b.Fatalf("%d stages, want the %s systems in one", len(s.stages), prefix)
	}
	return s.stages[0]
}

// delta is the value emitted to the i-th entity: varied so that the fold is
// not a constant the compiler could see through.
func delta(i int) outputHP { return outputHP(i&7) - 3.5 }

// emitAndMerge is one tick of the merge path: each system emits its deltas
// (system j to entities i with i%S == j, or to all), then the stage's sync
// merges them into the world.
func emitAndMerge(f *outputFixture) {
	o, s := f.o, len(f.stage)
	for j, x := range f.stage {
		ctx := &x.ctx
		if f.share {
			for i := j; i < len(f.ents); i += s {
				o.Emit(ctx, f.ents[i], delta(i))
			}
		} else {
			for i, e := range f.ents {
				o.Emit(ctx, e, delta(i))
			}
		}
	}
	o.sync(f.stage)
}

// writeDirect is the same tick written directly: the same deltas, in the
// same order, added through the component's Map.
func writeDirect(f *outputFixture) {
	m, s := f.m, len(f.stage)
	for j := range f.stage {
		if f.share {
			for i := j; i < len(f.ents); i += s {
				*m.Get(f.ents[i]) += delta(i)
			}
		} else {
			for i, e := range f.ents {
				*m.Get(e) += delta(i)
			}
		}
	}
}

type outputShape struct {
	name  string
	share bool
}

var (
	outputShapes = []outputShape{{"share", true}, {"all", false}}
	outputSizes  = []struct {
		name string
		n    int
	}{{"10k", 10_000}, {"100k", 100_000}, {"1M", 1_000_000}}
	outputSystems = []int{1, 4, 16}
)

func benchOutput(b *testing.B, kernel func(*outputFixture)) {
	for _, sh := range outputShapes {
		for _, sz := range outputSizes {
			for _, systems := range outputSystems {
				if !sh.share && systems == 1 {
					continue // the same as share with one system
				}
				b.Run(fmt.Sprintf("to=%s/N=%s/S=%d", sh.name, sz.name, systems), func(b *testing.B) {
					f := newOutputFixture(b, sz.n, systems, sh.share)
					kernel(f) // warm: buffers and scratch at their working size
					b.ReportAllocs()
					for b.Loop() {
						kernel(f)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sz.n), "ns/output")
				})
			}
		}
	}
}

// BenchmarkOutputMerge measures one tick of Run/Sync outputs: N deltas
// emitted with Output.Emit by S systems of one stage, then the stage's sync
// folding them into the entities' outputHP with Sum. With to=share, system
// j emits to the entities i (table order) with i%S == j, so each of the N
// entities gets one delta; with to=all, each system emits to every one of
// N/S entities, so each gets S deltas to fold. Emission and sync are called
// directly on one goroutine, without the scheduler's stage machinery (the
// parallel section and the worker pool, a fixed cost per stage), so the
// number compares with BenchmarkOutputDirect, which writes the same deltas
// in the same order through ecs.Map.Get.
func BenchmarkOutputMerge(b *testing.B) { benchOutput(b, emitAndMerge) }

// BenchmarkOutputDirect is the baseline of BenchmarkOutputMerge: the same
// shapes, the same deltas in the same order, each added in place with
// *m.Get(e) += v, the fastest direct write by handle.
func BenchmarkOutputDirect(b *testing.B) { benchOutput(b, writeDirect) }

// BenchmarkOutputMergeWorkers is BenchmarkOutputMerge (to=share, S=4) with
// a scheduler of 1 and of 2 workers: the emission is the same on one
// goroutine, and on 2 workers the sync folds the values on both (the
// lookups in pieces, the merges by memory block), so the difference is
// what the parallel fold saves.
func BenchmarkOutputMergeWorkers(b *testing.B) {
	for _, sz := range outputSizes[1:] {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("N=%s/workers=%d", sz.name, workers), func(b *testing.B) {
				f := newOutputFixtureOn(b, workers, sz.n, 4, true)
				emitAndMerge(f)
				b.ReportAllocs()
				for b.Loop() {
					emitAndMerge(f)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sz.n), "ns/output")
			})
		}
	}
}
