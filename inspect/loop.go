package inspect

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sync/atomic"
	"time"
)

// job is one request's work on the world, run on the loop's goroutine.
type job struct {
	fn    func() (any, *httpError)
	state atomic.Int32 // jobQueued, then jobRunning or jobCancelled
	done  chan struct{}
	out   any
	err   *httpError
}

const (
	jobQueued int32 = iota
	jobRunning
	jobCancelled
)

// do runs fn on the world's goroutine and returns its result: under the
// Locker when there is one, otherwise through the queue the loop drains.
// A request the loop does not take up within the Wait time, or whose client
// goes away first, is cancelled and never runs: it answers 503 and
// changes nothing.
func (in *Inspector) do(ctx context.Context, fn func() (any, *httpError)) (any, *httpError) {
	j := &job{fn: fn, done: make(chan struct{})}
	timer := time.NewTimer(in.wait)
	defer timer.Stop()
	if in.locker != nil && !in.looping.Load() {
		return in.underLock(ctx, timer, j)
	}
	return in.queued(ctx, timer, j)
}

// queued hands j to the loop's queue and waits for its answer, under the
// rules of do.
func (in *Inspector) queued(ctx context.Context, timer *time.Timer, j *job) (any, *httpError) {
	select {
	case in.jobs <- j:
	case <-timer.C:
		return nil, unavailable()
	case <-ctx.Done():
		return nil, unavailable()
	}
	select {
	case in.wake <- struct{}{}:
	default:
	}
	select {
	case <-j.done:
		return j.out, j.err
	case <-timer.C:
	case <-ctx.Done():
	}
	if j.state.CompareAndSwap(jobQueued, jobCancelled) {
		return nil, unavailable()
	}
	<-j.done // running: its change is being made, so report it
	return j.out, j.err
}

// underLock runs j under the Locker, unless the lock is not free within
// the Wait time or the client goes away first: then j never runs, and the
// request answers 503. A goroutine of its own waits for the lock, so that
// giving up cannot leave the lock taken: whichever of the two moves j on
// from jobQueued first decides whether it runs.
//
// When a loop has begun meanwhile and its Tick or Serve is running, j
// must not run beside it, and must not wait for it while holding the
// Locker either (the loop's step may take the Locker: a deadlock): it
// lets the Locker go and joins the loop's queue.
func (in *Inspector) underLock(ctx context.Context, timer *time.Timer, j *job) (any, *httpError) {
	locked := make(chan struct{})
	go func() {
		in.locker.Lock()
		if !j.state.CompareAndSwap(jobQueued, jobRunning) {
			in.locker.Unlock() // the request gave up
			return
		}
		close(locked)
	}()
	select {
	case <-locked:
	case <-timer.C:
	case <-ctx.Done():
	}
	if j.state.CompareAndSwap(jobQueued, jobCancelled) {
		return nil, unavailable()
	}
	<-locked
	if !in.handover.TryLock() {
		in.locker.Unlock()
		j.state.Store(jobQueued)
		return in.queued(ctx, timer, j)
	}
	defer in.locker.Unlock()
	defer in.handover.Unlock()
	in.exec(j)
	return j.out, j.err
}

func unavailable() *httpError {
	return errorf(http.StatusServiceUnavailable, "the world's loop did not serve the request in time: call Inspector.Tick, Serve or Run between ticks, or give a Locker")
}

// run runs j unless it was cancelled. A panic inside (a hook refusing a
// change, say) answers 500 with its message; the world is recovered so
// its queued changes are not lost.
func (in *Inspector) run(j *job) {
	if j.state.CompareAndSwap(jobQueued, jobRunning) {
		in.exec(j)
	}
}

// exec runs j, which its caller has moved to jobRunning.
func (in *Inspector) exec(j *job) {
	defer close(j.done)
	defer func() {
		if p := recover(); p != nil {
			in.w.Recover()
			j.out, j.err = nil, errorf(http.StatusInternalServerError, "%v", p)
		}
	}()
	j.out, j.err = j.fn()
}

// Serve runs the requests waiting for the world when it is called (not
// those that arrive meanwhile, and none past the first after 4 ms, so
// clients cannot hold the loop up), on the
// calling goroutine, which must be the one that runs the world's ticks,
// between two ticks. It returns at once when none waits. Panics when
// called while another Serve, Tick or Run call of the same inspector runs
// on another goroutine. Complexity: the requests'.
func (in *Inspector) Serve() {
	in.enter()
	defer in.leave()
	in.serve()
}

func (in *Inspector) serve() {
	start := time.Now()
	for i, n := 0, len(in.jobs); i < n && (i == 0 || time.Since(start) < serveBudget); i++ {
		in.run(<-in.jobs)
	}
}

// serveBudget bounds the time one Serve spends on requests, past the
// first: the rest wait for the next call, so a crowd of clients slows the
// answers, not the ticks.
const serveBudget = 4 * time.Millisecond

// enter marks a Serve or Tick call as running, and panics if one already
// runs: two goroutines would run requests on the world at once.
func (in *Inspector) enter() {
	if !in.serving.CompareAndSwap(false, true) {
		panic("inspect: Serve or Tick called on two goroutines at once; call them from the world's one goroutine")
	}
	if in.locker != nil {
		in.handover.Lock()
	}
}

// leave ends what enter began.
func (in *Inspector) leave() {
	if in.locker != nil {
		in.handover.Unlock()
	}
	in.serving.Store(false)
}

// Tick serves the waiting requests, then runs step (one tick of the
// world: a FixedLoop's Step, a Scheduler's Run) unless the inspector is
// paused with no single step asked for, timing it for the summary, the
// charts and the stream. It reports whether step ran. With [History], it
// saves the world into the ring before the first tick and after each one,
// and runs no tick while a branch is open. A game loop calls it in place
// of step, on the world's goroutine. Panics as Serve does when called on
// two goroutines at once.
func (in *Inspector) Tick(step func()) bool {
	in.enter()
	defer in.leave()
	in.looping.Store(true)
	in.keepHistory(false)
	in.serve()
	if in.held() {
		return false
	}
	if in.paused {
		if in.steps == 0 {
			return false
		}
		in.steps--
	}
	start := time.Now()
	step()
	in.ticks++
	in.record(start, time.Since(start))
	in.keepHistory(true)
	return true
}

// Run drives the world: step runs tps times per second (as fast as it can
// when tps is 0; at least once an hour), through [Inspector.Tick], and
// requests are served as they arrive between ticks, until ctx is done.
// While paused it waits for requests rather than spinning. It returns
// ctx's error. Panics if tps is negative, infinite or NaN.
func (in *Inspector) Run(ctx context.Context, tps float64, step func()) error {
	if tps < 0 || math.IsInf(tps, 0) || math.IsNaN(tps) {
		panic(fmt.Sprintf("inspect: Run: %v ticks per second; want 0 (as fast as it can) or a positive number", tps))
	}
	in.looping.Store(true)
	// The state before the first tick, for a read that comes first.
	in.enter()
	in.keepHistory(false)
	in.leave()
	if tps == 0 {
		for ctx.Err() == nil {
			if !in.Tick(step) {
				in.idle(ctx)
			}
		}
		return ctx.Err()
	}
	period := time.Duration(min(float64(time.Second)/tps, float64(time.Hour)))
	ticker := time.NewTicker(max(period, time.Microsecond))
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			in.Serve() // what waits is answered, not left to time out
			return ctx.Err()
		case <-ticker.C:
			in.Tick(step)
		case <-in.wake:
			in.Serve()
		}
	}
}

// idle waits, while paused, for a request, ctx, or a short while.
func (in *Inspector) idle(ctx context.Context) {
	t := time.NewTimer(10 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-in.wake:
	case <-t.C:
	}
}

// loopState is the answer of the pause, resume and step endpoints.
type loopState struct {
	Paused bool   `json:"paused"`
	Tick   uint64 `json:"tick"`
}

// control pauses, resumes or steps the loop (on its goroutine).
func (in *Inspector) control(verb string) (any, *httpError) {
	if !in.looping.Load() {
		return nil, errorf(http.StatusConflict, "no loop: the world is served under a Locker, so it cannot be paused or stepped; drive it with Inspector.Tick or Run")
	}
	switch verb {
	case "pause":
		in.paused = true
	case "resume":
		in.paused, in.steps = false, 0
	case "step":
		if !in.paused {
			return nil, errorf(http.StatusConflict, "step: the loop is running; pause it first")
		}
		in.steps++
	default:
		return nil, errorf(http.StatusNotFound, "unknown loop action %q (want pause, resume or step)", verb)
	}
	return loopState{in.paused, in.tick() + uint64(in.steps)}, nil
}

// tick is the tick count shown: the scheduler's when there is one.
func (in *Inspector) tick() uint64 {
	if in.s != nil {
		return in.s.Ticks() - in.tt.replayed // a branch's ticks are not the main line's
	}
	return in.ticks
}
