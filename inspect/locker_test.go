package inspect_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// answer is a response as a goroutine other than the test's reports it:
// status 0 and the error's text when the request failed.
type answer struct {
	status int
	body   []byte
}

// send makes the request on a goroutine of its own, with the token, and
// delivers the answer on the channel.
func send(url, method, path, body string) <-chan answer {
	got := make(chan answer, 1)
	go func() {
		req, err := http.NewRequest(method, url+path, strings.NewReader(body))
		if err != nil {
			got <- answer{body: []byte(err.Error())}
			return
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- answer{body: []byte(err.Error())}
			return
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		got <- answer{resp.StatusCode, data}
	}()
	return got
}

// await returns the answer, failing the test if none comes within limit.
func await(t *testing.T, what string, got <-chan answer, limit time.Duration) answer {
	t.Helper()
	select {
	case a := <-got:
		return a
	case <-time.After(limit):
		t.Fatalf("%s: no answer after %v", what, limit)
		return answer{}
	}
}

// lockerLoops counts the goroutines running an inspector's own loop.
func lockerLoops() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("inspect.(*Inspector).lockerLoop("))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// settledLockerLoops counts the loops once the count holds still, so
// that a loop an earlier test closed has ended.
func settledLockerLoops() int {
	n := lockerLoops()
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		m := lockerLoops()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// eventually polls ok every millisecond for up to limit.
func eventually(limit time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// hpUnderLock reads entity i's HP, and the count of OnSet[Health] calls,
// holding the lock.
func (f *fixture) hpUnderLock(i int) (hp, sets int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return ecs.NewMap[Health](f.w).Get(f.es[i]).HP, f.sets
}

// TestLockerRequestRunsOnceTheLockIsFree: a request sent while the program
// holds the lock waits, changes nothing meanwhile, and runs once the
// program lets the lock go.
func TestLockerRequestRunsOnceTheLockIsFree(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	f.mu.Lock()
	got := send(f.srv.URL, http.MethodPut, f.healthPath(1), `{"HP": 42}`)
	select {
	case a := <-got:
		f.mu.Unlock()
		t.Fatalf("answered %d %s while the lock was held", a.status, a.body)
	case <-time.After(100 * time.Millisecond):
	}
	if hp := ecs.NewMap[Health](f.w).Get(f.es[1]).HP; hp != 10 || f.sets != 0 {
		t.Errorf("the write ran while the program held the lock: HP %d, %d sets", hp, f.sets)
	}
	f.mu.Unlock()
	if a := await(t, "the write, once the lock is free", got, 5*time.Second); a.status != http.StatusOK {
		t.Fatalf("the write answered %d %s", a.status, a.body)
	}
	if hp, sets := f.hpUnderLock(1); hp != 42 || sets != 1 {
		t.Errorf("after the write: HP %d, %d sets; want 42 and 1", hp, sets)
	}
}

// TestLockerConcurrentRequestsRunOnce sends many writes at once while the
// program keeps ticking under the lock: each runs exactly once, and
// (under the race detector) never beside the program's use of the world.
func TestLockerConcurrentRequestsRunOnce(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	const puts, spawns = 60, 40
	before := f.w.Len()
	stop := make(chan struct{})
	ticking := make(chan struct{})
	go func() { // the program
		defer close(ticking)
		for {
			select {
			case <-stop:
				return
			default:
			}
			f.mu.Lock()
			f.s.Run()
			f.mu.Unlock()
			runtime.Gosched()
		}
	}()
	var withHealth []int
	for i := range f.es {
		if i%3 == 1 {
			withHealth = append(withHealth, i)
		}
	}
	var answers []<-chan answer
	for k := range puts {
		answers = append(answers, send(f.srv.URL, http.MethodPut, f.healthPath(withHealth[k]), fmt.Sprintf(`{"HP": %d}`, 1000+k)))
	}
	for k := range spawns {
		answers = append(answers, send(f.srv.URL, http.MethodPost, "/api/entities", fmt.Sprintf(`{"components":{"inspect_test.Position":{"X":%d}}}`, k)))
	}
	ids := map[string]bool{}
	for k, got := range answers {
		a := await(t, "a concurrent request", got, 10*time.Second)
		want := http.StatusOK
		if k >= puts {
			want = http.StatusCreated
			var spawned struct{ ID string }
			if err := json.Unmarshal(a.body, &spawned); err != nil || ids[spawned.ID] {
				t.Errorf("spawn %d: %s (%v)", k-puts, a.body, err)
			}
			ids[spawned.ID] = true
		}
		if a.status != want {
			t.Errorf("request %d answered %d %s; want %d", k, a.status, a.body, want)
		}
	}
	close(stop)
	<-ticking
	f.mu.Lock() // after the loop's last batch, for the race detector
	defer f.mu.Unlock()
	if n := f.w.Len(); n != before+spawns {
		t.Errorf("%d spawns made %d entities", spawns, n-before)
	}
	if f.sets != puts {
		t.Errorf("%d writes ran OnSet %d times", puts, f.sets)
	}
	for k := range puts {
		if hp := ecs.NewMap[Health](f.w).Get(f.es[withHealth[k]]).HP; hp != 1000+k {
			t.Errorf("write %d: HP %d", k, hp)
		}
	}
}

// TestLockerTimedOutRequestsNeverRun: requests that wait out the Wait time
// while the program holds the lock answer 503, and none of them runs once
// the lock is free, while the requests after them do.
func TestLockerTimedOutRequestsNeverRun(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.Wait(50*time.Millisecond))
	f.mu.Lock()
	var answers []<-chan answer
	for k := range 5 {
		answers = append(answers, send(f.srv.URL, http.MethodPut, f.healthPath(1+3*k), `{"HP": 77}`))
	}
	for _, got := range answers {
		a := await(t, "a request past its Wait", got, 5*time.Second)
		var e struct{ Error string }
		if a.status != http.StatusServiceUnavailable || json.Unmarshal(a.body, &e) != nil ||
			!strings.Contains(e.Error, "did not serve the request in time") {
			t.Errorf("answered %d %s; want 503, not served in time", a.status, a.body)
		}
	}
	f.mu.Unlock()
	// The queue runs in order: once this answers, the loop has passed
	// the timed-out requests.
	if a := await(t, "a write after the lock is free", send(f.srv.URL, http.MethodPut, f.healthPath(16), `{"HP": 5}`), 5*time.Second); a.status != http.StatusOK {
		t.Fatalf("the next write answered %d %s", a.status, a.body)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range 5 {
		if hp := ecs.NewMap[Health](f.w).Get(f.es[1+3*k]).HP; hp != 10 {
			t.Errorf("a timed-out write ran later: HP %d", hp)
		}
	}
	if f.sets != 1 {
		t.Errorf("OnSet ran %d times; want 1 (the last write)", f.sets)
	}
}

// lockerWorld is a world of one entity with Health 1, inspected under mu.
type lockerWorld struct {
	w    *ecs.World
	e    ecs.Entity
	path string // of e's Health
	mu   *sync.Mutex
	in   *inspect.Inspector
}

func newLockerWorld(opts ...inspect.Option) *lockerWorld {
	l := &lockerWorld{w: ecs.NewWorld(), mu: new(sync.Mutex)}
	l.e = ecs.NewMap[Health](l.w).Spawn(Health{HP: 1})
	l.path = "/api/entities/" + l.e.String() + "/components/inspect_test.Health"
	l.in = inspect.New(l.w, append([]inspect.Option{inspect.Locker(l.mu), inspect.Token(token)}, opts...)...)
	return l
}

// serveDirect calls ServeHTTP on the caller's goroutine.
func serveDirect(in *inspect.Inspector, method, path string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	r.Host = "localhost"
	r.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	in.ServeHTTP(rec, r)
	return rec
}

// TestCloseEndsTheLockerLoop: the inspector's own goroutine starts with
// the first request and ends when the inspector is closed, even when it
// waits for a lock the closer holds; a closed inspector answers 503.
func TestCloseEndsTheLockerLoop(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		loops, goroutines := settledLockerLoops(), runtime.NumGoroutine()
		in := newLockerWorld().in
		if lockerLoops() != loops {
			t.Fatal("New started a goroutine")
		}
		srv := httptest.NewServer(in)
		client := &http.Client{Transport: &http.Transport{}}
		resp, err := client.Get(srv.URL + "/api/world")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET: %v %v", resp, err)
		}
		resp.Body.Close()
		if got := lockerLoops(); got != loops+1 {
			t.Errorf("%d loops running after a request; want %d", got, loops+1)
		}
		srv.Close()
		client.CloseIdleConnections()
		testhelp.FinishesWithin(t, time.Second, "Close", func() { in.Close() })
		if !eventually(2*time.Second, func() bool { return lockerLoops() == loops && runtime.NumGoroutine() <= goroutines }) {
			t.Errorf("after Close: %d goroutines (%d before), %d loops (%d before)", runtime.NumGoroutine(), goroutines, lockerLoops(), loops)
		}
		var rec *httptest.ResponseRecorder
		testhelp.FinishesWithin(t, time.Second, "a request to a closed inspector", func() { rec = serveDirect(in, http.MethodGet, "/api/world") })
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "closed") {
			t.Errorf("a closed inspector answered %d %s", rec.Code, rec.Body)
		}
		if lockerLoops() != loops {
			t.Error("a request to a closed inspector started a loop")
		}
	})
	t.Run("waiting for the lock", func(t *testing.T) {
		loops := settledLockerLoops()
		l := newLockerWorld()
		mu, in := l.mu, l.in
		srv := newServer(t, in)
		mu.Lock()
		got := send(srv.URL, http.MethodGet, "/api/world", "")
		if !eventually(2*time.Second, func() bool { return lockerLoops() == loops+1 }) {
			mu.Unlock()
			t.Fatal("no loop started")
		}
		time.Sleep(10 * time.Millisecond) // the loop waits for mu
		testhelp.FinishesWithin(t, time.Second, "Close holding the lock", func() { in.Close() })
		a := await(t, "the request waiting at Close", got, time.Second)
		mu.Unlock()
		if a.status != http.StatusServiceUnavailable || !strings.Contains(string(a.body), "closed") {
			t.Errorf("the waiting request answered %d %s; want 503, closed", a.status, a.body)
		}
		if !eventually(2*time.Second, func() bool { return lockerLoops() == loops }) {
			t.Error("the loop outlived Close once the lock was free")
		}
	})
}

// TestListenedServerEndsTheLockerLoop: the server Listen built ends the
// loop when it stops, and the inspector stays open: a request from
// another server starts the loop again.
func TestListenedServerEndsTheLockerLoop(t *testing.T) {
	loops := settledLockerLoops()
	in := newLockerWorld().in
	defer in.Close()
	for _, stop := range []string{"Close", "Shutdown"} {
		srv, err := in.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		if a := await(t, "GET on the listened server", send(srv.URL, http.MethodGet, "api/world", ""), 5*time.Second); a.status != http.StatusOK {
			t.Fatalf("GET: %d %s", a.status, a.body)
		}
		if stop == "Close" {
			srv.Close()
		} else {
			testhelp.FinishesWithin(t, 5*time.Second, "Shutdown", func() { srv.Shutdown(t.Context()) })
		}
		if !eventually(2*time.Second, func() bool { return lockerLoops() == loops }) {
			t.Errorf("the loop outlived the server's %s", stop)
		}
	}
	other := newServer(t, in)
	if a := await(t, "GET on another server", send(other.URL, http.MethodGet, "/api/world", ""), 5*time.Second); a.status != http.StatusOK {
		t.Fatalf("GET after the listened server stopped: %d %s", a.status, a.body)
	}
}

// TestLockerHolderCallsTheInspector: code that holds the lock may call
// the inspector without a deadlock: ServeHTTP answers 503 in the Wait
// time, and Tick takes the queue over and serves what waits.
func TestLockerHolderCallsTheInspector(t *testing.T) {
	t.Run("ServeHTTP", func(t *testing.T) {
		l := newLockerWorld(inspect.Wait(50 * time.Millisecond))
		mu, in := l.mu, l.in
		defer in.Close()
		mu.Lock()
		var rec *httptest.ResponseRecorder
		testhelp.FinishesWithin(t, 2*time.Second, "ServeHTTP holding the lock", func() { rec = serveDirect(in, http.MethodGet, "/api/world") })
		mu.Unlock()
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "did not serve the request in time") {
			t.Errorf("answered %d %s; want 503", rec.Code, rec.Body)
		}
		testhelp.FinishesWithin(t, 2*time.Second, "ServeHTTP after", func() { rec = serveDirect(in, http.MethodGet, "/api/world") })
		if rec.Code != http.StatusOK {
			t.Errorf("once the lock is free: %d %s", rec.Code, rec.Body)
		}
	})
	t.Run("Tick", func(t *testing.T) {
		loops := settledLockerLoops()
		l := newLockerWorld()
		path, mu, in := l.path, l.mu, l.in
		defer in.Close()
		srv := newServer(t, in)
		mu.Lock()
		got := send(srv.URL, http.MethodPut, path, `{"HP": 9}`)
		if !eventually(2*time.Second, func() bool { return lockerLoops() == loops+1 }) {
			mu.Unlock()
			t.Fatal("no loop started")
		}
		time.Sleep(10 * time.Millisecond) // the loop waits for mu
		// Tick serves the write, which the loop waiting for mu never
		// took: this goroutine still holds mu.
		testhelp.FinishesWithin(t, 5*time.Second, "Tick holding the lock", func() {
			for {
				in.Tick(func() {})
				select {
				case a := <-got:
					if a.status != http.StatusOK {
						t.Errorf("the write answered %d %s", a.status, a.body)
					}
					return
				case <-time.After(time.Millisecond):
				}
			}
		})
		if hp := ecs.NewMap[Health](l.w).Get(l.e).HP; hp != 9 {
			t.Errorf("HP %d after the write", hp)
		}
		mu.Unlock()
		if !eventually(2*time.Second, func() bool { return lockerLoops() == loops }) {
			t.Error("the inspector's loop outlived Tick's taking over")
		}
	})
}

// TestTickWaitsForTheLockerLoopsBatch: a Tick that begins while the
// inspector's loop runs a request waits for it to end before its own
// requests and step, so the two never use the world at once.
func TestTickWaitsForTheLockerLoopsBatch(t *testing.T) {
	l := newLockerWorld()
	w, path, in := l.w, l.path, l.in
	defer in.Close()
	var inHook atomic.Bool
	entered, release := make(chan struct{}), make(chan struct{})
	ecs.OnSet(w, func(ecs.Entity, *Health) {
		inHook.Store(true)
		close(entered)
		<-release
		inHook.Store(false)
	})
	srv := newServer(t, in)
	got := send(srv.URL, http.MethodPut, path, `{"HP": 3}`)
	select {
	case <-entered:
	case a := <-got:
		t.Fatalf("the write answered %d %s without running its hook", a.status, a.body)
	case <-time.After(5 * time.Second):
		t.Fatal("the write's hook never ran")
	}
	ticked := make(chan bool, 1)
	go func() { in.Tick(func() { ticked <- inHook.Load() }) }()
	select {
	case <-ticked:
		close(release)
		t.Fatal("Tick stepped while the loop ran a request")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	select {
	case during := <-ticked:
		if during {
			t.Error("Tick stepped inside the request's hook")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Tick did not step once the loop's batch ended")
	}
	if a := await(t, "the write", got, 5*time.Second); a.status != http.StatusOK {
		t.Errorf("the write answered %d %s", a.status, a.body)
	}
}

// TestLockerHeldPastWaitAnswers503AndNeverRuns checks that a request whose Locker stays taken
// answers 503 in the Wait time and never runs, even once the lock is free.
func TestLockerHeldPastWaitAnswers503AndNeverRuns(t *testing.T) {
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
