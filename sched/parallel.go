package sched

import (
	"runtime/pprof"
	"strconv"
)

// ForEach calls fn for every item, spreading the items over the scheduler's
// workers (the calling system's goroutine takes part), and returns when all
// are done: data parallelism inside one system. Use it with the chunks of a
// query cut into row ranges:
//
//	chunks = q.AppendChunks(chunks[:0], 4096)
//	sched.ForEach(ctx, chunks, func(c ecs.Chunk2[Position, Velocity]) { ... })
//
// fn runs on several goroutines at once, each with the system's pprof
// label: it may write the components of its own item, and must not touch
// another item's, nor emit outputs or record commands (the system's buffers
// are not safe for concurrent use; emit from the items with [ForEachEmit],
// or collect per item and record after ForEach returns, in item order).
// Emit and Context.Commands panic while a ForEach of their system runs. The result does not depend on the
// number of workers when each item's work depends on that item alone. A
// panic in fn is re-raised by [Scheduler.Run] as a *[Panic] naming the
// system and the item, after the items already started have finished (with
// one worker, no further item starts). With one worker the items run in
// order on the calling goroutine ([Shuffle] draws another order).
func ForEach[C any](ctx *Context, items []C, fn func(item C)) {
	name, labels := ctx.sys.name, ctx.sys.labels
	ctx.splitting.Add(1)
	defer ctx.splitting.Add(-1)
	ctx.s.pool.doShuffled(ctx.forEachRand(), ctx.home, len(items), func(i, _ int) { fn(items[i]) },
		func(i int) string { return "system " + strconv.Quote(name) + ", item " + strconv.Itoa(i) }, labels)
	pprof.SetGoroutineLabels(labels) // the caller ran items too
}
