package netcode

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

const testToken = "s3cret-token"

// gameRules are the rules of the game scenario's replicated part:
// positions, health and sprites travel; velocities and data stay.
func gameRules(t testing.TB) *Rules {
	r := NewRules()
	for _, err := range []error{Replicate[scenario.GamePosition](r), Replicate[scenario.Health](r), Replicate[scenario.Sprite](r)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// markAll gives every entity of w Replicated.
func markAll(w *ecs.World) {
	var es []ecs.Entity
	for ch := range ecs.NewQuery1[scenario.GamePosition](w).Chunks() {
		es = append(es, ch.Entities...)
	}
	ecs.NewMap[Replicated](w).AddEntities(es, Replicated{})
}

// loopback is a server on 127.0.0.1 ticking a world on the test's
// goroutine.
type loopback struct {
	t    testing.TB
	srv  *Server
	http *httptest.Server
	url  string
	step func()
	// updates are the durations of the Updates run calls: the server's
	// work a tick besides the world's own systems.
	updates []time.Duration
}

func newLoopback(t testing.TB, w *ecs.World, rules *Rules, opts Options, step func()) *loopback {
	t.Helper()
	if opts.Token == "" {
		opts.Token = testToken
	}
	srv, err := NewServer(w, rules, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	return &loopback{t: t, srv: srv, http: hs, url: "ws" + strings.TrimPrefix(hs.URL, "http") + Path, step: step}
}

// run ticks the world n times at tps ticks a second (0: as fast as it
// goes), calling Update after each.
func (l *loopback) run(n, tps int) {
	start := time.Now()
	for i := range n {
		if l.step != nil {
			l.step()
		}
		t0 := time.Now()
		l.srv.Update()
		l.updates = append(l.updates, time.Since(t0))
		if tps > 0 {
			if d := time.Until(start.Add(time.Duration(i+1) * time.Second / time.Duration(tps))); d > 0 {
				time.Sleep(d)
			}
		}
	}
}

// quiet runs Update without ticking the world until every client in ids
// acknowledged a State that left nothing to send, or the deadline passes;
// it reports whether they did. With the world standing still, a client
// that acknowledged such a State holds every value of its view.
func (l *loopback) quiet(ids []ClientID, within time.Duration) bool {
	if len(ids) == 0 {
		return false
	}
	deadline := time.Now().Add(within)
	completeAt := map[ClientID]uint64{}
	for time.Now().Before(deadline) {
		l.srv.Update()
		done := true
		for _, id := range ids {
			info, ok := l.srv.Client(id)
			switch {
			case !ok:
				done = false
			case info.Pending != 0:
				delete(completeAt, id)
				done = false
			default:
				// A State sent in this loop, with nothing left out, brings
				// the client to the still world.
				if _, seen := completeAt[id]; !seen && info.Queued == l.srv.Tick() {
					completeAt[id] = info.Queued
				}
				if at, seen := completeAt[id]; !seen || info.Acked < at {
					done = false
				}
			}
		}
		if done {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// testClient is a client world updated on a goroutine of its own.
type testClient struct {
	c      *Client
	w      *ecs.World
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// dialTest connects a client and starts its loop, which applies what
// arrives every period.
func dialTest(t testing.TB, url string, rules *Rules, opts ClientOptions, period time.Duration) *testClient {
	t.Helper()
	return dialTestWith(t, url, rules, opts, period, nil)
}

// dialTestWith is dialTest with a function called after each Update on
// the client's goroutine (to send inputs, say).
func dialTestWith(t testing.TB, url string, rules *Rules, opts ClientOptions, period time.Duration, each func(c *Client)) *testClient {
	t.Helper()
	if opts.Token == "" {
		opts.Token = testToken
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w := ecs.NewWorld()
	c, err := Dial(ctx, url, w, rules, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	lctx, lcancel := context.WithCancel(context.Background())
	tc := &testClient{c: c, w: w, cancel: lcancel, done: make(chan struct{})}
	go func() {
		defer close(tc.done)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-lctx.Done():
				c.Update()
				return
			case <-tick.C:
				if _, err := c.Update(); err != nil {
					tc.err = err
					return
				}
				if each != nil {
					each(c)
				}
			}
		}
	}()
	t.Cleanup(func() { tc.stop(); c.Close() })
	return tc
}

// stop ends the client's loop; its world is the test's to read after.
func (tc *testClient) stop() {
	tc.cancel()
	<-tc.done
}

// stopAll stops clients in parallel.
func stopAll(cs []*testClient) {
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(c.stop)
	}
	wg.Wait()
}

// newHTTPTest serves h on 127.0.0.1 for the test's duration.
func newHTTPTest(t testing.TB, h http.Handler) *httptest.Server {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}
