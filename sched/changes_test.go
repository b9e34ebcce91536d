package sched_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type Heat struct{ T int }
type Fuel struct{ N int }

// changeTick is what the watching systems of changeRun saw in one tick.
type changeTick struct {
	hotA, hotB, fresh []int // entity indices, sorted
	sum               uint64
}

// changeRun runs a scheduler program whose systems react to changes of a
// tracked type for ticks ticks on the given number of workers: "burn"
// sets the Heat of a tenth of the entities, "ignite" spawns one every
// third tick, and three watchers (one splitting its pass with ForEach)
// record what their Changed and Added queries visit.
func changeRun(workers, ticks int) []changeTick {
	w := ecs.NewWorld()
	ecs.Register[Heat](w, ecs.TrackChanges())
	heat := ecs.NewMap[Heat](w)
	pair := ecs.NewMap2[Heat, Fuel](w)
	for i := range 200 {
		pair.Spawn(Heat{i}, Fuel{i%7 + 1})
	}
	burners := ecs.NewQuery2[Heat, Fuel](w)
	hotA := ecs.NewQuery1[Heat](w, ecs.Changed[Heat]())
	hotB := ecs.NewQuery1[Heat](w, ecs.Changed[Heat]())
	fresh := ecs.NewQuery1[Heat](w, ecs.Added[Heat]())
	s := sched.New(w, sched.Workers(workers), sched.Debug())
	defer s.Close()
	tick := 0
	var cur changeTick
	s.AddFunc("burn", func(ctx *sched.Context) {
		for r := range burners.All() {
			if int(r.Entity.Index())%10 == tick%10 {
				heat.Set(r.Entity, Heat{r.A.T + r.B.N})
			}
		}
	}, sched.Writes[Heat](), sched.Reads[Fuel]())
	s.AddFunc("ignite", func(ctx *sched.Context) {
		if tick%3 == 0 {
			c := ctx.Commands()
			heat.SetCmd(c, c.Spawn(), Heat{1000 + tick})
		}
	}, sched.Spawns(), sched.Adds[Heat]())
	passAll := func(q *ecs.Query1[Heat]) []int {
		var seen []int
		for r := range q.All() {
			seen = append(seen, int(r.Entity.Index()))
		}
		slices.Sort(seen)
		return seen
	}
	s.AddFunc("hotA", func(ctx *sched.Context) { cur.hotA = passAll(hotA) }, sched.Reads[Heat]())
	s.AddFunc("hotB", func(ctx *sched.Context) {
		cur.hotB = slices.Sorted(slices.Values(passChunks(ctx, hotB, 4)))
	}, sched.Reads[Heat]())
	s.AddFunc("fresh", func(ctx *sched.Context) { cur.fresh = passAll(fresh) }, sched.Reads[Heat]())
	var out []changeTick
	for tick = range ticks {
		cur = changeTick{}
		s.Run()
		cur.sum = w.Checksum()
		out = append(out, cur)
	}
	return out
}

// TestChangedAcrossWorkers: under the scheduler each system's Changed and
// Added queries see every change once, the same ones with 1, 2, 4 and 8
// workers.
func TestChangedAcrossWorkers(t *testing.T) {
	const ticks = 12
	want := changeRun(1, ticks)
	for i, c := range want {
		if !slices.Equal(c.hotA, c.hotB) {
			t.Fatalf("tick %d: two watchers of Changed saw %v and %v", i, c.hotA, c.hotB)
		}
		changed, added := 20, 0 // a tenth burned
		if i == 0 {
			changed, added = 200, 200 // the first pass sees every value
		}
		if i%3 == 0 {
			changed, added = changed+1, added+1 // ignited
		}
		if len(c.hotA) != changed || len(c.fresh) != added {
			t.Fatalf("tick %d: Changed saw %d entities, Added %d; want %d and %d", i, len(c.hotA), len(c.fresh), changed, added)
		}
	}
	for _, workers := range []int{2, 4, 8} {
		got := changeRun(workers, ticks)
		for i := range want {
			if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
				t.Fatalf("%d workers, tick %d: %v, with 1 worker %v", workers, i, got[i], want[i])
			}
		}
	}
}

// passChunks makes one change-filtered pass of q as rows-row chunks spread
// over the workers with ForEach, and returns the indices of the entities it
// visited, in chunk order.
func passChunks[T any](ctx *sched.Context, q *ecs.Query1[T], rows int) []int {
	chunks := q.AppendChunks(nil, rows)
	parts := make([][]int, len(chunks))
	idx := make([]int, len(chunks))
	for i := range idx {
		idx[i] = i
	}
	sched.ForEach(ctx, idx, func(i int) {
		for _, e := range chunks[i].Entities {
			parts[i] = append(parts[i], int(e.Index()))
		}
	})
	return slices.Concat(parts...)
}
