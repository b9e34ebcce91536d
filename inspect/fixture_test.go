package inspect_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/sched"
)

type Position struct{ X, Y float64 }
type Velocity struct{ X, Y float64 }
type Health struct{ HP int }
type Burning struct{ Left float32 } // sparse

func (b Burning) String() string { return fmt.Sprintf("burning for %.1f s", b.Left) }

type Follow struct{ Target ecs.Entity }
type Score struct{ Points int } // a resource

const token = "s3cret-token"

// fixture is a world of 250 entities in three tables, a scheduler of two
// systems and an inspector served by an httptest server. Without a loop,
// requests run under mu (the Locker mode).
type fixture struct {
	t    testing.TB
	w    *ecs.World
	s    *sched.Scheduler
	in   *inspect.Inspector
	srv  *httptest.Server
	mu   sync.Mutex
	es   []ecs.Entity
	sets int // OnSet[Health] calls
}

func newFixture(t testing.TB, opts ...inspect.Option) *fixture {
	f := &fixture{t: t, w: ecs.NewWorld()}
	ecs.Register[Burning](f.w, ecs.Sparse())
	pv := ecs.NewMap2[Position, Velocity](f.w)
	ph := ecs.NewMap2[Position, Health](f.w)
	burn := ecs.NewMap[Burning](f.w)
	ecs.NewMap[Follow](f.w)
	for i := range 250 {
		var e ecs.Entity
		switch i % 3 {
		case 0:
			e = pv.Spawn(Position{X: float64(i)}, Velocity{X: 1})
		case 1:
			e = ph.Spawn(Position{X: float64(i)}, Health{HP: 10})
		default:
			e = f.w.Spawn()
		}
		if i%5 == 0 {
			burn.Add(e, Burning{Left: 2})
		}
		f.es = append(f.es, e)
	}
	ecs.AddResource(f.w, &Score{Points: 3})
	ecs.OnSet(f.w, func(ecs.Entity, *Health) { f.sets++ })
	f.s = sched.New(f.w, sched.Workers(1))
	q := ecs.NewQuery2[Position, Velocity](f.w)
	f.s.AddFunc("move", func(*sched.Context) {
		for r := range q.All() {
			r.A.X += r.B.X
		}
	}, sched.Writes[Position](), sched.Reads[Velocity]())
	f.s.AddFunc("score", func(*sched.Context) { ecs.GetResource[Score](f.w).Points++ }, sched.WritesResource[Score]())
	if err := f.s.Build(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.s.Close)
	f.in = newInspector(t, f.w, &f.mu, append([]inspect.Option{inspect.Scheduler(f.s)}, opts...)...)
	f.srv = newServer(t, f.in)
	return f
}

// call sends a request and returns the status and the raw body. Headers
// come in pairs: name, value.
func (f *fixture) call(method, path, body string, headers ...string) (int, []byte) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// write sends a request with the token.
func (f *fixture) write(method, path, body string) (int, []byte) {
	f.t.Helper()
	return f.call(method, path, body, "Authorization", "Bearer "+token)
}

// get sends a GET, checks it answered 200 and decodes the JSON into dst.
func (f *fixture) get(path string, dst any) {
	f.t.Helper()
	status, body := f.call(http.MethodGet, path, "")
	if status != http.StatusOK {
		f.t.Fatalf("GET %s: %d %s", path, status, body)
	}
	if err := json.Unmarshal(body, dst); err != nil {
		f.t.Fatalf("GET %s: %v in %s", path, err, body)
	}
}

// checksum reads the world's checksum under the lock.
func (f *fixture) checksum() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Checksum()
}

// wantError checks an answer is status with a JSON error containing want.
func wantError(t *testing.T, what string, status int, body []byte, wantStatus int, want string) {
	t.Helper()
	var e struct{ Error string }
	if status != wantStatus || json.Unmarshal(body, &e) != nil || !strings.Contains(e.Error, want) {
		t.Errorf("%s: %d %s; want %d and an error with %q", what, status, body, wantStatus, want)
	}
}

// newInspector makes an inspector of w in Locker mode under mu, closed
// when the test ends (after the server newServer makes, which is closed
// first), so that its goroutine ends.
func newInspector(t testing.TB, w *ecs.World, mu *sync.Mutex, opts ...inspect.Option) *inspect.Inspector {
	in := inspect.New(w, append([]inspect.Option{inspect.Locker(mu)}, opts...)...)
	t.Cleanup(func() { in.Close() })
	return in
}

func newServer(t testing.TB, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

func atoi(s string) uint32 {
	n, _ := strconv.ParseUint(s, 10, 32)
	return uint32(n)
}
