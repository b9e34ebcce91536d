package inspect

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// History gives the inspector ring, a world's snapshots of its last ticks,
// and turns time travel on (see the package documentation, Time travel):
// the reads take at=TICK to answer as the world was at the end of that
// tick, /api/history/diff compares two ticks, and /api/branch replays from
// a past tick with a system turned off or a value changed.
//
// When a loop runs its ticks through [Inspector.Tick] or [Inspector.Run],
// the inspector fills ring itself: it saves the world before the first
// tick, numbered with the tick count the summary shows then, and after
// every tick it runs, numbered one more each time; nothing else may save
// into ring then. A program that ticks by itself and calls
// [Inspector.Serve], or serves under a [Locker], saves into ring itself,
// after each tick, numbering ticks one by one (a branch replays as many
// ticks as the numbers say). Saving costs a tick [ecs.World.Snapshot]; the
// ring's memory is its depth times the world's live data.
//
// Panics if ring is nil.
func History(ring *ecs.SnapshotRing) Option {
	if ring == nil {
		panic("inspect: History: nil ring; make one with ecs.NewSnapshotRing(depth)")
	}
	return func(in *Inspector) { in.tt.ring = ring }
}

// Replay sets how a branch runs one tick of the world (/api/branch): a
// function that advances the world by one tick and touches nothing but the
// world and its scheduler, such as a [sched.FixedLoop]'s Step (its Time
// resource lives in the world). By default a branch runs the [Scheduler]'s
// Run. Do not give the step passed to Tick or Run when it also does work
// outside the world (logs, counters, files): a branch would do it too.
//
// Panics if step is nil.
func Replay(step func()) Option {
	if step == nil {
		panic("inspect: Replay: nil step")
	}
	return func(in *Inspector) { in.tt.replay = step }
}

// timeTravel is the inspector's time-travel state, used on the loop's
// goroutine only (in jobs and Tick).
type timeTravel struct {
	ring   *ecs.SnapshotRing
	replay func() // one tick of a branch; nil: the scheduler's Run
	// started: the inspector has saved into ring (Tick mode); base is the
	// tick number of its first save, made before its first tick.
	started bool
	base    uint64
	err     string // why saving stopped, when it did
	// replayed counts the scheduler ticks branches ran, which the tick
	// shown leaves out: the main line goes on as if they never ran.
	replayed uint64
	live     ecs.Snapshot // the live state, while a read looks at the past
	branch   *branch
}

// keepHistory saves the world into the ring: before the first tick when
// after is false and nothing was saved yet, and after each tick when it is
// true. A world that cannot be snapshotted (a type that refuses it, a Clone
// that panics) stops the saving, with the reason in GET /api/history,
// rather than the loop.
func (in *Inspector) keepHistory(after bool) {
	tt := &in.tt
	if tt.ring == nil || tt.err != "" || (!after && tt.started) {
		return
	}
	if !tt.started {
		tt.started, tt.base = true, in.tick()-in.ticks
	}
	if err := in.w.CanSnapshot(); err != nil {
		tt.err = err.Error()
		return
	}
	defer func() {
		if p := recover(); p != nil {
			tt.err = fmt.Sprint(p)
		}
	}()
	tt.ring.Save(in.w, tt.base+in.ticks)
}

// held reports whether the loop must not tick: a branch is open.
func (in *Inspector) held() bool { return in.tt.branch != nil }

// historyState is the answer of GET /api/history.
type historyState struct {
	Depth int `json:"depth"` // 0: no history (the History option)
	Count int `json:"count"` // ticks held
	// Ticks are the ticks held, oldest first, with ?list=1 only (a deep
	// ring holds many); Contiguous says whether they are every tick from
	// Oldest to Newest.
	Ticks      []uint64     `json:"ticks,omitempty"`
	Contiguous bool         `json:"contiguous"`
	Oldest     *uint64      `json:"oldest"`
	Newest     *uint64      `json:"newest"`
	Saving     bool         `json:"saving"` // the inspector saves (a loop runs through Tick)
	Error      string       `json:"error,omitempty"`
	Replay     bool         `json:"replay"` // a branch can run ticks
	Branch     *branchState `json:"branch"`
}

func (in *Inspector) history(list bool) (any, *httpError) {
	tt := &in.tt
	out := historyState{Error: tt.err, Replay: in.replayStep() != nil}
	if tt.ring == nil {
		return out, nil
	}
	out.Depth, out.Count, out.Saving = tt.ring.Depth(), tt.ring.Len(), tt.started && tt.err == ""
	if t, ok := tt.ring.Oldest(); ok {
		out.Oldest = &t
	}
	if t, ok := tt.ring.Newest(); ok {
		out.Newest = &t
	}
	out.Contiguous = out.Count == 0 || *out.Newest-*out.Oldest == uint64(out.Count-1)
	if list {
		out.Ticks = tt.ring.Ticks(make([]uint64, 0, out.Count))
	}
	if b := tt.branch; b != nil {
		s := b.state(false)
		out.Branch = &s
	}
	return out, nil
}

// needRing answers 409 when the inspector has no history.
func (in *Inspector) needRing() *httpError {
	if in.tt.ring == nil {
		return errorf(http.StatusConflict, "no history: give the inspector a snapshot ring (inspect.History)")
	}
	return nil
}

// snapshotAt returns the ring's snapshot of tick, or a 409 that names the
// ticks held.
func (in *Inspector) snapshotAt(tick uint64) (*ecs.Snapshot, *httpError) {
	if err := in.needRing(); err != nil {
		return nil, err
	}
	if s := in.tt.ring.At(tick); s != nil {
		return s, nil
	}
	oldest, ok := in.tt.ring.Oldest()
	if !ok {
		return nil, errorf(http.StatusConflict, "tick %d is not held: the history is empty", tick)
	}
	newest, _ := in.tt.ring.Newest()
	return nil, errorf(http.StatusConflict, "tick %d is not held: the history holds ticks %d to %d", tick, oldest, newest)
}

// parseTick reads a tick number of a query parameter or body.
func parseTick(what, s string) (uint64, *httpError) {
	t, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, badRequest("%s=%q: want a tick number", what, s)
	}
	return t, nil
}

// travel runs fn, the job of any route but the time-travel ones, as time
// travel wants it. A read with at=TICK (or at=branch) answers as the world
// was then: the live state is saved into a scratch snapshot, the past one
// restored, fn run, and the live state restored, all in this one job, so
// no system ever runs on the past. A write with at is refused (409: the
// past is read-only), and so is every write while a branch is open but
// pause and resume (409: the main line is held as it was when the branch
// began, so that leaving puts it back exactly).
func (in *Inspector) travel(r *http.Request, fn func() (any, *httpError)) (any, *httpError) {
	at, viewing := r.URL.Query()["at"]
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	switch {
	case !read && viewing:
		return nil, errorf(http.StatusConflict, "at=%s: a past tick is read-only; write to the live world, without at", strings.Join(at, ","))
	case !read && in.tt.branch != nil && !loopControl(r.URL.Path):
		return nil, errorf(http.StatusConflict, "a branch from tick %d is open: the main line is held as it was; leave the branch first (DELETE /api/branch)", in.tt.branch.from)
	case !viewing:
		return fn()
	case len(at) != 1:
		return nil, badRequest("at given %d times; want one tick, or branch", len(at))
	}
	var past *ecs.Snapshot
	if at[0] == "branch" {
		if in.tt.branch == nil {
			return nil, errorf(http.StatusConflict, "at=branch: no branch is open (POST /api/branch)")
		}
		past = &in.tt.branch.snap
	} else {
		tick, err := parseTick("at", at[0])
		if err != nil {
			return nil, err
		}
		if past, err = in.snapshotAt(tick); err != nil {
			return nil, err
		}
	}
	return in.within(past, fn)
}

// loopControl reports whether path is a pause or resume of the loop, which
// a branch leaves allowed (the loop is held while it is open anyway).
func loopControl(path string) bool {
	return path == "/api/loop/pause" || path == "/api/loop/resume"
}

// within runs fn with the world restored to past, and puts the live state
// back afterwards, also when fn panics.
func (in *Inspector) within(past *ecs.Snapshot, fn func() (any, *httpError)) (any, *httpError) {
	if err := in.w.CanSnapshot(); err != nil {
		return nil, errorf(http.StatusConflict, "cannot look at the past: %v", err)
	}
	in.w.Snapshot(&in.tt.live)
	defer in.backToLive()
	in.w.Restore(past)
	return fn()
}

// backToLive restores the live state a look at the past saved. Deferred:
// when a panic unwinds, the world is recovered first, so that the restore
// is allowed, and the panic goes on to the job's own handler.
func (in *Inspector) backToLive() {
	p := recover()
	if p != nil {
		in.w.Recover()
	}
	in.w.Restore(&in.tt.live)
	if p != nil {
		panic(p)
	}
}

// timeTravelRoutes adds the routes of history, diff and branches. They
// run their jobs without travel: they manage the past themselves.
func (in *Inspector) timeTravelRoutes(m *http.ServeMux) {
	job := func(fn func(*http.Request, []byte) (any, *httpError), ok int) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			body, err := readBody(r)
			if err != nil {
				writeError(rw, err)
				return
			}
			out, err := in.do(r.Context(), func() (any, *httpError) { return fn(r, body) })
			if err != nil {
				writeError(rw, err)
				return
			}
			writeJSON(rw, ok, out)
		}
	}
	m.HandleFunc("/api/history", methods{
		http.MethodGet: job(func(r *http.Request, _ []byte) (any, *httpError) { return in.history(r.URL.Query().Get("list") == "1") }, http.StatusOK),
	}.serve)
	m.HandleFunc("/api/history/diff", methods{
		http.MethodGet: func(rw http.ResponseWriter, r *http.Request) {
			q, err := diffParams(r)
			if err != nil {
				writeError(rw, err)
				return
			}
			job(func(*http.Request, []byte) (any, *httpError) { return in.diffTicks(q) }, http.StatusOK)(rw, r)
		},
	}.serve)
	m.HandleFunc("/api/branch", methods{
		http.MethodGet:    job(func(*http.Request, []byte) (any, *httpError) { return in.branchNow() }, http.StatusOK),
		http.MethodPost:   job(func(_ *http.Request, body []byte) (any, *httpError) { return in.startBranch(body) }, http.StatusCreated),
		http.MethodDelete: job(func(*http.Request, []byte) (any, *httpError) { return in.leaveBranch() }, http.StatusOK),
	}.serve)
}
