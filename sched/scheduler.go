package sched

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// Scheduler runs systems over one world, a tick at a time. Registration
// order is the order of record; [Before] and [After] constraints may move a
// system earlier or later. Systems are grouped into stages: each system
// goes into the first stage after every earlier system (in the order of
// record) that it conflicts with or must follow, so a stage's systems
// conflict with none of each other and run in parallel on the worker pool.
// At the end of a stage the outputs its systems emitted are merged
// ([Output]), then their command buffers are applied, in the order of
// record. The stage plan depends only on the declarations, never on the
// number of workers, which is why the outcome of a tick is the same with
// one worker or many.
//
// A Scheduler is driven from one goroutine: Add, Build, Run, Enable, Stats
// and Close must not be called concurrently with each other.
type Scheduler struct {
	w       *ecs.World
	workers int
	spin    time.Duration // how long idle workers poll before they park; < 0: not set
	debug   bool
	shuffle *shuffler // the free choices' generator (Shuffle), nil for the default ones

	systems []*system
	byName  map[string]*system
	outputs []syncer

	built     bool
	order     []*system   // the order of record
	stages    [][]*system // systems per stage, in the order of record
	atTickEnd []*system   // the ApplyAtTickEnd systems, in the order of record
	why       []string    // per system (by index): why it is in its stage

	pool     *pool
	checker  *checker
	stageFn  []func(i, who int) // per stage: runs the i-th system of stageRun on worker who
	stageRun [][]*system        // per stage: its systems in the order the pool hands them out (runOrder)
	// stageTimes and tickEndTimes time the phases of each stage and the
	// tick end (StageStats).
	stageTimes   []stageTimes
	tickEndTimes stageTimes
	ticks        uint64
	closed       bool
}

// SchedulerOption configures a [Scheduler].
type SchedulerOption func(*Scheduler)

// Workers sets the number of goroutines that run systems, the calling one
// included: n <= 0 means GOMAXPROCS (the default), and 1 runs every system
// on the goroutine that calls Run, one after another, for debugging (the
// single-threaded switch of a student game engine's parallel lock-free ECS,
// the Run/Sync design).
func Workers(n int) SchedulerOption { return func(s *Scheduler) { s.workers = n } }

// SpinWait sets how long an idle worker polls for the next parallel job
// before it parks, and how long the goroutine that runs a job polls for
// its last items before it blocks (d <= 0: park and block at once). Waking
// a parked goroutine takes tens of microseconds, as long as a whole
// parallel loop over 100,000 entities, so polling through the serial parts
// of a tick (structural changes, merges, single-system stages) is what lets
// ForEach scale; the price is a busy core for up to d after each job. The
// default is [DefaultSpinWait] when the workers are no more than GOMAXPROCS,
// and 0 otherwise (a polling worker would hold a processor another one
// needs). (Spin-then-park idling: the worker threads of Rayon, Cilk and
// Go's own scheduler.)
func SpinWait(d time.Duration) SchedulerOption {
	return func(s *Scheduler) { s.spin = max(d, 0) }
}

// DefaultSpinWait is the default of [SpinWait]: longer than the serial
// part of a tick of the particle scenario with 100,000 entities (its
// structural changes and a spawning system), so that its workers never
// park between ticks of a loop that runs flat out.
const DefaultSpinWait = 500 * time.Microsecond

// Debug turns on access checking: a system that touches a component type
// or resource it did not declare, writes with Set a type it declared
// read-only, or records a structural change it did not declare ([Spawns],
// [Adds], [Removes], [Despawns], or [Structural]), panics
// with a message naming the system, the type and the access. What the world
// reports is checked (see ecs.AccessChecker): writes through pointers from
// queries, Get or GetResource are not seen. It implies Workers(1), since
// the check must know which system is running.
func Debug() SchedulerOption { return func(s *Scheduler) { s.debug = true } }

// New returns a scheduler for w with no systems.
func New(w *ecs.World, opts ...SchedulerOption) *Scheduler {
	s := &Scheduler{w: w, byName: make(map[string]*system), spin: -1}
	for _, o := range opts {
		o(s)
	}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	if s.spin < 0 {
		s.spin = 0
		if s.workers <= runtime.GOMAXPROCS(0) {
			s.spin = DefaultSpinWait
		}
	}
	if s.debug {
		s.workers = 1
		s.checker = &checker{}
	}
	s.pool = newPool(s.workers, s.spin)
	return s
}

// World returns the scheduler's world.
func (s *Scheduler) World() *ecs.World { return s.w }

// Workers returns the number of goroutines that run systems.
func (s *Scheduler) Workers() int { return s.workers }

// Add registers sys under name, with options declaring its access and
// ordering constraints. Registration mistakes are programming errors and
// panic, as http.ServeMux.Handle does: an empty or taken name, a nil
// system, a System pointer registered twice, a closed scheduler. Mistakes
// in Before and After (an unknown name, a cycle) show when the plan is
// built: [Scheduler.Build] returns them as an error and Run panics with it.
func (s *Scheduler) Add(name string, sys System, opts ...Option) {
	s.add("Add", name, sys, opts)
}

// AddFunc registers the function f as a system under name; it panics like
// [Scheduler.Add]. It is Add(name, Func(f), opts...), as http.HandleFunc is
// Handle with a HandlerFunc.
func (s *Scheduler) AddFunc(name string, f func(ctx *Context), opts ...Option) {
	if f == nil {
		s.add("AddFunc", name, nil, opts)
	}
	s.add("AddFunc", name, Func(f), opts)
}

func (s *Scheduler) add(op, name string, sys System, opts []Option) {
	switch {
	case s.closed:
		panic(fmt.Sprintf("sched: %s %q: the scheduler is closed", op, name))
	case name == "":
		panic(fmt.Sprintf("sched: %s: empty system name", op))
	case s.byName[name] != nil:
		panic(fmt.Sprintf("sched: %s: a system named %q is already registered", op, name))
	case sys == nil || isNilSystem(sys):
		panic(fmt.Sprintf("sched: %s %q: nil system", op, name))
	}
	if isPointer(sys) {
		for _, other := range s.systems {
			if isPointer(other.sys) && other.sys == sys {
				panic(fmt.Sprintf("sched: %s %q: this system is already registered as %q", op, name, other.name))
			}
		}
	}
	var d decl
	for _, o := range opts {
		if o == nil {
			panic(fmt.Sprintf("sched: %s %q: nil option", op, name))
		}
		o(&d)
	}
	// A write implies a read of the same type.
	for _, t := range d.writes {
		d.reads = appendType(d.reads, t)
	}
	for _, t := range d.resWrites {
		d.resReads = appendType(d.resReads, t)
	}
	x := newSystem(s, name, len(s.systems), sys, d)
	s.systems = append(s.systems, x)
	s.byName[name] = x
	s.built = false
}

// isNilSystem reports whether x is a nil pointer or a nil function (a
// Func(nil)) in a System interface.
func isNilSystem(x System) bool {
	v := reflect.ValueOf(x)
	return (v.Kind() == reflect.Pointer || v.Kind() == reflect.Func) && v.IsNil()
}

// isPointer reports whether x is a pointer, the kind of system value that
// can be registered twice by mistake and compared safely; functions and
// other values are told apart by name only.
func isPointer(x System) bool { return reflect.TypeOf(x).Kind() == reflect.Pointer }

// Enable turns the named system on or off; a disabled system keeps its
// place in the plan and is skipped. Returns an error for an unknown name.
func (s *Scheduler) Enable(name string, on bool) error {
	x, ok := s.byName[name]
	if !ok {
		return fmt.Errorf("sched: Enable: no system named %q", name)
	}
	x.enabled = on
	return nil
}

// Build computes the order of record and the stages. Run calls it when
// systems were added since the last build; call it first to get its error
// rather than a panic. It returns an error if a Before or After names an
// unknown system, or if the constraints form a cycle.
func (s *Scheduler) Build() error {
	n := len(s.systems)
	succ := make([][]int, n) // explicit edges: i must run before succ[i]
	indeg := make([]int, n)
	edge := func(a, b int) {
		if !slices.Contains(succ[a], b) {
			succ[a] = append(succ[a], b)
			indeg[b]++
		}
	}
	for _, x := range s.systems {
		for _, name := range x.decl.after {
			y, ok := s.byName[name]
			if !ok {
				return fmt.Errorf("sched: system %q: After(%q): no such system", x.name, name)
			}
			edge(y.index, x.index)
		}
		for _, name := range x.decl.before {
			y, ok := s.byName[name]
			if !ok {
				return fmt.Errorf("sched: system %q: Before(%q): no such system", x.name, name)
			}
			edge(x.index, y.index)
		}
	}
	// Kahn's algorithm, taking the earliest registered ready system each
	// time: registration order except where a constraint says otherwise.
	order := make([]*system, 0, n)
	ready := []int{}
	for i := range n {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		k := slices.Index(ready, slices.Min(ready))
		i := ready[k]
		ready = slices.Delete(ready, k, k+1)
		order = append(order, s.systems[i])
		for _, j := range succ[i] {
			if indeg[j]--; indeg[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	if len(order) < n {
		var stuck []string
		for i, d := range indeg {
			if d > 0 {
				stuck = append(stuck, strconv.Quote(s.systems[i].name))
			}
		}
		return fmt.Errorf("sched: the Before/After constraints form a cycle among %v", stuck)
	}
	// Stages: one after the latest earlier system it conflicts with or
	// must follow.
	why := make([]string, n)
	nstages := 0
	for k, x := range order {
		x.stage = 0
		why[x.index] = "no conflict with an earlier system"
		for _, y := range order[:k] {
			reason, ordered := relation(&y.decl, &x.decl)
			if reason == "" && slices.Contains(succ[y.index], x.index) {
				reason = "an explicit constraint"
			}
			if reason != "" && y.stage+1 > x.stage {
				x.stage = y.stage + 1
				why[x.index] = fmt.Sprintf("after %q (%s)", y.name, reason)
			} else if ordered && y.stage > x.stage {
				x.stage = y.stage
				why[x.index] = fmt.Sprintf("with or after %q (effects applied in the order of record)", y.name)
			}
		}
		nstages = max(nstages, x.stage+1)
	}
	stages := make([][]*system, nstages)
	for _, x := range order {
		stages[x.stage] = append(stages[x.stage], x)
	}
	s.order, s.stages, s.why = order, stages, why
	s.atTickEnd = s.atTickEnd[:0]
	for _, x := range order {
		if x.decl.atTickEnd {
			s.atTickEnd = append(s.atTickEnd, x)
		}
	}
	for _, o := range s.outputs {
		o.resize(n)
	}
	s.stageFn = make([]func(i, who int), nstages)
	s.stageTimes = make([]stageTimes, nstages)
	s.tickEndTimes = stageTimes{}
	s.stageRun = make([][]*system, nstages)
	for k := range stages {
		run := stages[k]
		if s.workers > 1 || s.shuffle != nil {
			run = runOrder(run) // a copy: Shuffle permutes it in place
		}
		s.stageRun[k] = run
		s.stageFn[k] = func(i, who int) {
			if x := run[i]; x.enabled {
				x.ctx.home = who
				x.run()
			}
		}
	}
	s.built = true
	return nil
}

// runOrder returns the systems of a stage in the order a pool of several
// workers hands them out: those that record structural changes first, in the order of record,
// then the others. The calling goroutine takes the first share of a
// stage's systems and applies the stage's command buffers afterwards, so the
// systems whose commands read and write the entity index run on its core,
// where the index already is; moving them to another core costs a cache
// miss per entity they touch (measured: the 100,000-particle scenario's
// tick on 2 workers is much slower when its despawning system runs on the
// second one). Only the goroutine, never the outcome, depends on this
// order.
func runOrder(st []*system) []*system {
	run := make([]*system, 0, len(st))
	for _, x := range st {
		if x.decl.recordsCommands() {
			run = append(run, x)
		}
	}
	for _, x := range st {
		if !x.decl.recordsCommands() {
			run = append(run, x)
		}
	}
	return run
}

// Plan returns the stage plan as text: one line per stage, listing its
// systems in the order of record with the reason each is not in an earlier
// stage. Builds first if needed (an error is returned as the text).
func (s *Scheduler) Plan() string {
	if !s.built {
		if err := s.Build(); err != nil {
			return err.Error()
		}
	}
	var b []byte
	b = fmt.Appendf(b, "%d systems in %d stages, %d workers", len(s.order), len(s.stages), s.workers)
	if s.shuffle != nil {
		b = fmt.Appendf(b, ", shuffled with seed %d", s.shuffle.seed)
	}
	b = append(b, '\n')
	for k, st := range s.stages {
		b = fmt.Appendf(b, "stage %d:\n", k)
		for _, x := range st {
			state := ""
			if !x.enabled {
				state = " [disabled]"
			}
			b = fmt.Appendf(b, "  %s%s: %s\n", x.name, state, s.why[x.index])
		}
	}
	return string(b)
}

// Stats returns the timing of every system, in the order of record. Call it
// between ticks.
func (s *Scheduler) Stats() []SystemStats {
	if !s.built {
		_ = s.Build()
	}
	out := make([]SystemStats, 0, len(s.order))
	for _, x := range s.order {
		st := SystemStats{Name: x.name, Stage: x.stage, Enabled: x.enabled, Runs: x.runs, Last: x.last, Max: x.max, Total: x.total}
		if x.runs > 0 {
			st.Mean = x.total / time.Duration(x.runs)
		}
		out = append(out, st)
	}
	return out
}

// Ticks returns the number of completed calls to Run.
func (s *Scheduler) Ticks() uint64 { return s.ticks }

// Run runs one tick: every enabled system once, stage by stage. Systems not
// yet initialised get their Init first, in the order of record. Panics if
// Build fails, or with a *[Panic] if a system panicked (in debug mode the
// system's panic goes on as it was, on the calling goroutine); the world is
// left out of its parallel section, with that stage's outputs and command
// buffers not yet applied discarded. A panic that happens while a stage's
// outputs merge or its buffers apply (in a hook, say) is re-raised as it
// was.
func (s *Scheduler) Run() {
	if s.closed {
		panic("sched: Run: the scheduler is closed")
	}
	if !s.built {
		if err := s.Build(); err != nil {
			panic(err)
		}
	}
	for _, x := range s.order {
		if !x.initialised {
			x.initialised = true
			if in, ok := x.sys.(Initializer); ok {
				in.Init(&x.ctx)
			}
		}
	}
	done := false
	defer func() {
		if !done { // a stage panicked: changes held for the end of the tick are dropped
			for _, x := range s.atTickEnd {
				x.ctx.cmds.Reset()
			}
		}
	}()
	for k, st := range s.stages {
		s.runStage(k, st)
	}
	s.applyAtTickEnd()
	done = true
	s.ticks++
}

// applyAtTickEnd applies the command buffers of the [ApplyAtTickEnd]
// systems, in the order of record. A hook that panics leaves the rest
// unapplied and dropped, never applied twice.
func (s *Scheduler) applyAtTickEnd() {
	ok := false
	defer func() {
		if !ok {
			s.w.Recover() // a hook panicked while a buffer applied
		}
	}()
	if len(s.atTickEnd) == 0 {
		ok = true
		return
	}
	start := time.Now()
	for _, x := range s.atTickEnd {
		if x.ctx.cmds.Len() > 0 {
			s.w.Apply(x.ctx.cmds)
		}
	}
	ok = true
	t := &s.tickEndTimes
	t.runs++
	t.apply.add(time.Since(start))
}

// runStage runs the enabled systems of stage k in a parallel section, then
// merges their outputs and applies their command buffers in order. If
// anything panics, the world leaves the section and the stage's remaining
// outputs and buffers are dropped, so none is applied twice.
func (s *Scheduler) runStage(k int, st []*system) {
	w := s.w
	w.Parallel().Begin()
	open, ok := true, false
	defer func() {
		if ok {
			return
		}
		if s.debug {
			s.checker.cur = nil
			w.Parallel().SetAccessChecker(nil)
		}
		if open {
			w.Parallel().End()
		} else {
			w.Recover() // a hook panicked while outputs merged or buffers applied
		}
		for _, x := range st {
			if !x.decl.atTickEnd {
				x.ctx.cmds.Reset()
			}
		}
		for _, o := range s.outputs {
			o.discard(st)
		}
	}()
	run := s.stageRun[k]
	start := time.Now()
	mix := s.shuffleStage(k, st, run)
	label := func(i int) string { return "system " + strconv.Quote(run[i].name) }
	if s.debug {
		w.Parallel().SetAccessChecker(s.checker)
		for _, x := range run {
			if x.enabled {
				s.checker.cur = x
				x.run()
			}
		}
		s.checker.cur = nil
		w.Parallel().SetAccessChecker(nil)
	} else {
		s.pool.doShuffled(mix, 0, len(st), s.stageFn[k], label, nil)
	}
	w.Parallel().End()
	open = false
	ran := time.Now()
	for _, o := range s.outputs {
		o.sync(st)
	}
	merged := time.Now()
	for _, x := range st {
		if x.ctx.cmds.Len() > 0 && !x.decl.atTickEnd {
			w.Apply(x.ctx.cmds)
		}
	}
	ok = true
	t := &s.stageTimes[k]
	t.runs++
	t.run.add(ran.Sub(start))
	t.merge.add(merged.Sub(ran))
	t.apply.add(time.Since(merged))
}

// Close runs the Finalize of every initialised system, in the order of
// record, and stops the workers. The scheduler cannot be used afterwards.
func (s *Scheduler) Close() {
	if s.closed {
		return
	}
	s.closed = true
	for _, x := range s.order {
		if f, ok := x.sys.(Finalizer); ok && x.initialised {
			f.Finalize(&x.ctx)
		}
	}
	s.pool.close()
}
