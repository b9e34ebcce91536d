package main

import (
	"fmt"
	"math"
	"runtime"
	"time"
)

// timedRow is one row of a comparison as the rounds measure it: run is
// timed; reset, when set, runs before each call of run, untimed.
type timedRow struct {
	name       string
	reset, run func()
}

// measureInTurn measures every row of the comparison called name count
// times, the rows in turn round by round (each round starting one row
// further along), so that a change in the machine's load falls on all
// rows alike; it returns each row's medians and its runs in round order.
func measureInTurn(name string, rows []timedRow, count int, progress func(string)) []relResult {
	ns := make([][]float64, len(rows))
	allocs := make([][]float64, len(rows))
	for k := range count {
		for j := range rows {
			ri := (j + k) % len(rows)
			r := rows[ri]
			progress(fmt.Sprintf("%s: %s (run %d of %d)", name, r.name, k+1, count))
			var t, a float64
			if r.reset != nil {
				t, a = measureResetRounds(r.reset, r.run)
			} else {
				t, a = measureRow(r.run)
			}
			ns[ri] = append(ns[ri], t)
			allocs[ri] = append(allocs[ri], a)
			runtime.GC() // do not bill the next row for this one's garbage
		}
	}
	out := make([]relResult, len(rows))
	for ri := range rows {
		out[ri] = relResult{rowResult{median(ns[ri]), median(allocs[ri])}, ns[ri]}
	}
	return out
}

// relResult is one row's measurements: the medians over its runs, and the
// time of each run, in round order.
type relResult struct {
	rowResult
	runs []float64 // ns per call
}

// pairedRatio returns the median over the rounds of a's time over b's in
// the same round: both rows are measured in every round, close together,
// so a change in the machine's load during the run falls on both sides of
// each ratio. Without runs it is the ratio of the medians.
func pairedRatio(a, b relResult) float64 {
	n := min(len(a.runs), len(b.runs))
	if n == 0 {
		return a.ns / b.ns
	}
	r := make([]float64, n)
	for k := range n {
		r[k] = a.runs[k] / b.runs[k]
	}
	return median(r)
}

// measureResetRounds returns the time and allocations per call of run,
// calling reset before each call outside the timing: the monotonic clock
// around run alone, and the memory statistics read just before and after
// it (which stops the world, untimed). It runs at least three rounds and
// then until the timed total reaches benchtime or the wall time three
// times that, after one warm-up round.
func measureResetRounds(reset, run func()) (ns, allocs float64) {
	reset()
	run()
	var total time.Duration
	var mallocs uint64
	var before, after runtime.MemStats
	rounds := 0
	stop := time.Now().Add(3 * benchtime)
	for rounds < 3 || total < benchtime && time.Now().Before(stop) {
		reset()
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		run()
		d := time.Since(t0)
		runtime.ReadMemStats(&after)
		total += d
		mallocs += after.Mallocs - before.Mallocs
		rounds++
	}
	return float64(total.Nanoseconds()) / float64(rounds), float64(mallocs) / float64(rounds)
}

// fastest returns the index of the fastest result of res among the rows
// for which take is true, leaving out rows not measured (NaN), or -1.
func fastest(res []relResult, take func(ri int) bool) int {
	best := -1
	for ri := range res {
		if !take(ri) || math.IsNaN(res[ri].ns) {
			continue
		}
		if best < 0 || res[ri].ns < res[best].ns {
			best = ri
		}
	}
	return best
}
