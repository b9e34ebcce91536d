// Command netclient is the smallest client of tessera serve: it dials
// the server, replicates its world (the rules of package netgame, which
// tessera serve and tessera demo -connect use) and prints, at the first
// State and then once a second of server ticks, the tick it applied, the
// entities it holds and the view checksums checked and mismatched. It
// stops after -ticks server ticks; the exit status is 0 when every
// checksum matched.
//
// It needs no more than netcode, ecs and the standard library, so it
// builds for the browser as well as natively:
//
//	GOOS=js GOARCH=wasm go build -o netclient.wasm ./cmd/tessera/netclient
//
// In the browser, netcode dials with the page's WebSocket (flags come
// from wasm_exec.js's go.argv, the token from go.env); the server must
// list the page's origin in tessera serve -origins, and its host in
// -hosts when it is not loopback. Under Node (20 with
// --experimental-websocket, or 22 and later), Go's wasm_exec_node.js
// runs it as it is.
//
// Usage:
//
//	TESSERA_NET_TOKEN=secret netclient -url ws://127.0.0.1:7800/tessera/v1 -ticks 200
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tessera-ecs/tessera/cmd/tessera/internal/netgame"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/net/netcode"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its arguments and outputs: exit status 0 when
// every checksum matched, 1 when one differed, none was checked or the
// connection failed, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("netclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "ws://127.0.0.1:7800"+netcode.Path, "the server's `URL`")
	token := fs.String("token", os.Getenv("TESSERA_NET_TOKEN"), "the server's token (default $TESSERA_NET_TOKEN)")
	scenarioName := fs.String("scenario", "game", "the server's scenario: "+netgame.Scenarios)
	ticks := fs.Uint64("ticks", 200, "stop after `N` server ticks applied")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rules, err := netgame.Rules(*scenarioName)
	if err != nil {
		fmt.Fprintln(stderr, "netclient:", err)
		return 2
	}
	w := ecs.NewWorld()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	c, err := netcode.Dial(ctx, *url, w, rules, netcode.ClientOptions{Token: *token})
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "netclient:", err)
		return 1
	}
	defer c.Close()
	every := uint64(max(c.TickRate(), 1))
	var first, printed uint64
	for first == 0 || c.Tick()-first+1 < *ticks {
		time.Sleep(5 * time.Millisecond)
		n, err := c.Update()
		if n > 0 && first == 0 {
			first = c.Tick()
		}
		if first != 0 && (printed == 0 || c.Tick() >= printed+every) {
			printed = c.Tick()
			st := c.Stats()
			fmt.Fprintf(stdout, "tick %d: %d entities, checksums %d checked, %d mismatched\n", c.Tick(), w.Len(), st.Checked, st.Mismatches)
		}
		if err != nil {
			fmt.Fprintln(stderr, "netclient: the connection ended:", err)
			return 1
		}
	}
	st := c.Stats()
	switch {
	case st.Mismatches > 0:
		fmt.Fprintf(stdout, "netclient: %d of %d checksums MISMATCHED\n", st.Mismatches, st.Checked)
		return 1
	case st.Checked == 0:
		fmt.Fprintln(stdout, "netclient: no checksum checked: run for more ticks")
		return 1
	}
	fmt.Fprintf(stdout, "netclient: to tick %d, %d checksums checked: all matched\n", c.Tick(), st.Checked)
	return 0
}
