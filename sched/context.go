package sched

import (
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// Context is what a system's Update receives: its world, its own command
// buffer, and the scheduler's workers for data parallelism. Each system has
// one Context for its whole life; do not keep it beyond Update.
type Context struct {
	s    *Scheduler
	sys  *system
	cmds *ecs.Commands
}

// World returns the scheduler's world. During Update it is in a parallel
// section (see ecs.World.BeginParallel): read, iterate and overwrite in
// place; record structural changes in [Context.Commands].
func (c *Context) World() *ecs.World { return c.s.w }

// Commands returns the system's own command buffer, applied at the end of
// its stage, after the stage's outputs, in the order of record.
func (c *Context) Commands() *ecs.Commands { return c.cmds }

// Name returns the system's name.
func (c *Context) Name() string { return c.sys.name }

// Workers returns the number of workers the scheduler runs on.
func (c *Context) Workers() int { return c.s.workers }

// checkEmit panics, in debug mode, if the system did not declare Emits[T]
// for the type t.
func (c *Context) checkEmit(t reflect.Type) {
	d := &c.sys.decl
	for _, e := range d.emits {
		if e == t {
			return
		}
	}
	panic(accessError(c.sys.name, "emits outputs for", "component", t, "Emit", "sched.Emits["+t.String()+"]()"))
}
