package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"time"

	"github.com/tessera-ecs/tessera/cmd/tessera/internal/netgame"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// connectFlags are the demo flags that go with -connect.
var connectFlags = []string{"connect", "scenario", "token", "ticks", "relevancy", "focus", "quiet"}

// closeGoingAway is the WebSocket close code of a server that stops.
const closeGoingAway = 1001

// dialTimeout bounds the connection and the server's welcome.
const dialTimeout = 10 * time.Second

// parseConnect checks the flags of tessera demo -connect: set holds the
// flags given, nargs the arguments left.
func parseConnect(o demoOptions, set map[string]bool, nargs int, bad func(string, ...any) (demoOptions, error)) (demoOptions, error) {
	for _, name := range []string{"n", "workers", "storage", "seed", "rollback", "synctest", "save", "load",
		"checksums", "plot", "show", "inspect", "inspect-hosts", "tps", "history"} {
		if set[name] {
			return bad("-%s does not go with -connect: a client runs no scenario of its own (it goes with %s)",
				name, flagList(connectFlags[1:]))
		}
	}
	if nargs > 0 {
		return bad("unexpected argument after the flags")
	}
	if !set["scenario"] {
		o.scenario = "game" // tessera serve's default
	}
	if _, err := netgame.Rules(o.scenario); err != nil {
		return bad("-scenario: %v", err)
	}
	u, err := url.Parse(o.connect)
	if err != nil || !slices.Contains([]string{"ws", "wss", "http", "https"}, u.Scheme) || u.Host == "" {
		return bad("-connect %q: want a WebSocket URL such as ws://127.0.0.1:7800%s", o.connect, netcode.Path)
	}
	o.ticksSet = set["ticks"]
	if !o.ticksSet {
		o.ticks = 0 // until interrupted
	} else if o.ticks < 1 || o.ticks > maxTicks {
		return bad("-ticks %d out of range: want 1 to %d", o.ticks, maxTicks)
	}
	if o.radius, err = netgame.ParseRadius(o.relevancy); err != nil {
		return bad("-relevancy %s: %v", o.relevancy, err)
	}
	o.fx, o.fy = netgame.DefaultFocus(o.scenario)
	if o.focus != "" {
		if o.fx, o.fy, err = netgame.ParseFocus(o.focus); err != nil {
			return bad("-focus %s: %v", o.focus, err)
		}
	}
	if o.token == "" {
		o.token = os.Getenv("TESSERA_NET_TOKEN")
	}
	if o.token == "" {
		return bad("-connect needs the server's token: give -token or set $TESSERA_NET_TOKEN")
	}
	return o, nil
}

// flagList writes flag names as "-a, -b and -c".
func flagList(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " and "
		default:
			s += ", "
		}
		s += "-" + n
	}
	return s
}

// runConnect is tessera demo -connect: a client world replicating the
// server's, until ctx ends, the connection ends or o.ticks server ticks
// were applied. Exit status 0 when every checksum the server sent matched
// the client's world, 1 otherwise (or when none was checked, or the
// connection failed).
func runConnect(ctx context.Context, o demoOptions, stdout, stderr io.Writer) int {
	rules, err := netgame.Rules(o.scenario)
	if err != nil {
		fmt.Fprintln(stderr, "tessera demo:", err)
		return 2
	}
	w := ecs.NewWorld()
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	c, err := netcode.Dial(dctx, o.connect, w, rules, netcode.ClientOptions{Token: o.token})
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "tessera demo: -connect:", dialError(err, o.scenario))
		return 1
	}
	defer c.Close()
	until := "until interrupted (Ctrl-C)"
	if o.ticksSet {
		until = fmt.Sprintf("for %d server ticks", o.ticks)
	}
	fmt.Fprintf(stdout, "tessera demo: client %d of %s, %s scenario, the server ticks %d times a second; %s\n",
		c.ID(), o.connect, o.scenario, c.TickRate(), until)
	r := connectRun{c: c, w: w, o: o, out: stdout}
	reason := r.run(ctx)
	return r.summary(reason, stdout)
}

// dialError explains why the server refused the client.
func dialError(err error, scenarioName string) error {
	var ce *netcode.CloseError
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Code {
	case netcode.CloseToken:
		return fmt.Errorf("the server refused the token: give its token with -token or $TESSERA_NET_TOKEN (%w)", err)
	case netcode.CloseSchema:
		return fmt.Errorf("the server replicates other component types than the %s scenario's: give its -scenario (%w)", scenarioName, err)
	case netcode.CloseFull:
		return fmt.Errorf("the server has all the clients it takes (%w)", err)
	}
	return err
}

// errInterrupted is why a client stopped when its context ended.
var errInterrupted = errors.New("interrupted")

// connectRun is a client's loop and its counters.
type connectRun struct {
	c   *netcode.Client
	w   *ecs.World
	o   demoOptions
	out io.Writer

	first, viewSent uint64 // server tick of the first State applied, of the last View sent
}

// applied is the number of server ticks the client's States covered.
func (r *connectRun) applied() uint64 {
	if r.first == 0 {
		return 0
	}
	return r.c.Tick() - r.first + 1
}

// run applies States until ctx ends, the connection ends or the ticks
// are done, printing a line a second; it returns why it stopped, nil
// when the ticks were done.
func (r *connectRun) run(ctx context.Context) error {
	c := r.c
	rate := max(c.TickRate(), 1)
	poll := time.NewTicker(max(time.Millisecond, time.Second/time.Duration(2*rate)))
	defer poll.Stop()
	second := time.NewTicker(time.Second)
	defer second.Stop()
	var lastTick, lastBytes uint64
	for {
		select {
		case <-ctx.Done():
			return errInterrupted
		case <-second.C:
			if r.o.quiet {
				continue
			}
			st := c.Stats()
			perTick := "no State"
			if c.Tick() > lastTick {
				perTick = byteSize(float64(st.Bytes-lastBytes)/float64(c.Tick()-lastTick)) + "/tick"
			}
			fmt.Fprintf(r.out, "tick %d  received %s  checksums %d checked, %d mismatched  entities %d\n",
				c.Tick(), perTick, st.Checked, st.Mismatches, r.w.Len())
			lastTick, lastBytes = c.Tick(), st.Bytes
		case <-poll.C:
			n, err := c.Update()
			if n > 0 {
				if r.first == 0 {
					r.first = c.Tick()
					lastTick = r.first - 1 // the first line counts from the first State
				}
				r.sendView(uint64(rate))
				if r.o.ticksSet && r.applied() >= uint64(r.o.ticks) {
					return nil
				}
			}
			if err != nil {
				return err
			}
		}
	}
}

// sendView tells the server what the client asks to see, once a second
// of server ticks: the server holds a client's last input, and sending
// it again covers one that arrived too late.
func (r *connectRun) sendView(every uint64) {
	if r.viewSent != 0 && r.c.Tick() < r.viewSent+every {
		return
	}
	r.viewSent = r.c.Tick()
	v := netgame.View{X: r.o.fx, Y: r.o.fy, R: r.o.radius}
	netcode.SendInput(r.c, r.c.Tick()+4, v) // an error ends the connection, which Update reports
}

// summary prints the run's last line and returns the exit status.
func (r *connectRun) summary(stopped error, stdout io.Writer) int {
	st := r.c.Stats()
	code := 0
	verdict := "all matched"
	switch {
	case st.Mismatches > 0:
		verdict, code = fmt.Sprintf("%d MISMATCHED", st.Mismatches), 1
	case st.Checked == 0:
		verdict, code = "nothing verified (run for more ticks)", 1
	}
	fmt.Fprintf(stdout, "tessera demo: %d server ticks applied (to tick %d), %d States (%d resets), %s received, %d entities, %d checksums checked: %s\n",
		r.applied(), r.c.Tick(), st.States, st.Resets, byteSize(float64(st.Bytes)), r.w.Len(), st.Checked, verdict)
	if stopped != nil {
		left := serverLeft(stopped)
		if left {
			fmt.Fprintf(stdout, "stopped: the server closed the connection (%v)\n", stopped)
		} else {
			fmt.Fprintf(stdout, "stopped: %v\n", stopped)
		}
		if !errors.Is(stopped, errInterrupted) && (r.o.ticksSet || !left) {
			code = 1 // the connection failed, or the server left before the ticks asked for
		}
	}
	return code
}

// serverLeft reports whether err is the end of a server that stopped:
// a close with 1001 (going away), or the connection's end without a
// close message.
func serverLeft(err error) bool {
	var ce *netcode.CloseError
	return errors.As(err, &ce) && ce.Code == closeGoingAway || errors.Is(err, io.EOF)
}
