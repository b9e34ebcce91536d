package sched_test

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// forEachRows is how many rows one ForEach item covers in BenchmarkForEach,
// as in the particle scenario.
const forEachRows = 4096

//go:noinline
func fall(v []SA) {
	for i := range v {
		v[i].V -= 0.01
	}
}

// BenchmarkForEach times one system that streams over n entities' one
// float32 component in items of 4096 rows, the cheapest data-parallel work
// there is: it measures how fast ForEach hands items to the workers.
// "floor" is a plain slice on one goroutine; "split" the best two cores
// can do: the slice's halves on two goroutines, the second polling an
// atomic counter for its half, as a hand-written parallel loop would.
func BenchmarkForEach(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run("n="+strconv.Itoa(n)+"/floor", func(b *testing.B) {
			v := make([]SA, n)
			for b.Loop() {
				fall(v)
			}
		})
		b.Run("n="+strconv.Itoa(n)+"/split", func(b *testing.B) {
			v := make([]SA, n)
			var posted, done atomic.Int64
			var stop atomic.Bool
			go func() { // a second goroutine that polls for its half
				for seen := int64(0); !stop.Load(); {
					if e := posted.Load(); e != seen {
						seen = e
						fall(v[n/2:])
						done.Store(e)
					}
				}
			}()
			defer stop.Store(true)
			for e := int64(1); b.Loop(); e++ {
				posted.Store(e)
				fall(v[:n/2])
				for done.Load() != e {
				}
			}
		})
		for _, workers := range workerCounts() {
			b.Run("n="+strconv.Itoa(n)+"/"+workersName(workers), func(b *testing.B) {
				w := ecs.NewWorld()
				m := ecs.NewMap[SA](w)
				for range n {
					m.Spawn(SA{1})
				}
				q := ecs.NewQuery1[SA](w)
				var chunks []ecs.Chunk1[SA]
				s := sched.New(w, sched.Workers(workers))
				defer s.Close()
				s.AddFunc("fall", func(ctx *sched.Context) {
					chunks = q.AppendChunks(chunks[:0], forEachRows)
					sched.ForEach(ctx, chunks, func(c ecs.Chunk1[SA]) { fall(c.A) })
				}, sched.Writes[SA]())
				for b.Loop() {
					s.Run()
				}
			})
		}
	}
}
