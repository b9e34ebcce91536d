package inspect_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

// TestLockerWaitsNoLonger checks that a request whose Locker stays taken
// answers 503 in the Wait time and never runs, even once the lock is free.
func TestLockerWaitsNoLonger(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.Wait(50*time.Millisecond))
	f.mu.Lock()
	status, body := f.write(http.MethodPut, "/api/entities/"+f.es[1].String()+"/components/inspect_test.Health", `{"HP": 77}`)
	f.mu.Unlock()
	wantError(t, "Locker held", status, body, http.StatusServiceUnavailable, "did not serve the request in time")
	time.Sleep(20 * time.Millisecond)
	f.mu.Lock()
	hp := ecs.NewMap[Health](f.w).Get(f.es[1]).HP
	f.mu.Unlock()
	if hp != 10 {
		t.Errorf("the refused write ran once the lock was free: HP %d", hp)
	}
	if status, body := f.write(http.MethodPut, "/api/entities/"+f.es[1].String()+"/components/inspect_test.Health", `{"HP": 78}`); status != 200 {
		t.Errorf("the lock was left taken: %d %s", status, body)
	}
}

// TestShutdownEndsStreams checks that a graceful shutdown does not wait
// forever for the page's stream.
func TestShutdownEndsStreams(t *testing.T) {
	var mu sync.Mutex
	in := inspect.New(ecs.NewWorld(), inspect.Locker(&mu))
	srv, err := in.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(srv.URL + "api/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown with a stream open: %v", err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("the stream did not end cleanly: %v", err)
	}
}

func TestWildcardURL(t *testing.T) {
	var mu sync.Mutex
	for _, c := range []struct {
		hosts []string
		want  string
	}{{nil, "http://127.0.0.1:"}, {[]string{"box.lan"}, "http://box.lan:"}} {
		in := inspect.New(ecs.NewWorld(), inspect.Locker(&mu), inspect.AllowRemote(c.hosts...))
		srv, err := in.Listen("0.0.0.0:0")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(srv.URL, c.want) {
			t.Errorf("URL %s, want %s…", srv.URL, c.want)
		}
		if c.hosts == nil {
			resp, err := http.Get(srv.URL + "api/world")
			if err != nil || resp.StatusCode != 200 {
				t.Errorf("GET %s: %v %v", srv.URL, resp, err)
			}
			resp.Body.Close()
		}
		srv.Close()
	}
}

// TestTicksPerSecondAboveTheRing checks the rate is not capped by the 600
// samples the ring holds.
func TestTicksPerSecondAboveTheRing(t *testing.T) {
	f := newFixture(t)
	f.looped(0)
	s := f.waitFor("a full ring", func(s summary) bool { return s.Tick > 700 })
	if s.TicksPerSecond <= 600 {
		t.Errorf("%v ticks per second reported at full speed (tick %d)", s.TicksPerSecond, s.Tick)
	}
}

type Explosive struct{ N int }

func (Explosive) MarshalJSON() ([]byte, error) { panic("boom") }

func TestMarshalPanicIsPerComponent(t *testing.T) {
	f := newFixture(t)
	ecs.NewMap[Explosive](f.w).Add(f.es[0], Explosive{})
	var d struct {
		Components []struct {
			GoType string
			Value  json.RawMessage
			Error  string
		}
	}
	f.get("/api/entities/"+f.es[0].String(), &d)
	for _, c := range d.Components {
		if (c.GoType == "inspect_test.Explosive") != (c.Error == "panic while encoding: boom") {
			t.Errorf("%s: %s, error %q", c.GoType, c.Value, c.Error)
		}
	}
}

func TestBearerIgnoresCase(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	status, body := f.call(http.MethodPut, "/api/entities/"+f.es[1].String()+"/components/inspect_test.Health", `{"HP": 5}`, "Authorization", "bearer "+token)
	if status != 200 {
		t.Errorf("lower-case bearer: %d %s", status, body)
	}
	status, body = f.call("OPTIONS", "/api/world", "")
	wantError(t, "OPTIONS", status, body, http.StatusMethodNotAllowed, "method OPTIONS not allowed")
}

func TestBadOptionsPanic(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"Token with a newline", func() { inspect.Token("tok\n") }, "control character"},
		{"Token with a space", func() { inspect.Token("a b") }, "space"},
		{"empty Token", func() { inspect.Token("") }, "empty token"},
		{"Wait(0)", func() { inspect.Wait(0) }, "positive"},
		{"MaxBody(-1)", func() { inspect.MaxBody(-1) }, "at least 1 byte"},
		{"BodyTimeout(0)", func() { inspect.BodyTimeout(0) }, "positive"},
		{"WriteTimeout(-1)", func() { inspect.WriteTimeout(-1) }, "positive"},
		{"HeaderTimeout(0)", func() { inspect.HeaderTimeout(0) }, "positive"},
		{"IdleTimeout(0)", func() { inspect.IdleTimeout(0) }, "positive"},
		{"Run(NaN)", func() { inspect.New(ecs.NewWorld()).Run(context.Background(), math.NaN(), func() {}) }, "NaN ticks per second"},
		{"Run(-1)", func() { inspect.New(ecs.NewWorld()).Run(context.Background(), -1, func() {}) }, "-1 ticks per second"},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), c.want) {
					t.Errorf("%s: panic %v, want %q", c.name, p, c.want)
				}
			}()
			c.f()
		}()
	}
}

// TestServeTwiceAtOncePanics calls Tick from inside a tick, as a second
// goroutine would overlap the first.
func TestServeTwiceAtOncePanics(t *testing.T) {
	in := inspect.New(ecs.NewWorld())
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "two goroutines at once") {
			t.Errorf("panic %v", p)
		}
	}()
	in.Tick(func() { in.Serve() })
}

// TestReadsCannotStallTheLoop keeps the queue full of reads while the loop
// ticks at 100 per second: each Serve runs only what waited when it began,
// so ticks keep coming.
func TestReadsCannotStallTheLoop(t *testing.T) {
	f := newFixture(t)
	ecs.NewMap[Position](f.w).SpawnBatch(20000, Position{})
	f.looped(100)
	start := f.summary().Tick
	stop := time.Now().Add(500 * time.Millisecond)
	var wg sync.WaitGroup
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				f.call(http.MethodGet, "/api/entities?limit=10000", "")
			}
		}()
	}
	wg.Wait()
	if ran := f.summary().Tick - start; ran < 10 {
		t.Errorf("%d ticks in 0.5 s at 100 per second under read load", ran)
	}
}
