package sched

import (
	"context"
	"runtime/pprof"
	"time"
)

// System is anything with an Update method that the scheduler calls once per
// tick, registered with [Scheduler.Add]. A system may also implement
// [Initializer] (called once, before its first Update) and [Finalizer]
// (called by [Scheduler.Close]): the init / update / finalize life cycle of
// a student game engine's parallel lock-free ECS (the Run/Sync design).
type System interface {
	Update(ctx *Context)
}

// Initializer is a system with set-up work, done once before its first
// Update, on the calling goroutine and in the order of record. Init may
// change the world directly (it runs outside any parallel section).
type Initializer interface {
	Init(ctx *Context)
}

// Finalizer is a system with tear-down work, done by [Scheduler.Close] in
// the order of record, outside any parallel section.
type Finalizer interface {
	Finalize(ctx *Context)
}

// Func adapts a plain function to a [System], as http.HandlerFunc adapts
// one to an http.Handler (systems as plain functions: the "super simple
// ECS" blog post). [Scheduler.AddFunc] uses it.
type Func func(ctx *Context)

// Update calls f.
func (f Func) Update(ctx *Context) { f(ctx) }

// system is one registered system and its run-time state.
type system struct {
	name    string
	index   int // registration order
	sys     System
	decl    decl
	enabled bool
	ctx     Context
	labels  context.Context // carries the pprof label system=<name>
	stage   int

	runs        int64
	last, max   time.Duration
	total       time.Duration
	initialised bool
}

func newSystem(s *Scheduler, name string, index int, sys System, d decl) *system {
	x := &system{name: name, index: index, sys: sys, decl: d, enabled: true}
	x.ctx = Context{s: s, sys: x, cmds: s.w.NewCommands()}
	x.labels = pprof.WithLabels(context.Background(), pprof.Labels("system", name))
	return x
}

// unlabelled is the label set goroutines return to after a system: the
// goroutine that calls Run loses any labels of its own.
var unlabelled = context.Background()

// run calls the system's Update with its pprof label set on the goroutine,
// and records the time it took.
func (x *system) run() {
	start := time.Now()
	pprof.SetGoroutineLabels(x.labels)
	defer pprof.SetGoroutineLabels(unlabelled) // also after a panic
	x.ctx.calls.Store(0)
	x.sys.Update(&x.ctx)
	d := time.Since(start)
	x.runs++
	x.last = d
	x.total += d
	x.max = max(x.max, d)
}

// SystemStats is the timing of one system, for reading between ticks:
// [Scheduler.Stats] returns one per system, in the order of record. (The
// world's memory use is ecs.Stats, from ecs.World.Stats.)
type SystemStats struct {
	Name    string
	Stage   int  // the stage the system runs in, from 0
	Enabled bool // false while disabled with Scheduler.Enable
	Runs    int64
	Last    time.Duration // the latest Update
	Mean    time.Duration // total time / Runs
	Max     time.Duration
	Total   time.Duration
}
