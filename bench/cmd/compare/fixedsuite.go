package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// fixedSuite is a suite whose sizes are fixed by its workloads (-suite
// relations, -suite changes) as the shared runner sees it: S is the
// suite's sizes, C its comparison and R a comparison's row. Each suite
// declares one, with what differs from the others: its sizes, how its
// comparisons are built and measured, and its report's text.
type fixedSuite[S, C, R any] struct {
	name string // the -suite name, as messages give it
	file string // the report's file name, e.g. "CHANGES.md"
	// full are the workloads' stated sizes, quick a smoke run's (about a
	// tenth).
	full, quick S
	// build makes the comparisons whose names match the regular
	// expression only (every one when only is empty) at sizes.
	build func(sizes S, only string) ([]C, error)
	// rows gives a comparison's name and its rows, in report order.
	rows func(c C) (name string, rows []R)
	// timed gives a row as measureInTurn measures it.
	timed func(r R) timedRow
	// report writes the report's text: res holds the results by
	// comparison and row, took is the run's wall time.
	report func(cs []C, res [][]relResult, cfg fixedConfig[S], cmd string, took time.Duration) string
}

// comparisonsOf makes a fixedSuite's build from a suite package's
// NewSuite and the comparisons of the Suite it returns.
func comparisonsOf[S, T, C any](newSuite func(sizes S, only string) (*T, error), comparisons func(*T) []C) func(S, string) ([]C, error) {
	return func(sizes S, only string) ([]C, error) {
		s, err := newSuite(sizes, only)
		if err != nil {
			return nil, err
		}
		return comparisons(s), nil
	}
}

// fixedConfig is what a fixedSuite measures and how; S is the suite's
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

// flags turns the command's flags into s's configuration: the workloads'
// stated sizes (full), -count runs of fixedSuiteBenchtime unless
// -benchtime was given; -quick is one short run at the quick sizes. The
// sizes are fixed, so -sizes is refused; so are -count below 1 and a
// -benchtime that is not positive.
func (s *fixedSuite[S, C, R]) flags(quick bool, count int, benchtime time.Duration, sizes, only string) (fixedConfig[S], error) {
	cfg := fixedConfig[S]{sizes: s.full, count: count, benchtime: fixedSuiteBenchtime, only: only}
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "benchtime" {
			cfg.benchtime = benchtime
		}
	})
	if quick {
		cfg.sizes, cfg.quick, cfg.count, cfg.benchtime = s.quick, true, 1, 20*time.Millisecond
	}
	if sizes != "" {
		return cfg, fmt.Errorf("-sizes: the %s suite's sizes are fixed by its workloads; -quick shrinks them", s.name)
	}
	if cfg.count < 1 || cfg.benchtime <= 0 {
		return cfg, fmt.Errorf("-count must be at least 1 and -benchtime positive")
	}
	return cfg, nil
}

// run builds s's comparisons at cfg's sizes, measures every one
// (measureInTurn: cfg.count rounds of every row, about cfg.benchtime
// each) and writes the report to dir/s.file, making dir if needed.
// progress is told each row as its measurement starts. It returns the
// error of the build, of -benchtime, or of writing the file.
func (s *fixedSuite[S, C, R]) run(dir string, cfg fixedConfig[S], cmd string, progress func(string)) error {
	start := time.Now()
	cs, err := s.build(cfg.sizes, cfg.only)
	if err != nil {
		return err
	}
	if err := setBenchtime(cfg.benchtime); err != nil {
		return err
	}
	res := make([][]relResult, len(cs))
	for ci, c := range cs {
		name, rows := s.rows(c)
		timed := make([]timedRow, len(rows))
		for ri, r := range rows {
			timed[ri] = s.timed(r)
		}
		res[ci] = measureInTurn(name, timed, cfg.count, progress)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	text := s.report(cs, res, cfg, cmd, time.Since(start))
	return os.WriteFile(filepath.Join(dir, s.file), []byte(text), 0o644)
}
