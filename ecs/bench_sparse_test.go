package ecs_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Rare is the component of the heap-size comparison: 16 bytes, like Position.
type Rare struct{ A, B float64 }

//go:noinline
func addRemoveBurning(m *ecs.Map[Burning], es []ecs.Entity) {
	for _, e := range es {
		m.Add(e, Burning{1})
	}
	for _, e := range es {
		m.Remove(e)
	}
}

// BenchmarkAddRemoveSparse compares one add+remove pair per entity of a
// sparse component with the same for a table component (BenchmarkAddRemove
// single is the table figure; both are here to share a run), and with the
// floor of a bare paged sparse set (floorSparseSet).
func BenchmarkAddRemoveSparse(b *testing.B) {
	const n = 1000
	b.Run("floor", func(b *testing.B) {
		s, es := newFloorSparseSet(n)
		for b.Loop() {
			addRemoveFloor(s, es)
		}
		perEntity(b, n)
	})
	for _, storage := range []string{"table", "sparse"} {
		b.Run(storage, func(b *testing.B) {
			w := ecs.NewWorld()
			if storage == "sparse" {
				ecs.Register[Burning](w, ecs.Sparse())
			}
			pos, burn := ecs.NewMap[Position](w), ecs.NewMap[Burning](w)
			es := make([]ecs.Entity, n)
			for i := range es {
				es[i] = w.Spawn()
				pos.Add(es[i], Position{})
			}
			addRemoveBurning(burn, es)
			for b.Loop() {
				addRemoveBurning(burn, es)
			}
			perEntity(b, n)
		})
	}
}

//go:noinline
func sumHeat(q *ecs.Query2[Position, Burning]) float64 {
	s := 0.0
	for r := range q.All() {
		s += r.A.X * r.B.Heat
	}
	return s
}

// BenchmarkQueryTableSparse iterates Position (table) with Burning (sparse)
// when 1%, 50% or 100% of 100,000 Position entities burn, reporting ns per
// visited entity.
func BenchmarkQueryTableSparse(b *testing.B) {
	const n = 100_000
	for _, pct := range []int{1, 50, 100} {
		b.Run(strconv.Itoa(pct)+"pct", func(b *testing.B) {
			w, burn := sparseWorld()
			pos := ecs.NewMap[Position](w)
			for i := range n {
				e := w.Spawn()
				pos.Add(e, Position{1, 0})
				if i%100 < pct {
					burn.Add(e, Burning{1})
				}
			}
			q := ecs.NewQuery2[Position, Burning](w)
			visited := q.Count()
			for b.Loop() {
				sumHeat(q)
			}
			perEntity(b, visited)
		})
	}
}

// heapAfterGC returns the live heap in bytes after two forced collections.
func heapAfterGC() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkHeapRareComponent reports the heap bytes that giving a 16-byte
// component to 1% of 1,000,000 Position entities costs, in table and in
// sparse storage (metric "heap-bytes"; the time is that of the adds).
func BenchmarkHeapRareComponent(b *testing.B) {
	const n = 1_000_000
	for _, storage := range []string{"table", "sparse"} {
		b.Run(storage, func(b *testing.B) {
			var bytes uint64
			for b.Loop() {
				b.StopTimer()
				w := ecs.NewWorld()
				if storage == "sparse" {
					ecs.Register[Rare](w, ecs.Sparse())
				}
				ecs.NewMap[Position](w).SpawnBatch(n, Position{})
				rare := ecs.NewMap[Rare](w)
				es := make([]ecs.Entity, 0, n/100)
				for r := range ecs.NewQuery1[Position](w).All() {
					if r.Entity.Index()%100 == 0 {
						es = append(es, r.Entity)
					}
				}
				before := heapAfterGC()
				b.StartTimer()
				for _, e := range es {
					rare.Add(e, Rare{1, 2})
				}
				b.StopTimer()
				bytes = heapAfterGC() - before
				runtime.KeepAlive(w)
				b.StartTimer()
			}
			b.ReportMetric(float64(bytes), "heap-bytes")
		})
	}
}
