package sched

import "strconv"

// ForEach calls fn for every item, spreading the items over the scheduler's
// workers (the calling system's goroutine takes part), and returns when all
// are done: data parallelism inside one system. Use it with the chunks of a
// query cut into row ranges:
//
//	chunks = q.AppendChunks(chunks[:0], 4096)
//	sched.ForEach(ctx, chunks, func(c ecs.Chunk2[Position, Velocity]) { ... })
//
// fn runs on several goroutines at once: it may write the components of its
// own item, and must not touch another item's. The result does not depend on
// the number of workers when each item's work depends on that item alone.
// A panic in fn is re-raised by [Scheduler.Run] as a *[Panic] naming the
// system and the item. With one worker the items run in order on the
// calling goroutine.
func ForEach[C any](ctx *Context, items []C, fn func(item C)) {
	name := ctx.sys.name
	ctx.s.pool.do(len(items), func(i int) { fn(items[i]) },
		func(i int) string { return "system " + strconv.Quote(name) + ", item " + strconv.Itoa(i) })
}
