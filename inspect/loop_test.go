package inspect_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/sched"
)

// looped starts f's world on a FixedLoop driven by Inspector.Run at tps
// ticks per second, stopped when the test ends.
func (f *fixture) looped(tps float64) *sched.FixedLoop {
	loop := sched.NewFixedLoop(f.s, time.Second/60)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.in.Run(ctx, tps, loop.Step)
	}()
	f.t.Cleanup(func() { cancel(); <-done })
	return loop
}

type summary struct {
	Tick           uint64
	Paused, Loop   bool
	TicksPerSecond float64
	TickTime       struct{ LastNs, MeanNs, MaxNs int64 }
}

func (f *fixture) summary() summary {
	var s summary
	f.get("/api/world", &s)
	return s
}

// waitFor polls the summary until ok holds, for up to 5 s.
func (f *fixture) waitFor(what string, ok func(summary) bool) summary {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := f.summary()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("waiting for %s: last summary %+v", what, s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestPauseStepResume(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	f.looped(500)
	f.waitFor("ticks", func(s summary) bool { return s.Loop && s.Tick >= 3 && s.TicksPerSecond > 0 && s.TickTime.MaxNs > 0 })
	status, body := f.write(http.MethodPost, "/api/loop/pause", "")
	if status != 200 || !strings.Contains(string(body), `"paused":true`) {
		t.Fatalf("pause: %d %s", status, body)
	}
	paused := f.summary()
	time.Sleep(30 * time.Millisecond)
	if s := f.summary(); s.Tick != paused.Tick || !s.Paused {
		t.Fatalf("ticks ran while paused: %d then %d", paused.Tick, s.Tick)
	}
	for i := range uint64(3) {
		if status, body := f.write(http.MethodPost, "/api/loop/step", ""); status != 200 {
			t.Fatalf("step: %d %s", status, body)
		}
		f.waitFor("one step", func(s summary) bool { return s.Tick == paused.Tick+i+1 })
	}
	time.Sleep(30 * time.Millisecond)
	if s := f.summary(); s.Tick != paused.Tick+3 {
		t.Errorf("3 steps ran %d ticks", s.Tick-paused.Tick)
	}
	if status, body := f.write(http.MethodPost, "/api/loop/resume", ""); status != 200 {
		t.Fatalf("resume: %d %s", status, body)
	}
	f.waitFor("resumed ticks", func(s summary) bool { return !s.Paused && s.Tick > paused.Tick+5 })
	status, body = f.write(http.MethodPost, "/api/loop/step", "")
	wantError(t, "step while running", status, body, http.StatusConflict, "pause it first")
	status, body = f.write(http.MethodPost, "/api/loop/rewind", "")
	wantError(t, "unknown verb", status, body, http.StatusNotFound, "rewind")
}

// TestNoLoopAnswers503 checks that a request nobody serves answers 503 in
// the Wait time and is dropped, never applied later.
func TestNoLoopAnswers503(t *testing.T) {
	w := ecs.NewWorld()
	e := ecs.NewMap[Health](w).Spawn(Health{HP: 1})
	in := inspect.New(w, inspect.Token(token), inspect.Wait(20*time.Millisecond))
	srv := newServer(t, in)
	f := &fixture{t: t, w: w, in: in, srv: srv}
	start := time.Now()
	status, body := f.write(http.MethodPut, "/api/entities/"+e.String()+"/components/inspect_test.Health", `{"HP":5}`)
	wantError(t, "unserved write", status, body, http.StatusServiceUnavailable, "did not serve the request in time")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("503 took %v", d)
	}
	in.Serve() // the loop comes back: the cancelled request must not run
	if hp := ecs.NewMap[Health](w).Get(e).HP; hp != 1 {
		t.Errorf("a cancelled write ran later: HP %d", hp)
	}
}

func TestStream(t *testing.T) {
	f := newFixture(t)
	f.looped(200)
	resp, err := http.Get(f.srv.URL + "/api/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	var last uint64
	events := 0
	for events < 3 && sc.Scan() {
		line := sc.Text()
		if line == "event: tick" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Systems []string
			Samples []struct {
				Tick, TickNs uint64
				Entities     int
				SystemNs     []int64
			}
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ev.Systems) != "[move score]" || len(ev.Samples) == 0 {
			t.Fatalf("event %s", data)
		}
		for _, s := range ev.Samples {
			if s.Tick <= last || s.Entities != 250 || len(s.SystemNs) != 2 || s.TickNs == 0 {
				t.Fatalf("sample %+v after tick %d", s, last)
			}
			last = s.Tick
		}
		events++
	}
	if events < 3 {
		t.Fatalf("%d events: %v", events, sc.Err())
	}
}

// TestHammerWhileLooping runs reads and writes from several goroutines
// while a FixedLoop ticks: under the race detector this is the proof that
// the inspector never touches the world off the loop's goroutine.
func TestHammerWhileLooping(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	f.looped(2000)
	stop := time.Now().Add(400 * time.Millisecond)
	if testing.Short() {
		stop = time.Now().Add(150 * time.Millisecond)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for time.Now().Before(stop) {
				e := f.es[rng.IntN(len(f.es))].String()
				var status int
				switch rng.IntN(8) {
				case 0:
					status, _ = f.call(http.MethodGet, "/api/world", "")
				case 1:
					status, _ = f.call(http.MethodGet, "/api/entities?with=inspect_test.Position&limit=50", "")
				case 2:
					status, _ = f.call(http.MethodGet, "/api/entities/"+e, "")
				case 3:
					status, _ = f.call(http.MethodGet, "/api/systems", "")
				case 4:
					status, _ = f.write(http.MethodPut, "/api/entities/"+e+"/components/inspect_test.Health", `{"HP":3}`)
				case 5:
					status, _ = f.write(http.MethodPost, "/api/entities", `{"components":{"inspect_test.Position":{"X":1},"inspect_test.Velocity":{"X":1}}}`)
				case 6:
					status, _ = f.write(http.MethodDelete, "/api/entities/"+e, "")
				default:
					status, _ = f.call(http.MethodGet, "/api/tables", "")
				}
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for status, n := range statuses {
		// 400: an entity another goroutine despawned first.
		if status != 200 && status != 201 && status != 400 {
			t.Errorf("%d answers of status %d", n, status)
		}
	}
	if statuses[200] == 0 || statuses[201] == 0 {
		t.Errorf("statuses %v", statuses)
	}
	var p entityPage
	f.get("/api/entities?limit=10000", &p)
	s := f.summary()
	if p.Total != len(p.Entities) || s.Tick == 0 {
		t.Errorf("after the hammer: %d listed of %d, tick %d", len(p.Entities), p.Total, s.Tick)
	}
}

// TestLockerRequestWaitsForTheLoop queues a request while the program
// holds the Locker (the inspector's own loop waits for it), then starts a
// loop that does not hold it: the loop takes the request over, which must
// not read the world during a tick (the race detector sees it if it
// does), and must answer whole.
func TestLockerRequestWaitsForTheLoop(t *testing.T) {
	f := newFixture(t)
	f.mu.Lock()
	type answer struct {
		status int
		body   []byte
	}
	got := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/api/world", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- answer{body: []byte(err.Error())}
			return
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = bufio.NewReader(resp.Body).WriteTo(&b)
		got <- answer{resp.StatusCode, []byte(b.String())}
	}()
	time.Sleep(20 * time.Millisecond) // the inspector's loop waits for the lock
	f.looped(0)
	time.Sleep(5 * time.Millisecond) // the loop ticks
	f.mu.Unlock()
	a := <-got
	var s struct{ Entities int }
	if err := json.Unmarshal(a.body, &s); a.status != http.StatusOK || err != nil || s.Entities != len(f.es) {
		t.Fatalf("request taken before the loop: %d %s", a.status, a.body)
	}
	f.waitFor("ticks after the request", func(s summary) bool { return s.Tick > 10 })
}

// TestLockerRequestAndAStepThatTakesTheLocker: a loop whose step takes the
// Locker (as the Locker's contract asks of code that uses the world) and
// the inspector's own loop, waiting for the Locker with a request queued
// before the loop began, must not wait for each other: the request
// answers, and the loop goes on ticking.
func TestLockerRequestAndAStepThatTakesTheLocker(t *testing.T) {
	f := newFixture(t)
	loop := sched.NewFixedLoop(f.s, time.Second/60)
	f.mu.Lock()
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get(f.srv.URL + "/api/world")
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	time.Sleep(20 * time.Millisecond) // the inspector's loop waits for the lock
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.in.Run(ctx, 0, func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			loop.Step()
		})
	}()
	time.Sleep(5 * time.Millisecond) // the loop ticks
	f.mu.Unlock()
	select {
	case status := <-answered:
		if status != http.StatusOK {
			t.Errorf("the request answered %d, want 200", status)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the request and the loop wait for each other") // leaves both stuck: no cleanup
	}
	f.waitFor("ticks after the request", func(s summary) bool { return s.Tick > 10 })
	cancel()
	<-done
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
