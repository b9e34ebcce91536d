package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tessera-ecs/tessera/bench/changes"
)

// changesConfig is what -suite changes measures and how.
type changesConfig = fixedConfig[changes.Config]

// changesSuite is -suite changes: bench/changes' comparisons, reported in
// CHANGES.md.
var changesSuite = &fixedSuite[changes.Config, *changes.Comparison, changes.Row]{
	name: "changes", file: "CHANGES.md", full: changes.Full(), quick: changes.Quick(),
	build:  comparisonsOf(changes.NewSuite, func(s *changes.Suite) []*changes.Comparison { return s.Comparisons }),
	rows:   func(c *changes.Comparison) (string, []changes.Row) { return c.Name, c.Rows },
	timed:  func(r changes.Row) timedRow { return timedRow{name: r.Name, run: r.Run} },
	report: changesReport,
}

// changesBest returns the index of the fastest row of c of kind k, leaving
// out the full passes (Plain), or -1.
func changesBest(c *changes.Comparison, res []relResult, k changes.Kind) int {
	return fastest(res, func(ri int) bool { return c.Rows[ri].Kind == k && !c.Rows[ri].Plain })
}

// changesReport writes the text of CHANGES.md.
func changesReport(cs []*changes.Comparison, res [][]relResult, cfg changesConfig, cmd string, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tessera's events and change detection against Ark and donburi\n\n")
	fmt.Fprintf(&b, "- Command: `%s` (took %v)\n", cmd, took.Round(time.Second))
	fmt.Fprintf(&b, "- Machine: %s\n", machine())
	fmt.Fprintf(&b, "- Peers: Ark, `github.com/mlange-42/ark v0.8.3` (custom events: `EventRegistry.NewEventType`, `World.Event`, "+
		"`Event.Emit`, observers registered with `Observe` and `Observe1`; no change detection); donburi, "+
		"`github.com/yohamta/donburi v1.15.8` (the typed event bus of its `features/events` package)\n")
	if cfg.quick {
		fmt.Fprintf(&b, "- **Quick run**: a tenth of the stated sizes, one short run per row; a smoke test, not a measurement\n")
	}
	fmt.Fprintf(&b, "\nWhat Tessera's events (`ecs.EventsOf`, `Events.Send`, `EventReader.Read`) and change detection "+
		"(`ecs.TrackChanges`, `ecs.Changed`) cost against the Go libraries that have something like them, and against plain Go "+
		"doing the same work on slices (the floor). "+
		"Every measured call is its own `//go:noinline` kernel; a row's figure is the median of %d runs, each "+
		"`testing.Benchmark` with `b.Loop` for about %v, of one tick of the workload. "+
		"The rows of one comparison are measured in turn, round by round, each round starting one row further along. "+
		"Times are per unit of work (a row's time per tick is also shown), allocations per tick. "+
		"The peer ratio is a row's time over the fastest peer row's, taken round by round in this run (the median of the "+
		"rounds' ratios): below 1 means faster than the best peer; the floor ratio likewise over the floor row. "+
		"bench/changes holds the workloads and the tests that check each library does the same work (every reader reads "+
		"every event of a tick once; every pass visits exactly the tick's changed entities, with their new values, or "+
		"every entity for the full passes).\n\n", cfg.count, cfg.benchtime)
	fmt.Fprintf(&b, "Ark has no change detection: no change ticks and no changed filter (its `OnSetComponents` observers "+
		"fire on `Map.Set` but keep nothing a query could read), so the changed comparison gives it the pattern an Ark "+
		"user writes instead, a dirty tag component added on change and removed after the pass, and a pass over every "+
		"entity. donburi is not in the changed comparison.\n\n")

	fmt.Fprintf(&b, "## Summary\n\n| workload | unit | Tessera | ns per unit | best peer | ns per unit | Tessera / best peer | floor ns per unit | Tessera / floor |\n|---|---|---|---|---|---|---|---|---|\n")
	for ci, c := range cs {
		ti, pi, fi := changesBest(c, res[ci], changes.Tessera), changesBest(c, res[ci], changes.Peer), changesBest(c, res[ci], changes.Floor)
		if ti < 0 || pi < 0 {
			continue
		}
		per := float64(c.PerRun)
		floorNs, floorRatio := math.NaN(), math.NaN()
		if fi >= 0 {
			floorNs, floorRatio = res[ci][fi].ns/per, pairedRatio(res[ci][ti], res[ci][fi])
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.Name, c.Unit, c.Rows[ti].Name, fmtNs(res[ci][ti].ns/per),
			c.Rows[pi].Name, fmtNs(res[ci][pi].ns/per), fmtRatio(pairedRatio(res[ci][ti], res[ci][pi])), fmtNs(floorNs), fmtRatio(floorRatio))
	}
	for ci, c := range cs {
		writeChangesComparison(&b, c, res[ci])
	}
	return b.String()
}

// writeChangesComparison writes one comparison's section: what it
// compares, and a table of its rows.
func writeChangesComparison(b *strings.Builder, c *changes.Comparison, res []relResult) {
	fmt.Fprintf(b, "\n## %s\n\n%s\n\n%s; the time per %s divides a tick's time by %s", c.Name, c.Doc, c.Sizes, c.Unit, fmtCount(c.PerRun))
	if c.PerChange > 0 {
		fmt.Fprintf(b, ", the time per changed entity by %s", fmtCount(c.PerChange))
	}
	b.WriteString(".\n\n")
	pi, fi := changesBest(c, res, changes.Peer), changesBest(c, res, changes.Floor)
	baselines := false
	for _, r := range c.Rows {
		baselines = baselines || r.Baseline != ""
	}
	fmt.Fprintf(b, "| row | time per tick | ns per %s |", c.Unit)
	if c.PerChange > 0 {
		b.WriteString(" ns per changed entity |")
	}
	b.WriteString(" allocs per tick | / best peer | / floor |")
	if baselines {
		b.WriteString(" / full pass |")
	}
	b.WriteString("\n|---|---|---|")
	if c.PerChange > 0 {
		b.WriteString("---|")
	}
	b.WriteString("---|---|---|")
	if baselines {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	ratioTo := func(rr relResult, i int) string {
		if i < 0 {
			return "–"
		}
		return fmtRatio(pairedRatio(rr, res[i]))
	}
	for ri, r := range c.Rows {
		rr := res[ri]
		name := r.Name
		switch {
		case r.Kind == changes.Peer:
			name += " (peer)"
		case r.Kind == changes.Floor:
			name += " (floor)"
		}
		if r.Plain {
			name += " (full pass)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |", name, fmtTime(rr.ns), fmtNs(rr.ns/float64(c.PerRun)))
		if c.PerChange > 0 {
			fmt.Fprintf(b, " %s |", fmtNs(rr.ns/float64(c.PerChange)))
		}
		fmt.Fprintf(b, " %s | %s | %s |", fmtAllocs(rr.allocs), ratioTo(rr, pi), ratioTo(rr, fi))
		if baselines {
			fmt.Fprintf(b, " %s |", ratioTo(rr, slices.IndexFunc(c.Rows, func(b changes.Row) bool { return b.Name == r.Baseline })))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nWhat one tick of each row does:\n\n")
	for _, r := range c.Rows {
		fmt.Fprintf(b, "- %s: %s", r.Name, r.What)
		if r.Plain {
			b.WriteString(" (a full pass: it does not find the changed entities; the baseline of its library's rows, not in the peer ratio)")
		}
		b.WriteString("\n")
	}
}
