package main

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// servedRun is a tessera serve running in the test's process.
type servedRun struct {
	url    string
	cancel context.CancelFunc
	done   chan int // the exit status, once it returned
	mu     sync.Mutex
	out    strings.Builder
	errOut strings.Builder
}

var servingLine = regexp.MustCompile(`^serving on (ws://127\.0\.0\.1:\d+/tessera/v1)$`)

// startServe runs tessera serve with args until the test ends (or the
// run's -ticks) and returns once it printed its address.
func startServe(t *testing.T, args ...string) *servedRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &servedRun{cancel: cancel, done: make(chan int, 1)}
	pr, pw := io.Pipe()
	go func() {
		s.done <- runServe(ctx, args, pw, &s.errOut)
		pw.Close()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.mu.Lock()
			s.out.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			t.Error("tessera serve did not stop within 10 s of its cancel")
		}
	})
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatalf("tessera serve printed no address; exit %d: %s", <-s.done, s.errOut.String())
		}
		s.url = url
	case <-time.After(20 * time.Second):
		t.Fatal("tessera serve printed no address within 20 s")
	}
	return s
}

// output returns what the server printed so far.
func (s *servedRun) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// stop cancels the server and returns its exit status.
func (s *servedRun) stop(t *testing.T) int {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.done:
		s.done <- code // for the cleanup
		time.Sleep(10 * time.Millisecond)
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("tessera serve did not stop within 10 s")
	}
	return -1
}

type cmdResult struct {
	code        int
	out, errOut string
}

// runBounded runs a tessera command line and fails the test if it does
// not end within limit.
func runBounded(t *testing.T, limit time.Duration, args ...string) cmdResult {
	t.Helper()
	res := make(chan cmdResult, 1)
	go func() {
		code, out, errOut := runCmd(args...)
		res <- cmdResult{code, out, errOut}
	}()
	select {
	case r := <-res:
		return r
	case <-time.After(limit):
		t.Fatalf("%q did not end within %v", args, limit)
	}
	return cmdResult{}
}

var summaryLine = regexp.MustCompile(`tessera demo: (\d+) server ticks applied .* (\d+) checksums checked: all matched\n`)

// TestServeTwoClientsMatch serves the game scenario at 200 ticks a second
// to two clients (one given the token by flag, one by the environment)
// that each apply 40 server ticks: both report matching checksums and
// exit 0; a client with the wrong token is refused with a clear error.
func TestServeTwoClientsMatch(t *testing.T) {
	t.Setenv("TESSERA_NET_TOKEN", "from-env")
	s := startServe(t, "-scenario", "game", "-n", "2000", "-tps", "200", "-addr", "127.0.0.1:0", "-ticks", "6000", "-workers", "1")
	var wg sync.WaitGroup
	results := make([]cmdResult, 2)
	for i, args := range [][]string{
		{"demo", "-connect", s.url, "-token", "from-env", "-ticks", "40"},
		{"demo", "-connect", s.url, "-ticks", "40", "-relevancy", "grid:50"},
	} {
		wg.Go(func() { results[i] = runBounded(t, 30*time.Second, args...) })
	}
	wg.Wait()
	for i, r := range results {
		m := summaryLine.FindStringSubmatch(r.out)
		if r.code != 0 || m == nil {
			t.Errorf("client %d: exit %d, stdout:\n%s\nstderr: %s", i, r.code, r.out, r.errOut)
			continue
		}
		// A State covers every tick since the last one a client was sent:
		// when the machine is busy, the last one may pass the 40th tick.
		if applied, _ := strconv.Atoi(m[1]); applied < 40 || m[2] == "0" {
			t.Errorf("client %d: %s ticks applied, %s checksums checked; want 40 or more, and some", i, m[1], m[2])
		}
	}
	bad := runBounded(t, 30*time.Second, "demo", "-connect", s.url, "-token", "wrong", "-ticks", "40")
	if bad.code == 0 || !strings.Contains(bad.errOut, "the server refused the token") {
		t.Errorf("wrong token: exit %d, stderr %q", bad.code, bad.errOut)
	}
	other := runBounded(t, 30*time.Second, "demo", "-connect", s.url, "-scenario", "particle", "-ticks", "40")
	if other.code == 0 || !strings.Contains(other.errOut, "other component types than the particle scenario's") {
		t.Errorf("other scenario: exit %d, stderr %q", other.code, other.errOut)
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("serve: exit %d: %s", code, s.errOut.String())
	}
	out := s.output()
	for _, want := range []string{"tessera serve: game scenario, 2000 entities, 200 ticks per second for 6000 ticks, relevancy all",
		"clients joined 2,"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve's output lacks %q:\n%s", want, out)
		}
	}
}

// TestServeParticleGrid serves the particles with a capped grid
// relevancy; a client asking for a smaller view somewhere else converges
// too, and the server's per-second line appears.
func TestServeParticleGrid(t *testing.T) {
	s := startServe(t, "-scenario", "particle", "-n", "3000", "-tps", "100", "-addr", "127.0.0.1:0", "-token", "tk",
		"-relevancy", "grid:40", "-budget", "16KiB", "-ticks", "6000", "-workers", "1")
	quiet := make(chan cmdResult, 1)
	go func() {
		quiet <- runBounded(t, 30*time.Second, "demo", "-connect", s.url, "-scenario", "particle", "-token", "tk", "-ticks", "150", "-quiet")
	}()
	r := runBounded(t, 30*time.Second, "demo", "-connect", s.url, "-scenario", "particle", "-token", "tk",
		"-ticks", "150", "-relevancy", "grid:20", "-focus", "60,0")
	q := <-quiet
	if q.code != 0 || strings.Count(q.out, "\n") != 2 || !summaryLine.MatchString(q.out) {
		t.Errorf("-quiet: exit %d, want the first and last lines only:\n%s%s", q.code, q.out, q.errOut)
	}
	if m := summaryLine.FindStringSubmatch(r.out); r.code != 0 || m == nil || m[1] < "150" || len(m[1]) != 3 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", r.code, r.out, r.errOut)
	}
	if !regexp.MustCompile(`(?m)^tick \d+  received .*/tick  checksums \d+ checked, 0 mismatched  entities [1-9]`).MatchString(r.out) {
		t.Errorf("no per-second line with entities in:\n%s", r.out)
	}
	if !regexp.MustCompile(`(?m)^tick \d+  clients [12]  sent .*/s  p99 tick `).MatchString(s.output()) {
		t.Errorf("no per-second line in the server's output:\n%s", s.output())
	}
}

// TestServeStopsAfterTicks: -ticks ends the server; a client that asked
// for more ticks than it served reports the server leaving and exits 1.
func TestServeStopsAfterTicks(t *testing.T) {
	s := startServe(t, "-n", "500", "-tps", "100", "-addr", "127.0.0.1:0", "-token", "tk", "-ticks", "60", "-workers", "1")
	r := runBounded(t, 30*time.Second, "demo", "-connect", s.url, "-token", "tk", "-ticks", "100000")
	if r.code != 1 || !strings.Contains(r.out, "stopped: the server closed the connection") {
		t.Errorf("client: exit %d, stdout:\n%s\nstderr: %s", r.code, r.out, r.errOut)
	}
	select {
	case code := <-s.done:
		s.done <- code
		if code != 0 || !strings.Contains(s.output(), "served 60 ticks: clients joined 1") {
			t.Errorf("serve: exit %d:\n%s%s", code, s.output(), s.errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tessera serve -ticks 60 did not stop")
	}
}

func TestDemoConnectRefusesBadFlags(t *testing.T) {
	t.Setenv("TESSERA_NET_TOKEN", "")
	url := "ws://127.0.0.1:7800/tessera/v1"
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"-connect", url}, "-connect needs the server's token: give -token or set $TESSERA_NET_TOKEN"},
		{[]string{"-connect", url, "-token", "t", "-n", "10"}, "-n does not go with -connect"},
		{[]string{"-connect", url, "-token", "t", "-inspect", "127.0.0.1:0"}, "-inspect does not go with -connect"},
		{[]string{"-connect", url, "-token", "t", "-show"}, "-show does not go with -connect"},
		{[]string{"-connect", "127.0.0.1:7800", "-token", "t"}, "want a WebSocket URL such as ws://127.0.0.1:7800/tessera/v1"},
		{[]string{"-connect", url, "-token", "t", "-scenario", "predator"}, `scenario "predator" does not replicate`},
		{[]string{"-connect", url, "-token", "t", "-ticks", "0"}, "-ticks 0 out of range"},
		{[]string{"-connect", url, "-token", "t", "-relevancy", "grid:x"}, "-relevancy grid:x"},
		{[]string{"-connect", url, "-token", "t", "-focus", "3"}, "-focus 3: want X,Y"},
		{[]string{"-relevancy", "grid:5"}, "-relevancy and -focus need -connect"},
		{[]string{"-focus", "1,2"}, "-relevancy and -focus need -connect"},
		{[]string{"-token", "t"}, "-token needs -inspect or -connect"},
	}
	for _, c := range cases {
		wantUsage(t, append([]string{"demo"}, c.args...), c.msg)
	}
	// Nothing listens on port 1: a connection error, exit 1.
	r := runBounded(t, 20*time.Second, "demo", "-connect", "ws://127.0.0.1:1/tessera/v1", "-token", "t", "-ticks", "5")
	if r.code != 1 || !strings.Contains(r.errOut, "tessera demo: -connect:") {
		t.Errorf("no server: exit %d, stderr %q", r.code, r.errOut)
	}
}
