package main

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/cmd/tessera/internal/netgame"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// serveGame serves a small game world, ticked every 5 ms on a goroutine
// of its own until the test ends, and returns its URL.
func serveGame(t *testing.T, token string) string {
	t.Helper()
	g, err := scenario.NewGame(scenario.Config{N: 300, Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	rules, err := netgame.Rules("game")
	if err != nil {
		t.Fatal(err)
	}
	marker, err := netgame.NewMarker("game", g.World())
	if err != nil {
		t.Fatal(err)
	}
	marker.Mark()
	srv, err := netcode.NewServer(g.World(), rules, netcode.Options{Token: token, TickRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				srv.Close()
				return
			case <-tick.C:
				g.Tick()
				srv.Update()
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; hs.Close(); g.Close() })
	return "ws" + strings.TrimPrefix(hs.URL, "http") + netcode.Path
}

// runWithin runs the command and fails the test if it takes longer than
// 20 s.
func runWithin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code        int
		out, errOut string
	}
	res := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		res <- result{code, out.String(), errOut.String()}
	}()
	select {
	case r := <-res:
		return r.code, r.out, r.errOut
	case <-time.After(20 * time.Second):
		t.Fatalf("%q did not end within 20 s", args)
	}
	return 0, "", ""
}

func TestNetclientMatchesServer(t *testing.T) {
	url := serveGame(t, "tk")
	code, out, errOut := runWithin(t, "-url", url, "-token", "tk", "-ticks", "45")
	if code != 0 || !strings.Contains(out, "checksums checked: all matched") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	if !strings.Contains(out, ": 300 entities, checksums ") {
		t.Errorf("no line with the 300 entities:\n%s", out)
	}
	code, _, errOut = runWithin(t, "-url", url, "-token", "wrong")
	if code != 1 || !strings.Contains(errOut, "4003") {
		t.Errorf("wrong token: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runWithin(t, "-url", url, "-token", "tk", "-scenario", "particle")
	if code != 1 || !strings.Contains(errOut, "4002") {
		t.Errorf("other rules: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runWithin(t, "-scenario", "predator"); code != 2 {
		t.Errorf("-scenario predator: exit %d, want 2", code)
	}
}
