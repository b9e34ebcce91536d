package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/tessera-ecs/tessera/internal/display"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/internal/wholefile"
	"github.com/tessera-ecs/tessera/net/netcode"
	"github.com/tessera-ecs/tessera/sched"
)

// demoOptions are the demo's flags.
type demoOptions struct {
	n, ticks, workers int
	rollback          int
	syncTest          int // -synctest K: roll back K ticks after every tick and compare
	history           int // -history N: the inspector keeps the last N ticks
	scenario, storage string
	seed              uint64
	plot              string
	save, load        string
	checksums         string // -checksums FILE: the world's checksum after every tick
	show, quiet       bool
	inspect           string  // -inspect ADDR: serve the inspector there
	inspectHosts      string  // -inspect-hosts: names a non-loopback -inspect answers to
	token             string  // -token: the inspector's write token
	tps               float64 // -tps: ticks per second with -inspect
	ticksSet          bool    // -ticks was given
	connect           string  // -connect URL: a client of tessera serve instead of a scenario
	relevancy         string  // with -connect: what the client asks to see
	radius            float32 // -relevancy read: 0 for all
	focus             string  // with -connect: the point the client looks at
	fx, fy            float32 // -focus read
}

// ticksText says how long the run lasts, for its first line.
func (o demoOptions) ticksText() string {
	switch {
	case o.inspect != "" && !o.ticksSet:
		return fmt.Sprintf("ticks until interrupted at %g per second", o.tps)
	case o.inspect != "":
		return fmt.Sprintf("%d ticks at %g per second", o.ticks, o.tps)
	}
	return fmt.Sprintf("%d ticks", o.ticks)
}

// errUsage marks errors in the flags: exit status 2.
var errUsage = errors.New("usage")

func parseDemo(args []string, stderr io.Writer) (demoOptions, error) {
	var o demoOptions
	fs := flag.NewFlagSet("tessera demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.n, "n", 100_000, fmt.Sprintf("number of particles (or game entities): 1 to %d, and no more than the\n"+
		"machine's memory holds at an estimated peak of 96 to 384 bytes each (by scenario and storage)", maxEntities))
	fs.IntVar(&o.ticks, "ticks", 1000, fmt.Sprintf("number of ticks to run, 1 to %d", maxTicks))
	fs.IntVar(&o.workers, "workers", 0, fmt.Sprintf("scheduler workers, 1 to %d; 0 means GOMAXPROCS, 1 runs everything on one goroutine", maxWorkers))
	fs.StringVar(&o.scenario, "scenario", "particle", "particle, game or predator")
	fs.StringVar(&o.storage, "storage", "table", "table or sparse: where the short-lived components live")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed; the same seed gives the same run")
	fs.IntVar(&o.rollback, "rollback", 0, fmt.Sprintf("after every tick, roll the world back `K` ticks and simulate\n"+
		"them again (rollback netcode's worst case); 0 to %d, 0 for none. The final checksum must equal the straight run's", maxRollback))
	fs.IntVar(&o.syncTest, "synctest", 0, fmt.Sprintf("run as a sync test (sched.SyncTest): after every tick roll back `K` ticks, run\n"+
		"them again and compare each part's checksum with the first run's; a difference stops\n"+
		"the run, naming the tick, the types, the systems that write them and the first\n"+
		"differing entities and fields (exit status 1). 0 to %d, 0 for none", maxRollback))
	fs.StringVar(&o.save, "save", "", "after the run, save the world to `FILE` (ecs.World.Save)")
	fs.StringVar(&o.load, "load", "", "start from the world saved in `FILE` (by -save, with the same\n"+
		"-scenario and -storage) instead of -n new entities")
	fs.StringVar(&o.checksums, "checksums", "", "write the world's checksum after every tick to `FILE`, a line each: the tick (from 1)\n"+
		"and ecs.World.Checksum in hex. Runs on two machines, with other -workers, or a run\n"+
		"resumed with -load agree line for line; the first line that differs is where they diverged")
	fs.StringVar(&o.plot, "plot", "", "write a plot of the tick times to `FILE` (.svg or .png), checked before the run")
	fs.BoolVar(&o.show, "show", false, "game only: print the final 320x240 frame, scaled to the terminal")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar (it is drawn only when standard error is a terminal)")
	fs.StringVar(&o.inspect, "inspect", "", "serve the inspector (a web page and JSON API, package inspect) on `ADDR`, such as\n"+
		"127.0.0.1:7777, and run until interrupted (or for -ticks, when given) at -tps")
	fs.StringVar(&o.inspectHosts, "inspect-hosts", "", "with -inspect: let it listen on a non-loopback address and answer the comma-separated\n"+
		"host `NAMES` clients use to reach this machine")
	fs.StringVar(&o.token, "token", "", "with -inspect: the token writes need (Authorization: Bearer); none keeps the\n"+
		"inspector read-only. Defaults to $TESSERA_INSPECT_TOKEN, which keeps it out of the process list.\n"+
		"With -connect: the server's token, defaulting to $TESSERA_NET_TOKEN")
	fs.Float64Var(&o.tps, "tps", 60, "with -inspect: ticks per second; 0 runs as fast as it can")
	fs.IntVar(&o.history, "history", 0, fmt.Sprintf("with -inspect: keep a snapshot of the last `N` ticks (0 to %d; 0 for none) for the\n"+
		"inspector's time travel: look at a past tick, diff two, branch from one. Each costs\n"+
		"a snapshot of the world a tick and its size in memory", maxHistory))
	fs.StringVar(&o.connect, "connect", "", "connect to a tessera serve at `URL` (ws://host:port"+netcode.Path+") and replicate its world\n"+
		"instead of running one: print every second the server tick applied, the bytes per tick\n"+
		"received and whether the world matches the server's (its view checksum). Runs until\n"+
		"interrupted or for -ticks server ticks; exit status 1 if a checksum differed. Goes with\n"+
		"-scenario (the server's, game by default), -token, -ticks, -relevancy, -focus and -quiet\n"+
		"(no line a second)")
	fs.StringVar(&o.relevancy, "relevancy", "all", "with -connect: what to ask the server for: all, or grid:R, the entities within R\n"+
		"of -focus (the server may cap R)")
	fs.StringVar(&o.focus, "focus", "", "with -connect: the point `X,Y` to look at (default: the middle of the frame)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: tessera demo [flags]\n\nRuns a scenario and reports ticks per second, tick times, memory and each system's share;\n"+
			"with -connect URL, replicates the world of a tessera serve instead.\n\nFlags:\n")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.connect != "" {
		return parseConnect(o, set, fs.NArg(), bad)
	}
	o.ticksSet = set["ticks"]
	for _, name := range []string{"tps", "token", "inspect-hosts", "history"} {
		if set[name] && o.inspect == "" {
			o.inspectHosts = "-" + name // refused below
		}
	}
	if o.token == "" {
		o.token = os.Getenv("TESSERA_INSPECT_TOKEN")
	}
	switch {
	case set["relevancy"] || set["focus"]:
		return bad("-relevancy and -focus need -connect")
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case o.scenario != "particle" && o.scenario != "game" && o.scenario != "predator":
		return bad("unknown scenario %q: want particle, game or predator", o.scenario)
	case o.storage != "table" && o.storage != "sparse":
		return bad("unknown storage %q: want table or sparse", o.storage)
	case o.ticks < 1 || o.ticks > maxTicks:
		return bad("-ticks %d out of range: want 1 to %d", o.ticks, maxTicks)
	case o.workers < 0 || o.workers > maxWorkers:
		return bad("-workers %d out of range: want 1 to %d, or 0 for GOMAXPROCS", o.workers, maxWorkers)
	case o.show && o.scenario != "game":
		return bad("-show needs -scenario game")
	case o.inspectHosts == "-token":
		return bad("-token needs -inspect or -connect")
	case o.inspect == "" && strings.HasPrefix(o.inspectHosts, "-"):
		return bad("%s needs -inspect", o.inspectHosts)
	case o.tps < 0 || o.tps > 1e6 || o.tps != o.tps:
		return bad("-tps %v out of range: want 0 to 1000000", o.tps)
	case o.inspect != "" && o.show:
		return bad("-show and -inspect do not go together: -show prints the final frame of a run that ends")
	case o.rollback < 0 || o.rollback > maxRollback:
		return bad("-rollback %d out of range: want 0 to %d", o.rollback, maxRollback)
	case o.syncTest < 0 || o.syncTest > maxRollback:
		return bad("-synctest %d out of range: want 0 to %d", o.syncTest, maxRollback)
	case o.syncTest > 0 && (o.rollback > 0 || o.inspect != ""):
		return bad("-synctest does its own rollbacks: it goes with neither -rollback nor -inspect")
	case o.history < 0 || o.history > maxHistory:
		return bad("-history %d out of range: want 0 to %d", o.history, maxHistory)
	}
	snaps := snapshotsKept(max(o.rollback, o.syncTest), o.history)
	if limit, _ := entityLimit(o.scenario, o.storage, snaps); o.n > limit {
		return bad("%s", entityLimitError(o.n, o.scenario, o.storage, snaps))
	} else if o.n < 1 {
		return bad("-n %d out of range: want 1 to %d", o.n, limit)
	}
	if o.plot != "" {
		if err := checkPlotPath(o.plot); err != nil {
			return bad("-plot %s: %v", o.plot, err)
		}
	}
	return o, nil
}

// checkPlotPath fails early, before a long run, if the plot could not be
// written to path: a directory, a wrong extension, a parent directory that
// does not exist or cannot be written, or a file that cannot be replaced.
func checkPlotPath(path string) error {
	info, statErr := os.Stat(path)
	exists := statErr == nil
	switch {
	case exists && info.IsDir():
		return errors.New("is a directory; want a file name ending in .svg or .png")
	case exists && !info.Mode().IsRegular():
		return errors.New("is not a regular file")
	case !exists && !errors.Is(statErr, os.ErrNotExist):
		return statErr
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png":
	default:
		return errors.New("the file name must end in .svg or .png")
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil {
		return fmt.Errorf("cannot write there: %w", err)
	} else if !info.IsDir() {
		return fmt.Errorf("cannot write there: %s is not a directory", dir)
	}
	if exists {
		// The file exists: it must be writable (opened without truncating it).
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write there: %w", err)
		}
		return f.Close()
	}
	f, err := os.CreateTemp(dir, ".tessera-plot-*")
	if err != nil {
		return fmt.Errorf("cannot write there: %w", err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// isTerminal reports whether w is a terminal: a file, such as os.Stderr,
// whose descriptor term.IsTerminal accepts.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// showProgress reports whether the demo draws its progress bar: not with
// -quiet, and only on a terminal, where the bar redraws itself in place.
// Written to a file, a pipe or a CI log, each redraw would stay behind as
// noise.
func showProgress(quiet, terminal bool) bool {
	return !quiet && terminal
}

func demo(args []string, stdout, stderr io.Writer) int {
	return runDemo(args, stdout, stderr, isTerminal(stderr))
}

// runDemo is demo with the answer to whether stderr is a terminal given,
// so that tests can stand in for one.
func runDemo(args []string, stdout, stderr io.Writer, terminal bool) int {
	o, err := parseDemo(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if o.connect != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runConnect(ctx, o, stdout, stderr)
	}
	cfg := scenario.Config{N: o.n, Seed: o.seed, Workers: o.workers, Storage: o.storage}
	if o.load != "" {
		f, err := os.Open(o.load)
		if err != nil {
			fmt.Fprintln(stderr, "tessera demo: -load:", err)
			return 1
		}
		defer f.Close()
		cfg.Load = bufio.NewReader(f)
	}
	var sc scenario.Scenario
	switch o.scenario {
	case "game":
		sc, err = scenario.NewGame(cfg)
	case "predator":
		sc, err = scenario.NewPredatorPrey(cfg)
	default:
		sc, err = scenario.NewParticle(cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, "tessera demo:", err)
		if o.load != "" {
			return 1 // the file, not the flags
		}
		return 2
	}
	defer sc.Close()

	if o.load != "" {
		fmt.Fprintf(stdout, "tessera demo: %s scenario, %d entities loaded from %s, %s, %d workers, %s storage\n",
			o.scenario, sc.Alive(), o.load, o.ticksText(), sc.Scheduler().Workers(), o.storage)
	} else {
		fmt.Fprintf(stdout, "tessera demo: %s scenario, %d entities, %s, %d workers, %s storage, seed %d\n",
			o.scenario, o.n, o.ticksText(), sc.Scheduler().Workers(), o.storage, o.seed)
	}
	var bar *progressbar.ProgressBar
	if showProgress(o.quiet, terminal) && o.inspect == "" {
		bar = progressbar.NewOptions(o.ticks,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("ticks"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("ticks"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	log := newTickLog()
	var sums *checksumLog
	if o.checksums != "" {
		if sums, err = createChecksumLog(o.checksums); err != nil {
			fmt.Fprintln(stderr, "tessera demo: -checksums:", err)
			return 1
		}
	}
	var rb *rollbackRun
	if o.rollback > 0 {
		rb = newRollbackRun(sc, o.rollback)
	}
	var st *sched.SyncTest
	var syncErr error
	if o.syncTest > 0 {
		st = sched.NewSyncTest(sc.Scheduler(), o.syncTest)
	}
	tick := 0
	step := func() {
		t0 := time.Now()
		if st == nil {
			sc.Tick()
		} else if syncErr == nil {
			syncErr = st.Step(sc.Tick)
		}
		log.add(time.Since(t0))
		tick++
		if rb != nil {
			rb.afterTick(uint64(tick))
		}
		if sums != nil {
			sums.add(tick, sc.World())
		}
		if bar != nil {
			bar.Add(1)
		}
	}
	start := time.Now()
	if o.inspect != "" {
		if err := runInspected(o, sc, step, func() int { return tick }, stdout); err != nil {
			fmt.Fprintln(stderr, "tessera demo: -inspect:", err)
			return 1
		}
	} else {
		for range o.ticks {
			if step(); syncErr != nil {
				break
			}
		}
	}
	wall := time.Since(start)
	if bar != nil {
		bar.Finish()
	}
	if sums != nil {
		if err := sums.close(); err != nil {
			fmt.Fprintln(stderr, "tessera demo: -checksums:", err)
			return 1
		}
		fmt.Fprintln(stdout, "checksum per tick written to", o.checksums)
	}
	if syncErr != nil {
		fmt.Fprintln(stderr, "tessera demo: -synctest:", syncErr)
		return 1
	}
	if err := sc.Check(); err != nil {
		fmt.Fprintln(stderr, "tessera demo: invariant broken:", err)
		return 1
	}
	printSummary(stdout, sc, log, wall)
	if rb != nil {
		rb.print(stdout, o.ticks)
	}
	if st != nil {
		fmt.Fprintf(stdout, "sync test:        %d ticks, each run again after rolling back %d: every part agreed\n", st.Ticks(), o.syncTest)
	}
	if o.save != "" {
		if err := saveWorld(o.save, sc); err != nil {
			fmt.Fprintln(stderr, "tessera demo: -save:", err)
			return 1
		}
		fmt.Fprintln(stdout, "world saved to", o.save)
	}
	if o.show {
		g := sc.(*scenario.Game)
		fmt.Fprintln(stdout)
		printFrame(stdout, g.Frame(), terminalWidth())
	}
	if o.plot != "" {
		if err := writePlot(o.plot, o.scenario, log); err != nil {
			fmt.Fprintln(stderr, "tessera demo: writing the plot:", err)
			return 1
		}
		fmt.Fprintln(stdout, "plot of the tick times written to", o.plot)
	}
	return 0
}

// printSummary reports the run: entities, ticks per second, tick times,
// heap per entity and each system's share of the time.
func printSummary(w io.Writer, sc scenario.Scenario, log *tickLog, wall time.Duration) {
	alive := sc.Alive()
	fmt.Fprintf(w, "entities alive:   %d\n", alive)
	if log.n > 0 {
		fmt.Fprintf(w, "ticks per second: %.1f\n", float64(log.n)/wall.Seconds())
		fmt.Fprintf(w, "tick time:        mean %v  p50 %v  p99 %v  max %v\n",
			display.Round(log.mean()), display.Round(log.percentile(0.50)), display.Round(log.percentile(0.99)), display.Round(log.max))
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if alive > 0 {
		fmt.Fprintf(w, "heap per entity:  %.1f bytes (%.1f MiB live heap)\n", float64(ms.HeapAlloc)/float64(alive), float64(ms.HeapAlloc)/(1<<20))
	}
	fmt.Fprintf(w, "world state hash: %016x\n", sc.Hash())
	fmt.Fprintf(w, "world checksum:   %016x\n", sc.World().Checksum())
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
			st.Name, st.Stage, 100*float64(st.Total)/float64(sum), display.Round(st.Mean), display.Round(st.Max))
	}
	printStages(w, sc.Scheduler().StageStats())
}

// printStages reports each stage's mean parallel section, output merge and
// buffer application, and the share of the run spent in the Sync phases
// (merges and buffers), which more workers cannot shorten. printSummary
// calls it once systems have run.
func printStages(w io.Writer, stages []sched.StageStats) {
	fmt.Fprintf(w, "time per stage (mean run, merge, apply; sync phases %.1f%% of the run):\n", 100*sched.SyncShare(stages))
	for _, st := range stages {
		name := fmt.Sprintf("stage %d", st.Stage)
		if st.TickEnd {
			name = "tick end"
		}
		fmt.Fprintf(w, "  %-9s run %-10v merge %-10v apply %-10v %s\n", name,
			display.Round(st.Run.Mean), display.Round(st.Merge.Mean), display.Round(st.Apply.Mean), strings.Join(st.Systems, ", "))
	}
}

// saveWorld writes the scenario's world to path, replacing the file only
// once the save is complete.
func saveWorld(path string, sc scenario.Scenario) error {
	return wholefile.Write(path, func(out io.Writer) error {
		b := bufio.NewWriter(out)
		if err := sc.World().Save(b); err != nil {
			return err
		}
		return b.Flush()
	})
}
