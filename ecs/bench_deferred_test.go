package ecs_test

import (
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// benchDeferred runs kernel over a world of n entities with Position and
// Velocity (and a player entity with Position alone), for each size of
// opSizes, reporting the time per entity.
func benchDeferred(b *testing.B, kernel func(o *opsWorld, q *ecs.Query1[Velocity], player ecs.Entity)) {
	for _, n := range opSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			o := newOpsWorld()
			o.pv.SpawnBatch(n, Position{1, 2}, Velocity{3, 4})
			player := o.pos.Spawn(Position{})
			q := ecs.NewQuery1[Velocity](o.w)
			for b.Loop() {
				kernel(o, q, player)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// BenchmarkDeferredRemoveAdd measures the deferred path: a loop over n
// entities that removes one component of each and adds it back (queued,
// each judged against the changes queued before it), then the flush that
// applies both moves.
func BenchmarkDeferredRemoveAdd(b *testing.B) { benchDeferred(b, deferredRemoveAdd) }

//go:noinline
func deferredRemoveAdd(o *opsWorld, q *ecs.Query1[Velocity], _ ecs.Entity) {
	for r := range q.All() {
		o.vel.Remove(r.Entity)
		o.vel.Add(r.Entity, Velocity{5, 6})
	}
}

// BenchmarkDeferredRemove measures queueing: a loop over n entities that
// removes a component of each (queued), the flush that applies the moves,
// and an AddMatching that gives the component back.
func BenchmarkDeferredRemove(b *testing.B) { benchDeferred(b, deferredRemove) }

//go:noinline
func deferredRemove(o *opsWorld, q *ecs.Query1[Velocity], _ ecs.Entity) {
	for r := range q.All() {
		o.vel.Remove(r.Entity)
	}
	o.vel.AddMatching(o.all, Velocity{5, 6})
}

// BenchmarkDeferredSetShared measures judging deferred changes of one
// entity that many loop iterations touch (a player, a score keeper): every
// iteration queues a Set of a component the shared entity lacks and makes
// a Set of one it has. The cost per iteration must not grow with n: each
// judgement looks at the shared entity's newest change of that type only.
func BenchmarkDeferredSetShared(b *testing.B) { benchDeferred(b, deferredSetShared) }

//go:noinline
func deferredSetShared(o *opsWorld, q *ecs.Query1[Velocity], player ecs.Entity) {
	for r := range q.All() {
		o.vel.Set(player, *r.A) // player lacks Velocity: a queued add, judged each time
		o.pos.Set(player, Position{r.A.X, 0})
	}
	o.vel.Remove(player)
}
