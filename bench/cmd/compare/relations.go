package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tessera-ecs/tessera/bench/relations"
)

// relationsConfig is what -suite relations measures and how.
type relationsConfig = fixedConfig[relations.Config]

// relationsSuite is -suite relations: bench/relations' comparisons,
// reported in RELATIONS.md. A row with a Reset (the cascade) has its
// world rebuilt before each call, outside the timing.
var relationsSuite = &fixedSuite[relations.Config, *relations.Comparison, relations.Row]{
	name: "relations", file: "RELATIONS.md", full: relations.Full(), quick: relations.Quick(),
	build:  comparisonsOf(relations.NewSuite, func(s *relations.Suite) []*relations.Comparison { return s.Comparisons }),
	rows:   func(c *relations.Comparison) (string, []relations.Row) { return c.Name, c.Rows },
	timed:  func(r relations.Row) timedRow { return timedRow{name: r.Name, reset: r.Reset, run: r.Run} },
	report: relationsReport,
}

// bestRow returns the index of the fastest row of c of kind k among the
// rows whose world holds relations, leaving out the rows set aside, or
// -1.
func bestRow(c *relations.Comparison, res []relResult, k relations.Kind) int {
	return fastest(res, func(ri int) bool {
		r := c.Rows[ri]
		return r.Kind == k && !r.Plain && r.Aside == ""
	})
}

// rowIndex returns the index of c's row called name, or -1.
func rowIndex(c *relations.Comparison, name string) int {
	return slices.IndexFunc(c.Rows, func(r relations.Row) bool { return r.Name == name })
}

// relationsReport writes the text of RELATIONS.md.
func relationsReport(cs []*relations.Comparison, res [][]relResult, cfg relationsConfig, cmd string, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tessera's relations and hierarchy against Ark and donburi\n\n")
	fmt.Fprintf(&b, "- Command: `%s` (took %v)\n", cmd, took.Round(time.Second))
	fmt.Fprintf(&b, "- Machine: %s\n", machine())
	fmt.Fprintf(&b, "- Peers: Ark, `github.com/mlange-42/ark v0.8.3` (relation components, one table per relation target); "+
		"donburi, `github.com/yohamta/donburi v1.15.8` (the parent-child hierarchy of its `features/transform` package: "+
		"v1.15.8 has no separate hierarchy package)\n")
	if cfg.quick {
		fmt.Fprintf(&b, "- **Quick run**: about a tenth of the stated sizes, one short run per row; a smoke test, not a measurement\n")
	}
	fmt.Fprintf(&b, "\nWhat relations between entities cost in Tessera (`ecs.NewRelation`, `ecs.NewHierarchy`) against the Go libraries "+
		"that have them, on the workloads of the issue that asked for them: reparenting, visiting a target's sources, "+
		"despawning a tree, a query over a world that holds relations, and transform propagation down a scene graph. "+
		"Every measured call is its own `//go:noinline` kernel; a row's figure is the median of %d runs, each "+
		"`testing.Benchmark` with `b.Loop` for about %v, or, where each call needs the world rebuilt first (the cascade), "+
		"rounds timed by the monotonic clock around the call alone with the rebuild outside, for about as long. "+
		"The rows of one comparison are measured in turn, round by round, each round starting one row further along. "+
		"Times are per unit of work (per operation, visited source or entity; a row's time per call is also shown), "+
		"allocations per call. The ratio is Tessera's fastest row over the fastest peer row, both from this run: "+
		"below 1 means Tessera is faster. bench/relations holds the workloads and the tests that check each library "+
		"does the same work (the same moves and child counts, the same sources visited, the same entities left after "+
		"a cascade, the same positions after a query pass, bit-identical world positions after propagation).\n\n", cfg.count, cfg.benchtime)
	fmt.Fprintf(&b, "Prefabs: Tessera's instances are copies of the prefab (flecs' IsA, where instances share the "+
		"prefab's values until they override them, is not modelled), so the prefab comparison spawns the same "+
		"entities with each library, Ark by its batch creation.\n\n")

	fmt.Fprintf(&b, "## Summary\n\n| workload | unit | Tessera | ns per unit | best peer | ns per unit | Tessera / best peer |\n|---|---|---|---|---|---|---|\n")
	for ci, c := range cs {
		ti, pi := bestRow(c, res[ci], relations.Tessera), bestRow(c, res[ci], relations.Peer)
		if ti < 0 || pi < 0 {
			continue
		}
		per := float64(c.PerRun)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", c.Name, c.Unit, c.Rows[ti].Name, fmtNs(res[ci][ti].ns/per),
			c.Rows[pi].Name, fmtNs(res[ci][pi].ns/per), fmtRatio(pairedRatio(res[ci][ti], res[ci][pi])))
	}
	for ci, c := range cs {
		if lines := baselineRatios(c, res[ci]); len(lines) > 0 {
			fmt.Fprintf(&b, "\n%s: each library's time with relations over its time without: %s.", c.Name, strings.Join(lines, "; "))
			if c.Goal != "" {
				fmt.Fprintf(&b, " Goal: %s: %s.", c.Goal, goalVerdict(c, res[ci]))
			}
			b.WriteString("\n")
		}
	}
	for ci, c := range cs {
		writeRelationsComparison(&b, c, res[ci])
	}
	return b.String()
}

// baselineRatios gives, for each row of c with a Baseline, its time over
// the baseline's.
func baselineRatios(c *relations.Comparison, res []relResult) []string {
	var out []string
	for ri, r := range c.Rows {
		if bi := rowIndex(c, r.Baseline); r.Baseline != "" && bi >= 0 {
			out = append(out, fmt.Sprintf("%s %s", strings.TrimSuffix(r.Name, ", with relations"), fmtRatio(pairedRatio(res[ri], res[bi]))))
		}
	}
	return out
}

// goalTolerance is the query comparison's goal: Tessera's pass with
// relations at most 5% slower than without.
const goalTolerance = 1.05

// goalVerdict says whether each Tessera row of c with a baseline is within
// goalTolerance of it; rows set aside (another storage, shown for what it
// costs) are not judged.
func goalVerdict(c *relations.Comparison, res []relResult) string {
	var parts []string
	for ri, r := range c.Rows {
		bi := rowIndex(c, r.Baseline)
		if r.Kind != relations.Tessera || bi < 0 || r.Aside != "" {
			continue
		}
		ratio := pairedRatio(res[ri], res[bi])
		verdict := "met"
		if !(ratio <= goalTolerance) {
			verdict = "not met"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", verdict, fmtRatio(ratio)))
	}
	return strings.Join(parts, "; ")
}

// writeRelationsComparison writes one comparison's section: what it
// compares, and a table of its rows.
func writeRelationsComparison(b *strings.Builder, c *relations.Comparison, res []relResult) {
	fmt.Fprintf(b, "\n## %s\n\n%s\n\n%s; the time per %s divides a call's time by %s.\n\n", c.Name, c.Doc, c.Sizes, c.Unit, fmtCount(c.PerRun))
	pi := bestRow(c, res, relations.Peer)
	baselines := len(baselineRatios(c, res)) > 0
	fmt.Fprintf(b, "| row | time per call | ns per %s | allocs per call | / best peer |", c.Unit)
	if baselines {
		b.WriteString(" / without relations |")
	}
	b.WriteString("\n|---|---|---|---|---|")
	if baselines {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for ri, r := range c.Rows {
		rr := res[ri]
		name := r.Name
		if r.Kind == relations.Peer {
			name += " (peer)"
		}
		if r.Aside != "" {
			name += " (aside)"
		}
		ratio := math.NaN()
		if pi >= 0 {
			ratio = pairedRatio(rr, res[pi])
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |", name, fmtTime(rr.ns), fmtNs(rr.ns/float64(c.PerRun)), fmtAllocs(rr.allocs), fmtRatio(ratio))
		if baselines {
			if bi := rowIndex(c, r.Baseline); r.Baseline != "" && bi >= 0 {
				fmt.Fprintf(b, " %s |", fmtRatio(pairedRatio(rr, res[bi])))
			} else {
				b.WriteString(" – |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\nWhat one call of each row does:\n\n")
	for _, r := range c.Rows {
		fmt.Fprintf(b, "- %s: %s", r.Name, r.What)
		if r.Aside != "" {
			fmt.Fprintf(b, " (aside, not in the ratio: %s)", r.Aside)
		}
		b.WriteString("\n")
	}
}
