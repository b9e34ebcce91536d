package inspect

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Inspector serves one world to a browser or any HTTP client: it is an
// [http.Handler] for the JSON API and the embedded page described in the
// package documentation. Its handlers never touch the world from their own
// goroutines: each request becomes a job that the world's goroutine runs
// between ticks ([Inspector.Tick], [Inspector.Serve], [Inspector.Run]), or
// that runs under the caller's [Locker]. Make one with [New]; it is safe
// for concurrent use by the HTTP server's goroutines.
type Inspector struct {
	w      *ecs.World
	s      *sched.Scheduler
	locker sync.Locker
	// token is the SHA-256 digest of the write token, nil when writes are
	// off; digests compare in constant time whatever the lengths.
	token   *[sha256.Size]byte
	remote  bool     // AllowRemote: a non-loopback listen address is allowed
	hosts   []string // extra Host names accepted (AllowRemote)
	maxBody int64
	wait    time.Duration // how long a request waits for the loop

	jobs chan *job
	wake chan struct{} // signalled when a job is queued, for Run

	// Loop state, read and written on the loop's goroutine only (in jobs
	// and Tick).
	looping atomic.Bool // Tick or Run has been called
	serving atomic.Bool // a Serve call runs (two at once are refused)
	// handover is held by Tick and Serve when there is a Locker: a
	// request that took the Locker before a loop began runs only if it
	// can take handover at once, and otherwise joins the loop's queue
	// (the loop need not hold the Locker, so the Locker alone cannot keep
	// the two apart).
	handover sync.Mutex
	paused   bool
	steps    int // single steps asked for while paused
	ticks    uint64

	samples samples
	static  http.Handler
	mux     *http.ServeMux
}

// Option configures an [Inspector].
type Option func(*Inspector)

// Scheduler attaches s, the scheduler that runs the world's systems, so the
// inspector can show its stage plan and per-system times and enable or
// disable systems.
func Scheduler(s *sched.Scheduler) Option { return func(in *Inspector) { in.s = s } }

// Token turns writes on: every request that changes something (PUT, POST,
// DELETE) must carry the header "Authorization: Bearer " + token, compared
// in constant time; without it, or with no token configured, writes answer
// 403 and change nothing. Panics on an empty token.
func Token(token string) Option {
	if token == "" {
		panic("inspect: Token: empty token; leave the option out to keep the inspector read-only")
	}
	for _, r := range token {
		if r <= ' ' || r == 0x7f {
			panic("inspect: Token: the token holds a space or control character (a newline read from a file?), which an HTTP header cannot carry; trim it")
		}
	}
	sum := sha256.Sum256([]byte(token))
	return func(in *Inspector) { in.token = &sum }
}

// Locker serves a world that has no loop calling Tick, Serve or Run: each
// request runs on its handler's goroutine while holding l, which the caller
// holds whenever it uses the world (between ticks it releases it). A
// request that cannot take l within the Wait time, or whose client goes
// away first, answers 503 and never runs. Pause, step and resume answer
// 409 in this mode unless a loop is running too. Once Tick or Run
// is called, requests go through the loop's queue instead; one that took
// l before then and finds the loop's Tick or Serve running lets l go and
// joins that queue, so the two never use the world at once, and a step
// that takes l itself cannot deadlock with it.
func Locker(l sync.Locker) Option { return func(in *Inspector) { in.locker = l } }

// AllowRemote lets [Inspector.Listen] bind a non-loopback address and
// accepts requests whose Host header names one of hosts (besides localhost
// and the loopback addresses), the names clients will use to reach the
// machine. Without it, the inspector listens on loopback only and refuses
// any other Host, which stops DNS-rebinding attacks from web pages.
func AllowRemote(hosts ...string) Option {
	return func(in *Inspector) { in.remote, in.hosts = true, append(in.hosts, hosts...) }
}

// MaxBody limits request bodies to n bytes (default 1 MiB); a larger body
// answers 413 and changes nothing. Panics if n < 1.
func MaxBody(n int64) Option {
	if n < 1 {
		panic(fmt.Sprintf("inspect: MaxBody(%d): want at least 1 byte", n))
	}
	return func(in *Inspector) { in.maxBody = n }
}

// Wait sets how long a request waits for the loop (or the Locker) to run
// it (default 5 s); past it the request answers 503 and changes nothing.
// Panics if d <= 0.
func Wait(d time.Duration) Option {
	if d <= 0 {
		panic(fmt.Sprintf("inspect: Wait(%v): want a positive time", d))
	}
	return func(in *Inspector) { in.wait = d }
}

// New returns an inspector of w. Without [Locker], something must run its
// jobs on the world's goroutine: call [Inspector.Tick] in place of each
// tick, or [Inspector.Serve] between ticks, or let [Inspector.Run] drive
// the loop. Complexity: O(1); the page's files are embedded in the binary.
func New(w *ecs.World, opts ...Option) *Inspector {
	in := &Inspector{
		w:       w,
		maxBody: 1 << 20,
		wait:    5 * time.Second,
		jobs:    make(chan *job, 64),
		wake:    make(chan struct{}, 1),
	}
	for _, o := range opts {
		o(in)
	}
	in.samples.init(600)
	in.routes()
	return in
}

// ServeHTTP answers one request: the page, its files, or the JSON API.
func (in *Inspector) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("X-Content-Type-Options", "nosniff")
	rw.Header().Set("X-Frame-Options", "DENY")
	rw.Header().Set("Referrer-Policy", "no-referrer")
	rw.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	if err := in.admit(r); err != nil {
		var he *httpError
		errors.As(err, &he)
		writeError(rw, he)
		return
	}
	r.Body = http.MaxBytesReader(rw, r.Body, in.maxBody)
	in.mux.ServeHTTP(rw, r)
}
