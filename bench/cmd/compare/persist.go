package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/bench/persist"
	"github.com/tessera-ecs/tessera/internal/display"
)

// persistConfig is what -suite persist measures and how.
type persistConfig struct {
	n         int           // particles, and entities of the entity-only world
	count     int           // runs per row; the report shows the median
	benchtime time.Duration // time per run
	only      string        // regular expression over comparison names, or ""
}

// persistBenchtime is the persist suite's time per run unless -benchtime
// says otherwise: its operations take from a fraction of a millisecond to
// a few hundred at 100,000 entities.
const persistBenchtime = time.Second

// rowResult is one row's medians over its runs.
type rowResult struct {
	ns, allocs float64 // per op
}

// runPersist runs the persist suite (-suite persist) and writes
// dir/PERSIST.md.
func runPersist(dir string, cfg persistConfig, cmd string, progress func(string)) error {
	start := time.Now()
	s, err := persist.NewSuite(cfg.n)
	if err != nil {
		return err
	}
	defer s.Close()
	if cfg.only != "" {
		if err := s.Pick(cfg.only); err != nil {
			return fmt.Errorf("-workloads: %w", err)
		}
	}
	if err := setBenchtime(cfg.benchtime); err != nil {
		return err
	}
	res := measurePersist(s.Comparisons, cfg.count, progress)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	text := persistReport(s.Comparisons, res, cfg, cmd, time.Since(start))
	return os.WriteFile(filepath.Join(dir, "PERSIST.md"), []byte(text), 0o644)
}

// measurePersist measures every comparison (measureInTurn) and returns
// the medians by comparison and row.
func measurePersist(cs []*persist.Comparison, count int, progress func(string)) [][]rowResult {
	out := make([][]rowResult, len(cs))
	for ci, c := range cs {
		rows := make([]timedRow, len(c.Rows))
		for ri, r := range c.Rows {
			rows[ri] = timedRow{name: r.Name, run: r.Run}
		}
		res := measureInTurn(c.Name, rows, count, progress)
		out[ci] = make([]rowResult, len(res))
		for ri, r := range res {
			out[ci][ri] = r.rowResult
		}
	}
	return out
}

// measureRow returns the time and allocations per call of run under
// testing.Benchmark (b.Loop, about benchtime).
func measureRow(run func()) (ns, allocs float64) {
	res := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			run()
		}
	})
	if res.N == 0 {
		return math.NaN(), math.NaN()
	}
	return float64(res.T.Nanoseconds()) / float64(res.N), float64(res.MemAllocs) / float64(res.N)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// persistReport writes the text of PERSIST.md.
func persistReport(cs []*persist.Comparison, res [][]rowResult, cfg persistConfig, cmd string, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tessera's snapshots, checksums and save files against plain Go and Ark\n\n")
	fmt.Fprintf(&b, "- Command: `%s` (took %v)\n", cmd, took.Round(time.Second))
	fmt.Fprintf(&b, "- Machine: %s\n", machine())
	fmt.Fprintf(&b, "- Peer: Ark, `github.com/mlange-42/ark v0.8.3`\n\n")
	fmt.Fprintf(&b, "What it costs Tessera to keep a world: a snapshot and a restore (rollback netcode), a checksum (desync detection), "+
		"a binary and a JSON save file and their loads, and, against Ark, a round trip of an entity-only world through bytes. ")
	fmt.Fprintf(&b, "The world is the demo's particle world (internal/scenario's particle system, seed 1, one worker, never ticked while measured): "+
		"%s particles with Position, Velocity, Color and Lifetime (29 bytes each), 8 emitters and the scenario's state resource. ", fmtCount(cfg.n))
	fmt.Fprintf(&b, "Each Tessera row is measured against a floor: plain Go doing the same work on the same data held as plain slices, "+
		"taken from the world. Every measured call is its own `//go:noinline` kernel run by `testing.Benchmark` with `b.Loop` for about %v; "+
		"a row's figure is the median of %d runs, the rows of one comparison measured in turn round by round. ", cfg.benchtime, cfg.count)
	fmt.Fprintf(&b, "The ratio is the row's time over its floor's, both from this run: below 1 means faster than the floor. "+
		"Where the floor goes through encoding/binary, a raw-memory row (each slice's memory written as it is, and copied back into new slices) "+
		"shows the least the same work can cost in Go. "+
		"MB/s divides the bytes the row moves (for a save or a load, the size of its own file) by its time; allocations are per call. "+
		"bench/persist holds the workloads and the tests that check each side does the work described.\n\n")
	fmt.Fprintf(&b, "## Summary\n\n| operation | Tessera | time | floor | floor time | Tessera / floor | Tessera / raw memory |\n|---|---|---|---|---|---|---|\n")
	for ci, c := range cs {
		fl := res[ci][0]
		raw := math.NaN()
		if i := c.Row(persist.Raw); i >= 0 {
			raw = res[ci][i].ns
		}
		for ri, r := range c.Rows {
			if r.Kind != persist.Tessera {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", c.Name, r.Name, fmtTime(res[ci][ri].ns), c.Floor().Name,
				fmtTime(fl.ns), fmtRatio(res[ci][ri].ns/fl.ns), fmtRatio(res[ci][ri].ns/raw))
		}
	}
	for ci, c := range cs {
		if tr, pr := peerRatios(c, res[ci]); len(pr) > 0 {
			fmt.Fprintf(&b, "\nAgainst Ark (%s): %s %s.\n", c.Name, tr, strings.Join(pr, "; "))
		}
	}
	for ci, c := range cs {
		writeComparison(&b, c, res[ci], cfg)
	}
	return b.String()
}

// peerRatios names c's Tessera row and gives its time over each peer row's.
func peerRatios(c *persist.Comparison, res []rowResult) (string, []string) {
	ti := slices.IndexFunc(c.Rows, func(r persist.Row) bool { return r.Kind == persist.Tessera })
	if ti < 0 {
		return "", nil
	}
	var out []string
	for ri, r := range c.Rows {
		if r.Kind == persist.Peer {
			out = append(out, fmt.Sprintf("%s / %s = %s", c.Rows[ti].Name, r.Name, fmtRatio(res[ti].ns/res[ri].ns)))
		}
	}
	return "Tessera's time over Ark's:", out
}

// writeComparison writes one comparison's section: what it compares, its
// goal and verdict, and a table of its rows.
func writeComparison(b *strings.Builder, c *persist.Comparison, res []rowResult, cfg persistConfig) {
	fmt.Fprintf(b, "\n## %s\n\n%s\n\nN = %s entities; the time per entity divides by N.\n\n", c.Name, c.Doc, fmtCount(c.Entities))
	if c.Goal != "" {
		fmt.Fprintf(b, "Goal: %s. %s\n\n", c.Goal, snapshotVerdict(c, res, cfg.n))
	}
	fmt.Fprintf(b, "| row | time | ns per entity | MB/s | bytes | allocs | / floor |\n|---|---|---|---|---|---|---|\n")
	fl := res[0].ns
	for ri, r := range c.Rows {
		rr := res[ri]
		mbs, size := "–", "–"
		if r.Bytes > 0 {
			mbs = fmt.Sprintf("%.0f", float64(r.Bytes)*1e3/rr.ns)
			size = fmtCount(int(r.Bytes))
		}
		name := r.Name
		switch r.Kind {
		case persist.Floor:
			name += " (floor)"
		case persist.Raw:
			name += " (plain Go)"
		case persist.Peer:
			name += " (peer)"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", name, fmtTime(rr.ns), fmtNs(rr.ns/float64(c.Entities)), mbs, size,
			fmtAllocs(rr.allocs), fmtRatio(rr.ns/fl))
	}
	b.WriteString("\nWhat one call of each row does:\n\n")
	for _, r := range c.Rows {
		fmt.Fprintf(b, "- %s: %s\n", r.Name, r.What)
	}
}

// snapshotGoal is the snapshot comparison's goal: at most this ratio to
// the floor and this time per call, at snapshotGoalN particles. The time
// is under 5% of a frame at 60 frames a second, leaving the rest of it to
// re-simulation.
const (
	snapshotGoalRatio = 1.5
	snapshotGoalTime  = 800 * time.Microsecond
	snapshotGoalN     = 100_000
)

// snapshotVerdict says whether each Tessera row of c met the snapshot
// goal, or that the run's size does not judge it.
func snapshotVerdict(c *persist.Comparison, res []rowResult, n int) string {
	if n != snapshotGoalN {
		return fmt.Sprintf("Not judged at %s particles.", fmtCount(n))
	}
	var parts []string
	for ri, r := range c.Rows {
		if r.Kind != persist.Tessera {
			continue
		}
		ratio, t := res[ri].ns/res[0].ns, time.Duration(res[ri].ns)
		verdict := "met"
		if ratio > snapshotGoalRatio || t >= snapshotGoalTime {
			verdict = "not met"
		}
		parts = append(parts, fmt.Sprintf("%s: %s (%.2fx the floor, %v)", r.Name, verdict, ratio, display.Round(t)))
	}
	return strings.Join(parts, "; ") + "."
}

func fmtTime(ns float64) string {
	if math.IsNaN(ns) {
		return "–"
	}
	return display.Round(time.Duration(ns)).String()
}

func fmtAllocs(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v < 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// fmtCount writes a count with thousands separators: 100,008.
func fmtCount(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// persistFlags turns the command's flags into the persist suite's
// configuration: 100,000 entities, -count runs of persistBenchtime unless
// -benchtime was given; -quick is one short run at 1,000 entities.
func persistFlags(quick bool, count int, benchtime time.Duration, sizes, only string) (persistConfig, error) {
	cfg := persistConfig{n: 100_000, count: count, benchtime: persistBenchtime, only: only}
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "benchtime" {
			cfg.benchtime = benchtime
		}
	})
	if quick {
		cfg.n, cfg.count, cfg.benchtime = 1_000, 1, 20*time.Millisecond
	}
	if sizes != "" {
		n, err := strconv.Atoi(strings.TrimSpace(sizes))
		if err != nil || n < 10 {
			return cfg, fmt.Errorf("-sizes: %q: the persist suite takes one entity count, at least 10", sizes)
		}
		cfg.n = n
	}
	if cfg.count < 1 || cfg.benchtime <= 0 {
		return cfg, fmt.Errorf("-count must be at least 1 and -benchtime positive")
	}
	return cfg, nil
}
