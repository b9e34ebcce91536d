package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// The types of the tracked snapshot benchmarks: a tracked table type, an
// untracked one beside it and a tracked sparse type on a tenth of the
// entities.
type (
	trackPos  struct{ X, Y float64 }
	trackVel  struct{ X, Y float64 }
	trackMark struct{ N int32 }
)

// trackedSnapWorld returns a world of n entities with a tracked trackPos and
// an untracked trackVel in one table, a tracked sparse trackMark on every
// tenth, and two change-filtered queries that have run once.
func trackedSnapWorld(n int) *ecs.World {
	w := ecs.NewWorld()
	ecs.Register[trackPos](w, ecs.TrackChanges())
	ecs.Register[trackMark](w, ecs.TrackChanges(), ecs.Sparse())
	m := ecs.NewMap2[trackPos, trackVel](w)
	marks := ecs.NewMap[trackMark](w)
	for i := range n {
		e := m.Spawn(trackPos{X: float64(i)}, trackVel{Y: 1})
		if i%10 == 0 {
			marks.Add(e, trackMark{N: int32(i)})
		}
	}
	for range ecs.NewQuery1[trackPos](w, ecs.Changed[trackPos]()).All() {
	}
	for range ecs.NewQuery1[trackMark](w, ecs.Added[trackMark]()).All() {
	}
	return w
}

// BenchmarkSnapshotTracked times World.Snapshot and World.Restore, warm, of
// a world of 100,000 entities whose types track changes (see
// trackedSnapWorld): the cost of the change ticks a snapshot carries, next
// to BenchmarkSnapshot's untracked particle world.
func BenchmarkSnapshotTracked(b *testing.B) {
	const n = 100_000
	for _, c := range []struct {
		name string
		op   func(*ecs.World, *ecs.Snapshot)
	}{{"name=snapshot", snapshotOf}, {"name=restore", restoreOf}} {
		b.Run(c.name, func(b *testing.B) {
			w := trackedSnapWorld(n)
			var s ecs.Snapshot
			w.Snapshot(&s)
			b.ReportAllocs()
			for b.Loop() {
				c.op(w, &s)
			}
			perEntity(b, n)
		})
	}
}

// BenchmarkRollback times one step of a rollback loop on a warm
// SnapshotRing: a Rollback to the newest tick but one, then the Save of
// the tick after it, on the untracked particle world and on the tracked
// world of BenchmarkSnapshotTracked, both of 100,000 entities.
func BenchmarkRollback(b *testing.B) {
	const n = 100_000
	run := func(b *testing.B, w *ecs.World) {
		r := ecs.NewSnapshotRing(4)
		for tick := uint64(1); tick <= 4; tick++ {
			r.Save(w, tick)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := r.Rollback(w, 3); err != nil {
				b.Fatal(err)
			}
			r.Save(w, 4)
		}
		perEntity(b, n)
	}
	b.Run("name=particle", func(b *testing.B) {
		w, done := particleWorld(b, n)
		defer done()
		run(b, w)
	})
	b.Run("name=tracked", func(b *testing.B) { run(b, trackedSnapWorld(n)) })
}
