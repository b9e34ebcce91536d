package main

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/bench/suite"
)

// result holds the medians, ns per entity, by workload, candidate index
// and size index (NaN where not measured).
type result struct {
	specs  []suite.Spec
	nsPerE [][][]float64
}

// run measures every workload of specs for every candidate at every size.
// Candidates are interleaved round by round: for each workload and size,
// each of the count rounds measures every candidate once, starting one
// candidate further along each round, so that a change in the machine's
// load during a measurement falls on all candidates alike, not on the one
// whose turn it happens to be.
func run(specs []suite.Spec, cands []*suite.Candidate, sizes []int, count int, tick func(string)) *result {
	r := &result{specs: specs}
	for _, s := range specs {
		perCand := make([][]float64, len(cands))
		for ci := range cands {
			perCand[ci] = make([]float64, len(sizes))
			for si := range sizes {
				perCand[ci][si] = math.NaN()
			}
		}
		for si, n := range sizes[:measuredSizes(s, len(sizes))] {
			runs := make([][]float64, len(cands))
			for k := range count {
				for j := range cands {
					ci := (j + k) % len(cands)
					w := s.Get(cands[ci])
					if w == nil {
						continue
					}
					tick(s.Name + " " + label(cands[ci]))
					runs[ci] = append(runs[ci], measure(w(n))/float64(perEntity(s.Name, n)))
					runtime.GC() // do not bill the next candidate for this one's garbage
				}
			}
			for ci, rs := range runs {
				if len(rs) > 0 {
					slices.Sort(rs)
					perCand[ci][si] = rs[len(rs)/2]
				}
			}
		}
		r.nsPerE = append(r.nsPerE, perCand)
	}
	return r
}

// measuredSizes is how many of the sizes (from the first) s is measured at:
// one for a workload measured once, else all.
func measuredSizes(s suite.Spec, sizes int) int {
	if s.Once {
		return min(1, sizes)
	}
	return sizes
}

// perEntity is the divisor of a workload's time: n, except for
// create_world, whose time is per world.
func perEntity(workload string, n int) int {
	if workload == "create_world" {
		return 1
	}
	return n
}

// benchtime is the measured time each measurement aims for.
var benchtime = 100 * time.Millisecond

// measure returns the time of one Run in nanoseconds. An Op without Reset
// runs under testing.Benchmark. One with Reset is timed round by round with
// the monotonic clock, Reset outside the timing: testing.B's StopTimer
// reads the memory statistics, which stops the world and cost far more than
// the small rounds being measured. Each round then includes two clock
// reads, the same for every candidate.
func measure(op suite.Op) float64 {
	if op.Reset != nil {
		return measureRounds(op)
	}
	res := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			op.Run()
		}
	})
	if res.N == 0 {
		return math.NaN()
	}
	return float64(res.T.Nanoseconds()) / float64(res.N)
}

func measureRounds(op suite.Op) float64 {
	op.Reset() // a warm-up round
	op.Run()
	var total time.Duration
	rounds := 0
	stop := time.Now().Add(4 * benchtime) // Reset may be slow: bound the wall time too
	for rounds < 3 || total < benchtime && time.Now().Before(stop) {
		op.Reset()
		t0 := time.Now()
		op.Run()
		total += time.Since(t0)
		rounds++
	}
	return float64(total.Nanoseconds()) / float64(rounds)
}

func label(c *suite.Candidate) string {
	if c.Variant == "" {
		return c.Name
	}
	return c.Name + " (" + c.Variant + ")"
}

// setBenchtime sets the time every measurement aims for.
func setBenchtime(d time.Duration) error {
	benchtime = d
	return flagSet("test.benchtime", d.String())
}
