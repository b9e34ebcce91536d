package sched_test

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

type Age struct{ Ticks int }
type Peak struct{ X float64 }

// mix is a deterministic pseudo-random number from a tick and an entity
// index (SplitMix64's finaliser), so decisions do not depend on which
// worker runs first.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// determinismRun runs a scenario with spawns, despawns, data-parallel
// movement, outputs with three merge functions and deferred changes for
// ticks ticks on the given number of workers, and returns a hash of the
// final world (every entity, every component) with some counts that show
// the scenario did what it claims.
func determinismRun(t *testing.T, workers, ticks int, opts ...sched.SchedulerOption) (hash uint64, spawned, despawned, dropped int) {
	w := ecs.NewWorld()
	s := sched.New(w, append([]sched.SchedulerOption{sched.Workers(workers)}, opts...)...)
	defer s.Close()
	pvh := ecs.NewMap4[Pos, Vel, Health, Age](w)
	for i := range 2000 {
		r := mix(0, uint64(i))
		pvh.Spawn(Pos{float64(r % 100), float64(r >> 8 % 100)}, Vel{float64(r>>16%7) - 3, float64(r>>24%7) - 3}, Health{20}, Age{})
	}
	pos, health := ecs.NewMap[Pos](w), ecs.NewMap[Health](w)
	moving := ecs.NewQuery2[Pos, Vel](w)
	living := ecs.NewQuery2[Pos, Health](w)
	aging := ecs.NewQuery1[Age](w)
	var chunks []ecs.Chunk2[Pos, Vel]
	var ageChunks []ecs.Chunk1[Age]
	damage := sched.NewOutput(s, func(cur, next Health) Health { return Health{cur.HP + next.HP} })
	peak := sched.NewOutput(s, func(cur, next Peak) Peak { return Peak{max(cur.X, next.X)} })
	tag := sched.NewOutput[Score](s, nil)
	var remembered []ecs.Entity // entities seen earlier, some dead by now
	tick := 0

	must := s.AddFunc
	must("move", func(ctx *sched.Context) {
		chunks = moving.AppendChunks(chunks[:0], 256)
		sched.ForEach(ctx, chunks, func(c ecs.Chunk2[Pos, Vel]) {
			for i := range c.A {
				c.A[i].X += float64(c.B[i].X * 0.1)
				c.A[i].Y += float64(c.B[i].Y * 0.1)
			}
		})
	}, sched.Reads[Vel](), sched.Writes[Pos]())
	must("age", func(ctx *sched.Context) {
		ageChunks = aging.AppendChunks(ageChunks[:0], 300)
		sched.ForEach(ctx, ageChunks, func(c ecs.Chunk1[Age]) {
			for i := range c.A {
				c.A[i].Ticks++
			}
		})
	}, sched.Writes[Age]())
	must("bounce", func(ctx *sched.Context) {
		for r := range moving.All() {
			if r.A.X < 0 || r.A.X > 100 {
				r.B.X = -r.B.X
			}
			if r.A.Y < 0 || r.A.Y > 100 {
				r.B.Y = -r.B.Y
			}
		}
	}, sched.Reads[Pos](), sched.Writes[Vel]())
	must("hurt", func(ctx *sched.Context) {
		for r := range living.All() {
			if mix(uint64(tick), uint64(r.Entity.Index()))%4 == 0 {
				damage.Emit(ctx, r.Entity, Health{-3})
			}
			peak.Emit(ctx, r.Entity, Peak{r.A.X})
			if r.Entity.Index()%2 == 0 {
				tag.Emit(ctx, r.Entity, Score{-tick}) // heal's tag, later in the order of record, wins
			}
		}
		for _, e := range remembered {
			damage.Emit(ctx, e, Health{-1}) // dropped if e died meanwhile
		}
	}, sched.Reads[Pos](), sched.Emits[Health](), sched.Emits[Peak](), sched.Emits[Score]())
	must("heal", func(ctx *sched.Context) {
		for r := range living.All() {
			if r.Entity.Index()%3 == uint32(tick%3) {
				damage.Emit(ctx, r.Entity, Health{2})
				tag.Emit(ctx, r.Entity, Score{tick})
			}
		}
	}, sched.Reads[Pos](), sched.Emits[Health](), sched.Emits[Score]())
	must("reaper", func(ctx *sched.Context) {
		c := ctx.Commands()
		for r := range living.All() {
			if r.B.HP <= 0 {
				c.Despawn(r.Entity)
				despawned++
			}
		}
	}, sched.Structural(), sched.Reads[Health]())
	must("spawner", func(ctx *sched.Context) {
		c := ctx.Commands()
		n := int(mix(uint64(tick), 1) % 8)
		for i := range n {
			r := mix(uint64(tick), uint64(100+i))
			e := c.Spawn()
			pos.SetCmd(c, e, Pos{float64(r % 100), float64(r >> 8 % 100)})
			ecs.NewMap[Vel](w) // a handle made in a system must panic: see below
			health.SetCmd(c, e, Health{10})
		}
		spawned += n
	}, sched.Structural(), sched.Writes[Pos](), sched.Writes[Health]())
	must("remember", func(ctx *sched.Context) {
		if tick%50 == 0 {
			remembered = remembered[:0]
			for r := range living.All() {
				if r.Entity.Index()%97 == 0 {
					remembered = append(remembered, r.Entity)
				}
			}
		}
		tick++
	}, sched.Reads[Pos](), sched.Reads[Health](), sched.After("spawner"))

	// The spawner above makes a handle inside a system, which a parallel
	// section refuses: check that, then replace it with a correct one.
	testhelp.MustPanic(t, s.Run, `system "spawner"`, "NewMap", "parallel section")
	if err := s.Enable("spawner", false); err != nil {
		t.Fatal(err)
	}
	vel := ecs.NewMap[Vel](w)
	must("spawner2", func(ctx *sched.Context) {
		c := ctx.Commands()
		n := int(mix(uint64(tick), 1) % 8)
		for i := range n {
			r := mix(uint64(tick), uint64(100+i))
			e := c.Spawn()
			pos.SetCmd(c, e, Pos{float64(r % 100), float64(r >> 8 % 100)})
			vel.SetCmd(c, e, Vel{float64(r>>16%7) - 3, 1})
			health.SetCmd(c, e, Health{10})
		}
		spawned += n
	}, sched.Structural(), sched.Writes[Pos](), sched.Writes[Vel](), sched.Writes[Health]())
	spawned, despawned, tick = 0, 0, 0

	for range ticks {
		s.Run()
	}

	h := fnv.New64a()
	var buf [8]byte
	put := func(x uint64) {
		for i := range buf {
			buf[i] = byte(x >> (8 * i))
		}
		h.Write(buf[:])
	}
	all := ecs.NewQuery6[Pos, Vel, Health, Age, Peak, Score](w,
		ecs.Optional(ecs.C[Vel](), ecs.C[Health](), ecs.C[Age](), ecs.C[Peak](), ecs.C[Score]()))
	n := 0
	for r := range all.All() {
		n++
		put(uint64(r.Entity.Index())<<32 | uint64(r.Entity.Generation()))
		put(math.Float64bits(r.A.X))
		put(math.Float64bits(r.A.Y))
		if r.B != nil {
			put(math.Float64bits(r.B.X) ^ math.Float64bits(r.B.Y)<<1)
		}
		if r.C != nil {
			put(uint64(r.C.HP))
		}
		if r.D != nil {
			put(uint64(r.D.Ticks))
		}
		if r.E != nil {
			put(math.Float64bits(r.E.X))
		}
		if r.F != nil {
			put(uint64(r.F.N))
		}
	}
	if n != w.Len() {
		t.Fatalf("hashed %d entities of %d", n, w.Len())
	}
	put(uint64(damage.Dropped()))
	return h.Sum64(), spawned, despawned, damage.Dropped()
}

// TestDeterministicAcrossWorkers: the same scenario gives a bit-identical
// world with 1, 2, 4 and 8 workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	ticks := 1000
	if testing.Short() {
		ticks = 150
	}
	want, spawned, despawned, dropped := determinismRun(t, 1, ticks)
	if spawned == 0 || despawned == 0 || dropped == 0 {
		t.Fatalf("the scenario is too quiet: %d spawned, %d despawned, %d outputs dropped", spawned, despawned, dropped)
	}
	t.Logf("%d ticks: %d spawned, %d despawned, %d outputs to dead entities dropped, hash %016x",
		ticks, spawned, despawned, dropped, want)
	for _, workers := range []int{2, 4, 8} {
		if got, _, _, _ := determinismRun(t, workers, ticks); got != want {
			t.Errorf("%d workers: hash %016x, one worker %016x", workers, got, want)
		}
	}
}
