package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/tessera-ecs/tessera/internal/scenario"
)

// demoOptions are the demo's flags.
type demoOptions struct {
	n, ticks, workers int
	scenario, storage string
	seed              uint64
	plot              string
	show, quiet       bool
}

// errUsage marks errors in the flags: exit status 2.
var errUsage = errors.New("usage")

func parseDemo(args []string, stderr io.Writer) (demoOptions, error) {
	var o demoOptions
	fs := flag.NewFlagSet("tessera demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.n, "n", 100_000, "number of particles (or game entities)")
	fs.IntVar(&o.ticks, "ticks", 1000, "number of ticks to run")
	fs.IntVar(&o.workers, "workers", 0, "scheduler workers; 0 means GOMAXPROCS, 1 runs everything on one goroutine")
	fs.StringVar(&o.scenario, "scenario", "particle", "particle or game")
	fs.StringVar(&o.storage, "storage", "table", "table or sparse: where the short-lived components live")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed; the same seed gives the same run")
	fs.StringVar(&o.plot, "plot", "", "write a plot of the tick times to `FILE` (.svg or .png)")
	fs.BoolVar(&o.show, "show", false, "game only: print the final 320x240 frame, scaled to the terminal")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: tessera demo [flags]\n\nRuns a scenario and reports ticks per second, tick times, memory and each system's share.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	bad := func(format string, a ...any) (demoOptions, error) {
		fmt.Fprintf(stderr, "tessera demo: "+format+"\n", a...)
		return o, errUsage
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case o.n < 0:
		return bad("-n must not be negative, got %d", o.n)
	case o.ticks < 0:
		return bad("-ticks must not be negative, got %d", o.ticks)
	case o.workers < 0:
		return bad("-workers must not be negative, got %d (0 means GOMAXPROCS)", o.workers)
	case o.scenario != "particle" && o.scenario != "game":
		return bad("unknown scenario %q: want particle or game", o.scenario)
	case o.storage != "table" && o.storage != "sparse":
		return bad("unknown storage %q: want table or sparse", o.storage)
	case o.show && o.scenario != "game":
		return bad("-show needs -scenario game")
	}
	if o.plot != "" {
		if err := checkPlotPath(o.plot); err != nil {
			return bad("-plot %s: %v", o.plot, err)
		}
	}
	return o, nil
}

// checkPlotPath fails early, before a long run, if the plot could not be
// written: a wrong extension, or a directory that does not exist or cannot
// be written.
func checkPlotPath(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png":
	default:
		return errors.New("the file name must end in .svg or .png")
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tessera-plot-*")
	if err != nil {
		return fmt.Errorf("cannot write there: %w", err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func demo(args []string, stdout, stderr io.Writer) int {
	o, err := parseDemo(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	cfg := scenario.Config{N: o.n, Seed: o.seed, Workers: o.workers, Storage: o.storage}
	var sc scenario.Scenario
	if o.scenario == "game" {
		sc, err = scenario.NewGame(cfg)
	} else {
		sc, err = scenario.NewParticle(cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, "tessera demo:", err)
		return 2
	}
	defer sc.Close()

	fmt.Fprintf(stdout, "tessera demo: %s scenario, %d entities, %d ticks, %d workers, %s storage, seed %d\n",
		o.scenario, o.n, o.ticks, sc.Scheduler().Workers(), o.storage, o.seed)
	var bar *progressbar.ProgressBar
	if !o.quiet {
		bar = progressbar.NewOptions(o.ticks,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("ticks"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("ticks"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	times := make([]time.Duration, 0, o.ticks)
	start := time.Now()
	for range o.ticks {
		t0 := time.Now()
		sc.Tick()
		times = append(times, time.Since(t0))
		if bar != nil {
			bar.Add(1)
		}
	}
	wall := time.Since(start)
	if bar != nil {
		bar.Finish()
	}
	if err := sc.Check(); err != nil {
		fmt.Fprintln(stderr, "tessera demo: invariant broken:", err)
		return 1
	}
	printSummary(stdout, sc, times, wall)
	if o.show {
		g := sc.(*scenario.Game)
		fmt.Fprintln(stdout)
		printFrame(stdout, g.Frame(), terminalWidth())
	}
	if o.plot != "" {
		if err := writePlot(o.plot, o.scenario, times); err != nil {
			fmt.Fprintln(stderr, "tessera demo: writing the plot:", err)
			return 1
		}
		fmt.Fprintln(stdout, "plot of the tick times written to", o.plot)
	}
	return 0
}

// printSummary reports the run: entities, ticks per second, tick times,
// heap per entity and each system's share of the time.
func printSummary(w io.Writer, sc scenario.Scenario, times []time.Duration, wall time.Duration) {
	alive := sc.Alive()
	fmt.Fprintf(w, "entities alive:   %d\n", alive)
	if len(times) > 0 {
		sorted := slices.Clone(times)
		slices.Sort(sorted)
		var total time.Duration
		for _, t := range times {
			total += t
		}
		pct := func(p float64) time.Duration { return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))] }
		fmt.Fprintf(w, "ticks per second: %.1f\n", float64(len(times))/wall.Seconds())
		fmt.Fprintf(w, "tick time:        mean %v  p50 %v  p99 %v  max %v\n",
			round(total/time.Duration(len(times))), round(pct(0.50)), round(pct(0.99)), round(sorted[len(sorted)-1]))
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if alive > 0 {
		fmt.Fprintf(w, "heap per entity:  %.1f bytes (%.1f MiB live heap)\n", float64(ms.HeapAlloc)/float64(alive), float64(ms.HeapAlloc)/(1<<20))
	}
	fmt.Fprintf(w, "world state hash: %016x\n", sc.Hash())
	stats := sc.Scheduler().Stats()
	var sum time.Duration
	for _, st := range stats {
		sum += st.Total
	}
	if sum == 0 {
		return
	}
	fmt.Fprintln(w, "time per system (stage: share, mean, max):")
	for _, st := range stats {
		fmt.Fprintf(w, "  %-14s stage %d  %5.1f%%  mean %-10v max %v\n",
			st.Name, st.Stage, 100*float64(st.Total)/float64(sum), round(st.Mean), round(st.Max))
	}
}

// round shortens a duration for display.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(100 * time.Nanosecond)
	}
	return d
}
