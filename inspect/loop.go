package inspect

import (
	"context"
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
	if in.locker != nil && !in.looping.Load() {
		in.locker.Lock()
		defer in.locker.Unlock()
		in.run(j)
		return j.out, j.err
	}
	timer := time.NewTimer(in.wait)
	defer timer.Stop()
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

func unavailable() *httpError {
	return errorf(http.StatusServiceUnavailable, "the world's loop did not serve the request in time: call Inspector.Tick, Serve or Run between ticks, or give a Locker")
}

// run runs j unless it was cancelled. A panic inside (a hook refusing a
// change, say) answers 500 with its message; the world is recovered so
// its queued changes are not lost.
func (in *Inspector) run(j *job) {
	if !j.state.CompareAndSwap(jobQueued, jobRunning) {
		return
	}
	defer close(j.done)
	defer func() {
		if p := recover(); p != nil {
			in.w.Recover()
			j.out, j.err = nil, errorf(http.StatusInternalServerError, "%v", p)
		}
	}()
	j.out, j.err = j.fn()
}

// Serve runs every request waiting for the world, on the calling
// goroutine, which must be the one that runs the world's ticks, between
// two ticks. It returns at once when none waits. Complexity: the requests'.
func (in *Inspector) Serve() {
	for {
		select {
		case j := <-in.jobs:
			in.run(j)
		default:
			return
		}
	}
}

// Tick serves the waiting requests, then runs step (one tick of the
// world: a FixedLoop's Step, a Scheduler's Run) unless the inspector is
// paused with no single step asked for, timing it for the summary, the
// charts and the stream. It reports whether step ran. A game loop calls it
// in place of step, on the world's goroutine.
func (in *Inspector) Tick(step func()) bool {
	in.looping.Store(true)
	in.Serve()
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
	return true
}

// Run drives the world: step runs tps times per second (as fast as it can
// when tps <= 0), through [Inspector.Tick], and requests are served as they
// arrive between ticks, until ctx is done. It returns ctx's error.
func (in *Inspector) Run(ctx context.Context, tps float64, step func()) error {
	in.looping.Store(true)
	if tps <= 0 {
		for ctx.Err() == nil {
			in.Tick(step)
		}
		return ctx.Err()
	}
	period := time.Duration(float64(time.Second) / tps)
	ticker := time.NewTicker(max(period, time.Microsecond))
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			in.Serve()
			return ctx.Err()
		case <-ticker.C:
			in.Tick(step)
		case <-in.wake:
			in.Serve()
		}
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
		return in.s.Ticks()
	}
	return in.ticks
}
