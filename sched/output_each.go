package sched

import (
	"fmt"
	"reflect"
	"runtime/pprof"
	"slices"
	"strconv"

	"github.com/tessera-ecs/tessera/ecs"
)

// Emitter records the values that one item of a [ForEachEmit] emits into
// an [Output]: each item has its own, so items on different workers append
// with no lock. It is valid only during the call of fn that received it.
type Emitter[T any] struct {
	vals []emitted[T]
	live bool   // inside the item's fn
	at   int    // where vals go in the system's buffer, when gathered
	sys  string // the emitting system, for the panic message
}

// Emit records v for e's T from the item. Cost: an append to the item's own
// buffer. Panics when called after the item's fn returned (an Emitter kept
// past its call). A value for a dead or pending entity is dropped and
// counted at the Sync, as with [Output.Emit].
func (em *Emitter[T]) Emit(e ecs.Entity, v T) {
	if !em.live {
		panic(fmt.Sprintf("sched: system %q: Emitter[%v].Emit after its ForEachEmit item returned; emit only inside the item's call", em.sys, reflect.TypeFor[T]()))
	}
	em.vals = append(em.vals, emitted[T]{e, v})
}

// parallelGatherMin is the least number of values a ForEachEmit gathers
// on several workers: below it, one goroutine copies them sooner.
const parallelGatherMin = 16384

// ForEachEmit is [ForEach] for a system that emits into o from its items:
// fn gets each item and an [Emitter] of its own, and runs on several
// goroutines at once. When every item is done, the items' values are
// appended to the system's buffer of o in item order, each item's in
// emission order, after what the system emitted before the call; so the
// Sync folds exactly what one goroutine emitting item by item would have
// emitted, and the world does not depend on the number of workers. The
// rules of ForEach hold for fn: it may write the components of its own
// item and must not touch another's, nor call [Output.Emit],
// [Context.Commands] or ForEach. (Per-worker queues, as in Bevy's
// ParallelCommands or flecs's stages, would merge in an order that
// depends on the workers; per-item ones do not.) Panics as [Output.Emit]
// does: inside a ForEach of the system, for an Output of another
// scheduler, and in debug mode unless the system declared [Emits][T]. A
// panic in fn is re-raised as in ForEach, and the values of the call are
// then dropped. Cost: ForEach's, one append per value, and a copy of the
// values into the system's buffer (split over the workers when there are
// many).
func ForEachEmit[C, T any](ctx *Context, o *Output[T], items []C, fn func(item C, out *Emitter[T])) {
	i := ctx.sys.index
	if ctx.s != o.s || o.deny[i] || ctx.splitting.Load() > 0 {
		panic(&emitError{ctx, o.s, o.typ, o.deny})
	}
	ems := o.itemEmitters(i, len(items), ctx.sys.name)
	name, labels := ctx.sys.name, ctx.sys.labels
	func() {
		ctx.splitting.Add(1)
		defer ctx.splitting.Add(-1)
		ctx.s.pool.doShuffled(ctx.forEachRand(), ctx.home, len(items), func(k, _ int) {
			em := &ems[k]
			em.vals, em.live = em.vals[:0], true
			defer func() { em.live = false }()
			fn(items[k], em)
		}, func(k int) string { return "system " + strconv.Quote(name) + ", item " + strconv.Itoa(k) }, labels)
	}()
	pprof.SetGoroutineLabels(labels) // the caller ran items too
	o.gather(ctx, i, ems)
}

// itemEmitters returns n emitters for system sys's ForEachEmit, reusing
// their buffers from earlier calls. Each system has its own list (made by
// resize), so systems of one stage may call ForEachEmit on o at once.
func (o *Output[T]) itemEmitters(sys, n int, name string) []Emitter[T] {
	ems := o.emitters[sys]
	if len(ems) < n {
		ems = slices.Grow(ems, n-len(ems))[:n]
		o.emitters[sys] = ems
	}
	ems = ems[:n]
	for k := range ems {
		ems[k].sys = name
	}
	return ems
}

// gather appends the emitters' values to system sys's buffer, in emitter
// order.
func (o *Output[T]) gather(ctx *Context, sys int, ems []Emitter[T]) {
	buf := o.bufs[sys]
	start, total := len(buf), 0
	for k := range ems {
		total += len(ems[k].vals)
	}
	buf = slices.Grow(buf, total)[:start+total]
	if total < parallelGatherMin || ctx.s.workers == 1 {
		at := start
		for k := range ems {
			at += copy(buf[at:], ems[k].vals)
		}
	} else {
		at := start
		for k := range ems {
			ems[k].at = at
			at += len(ems[k].vals)
		}
		ctx.s.pool.do(ctx.home, len(ems), func(k, _ int) { copy(buf[ems[k].at:], ems[k].vals) },
			func(k int) string { return "gathering the values of a ForEachEmit, item " + strconv.Itoa(k) }, ctx.sys.labels)
		pprof.SetGoroutineLabels(ctx.sys.labels)
	}
	o.bufs[sys] = buf
	if o.pointers {
		for k := range ems {
			clear(ems[k].vals)
		}
	}
}
