package ecs_test

import (
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Ten component types of two float64s, as in the public go-ecs-benchmarks'
// create10 and delete10.
type (
	c1  struct{ X, Y float64 }
	c2  struct{ X, Y float64 }
	c3  struct{ X, Y float64 }
	c4  struct{ X, Y float64 }
	c5  struct{ X, Y float64 }
	c6  struct{ X, Y float64 }
	c7  struct{ X, Y float64 }
	c8  struct{ X, Y float64 }
	c9  struct{ X, Y float64 }
	c10 struct{ X, Y float64 }
)

type map10 = ecs.Map10[c1, c2, c3, c4, c5, c6, c7, c8, c9, c10]

//go:noinline
func spawnTenEach(m *map10, es []ecs.Entity) {
	for i := range es {
		es[i] = m.Spawn(c1{}, c2{}, c3{}, c4{}, c5{}, c6{}, c7{}, c8{}, c9{}, c10{})
	}
}

// spawnTenValues is spawnTenEach with non-zero values, which every spawn
// must write.
//
//go:noinline
func spawnTenValues(m *map10, es []ecs.Entity) {
	for i := range es {
		f := float64(i)
		es[i] = m.Spawn(c1{f, 1}, c2{f, 2}, c3{f, 3}, c4{f, 4}, c5{f, 5}, c6{f, 6}, c7{f, 7}, c8{f, 8}, c9{f, 9}, c10{f, 10})
	}
}

// spawnTenZero spawns with SpawnFunc(nil): zero values, written only
// where a row is stale (the public go-ecs-benchmarks' create10 with Ark's
// NewEntityFn(nil)).
//
//go:noinline
func spawnTenZero(m *map10, es []ecs.Entity) {
	for i := range es {
		es[i] = m.SpawnFunc(nil)
	}
}

//go:noinline
func spawnTenBatch(m *map10, n int) {
	m.SpawnBatch(n, c1{}, c2{}, c3{}, c4{}, c5{}, c6{}, c7{}, c8{}, c9{}, c10{})
}

// spawnTenBatchFunc spawns a batch with SpawnBatchFunc and an init that
// keeps each entity (the public go-ecs-benchmarks' delete10 restore, with
// Ark's NewBatchFn).
//
//go:noinline
func spawnTenBatchFunc(m *map10, es []ecs.Entity) {
	es = es[:0]
	m.SpawnBatchFunc(cap(es), func(e ecs.Entity, _ *c1, _ *c2, _ *c3, _ *c4, _ *c5, _ *c6, _ *c7, _ *c8, _ *c9, _ *c10) {
		es = append(es, e)
	})
}

//go:noinline
func despawnTenEach(w *ecs.World, es []ecs.Entity) {
	for _, e := range es {
		w.Despawn(e)
	}
}

// BenchmarkSpawn10 spawns n entities with ten components each, one at a
// time and in one batch, into a world warmed by a first round (the public
// go-ecs-benchmarks' create10); BenchmarkDespawn10 despawns them one at a
// time (its delete10). Only the spawns, or the despawns, are timed.
func BenchmarkSpawn10(b *testing.B) {
	for _, n := range opSizes {
		b.Run("single/"+strconv.Itoa(n), func(b *testing.B) {
			w, m, all, es := tenWorld(n)
			for b.Loop() {
				spawnTenEach(m, es)
				b.StopTimer()
				w.DespawnMatching(all)
				b.StartTimer()
			}
			perEntity(b, n)
		})
		b.Run("func/"+strconv.Itoa(n), func(b *testing.B) {
			w, m, all, es := tenWorld(n)
			for b.Loop() {
				spawnTenZero(m, es)
				b.StopTimer()
				w.DespawnMatching(all)
				b.StartTimer()
			}
			perEntity(b, n)
		})
		b.Run("values/"+strconv.Itoa(n), func(b *testing.B) {
			w, m, all, es := tenWorld(n)
			for b.Loop() {
				spawnTenValues(m, es)
				b.StopTimer()
				w.DespawnMatching(all)
				b.StartTimer()
			}
			perEntity(b, n)
		})
		b.Run("batchfunc/"+strconv.Itoa(n), func(b *testing.B) {
			w, m, all, es := tenWorld(n)
			for b.Loop() {
				spawnTenBatchFunc(m, es)
				b.StopTimer()
				w.DespawnMatching(all)
				b.StartTimer()
			}
			perEntity(b, n)
		})
		b.Run("batch/"+strconv.Itoa(n), func(b *testing.B) {
			w, m, all, _ := tenWorld(n)
			for b.Loop() {
				spawnTenBatch(m, n)
				b.StopTimer()
				w.DespawnMatching(all)
				b.StartTimer()
			}
			perEntity(b, n)
		})
	}
}

func BenchmarkDespawn10(b *testing.B) {
	for _, n := range opSizes {
		b.Run("single/"+strconv.Itoa(n), func(b *testing.B) {
			w, m, _, es := tenWorld(n)
			for b.Loop() {
				b.StopTimer()
				spawnTenEach(m, es)
				b.StartTimer()
				despawnTenEach(w, es)
			}
			perEntity(b, n)
		})
	}
}

// tenWorld returns a world warmed by spawning and despawning n entities
// with the ten types, a handle for them, a query of them all and room for n
// handles.
func tenWorld(n int) (*ecs.World, *map10, *ecs.Query1[c10], []ecs.Entity) {
	w := ecs.NewWorld()
	m := ecs.NewMap10[c1, c2, c3, c4, c5, c6, c7, c8, c9, c10](w)
	all := ecs.NewQuery1[c10](w)
	spawnTenBatch(m, n)
	w.DespawnMatching(all)
	return w, m, all, make([]ecs.Entity, n)
}
