package inspect

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/admit"
	"github.com/tessera-ecs/tessera/sched"
)

// Inspector serves one world to a browser or any HTTP client: it is an
// [http.Handler] for the JSON API and the embedded page described in the
// package documentation. Its handlers never touch the world from their own
// goroutines: each request becomes a job on a queue that the world's
// goroutine drains between ticks ([Inspector.Tick], [Inspector.Serve],
// [Inspector.Run]), or, with [Locker], a goroutine of the inspector's own
// holding the caller's lock. Make one with [New]; it is safe for
// concurrent use by the HTTP server's goroutines; [Inspector.Close]
// closes it.
type Inspector struct {
	w      *ecs.World
	s      *sched.Scheduler
	locker sync.Locker
	// policy admits requests: the extra Host names of AllowRemote, and
	// the SHA-256 digest of the write token (nil when writes are off),
	// compared in constant time whatever the lengths.
	policy  admit.Policy
	remote  bool // AllowRemote: a non-loopback listen address is allowed
	maxBody int64
	wait    time.Duration // how long a request waits for the loop
	// Deadlines: the body's read (the handler's), one answer's or stream
	// event's write (the handler's), and the header and idle times of the
	// server Listen builds.
	bodyTimeout, writeTimeout, headerTimeout, idleTimeout time.Duration

	jobs chan *job
	wake chan struct{} // signalled when a job is queued, for Run and lockerLoop

	// Locker mode (locker.go). life guards stopLoop, closed to end the
	// inspector's own loop (nil when none runs), and the setting of
	// closed (Close). takenOver: Tick, Serve or Run has been called, so
	// the program's loop drains the queue; it is set holding batch, which
	// the inspector's loop holds around each batch of jobs.
	life      sync.Mutex
	stopLoop  chan struct{}
	closed    atomic.Bool
	takenOver atomic.Bool
	batch     sync.Mutex

	// Loop state, read and written on the loop's goroutine only (in jobs
	// and Tick).
	looping atomic.Bool // Tick or Run has been called
	serving atomic.Bool // a Serve call runs (two at once are refused)
	paused  bool
	steps   int // single steps asked for while paused
	ticks   uint64

	samples samples
	tt      timeTravel // History: the ring, branches (history.go)
	static  http.Handler
	mux     *http.ServeMux
}

// Option configures an [Inspector].
type Option func(*Inspector)

// Scheduler attaches s, the scheduler that runs the world's systems, so the
// inspector can show its stage plan and per-system times and enable or
// disable systems.
func Scheduler(s *sched.Scheduler) Option { return func(in *Inspector) { in.s = s } }

// Token turns writes on: every request that changes something (PUT,
// PATCH, POST, DELETE) must carry the header "Authorization: Bearer " +
// token, compared in constant time; without it, or with no token
// configured, writes answer 403 and change nothing. Panics on an empty
// token.
func Token(token string) Option {
	if token == "" {
		panic("inspect: Token: empty token; leave the option out to keep the inspector read-only")
	}
	for _, r := range token {
		if r <= ' ' || r == 0x7f {
			panic("inspect: Token: the token holds a space or control character (a newline read from a file?), which an HTTP header cannot carry; trim it")
		}
	}
	sum := admit.Digest(token)
	return func(in *Inspector) { in.policy.Token = sum }
}

// Locker serves a world that has no loop calling Tick, Serve or Run,
// under l, which the caller holds whenever it uses the world (between
// ticks it releases it). Requests are queued as in the other modes, and a
// goroutine of the inspector's own, started by the first request, drains
// the queue: it takes l, runs the requests waiting then (as Serve does:
// none begins past the first after a few milliseconds, so the program
// does not wait for l behind a crowd of clients), and lets l go. A request
// not run within the Wait time (l held by the program all along), or
// whose client goes away first, answers 503 and never runs. A request
// cannot run while its sender holds l: code that holds l and calls
// ServeHTTP itself gets a 503 after the Wait time. The goroutine ends
// with [Inspector.Close], or when the server [Inspector.Listen] built
// stops. Pause, step and resume answer 409 in this mode unless a loop is
// running too. From the first call of Tick, Serve or Run on, that loop
// drains the queue instead and the inspector's goroutine ends: the call
// waits for a batch the goroutine is running to end, never for l, so a
// program may make it holding l, or with a step that takes l; the two
// never run requests at once, and each request runs once.
func Locker(l sync.Locker) Option { return func(in *Inspector) { in.locker = l } }

// AllowRemote lets [Inspector.Listen] bind a non-loopback address and
// accepts requests whose Host header names one of hosts (besides localhost
// and the loopback addresses), the names clients will use to reach the
// machine. Without it, the inspector listens on loopback only and refuses
// any other Host, which stops DNS-rebinding attacks from web pages.
func AllowRemote(hosts ...string) Option {
	return func(in *Inspector) { in.remote, in.policy.Hosts = true, append(in.policy.Hosts, hosts...) }
}

// MaxBody limits request bodies to n bytes (default 1 MiB); a larger body
// answers 413 and changes nothing. Panics if n < 1.
func MaxBody(n int64) Option {
	if n < 1 {
		panic(fmt.Sprintf("inspect: MaxBody(%d): want at least 1 byte", n))
	}
	return func(in *Inspector) { in.maxBody = n }
}

// Wait sets how long a request waits for the loop (in [Locker] mode, the
// inspector's own loop and the lock) to run it (default 5 s); past it the
// request answers 503 and changes nothing. Panics if d <= 0.
func Wait(d time.Duration) Option {
	if d <= 0 {
		panic(fmt.Sprintf("inspect: Wait(%v): want a positive time", d))
	}
	return func(in *Inspector) { in.wait = d }
}

// The default deadlines; see [BodyTimeout], [WriteTimeout], [HeaderTimeout]
// and [IdleTimeout].
const (
	DefaultBodyTimeout   = 10 * time.Second
	DefaultWriteTimeout  = 10 * time.Second
	DefaultHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout   = time.Minute
)

// BodyTimeout sets how long a request's body may take to arrive, counted
// from the moment the handler begins (default [DefaultBodyTimeout]). The
// handler reads every body whole, under this deadline and the [MaxBody]
// limit, before anything else is done with the request; past it the
// request answers 408, changes nothing, and its connection is closed.
// The deadline is set on the connection through
// [http.ResponseController.SetReadDeadline], so it holds on any server
// that supports that (net/http's HTTP/1 and HTTP/2 servers do), and it
// takes the place of the server's ReadTimeout for the body. Panics if
// d <= 0.
func BodyTimeout(d time.Duration) Option {
	mustBePositive("BodyTimeout", d)
	return func(in *Inspector) { in.bodyTimeout = d }
}

// WriteTimeout sets how long one answer may take to write, counted from
// its first byte, and for the stream, how long each of its events may
// take (default [DefaultWriteTimeout]): a client that stops reading is
// cut off rather than holding its connection. Waiting for the loop does
// not count, and the stream itself lasts as long as its client reads it.
// The deadline is set through [http.ResponseController.SetWriteDeadline]
// and takes the place of the server's WriteTimeout for the inspector's
// answers, so a server's WriteTimeout does not cut the stream. Panics if
// d <= 0.
func WriteTimeout(d time.Duration) Option {
	mustBePositive("WriteTimeout", d)
	return func(in *Inspector) { in.writeTimeout = d }
}

// mustBePositive panics, naming the option, unless d > 0.
func mustBePositive(option string, d time.Duration) {
	if d <= 0 {
		panic(fmt.Sprintf("inspect: %s(%v): want a positive time", option, d))
	}
}

// HeaderTimeout sets how long a client of the server [Inspector.Listen]
// builds may take to send a request's headers (its ReadHeaderTimeout;
// default [DefaultHeaderTimeout]); past it the connection is closed. A
// server of the caller's own sets its own. Panics if d <= 0.
func HeaderTimeout(d time.Duration) Option {
	mustBePositive("HeaderTimeout", d)
	return func(in *Inspector) { in.headerTimeout = d }
}

// IdleTimeout sets how long the server [Inspector.Listen] builds keeps an
// idle keep-alive connection open, waiting for its next request (its
// IdleTimeout; default [DefaultIdleTimeout]). A server of the caller's own
// sets its own. Panics if d <= 0.
func IdleTimeout(d time.Duration) Option {
	mustBePositive("IdleTimeout", d)
	return func(in *Inspector) { in.idleTimeout = d }
}

// New returns an inspector of w. Without [Locker], something must run its
// jobs on the world's goroutine: call [Inspector.Tick] in place of each
// tick, or [Inspector.Serve] between ticks, or let [Inspector.Run] drive
// the loop. New starts no goroutine (with Locker, the first request
// does). Complexity: O(1); the page's files are embedded in the binary.
func New(w *ecs.World, opts ...Option) *Inspector {
	in := &Inspector{
		w:       w,
		maxBody: 1 << 20,
		wait:    5 * time.Second,
		jobs:    make(chan *job, 64),
		wake:    make(chan struct{}, 1),

		bodyTimeout:   DefaultBodyTimeout,
		writeTimeout:  DefaultWriteTimeout,
		headerTimeout: DefaultHeaderTimeout,
		idleTimeout:   DefaultIdleTimeout,
	}
	for _, o := range opts {
		o(in)
	}
	in.samples.init(600)
	in.routes()
	return in
}

// ServeHTTP answers one request: the page, its files, or the JSON API.
// Before any work, and without reading the body, it refuses a foreign
// Host or Origin and a write without the token (403), a method no path
// takes (405), and a Content-Length over the [MaxBody] limit (413). Then
// it reads the body whole, under the [BodyTimeout] deadline and the limit
// (408, 413), so that no body is read while the world is locked or a job
// waits in the loop's queue. Every answer is written under the
// [WriteTimeout] deadline (see the package documentation, Limits and
// timeouts).
func (in *Inspector) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(rw)
	// A deadline an earlier answer on this connection left is lifted:
	// waiting for the loop does not count (timedWriter sets the next one).
	// Servers without deadlines (a test's recorder) answer errors, ignored.
	_ = rc.SetWriteDeadline(time.Time{})
	hasBody := r.Body != nil && r.Body != http.NoBody
	if hasBody {
		// Bounds the body's read, here or by the server discarding what a
		// refused request left unread. Only a request with a body: for the
		// others the server already reads the connection in the
		// background, to see the client go, and a deadline would end that.
		_ = rc.SetReadDeadline(time.Now().Add(in.bodyTimeout))
	}
	h := rw.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	tw := &timedWriter{ResponseWriter: rw, rc: rc, timeout: in.writeTimeout}
	if err := in.admit(r); err != nil {
		var he *httpError
		errors.As(err, &he)
		refuse(tw, r, hasBody, he)
		return
	}
	if r.ContentLength > in.maxBody {
		refuse(tw, r, hasBody, tooLarge(in.maxBody))
		return
	}
	if hasBody {
		// rw, not tw: MaxBytesReader tells net/http's own writer that the
		// limit was hit, so that it closes the connection.
		if err := in.takeBody(rw, r); err != nil {
			refuse(tw, r, hasBody, err)
			return
		}
	}
	in.mux.ServeHTTP(tw, r)
}
