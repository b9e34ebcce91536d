package main

import (
	"flag"
	"fmt"
	"runtime"
	"time"
)

// fixedConfig is what a suite whose sizes are fixed by its workloads
// (-suite relations, -suite changes) measures and how; S is the suite's
// sizes.
type fixedConfig[S any] struct {
	sizes     S
	quick     bool
	count     int           // runs per row; the report shows the median
	benchtime time.Duration // time per run
	only      string        // regular expression over comparison names, or ""
}

// fixedSuiteBenchtime is the time per run of those suites unless
// -benchtime says otherwise.
const fixedSuiteBenchtime = 500 * time.Millisecond

// fixedFlags turns the command's flags into the configuration of the
// suite called name: the workloads' stated sizes (full), -count runs of
// fixedSuiteBenchtime unless -benchtime was given; -quick is one short
// run at the quick sizes (about a tenth). The sizes are fixed, so -sizes
// is refused.
func fixedFlags[S any](name string, full, quickSizes S, quick bool, count int, benchtime time.Duration, sizes, only string) (fixedConfig[S], error) {
	cfg := fixedConfig[S]{sizes: full, count: count, benchtime: fixedSuiteBenchtime, only: only}
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "benchtime" {
			cfg.benchtime = benchtime
		}
	})
	if quick {
		cfg.sizes, cfg.quick, cfg.count, cfg.benchtime = quickSizes, true, 1, 20*time.Millisecond
	}
	if sizes != "" {
		return cfg, fmt.Errorf("-sizes: the %s suite's sizes are fixed by its workloads; -quick shrinks them", name)
	}
	if cfg.count < 1 || cfg.benchtime <= 0 {
		return cfg, fmt.Errorf("-count must be at least 1 and -benchtime positive")
	}
	return cfg, nil
}

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
