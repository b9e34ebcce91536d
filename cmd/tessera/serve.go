package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tessera-ecs/tessera/cmd/tessera/internal/netgame"
	"github.com/tessera-ecs/tessera/internal/admit"
	"github.com/tessera-ecs/tessera/internal/display"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// Limits of tessera serve's flags.
const (
	// maxServed caps serve's -n: a client's first State holds every
	// entity it sees, about 25 bytes each in the game, and a client takes
	// messages of at most 64 MiB.
	maxServed = 1_000_000
	// maxServeTPS caps -tps: the server tells clients its rate, and their
	// message rate limit follows it.
	maxServeTPS = 1000
	// maxBudget caps -budget below what a client accepts in one message.
	maxBudget = 32 << 20
)

// serveOptions are tessera serve's flags.
type serveOptions struct {
	scenario        string
	n, workers, tps int
	ticks           int
	seed            uint64
	addr, token     string
	hosts, origins  []string
	budget          int
	relevancy       string
	radius          float32 // 0: every replicated entity; else the cap of grid:R
}

// serveUsage heads tessera serve -h.
const serveUsage = `Usage: tessera serve [flags]

Runs a scenario headless and replicates it over WebSocket (package
github.com/tessera-ecs/tessera/net/netcode) to the clients that connect to
ws://ADDR` + netcode.Path + ` with the token, such as tessera demo -connect.
Every second it prints the tick, the clients, the bytes per second sent
and the 99th percentile of the tick time (the tick and the replication).

Flags:
`

func parseServe(args []string, stderr io.Writer) (serveOptions, error) {
	var o serveOptions
	var hosts, origins, budget string
	fs := flag.NewFlagSet("tessera serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.scenario, "scenario", "game", "the scenario served: "+netgame.Scenarios)
	fs.IntVar(&o.n, "n", 10_000, fmt.Sprintf("number of entities (particles for the particle scenario), 1 to %d", maxServed))
	fs.IntVar(&o.workers, "workers", 0, fmt.Sprintf("scheduler workers, 1 to %d; 0 means GOMAXPROCS", maxWorkers))
	fs.Uint64Var(&o.seed, "seed", 1, "random seed")
	fs.IntVar(&o.tps, "tps", netcode.DefaultTickRate, fmt.Sprintf("ticks per second, 1 to %d", maxServeTPS))
	fs.IntVar(&o.ticks, "ticks", 0, fmt.Sprintf("stop after `N` ticks, 0 to %d; 0 runs until interrupted (Ctrl-C)", maxTicks))
	fs.StringVar(&o.addr, "addr", "127.0.0.1:7800", "listen on `ADDR` (host:port; port 0 picks a free one). A non-loopback\n"+
		"address needs -hosts")
	fs.StringVar(&o.token, "token", "", "the token clients present to join; required. Defaults to $TESSERA_NET_TOKEN,\n"+
		"which keeps it out of the process list")
	fs.StringVar(&hosts, "hosts", "", "the comma-separated host `NAMES` remote clients reach this machine by (the Host\n"+
		"header); needed to listen on a non-loopback address")
	fs.StringVar(&origins, "origins", "", "the comma-separated page `ORIGINS` (scheme://host[:port]) whose scripts may\n"+
		"connect, besides the server's own")
	fs.StringVar(&budget, "budget", strconv.Itoa(netcode.DefaultBudget), "the bytes per client per State aimed at, such as 65536 or 64KiB; what does not\n"+
		"fit waits, the longest waiting first. -1 for no limit")
	fs.StringVar(&o.relevancy, "relevancy", "all", "what each client sees: all (every entity, or the radius its View asks), or\n"+
		"grid:R, the entities within R of its focus (its -focus, or the middle of the frame)")
	fs.Usage = func() {
		fmt.Fprint(stderr, serveUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	bad := func(format string, a ...any) (serveOptions, error) {
		fmt.Fprintf(stderr, "tessera serve: "+format+"\n", a...)
		return o, errUsage
	}
	if o.token == "" {
		o.token = os.Getenv("TESSERA_NET_TOKEN")
	}
	o.hosts, o.origins = splitList(hosts), splitList(origins)
	var err error
	limit, _ := entityLimit(o.scenario, "table", 0)
	limit = min(limit, maxServed)
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case o.scenario != "game" && o.scenario != "particle":
		return bad("scenario %q does not replicate: want %s", o.scenario, netgame.Scenarios)
	case o.n < 1 || o.n > limit:
		return bad("-n %d out of range: want 1 to %d", o.n, limit)
	case o.workers < 0 || o.workers > maxWorkers:
		return bad("-workers %d out of range: want 1 to %d, or 0 for GOMAXPROCS", o.workers, maxWorkers)
	case o.tps < 1 || o.tps > maxServeTPS:
		return bad("-tps %d out of range: want 1 to %d", o.tps, maxServeTPS)
	case o.ticks < 0 || o.ticks > maxTicks:
		return bad("-ticks %d out of range: want 0 to %d (0: until interrupted)", o.ticks, maxTicks)
	case o.token == "":
		return bad("no token: give -token or set $TESSERA_NET_TOKEN (clients present it to join)")
	}
	if o.budget, err = parseBytes(budget); err != nil {
		return bad("-budget %s: %v", budget, err)
	}
	if o.radius, err = netgame.ParseRadius(o.relevancy); err != nil {
		return bad("-relevancy %s: %v", o.relevancy, err)
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return bad("-addr %q: %v", o.addr, err)
	}
	if loopback := (&admit.Policy{}).HostAllowed(host); !loopback && len(o.hosts) == 0 {
		return bad("-addr %s is not a loopback address: listening on other interfaces needs -hosts, the names\n"+
			"clients reach this machine by", o.addr)
	}
	return o, nil
}

// splitList splits a comma-separated flag, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parseBytes reads a byte count: a whole number, optionally followed by
// KiB or MiB, in 1 to maxBudget; or -1 for no limit.
func parseBytes(s string) (int, error) {
	if s == "-1" {
		return -1, nil
	}
	unit := 1
	num := s
	for _, u := range []struct {
		suffix string
		size   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, unit = strings.TrimSpace(rest), u.size
			break
		}
	}
	v, err := strconv.Atoi(num)
	if err != nil || v < 1 || v > maxBudget/unit {
		return 0, fmt.Errorf("want a size from 1 to %d bytes (32MiB), such as 65536 or 64KiB, or -1 for no limit", maxBudget)
	}
	return v * unit, nil
}

func serve(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runServe(ctx, args, stdout, stderr)
}

// runServe is tessera serve, stopped early when ctx ends.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseServe(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "tessera serve:", err)
		return 1
	}
	cfg := scenario.Config{N: o.n, Seed: o.seed, Workers: o.workers}
	var sc scenario.Scenario
	if o.scenario == "particle" {
		sc, err = scenario.NewParticle(cfg)
	} else {
		sc, err = scenario.NewGame(cfg)
	}
	if err != nil {
		return fail(err)
	}
	defer sc.Close()
	w := sc.World()
	rules, err := netgame.Rules(o.scenario)
	if err != nil {
		return fail(err)
	}
	marker, err := netgame.NewMarker(o.scenario, w)
	if err != nil {
		return fail(err)
	}
	marker.Mark()
	rel, err := netgame.NewRelevancy(o.scenario, w, o.radius)
	if err != nil {
		return fail(err)
	}
	srv, err := netcode.NewServer(w, rules, netcode.Options{Token: o.token, Hosts: o.hosts, Origins: o.origins,
		TickRate: o.tps, Budget: o.budget, Relevancy: rel})
	if err != nil {
		return fail(err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fail(err)
	}
	mux := http.NewServeMux()
	mux.Handle(netcode.Path, srv)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) // returns when Close closes the listener
	defer hs.Close()

	until := "until interrupted (Ctrl-C)"
	if o.ticks > 0 {
		until = fmt.Sprintf("for %d ticks", o.ticks)
	}
	budget := "no budget"
	if o.budget > 0 {
		budget = fmt.Sprintf("budget %d bytes per client per State", o.budget)
	}
	fmt.Fprintf(stdout, "tessera serve: %s scenario, %d entities, %d ticks per second %s, relevancy %s, %s\n",
		o.scenario, sc.Alive(), o.tps, until, o.relevancy, budget)
	fmt.Fprintf(stdout, "serving on %s\n", wsURL(ln.Addr().(*net.TCPAddr), o.hosts))

	loop := serveLoop{sc: sc, marker: marker, rel: rel, srv: srv, tps: o.tps, ticks: o.ticks, out: stdout}
	loop.run(ctx)
	st := srv.Stats()
	fmt.Fprintf(stdout, "served %d ticks: clients joined %d, %s sent", st.Tick, st.Joined, byteSize(float64(st.BytesSent)))
	if loop.all.n > 0 {
		fmt.Fprintf(stdout, ", tick time p99 %v", display.Round(loop.all.percentile(0.99)))
	}
	fmt.Fprintln(stdout)
	if err := sc.Check(); err != nil {
		return fail(fmt.Errorf("invariant broken: %w", err))
	}
	return 0
}

// wsURL is the address clients dial: the listen address, or for a
// wildcard one the first of hosts, else the loopback address.
func wsURL(a *net.TCPAddr, hosts []string) string {
	host := a.IP.String()
	switch {
	case !a.IP.IsUnspecified():
	case len(hosts) > 0:
		host = hosts[0]
	default:
		host = "127.0.0.1"
	}
	return "ws://" + net.JoinHostPort(host, strconv.Itoa(a.Port)) + netcode.Path
}

// serveLoop ticks a served scenario at a fixed rate and reports every
// second.
type serveLoop struct {
	sc     scenario.Scenario
	marker *netgame.Marker
	rel    *netgame.Relevancy
	srv    *netcode.Server
	tps    int
	ticks  int // 0: until ctx ends
	out    io.Writer

	all    *tickLog        // every tick's time, for the summary
	window []time.Duration // this second's tick times
}

// run ticks until ctx ends or the ticks are done: each tick is the
// scenario's tick, the marking of new entities, the relevancy's update
// and the server's Update, timed together.
func (l *serveLoop) run(ctx context.Context) {
	l.all = newTickLog()
	period := time.Second / time.Duration(l.tps)
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	start := time.Now()
	next, report := start, start.Add(time.Second)
	lastBytes, lastReport := uint64(0), start
	w := l.sc.World()
	for tick := 1; l.ticks == 0 || tick <= l.ticks; tick++ {
		if ctx.Err() != nil {
			return
		}
		t0 := time.Now()
		l.sc.Tick()
		l.marker.Mark()
		l.rel.Update(w, l.srv.Clients())
		l.srv.Update()
		d := time.Since(t0)
		l.all.add(d)
		l.window = append(l.window, d)
		if now := time.Now(); !now.Before(report) {
			st := l.srv.Stats()
			rate := float64(st.BytesSent-lastBytes) / now.Sub(lastReport).Seconds()
			fmt.Fprintf(l.out, "tick %d  clients %d  sent %s/s  p99 tick %v\n",
				st.Tick, st.Clients, byteSize(rate), display.Round(p99(l.window)))
			l.window = l.window[:0]
			lastBytes, lastReport = st.BytesSent, now
			report = report.Add(time.Second)
			if report.Before(now) {
				report = now.Add(time.Second)
			}
		}
		next = next.Add(period)
		wait := time.Until(next)
		if wait <= -time.Second { // far behind: do not try to catch up
			next = time.Now()
			continue
		}
		if wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		}
	}
}

// p99 returns the 99th percentile of ds (sorting it), 0 for none.
func p99(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, len(ds)*99/100)]
}

// byteSize writes a byte count in B, KiB, MiB or GiB.
func byteSize(b float64) string {
	switch {
	case b < 1<<10:
		return fmt.Sprintf("%.0f B", b)
	case b < 1<<20:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	case b < 1<<30:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", b/(1<<30))
}
