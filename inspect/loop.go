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

// do runs fn on the world's goroutine and returns its result: it queues
// fn as a job and waits for whichever loop drains the queue (the
// program's, through Tick, Serve or Run, or in Locker mode the
// inspector's own, locker.go) to run it. A request the loop does not take
// up within the Wait time, or whose client goes away first, is cancelled
// and never runs: it answers 503 and changes nothing. Once the inspector
// is closed, every request answers 503 at once.
func (in *Inspector) do(ctx context.Context, fn func() (any, *httpError)) (any, *httpError) {
	if in.closed.Load() {
		return nil, closedError()
	}
	j := &job{fn: fn, done: make(chan struct{})}
	timer := time.NewTimer(in.wait)
	defer timer.Stop()
	select {
	case in.jobs <- j:
	case <-timer.C:
		return nil, in.unavailable()
	case <-ctx.Done():
		return nil, in.unavailable()
	}
	select {
	case in.wake <- struct{}{}:
	default:
	}
	// After the job is queued, so that a loop stopping meanwhile either
	// sees it or is started again (locker.go).
	if !in.ensureDrainer() {
		return in.cancel(j, closedError())
	}
	select {
	case <-j.done:
		return j.out, j.err
	case <-timer.C:
	case <-ctx.Done():
	}
	return in.cancel(j, in.unavailable())
}

// cancel gives up on j, which answers err, unless a loop has taken it up
// already: then its change is being made, so do waits for it and reports
// it.
func (in *Inspector) cancel(j *job, err *httpError) (any, *httpError) {
	if j.state.CompareAndSwap(jobQueued, jobCancelled) {
		return nil, err
	}
	<-j.done
	return j.out, j.err
}

// unavailable is the answer of a request no loop took up in time.
func (in *Inspector) unavailable() *httpError {
	if in.locker != nil && !in.takenOver.Load() {
		return errorf(http.StatusServiceUnavailable, "the world's loop did not serve the request in time: the Locker was not free in time")
	}
	return errorf(http.StatusServiceUnavailable, "the world's loop did not serve the request in time: call Inspector.Tick, Serve or Run between ticks, or give a Locker")
}

// closedError is the answer of a request to a closed inspector.
func closedError() *httpError {
	return errorf(http.StatusServiceUnavailable, "the inspector is closed")
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
// between two ticks. It returns at once when none waits. With [Locker],
// the first call of Serve, Tick or Run takes the queue over from the
// inspector's own goroutine (see Locker). Panics when called while
// another Serve, Tick or Run call of the same inspector runs on another
// goroutine. Complexity: the requests'.
func (in *Inspector) Serve() {
	in.enter()
	defer in.leave()
	in.serve()
}

// serve runs the jobs queued when it begins, within serveBudget. The
// receive does not block: Close may have taken a job meanwhile.
func (in *Inspector) serve() {
	start := time.Now()
	for i, n := 0, len(in.jobs); i < n && (i == 0 || time.Since(start) < serveBudget); i++ {
		select {
		case j := <-in.jobs:
			in.run(j)
		default:
			return
		}
	}
}

// serveBudget bounds the time one Serve spends on requests, past the
// first: the rest wait for the next call, so a crowd of clients slows the
// answers, not the ticks.
const serveBudget = 4 * time.Millisecond

// enter marks a Serve or Tick call as running, and panics if one already
// runs: two goroutines would run requests on the world at once. In Locker
// mode, the first call takes the queue over from the inspector's own loop.
func (in *Inspector) enter() {
	if !in.serving.CompareAndSwap(false, true) {
		panic("inspect: Serve or Tick called on two goroutines at once; call them from the world's one goroutine")
	}
	in.takeOver()
}

// leave ends what enter began.
func (in *Inspector) leave() {
	in.serving.Store(false)
}

// Tick serves the waiting requests, then runs step (one tick of the
// world: a FixedLoop's Step, a Scheduler's Run) unless the inspector is
// paused with no single step asked for, timing it for the summary, the
// charts and the stream. It reports whether step ran. With [History], it
// saves the world into the ring before the first tick and after each one,
// and runs no tick while a branch is open. A game loop calls it in place
// of step, on the world's goroutine. With [Locker], it takes the queue
// over as Serve does. Panics as Serve does when called on two goroutines
// at once.
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
	// The state before the first tick, for a read that comes first.
	in.enter()
	in.looping.Store(true)
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
