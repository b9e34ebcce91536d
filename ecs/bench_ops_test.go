package ecs_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

var opSizes = []int{1_000, 100_000}

// opsWorld holds the handles the structural benchmarks use.
type opsWorld struct {
	w   *ecs.World
	pv  *ecs.Map2[Position, Velocity]
	vel *ecs.Map[Velocity]
	pos *ecs.Map[Position]
	all *ecs.Query1[Position]
	es  []ecs.Entity
}

func newOpsWorld() *opsWorld {
	w := ecs.NewWorld()
	return &opsWorld{w: w, pv: ecs.NewMap2[Position, Velocity](w), vel: ecs.NewMap[Velocity](w),
		pos: ecs.NewMap[Position](w), all: ecs.NewQuery1[Position](w)}
}

//go:noinline
func spawnEach(o *opsWorld, n int) {
	for i := range n {
		o.es[i] = o.pv.Spawn(Position{1, 2}, Velocity{3, 4})
	}
}

//go:noinline
func spawnBatch(o *opsWorld, n int) {
	o.pv.SpawnBatch(n, Position{1, 2}, Velocity{3, 4})
}

//go:noinline
func addRemoveEach(o *opsWorld) {
	for _, e := range o.es {
		o.vel.Add(e, Velocity{1, 1})
	}
	for _, e := range o.es {
		o.vel.Remove(e)
	}
}

//go:noinline
func addRemoveBatch(o *opsWorld) {
	o.vel.AddMatching(o.all, Velocity{1, 1})
	o.vel.RemoveMatching(o.all)
}

//go:noinline
func despawnEach(o *opsWorld) {
	for _, e := range o.es {
		o.w.Despawn(e)
	}
}

//go:noinline
func despawnBatch(o *opsWorld) { o.w.DespawnMatching(o.all) }

// benchSpawn measures spawn into a world that was warmed with n entities
// and cleared (go-ecs-benchmarks' create2), timing only the spawns.
func benchSpawn(b *testing.B, n int, kernel func(*opsWorld, int)) {
	o := newOpsWorld()
	o.es = make([]ecs.Entity, n)
	kernel(o, n)
	o.w.DespawnMatching(o.all)
	for b.Loop() {
		kernel(o, n)
		b.StopTimer()
		o.w.DespawnMatching(o.all)
		b.StartTimer()
	}
	perEntity(b, n)
}

// benchDespawn measures despawning n entities with Position and Velocity,
// timing only the despawns.
func benchDespawn(b *testing.B, n int, kernel func(*opsWorld)) {
	o := newOpsWorld()
	o.es = make([]ecs.Entity, n)
	spawnEach(o, n)
	o.w.DespawnMatching(o.all)
	for b.Loop() {
		b.StopTimer()
		spawnEach(o, n)
		b.StartTimer()
		kernel(o)
	}
	perEntity(b, n)
}

// benchAddRemove measures adding Velocity to n entities with Position and
// removing it again: one add+remove pair per entity.
func benchAddRemove(b *testing.B, n int, kernel func(*opsWorld)) {
	o := newOpsWorld()
	for range n {
		e := o.w.Spawn()
		o.pos.Add(e, Position{})
		o.es = append(o.es, e)
	}
	kernel(o) // warm-up round: tables and edges exist
	for b.Loop() {
		kernel(o)
	}
	perEntity(b, n)
}

func BenchmarkSpawn2(b *testing.B) {
	for _, n := range opSizes {
		b.Run("single/"+strconv.Itoa(n), func(b *testing.B) { benchSpawn(b, n, spawnEach) })
		b.Run("batch/"+strconv.Itoa(n), func(b *testing.B) { benchSpawn(b, n, spawnBatch) })
	}
}

func BenchmarkAddRemove(b *testing.B) {
	for _, n := range opSizes {
		b.Run("single/"+strconv.Itoa(n), func(b *testing.B) { benchAddRemove(b, n, addRemoveEach) })
		b.Run("batch/"+strconv.Itoa(n), func(b *testing.B) { benchAddRemove(b, n, addRemoveBatch) })
	}
}

func BenchmarkDespawn2(b *testing.B) {
	for _, n := range opSizes {
		b.Run("single/"+strconv.Itoa(n), func(b *testing.B) { benchDespawn(b, n, despawnEach) })
		b.Run("batch/"+strconv.Itoa(n), func(b *testing.B) { benchDespawn(b, n, despawnBatch) })
	}
}

//go:noinline
func getSum(pos *ecs.Map[Position], es []ecs.Entity) float64 {
	s := 0.0
	for _, e := range es {
		s += pos.Get(e).X
	}
	return s
}

func BenchmarkGet(b *testing.B) {
	o := newOpsWorld()
	o.es = make([]ecs.Entity, 1000)
	spawnEach(o, 1000)
	for b.Loop() {
		getSum(o.pos, o.es)
	}
	perEntity(b, 1000)
}

// BenchmarkGetRandom is the public go-ecs-benchmarks' random_access: Map.Get
// of every entity of a world of n, in a shuffled order, so that at a
// million entities each Get misses the caches twice (the entity's record,
// then its value).
func BenchmarkGetRandom(b *testing.B) {
	for _, n := range []int{64, 1 << 10, 1 << 20} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			o := newOpsWorld()
			o.es = make([]ecs.Entity, n)
			for i := range o.es {
				o.es[i] = o.pos.Spawn(Position{float64(i), 1})
			}
			r := rand.New(rand.NewPCG(1, 2))
			r.Shuffle(n, func(i, j int) { o.es[i], o.es[j] = o.es[j], o.es[i] })
			for b.Loop() {
				getSum(o.pos, o.es)
			}
			perEntity(b, n)
		})
	}
}

//go:noinline
func spawnTinyWorld() *ecs.World {
	w := ecs.NewWorld()
	m := ecs.NewMap2[Position, Velocity](w)
	for range 4 {
		m.Spawn(Position{1, 2}, Velocity{3, 4})
	}
	return w
}

// BenchmarkTinyWorld makes a world and spawns 4 entities into it: the
// fixed cost of a world, which the public go-ecs-benchmarks' create2_alloc
// pays once per run at N = 1 to 64.
func BenchmarkTinyWorld(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		spawnTinyWorld()
	}
}
