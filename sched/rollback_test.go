package sched_test

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Types of the rollback program: a tracked table type, a tracked sparse
// type, and what the watching systems write from what they saw.
type (
	Ember     struct{ T int }
	Spark     struct{ N int }
	Glow      struct{ Seen, Sum int }
	TickCount struct{ N int } // a resource: the program's tick, rewound with the world
)

// rollbackProgram is a scheduler program whose systems react to changes:
// "count" moves the tick on, "stoke" sets the Ember of a tenth of the
// entities, "flare" spawns, removes and adds Spark through its buffer, and
// three watchers record what their Changed and Added queries visit (one
// splits its pass with ForEach) and write Glow from it.
type rollbackProgram struct {
	w *ecs.World
	s *sched.Scheduler
	// What each watcher saw this tick: one variable per system, since
	// they run in parallel.
	hot, lit, flickers []int
}

func newRollbackProgram(workers int) *rollbackProgram {
	w := ecs.NewWorld()
	ecs.Register[Ember](w, ecs.TrackChanges())
	ecs.Register[Spark](w, ecs.TrackChanges(), ecs.Sparse())
	p := &rollbackProgram{w: w, s: sched.New(w, sched.Workers(workers))}
	ember, spark := ecs.NewMap[Ember](w), ecs.NewMap[Spark](w)
	pair := ecs.NewMap2[Ember, Glow](w)
	for i := range 120 {
		e := pair.Spawn(Ember{i}, Glow{})
		if i%4 == 0 {
			spark.Add(e, Spark{i})
		}
	}
	count := ecs.NewResource[TickCount](w)
	count.Set(&TickCount{})
	embers := ecs.NewQuery1[Ember](w)
	hot := ecs.NewQuery2[Ember, Glow](w, ecs.Changed[Ember]())
	lit := ecs.NewQuery1[Spark](w, ecs.Added[Spark]())
	flickers := ecs.NewQuery1[Spark](w, ecs.Changed[Spark]())
	s := p.s
	s.AddFunc("count", func(*sched.Context) { count.Get().N++ }, sched.WritesResource[TickCount]())
	s.AddFunc("stoke", func(*sched.Context) {
		n := count.Get().N
		for r := range embers.All() {
			if int(r.Entity.Index())%10 == n%10 {
				ember.Set(r.Entity, Ember{r.A.T + n})
			}
		}
	}, sched.ReadsResource[TickCount](), sched.Writes[Ember]())
	s.AddFunc("flare", func(ctx *sched.Context) {
		n := count.Get().N
		c := ctx.Commands()
		for r := range embers.All() {
			switch i := int(r.Entity.Index()); {
			case i%7 == n%7 && spark.Has(r.Entity):
				spark.RemoveCmd(c, r.Entity)
			case i%5 == n%5:
				spark.SetCmd(c, r.Entity, Spark{n}) // an add or a change
			}
		}
		if n%3 == 0 {
			pair.SpawnCmd(c, Ember{1000 + n}, Glow{})
		}
	}, sched.ReadsResource[TickCount](), sched.Reads[Ember](), sched.Reads[Spark](), sched.Writes[Spark](),
		sched.Spawns(), sched.Adds[Ember](), sched.Adds[Glow](), sched.Adds[Spark](), sched.Removes[Spark]())
	s.AddFunc("hot", func(*sched.Context) {
		var seen []int
		for r := range hot.All() {
			seen = append(seen, int(r.Entity.Index()))
			r.B.Seen++
			r.B.Sum += r.A.T
		}
		p.hot = seen
	}, sched.Reads[Ember](), sched.Writes[Glow]())
	s.AddFunc("lit", func(*sched.Context) {
		var seen []int
		for r := range lit.All() {
			seen = append(seen, int(r.Entity.Index()))
		}
		p.lit = seen
	}, sched.Reads[Spark]())
	s.AddFunc("flickers", func(ctx *sched.Context) {
		p.flickers = passChunks(ctx, flickers, 8)
	}, sched.Reads[Spark]())
	return p
}

// tick runs one tick and returns what the watchers saw.
func (p *rollbackProgram) tick() string {
	p.hot, p.lit, p.flickers = nil, nil, nil
	p.s.Run()
	return fmt.Sprintf("hot %v\nlit %v\nflickers %v\n", p.hot, p.lit, p.flickers)
}

// TestRollbackReplaysSystems: a scheduler program rolled back k ticks with
// an ecs.SnapshotRing and run again gives, tick by tick, the same checksum,
// and its Changed and Added systems see the same entities in the same
// order, as the straight run, on 1 and 2 workers: a system's last pass
// lives in its query, in the world, and a rollback rewinds it.
func TestRollbackReplaysSystems(t *testing.T) {
	const ticks = 40
	for _, workers := range []int{1, 2} {
		straight := newRollbackProgram(workers)
		logs, sums := make([]string, ticks+1), make([]uint64, ticks+1)
		for tick := 1; tick <= ticks; tick++ {
			logs[tick] = straight.tick()
			sums[tick] = straight.w.Checksum()
		}
		straight.s.Close()
		p := newRollbackProgram(workers)
		ring := ecs.NewSnapshotRing(6)
		ring.Save(p.w, 0)
		for tick := uint64(1); tick <= ticks; tick++ {
			if got := p.tick(); got != logs[tick] {
				t.Fatalf("%d workers, tick %d: saw\n%s\nthe straight run\n%s", workers, tick, got, logs[tick])
			}
			ring.Save(p.w, tick)
			k := 1 + tick%5
			if tick < k {
				continue
			}
			if err := ring.Rollback(p.w, tick-k); err != nil {
				t.Fatal(err)
			}
			for again := tick - k + 1; again <= tick; again++ {
				if got := p.tick(); got != logs[again] {
					t.Fatalf("%d workers, tick %d again after a rollback from %d: saw\n%s\nthe first time\n%s", workers, again, tick, got, logs[again])
				}
				if got := p.w.Checksum(); got != sums[again] {
					t.Fatalf("%d workers, tick %d again after a rollback from %d: checksum %x, the first time %x", workers, again, tick, got, sums[again])
				}
				ring.Save(p.w, again)
			}
		}
		p.s.Close()
	}
}
