package sched

import (
	"fmt"
	"sync/atomic"

	"github.com/tessera-ecs/tessera/ecs"
)

// Context is what a system's Update receives: its world, its own command
// buffer, and the scheduler's workers for data parallelism. Each system has
// one Context for its whole life; do not keep it beyond Update.
type Context struct {
	s         *Scheduler
	sys       *system
	cmds      *ecs.Commands
	splitting atomic.Int32  // ForEach calls of the system in progress (nested ones on other goroutines too)
	home      int           // the worker running the system's Update: its ForEach starts on that worker's share
	calls     atomic.Uint64 // ForEach calls started in this Update, which number them for Shuffle
}

// World returns the scheduler's world. During Update it is in a parallel
// section (see ecs.ParallelControl.Begin): read, iterate and overwrite in
// place; record structural changes in [Context.Commands].
func (c *Context) World() *ecs.World { return c.s.w }

// Commands returns the system's own command buffer, applied at the end of
// its stage, after the stage's outputs, in the order of record (or at the
// end of the tick, for a system declared with [ApplyAtTickEnd]). Pending
// entities it spawned can be resolved to the real ones with
// ecs.Commands.Resolve once it has been applied, until the system records
// into it again.
// Panics inside a [ForEach] of the system (the buffer is not safe for
// concurrent use): take it before the loop and record after it.
func (c *Context) Commands() *ecs.Commands {
	if c.splitting.Load() > 0 {
		panic(fmt.Sprintf("sched: system %q: Commands called inside ForEach; record commands before or after it", c.sys.name))
	}
	return c.cmds
}

// Name returns the system's name.
func (c *Context) Name() string { return c.sys.name }

// Workers returns the number of workers the scheduler runs on.
func (c *Context) Workers() int { return c.s.workers }
