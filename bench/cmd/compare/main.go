// Command compare runs the peer suite (the workloads of the public
// go-ecs-benchmarks project) for Tessera, the six Go peers and the
// plain-slice floor in one process, and writes a Markdown report with one
// SVG plot per workload:
//
//	cd bench && go run ./cmd/compare            # the full report in results/
//	cd bench && go run ./cmd/compare -quick     # a smoke run
//	cd bench && go run ./cmd/compare -suite seeds  # two sources' suites, in results/SEEDS.md
//	cd bench && go run ./cmd/compare -suite persist  # snapshots and saves, in results/PERSIST.md
//	cd bench && go run ./cmd/compare -suite relations  # relations and hierarchies, in results/RELATIONS.md
//	cd bench && go run ./cmd/compare -suite changes  # events and change detection, in results/CHANGES.md
//
// The seeds suite holds the workloads of the dissertation "optimisations for
// the Entity Component System pattern" and of Pierre Vigier,
// "Entity-Component-System – Part 1" (the ECS of the game Vagabond).
//
// The persist suite (bench/persist) times Tessera's snapshot and restore,
// checksum, and binary and JSON save and load of the demo's particle world
// at 100,000 particles against floors, plain Go moving the same bytes, and
// an entity-only world's round trip through bytes against Ark's
// DumpEntities and LoadEntities. It reads -count, -benchtime (default
// 1s there), -sizes (one entity count) and -workloads (comparison
// names); -quick makes it a few seconds' smoke run at 1,000 entities.
//
// The relations suite (bench/relations) times Tessera's relations and
// hierarchy against Ark's relation components and donburi's
// features/transform hierarchy: reparenting, visiting a target's sources,
// despawning a tree (a cascade), a query over a world with relations
// against one without, and transform propagation. It reads -count,
// -benchtime (default 500ms there) and -workloads (comparison names); its
// sizes are fixed, and -quick makes it a few seconds' smoke run at about a
// tenth of them.
//
// Each measurement is testing.Benchmark over a prepared suite.Op (or, for
// work that needs an unmeasured reset, a loop timing each round); the
// candidates are measured in turn, round by round, at each size. The report
// gives the median of -count runs as time per entity, and the ratio of
// Tessera's best form to the best peer, leaving out rows that do other
// work than the suite's (suite.Candidate.Aside).
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/tessera-ecs/tessera/bench/floor"
	"github.com/tessera-ecs/tessera/bench/suite"
)

func main() {
	testing.Init()
	var (
		quick     = flag.Bool("quick", false, "a smoke run: few sizes and workloads, one short repetition")
		count     = flag.Int("count", 5, "repetitions per measurement; the report shows the median")
		benchtime = flag.Duration("benchtime", 100*time.Millisecond, "time per repetition")
		sizesFlag = flag.String("sizes", "", "comma-separated entity counts (default: the peer suite's)")
		only      = flag.String("workloads", "", "regular expression selecting workloads")
		out       = flag.String("out", "results", "directory for REPORT.md and the plots")
		quiet     = flag.Bool("quiet", false, "no progress bar")
		suiteName = flag.String("suite", "peers", "peers (the go-ecs-benchmarks workloads, REPORT.md), seeds (Vigier's and the dissertation's workloads, SEEDS.md), persist (snapshot, checksum, save and load against plain Go and Ark, PERSIST.md), relations (relations and hierarchies against Ark and donburi, RELATIONS.md) or changes (events and change detection against Ark and donburi, CHANGES.md)")
	)
	flag.Parse()
	cmd := strings.TrimSpace("cd bench && go run ./cmd/compare " + strings.Join(os.Args[1:], " "))
	switch *suiteName {
	case "peers":
	case "seeds":
		progress := func(what string) {
			if !*quiet {
				fmt.Fprintln(os.Stderr, what)
			}
		}
		if err := runSeeds(*out, *quick, cmd, progress); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(1)
		}
		fmt.Printf("wrote %s/SEEDS.md\n", *out)
		return
	case "persist":
		cfg, err := persistFlags(*quick, *count, *benchtime, *sizesFlag, *only)
		writeSuiteReport(err, "PERSIST.md", *quiet, func(progress func(string)) error { return runPersist(*out, cfg, cmd, progress) }, *out)
		return
	case "relations":
		cfg, err := relationsSuite.flags(*quick, *count, *benchtime, *sizesFlag, *only)
		writeSuiteReport(err, relationsSuite.file, *quiet, func(progress func(string)) error { return relationsSuite.run(*out, cfg, cmd, progress) }, *out)
		return
	case "changes":
		cfg, err := changesSuite.flags(*quick, *count, *benchtime, *sizesFlag, *only)
		writeSuiteReport(err, changesSuite.file, *quiet, func(progress func(string)) error { return changesSuite.run(*out, cfg, cmd, progress) }, *out)
		return
	default:
		fmt.Fprintf(os.Stderr, "compare: unknown -suite %q: want peers, seeds, persist, relations or changes\n", *suiteName)
		os.Exit(2)
	}
	sizes := suite.Sizes
	specs := suite.Specs
	if *quick {
		sizes = []int{16, 1024}
		*count = 1
		*benchtime = 20 * time.Millisecond
		specs = pick(specs, "^(query2|query_frag_outer|random_access|create2|create2_alloc|add_remove|delete2/batch|create_world)$")
	}
	if *sizesFlag != "" {
		sizes = nil
		for _, f := range strings.Split(*sizesFlag, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				fmt.Fprintf(os.Stderr, "compare: -sizes: %q is not a positive count\n", f)
				os.Exit(2)
			}
			sizes = append(sizes, n)
		}
	}
	if *only != "" {
		if _, err := regexp.Compile(*only); err != nil {
			fmt.Fprintf(os.Stderr, "compare: -workloads: %v\n", err)
			os.Exit(2)
		}
		specs = pick(specs, *only)
	}
	if *count < 1 || *benchtime <= 0 {
		fmt.Fprintln(os.Stderr, "compare: -count must be at least 1 and -benchtime positive")
		os.Exit(2)
	}
	if err := setBenchtime(*benchtime); err != nil {
		panic(err)
	}
	cands := candidates()
	ref := floor.Candidate()
	for _, c := range cands {
		if bad := suite.Verify(c, ref, []int{1, 64}); len(bad) > 0 {
			fmt.Fprintf(os.Stderr, "compare: %s (%s) computes wrong results:\n  %s\n", c.Name, c.Variant, strings.Join(bad, "\n  "))
			os.Exit(1)
		}
	}
	total := 0
	for _, s := range specs {
		for _, c := range cands {
			if s.Get(c) != nil {
				total += measuredSizes(s, len(sizes)) * *count
			}
		}
	}
	var bar *progressbar.ProgressBar
	if !*quiet {
		bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("measuring"), progressbar.OptionShowCount(),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	start := time.Now()
	res := run(specs, cands, sizes, *count, func(what string) {
		if bar != nil {
			bar.Describe(what)
			bar.Add(1)
		}
	})
	if bar != nil {
		bar.Finish()
	}
	if err := writeReport(*out, res, cands, sizes, *count, *benchtime, cmd, time.Since(start)); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s/REPORT.md (%d measurements in %v, %s, %d CPUs)\n", *out, total, time.Since(start).Round(time.Second),
		runtime.Version(), runtime.NumCPU())
}

func pick(specs []suite.Spec, expr string) []suite.Spec {
	re := regexp.MustCompile(expr)
	return slices.DeleteFunc(slices.Clone(specs), func(s suite.Spec) bool { return !re.MatchString(s.Name) })
}

func flagSet(name, value string) error { return flag.Set(name, value) }

// writeSuiteReport runs a suite whose flags were checked with flagErr (exit 2
// when they are wrong) and reports the file it wrote to dir (exit 1 when
// it failed), with progress lines on stderr unless quiet.
func writeSuiteReport(flagErr error, file string, quiet bool, run func(progress func(string)) error, dir string) {
	if flagErr != nil {
		fmt.Fprintln(os.Stderr, "compare:", flagErr)
		os.Exit(2)
	}
	progress := func(what string) {
		if !quiet {
			fmt.Fprintln(os.Stderr, what)
		}
	}
	if err := run(progress); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s/%s\n", dir, file)
}
