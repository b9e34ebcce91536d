package ecs_test

import (
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Position and Velocity are the components of the iteration benchmarks
// (as in the go-ecs-benchmarks project: struct{X, Y float64}).
type Position struct{ X, Y float64 }

// Velocity is added to Position once per pass.
type Velocity struct{ X, Y float64 }

var iterSizes = []int{1_000, 1_000_000}

// plainLoop is the floor: p += v over two plain slices.
//
//go:noinline
func plainLoop(ps []Position, vs []Velocity) {
	for i := range ps {
		ps[i].X += vs[i].X
		ps[i].Y += vs[i].Y
	}
}

//go:noinline
func chunkLoop(q *ecs.Query2[Position, Velocity]) {
	for c := range q.Chunks() {
		ps, vs := c.A, c.B[:len(c.A)]
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	}
}

//go:noinline
func rangeLoop(q *ecs.Query2[Position, Velocity]) {
	for r := range q.All() {
		r.A.X += r.B.X
		r.A.Y += r.B.Y
	}
}

//go:noinline
func cursorLoop(q *ecs.Query2[Position, Velocity]) {
	it := q.Iter()
	for it.Next() {
		p, v := it.Get()
		p.X += v.X
		p.Y += v.Y
	}
}

// plainSlices returns the floor's slices holding the same values as the
// world of newPosVelWorld. Both must be written: a slice that is only ever
// read maps every page to the kernel's shared zero page, which stays in
// cache, and the floor would stream half the memory the world does
// (measured: 1.0 against 1.3 ns per entity at 1M).
func plainSlices(n int) ([]Position, []Velocity) {
	ps, vs := make([]Position, n), make([]Velocity, n)
	for i := range n {
		ps[i], vs[i] = Position{1, 2}, Velocity{3, 4}
	}
	return ps, vs
}

func newPosVelWorld(n int) (*ecs.World, *ecs.Query2[Position, Velocity]) {
	w := ecs.NewWorld()
	ecs.NewMap2[Position, Velocity](w).SpawnBatch(n, Position{1, 2}, Velocity{3, 4})
	return w, ecs.NewQuery2[Position, Velocity](w)
}

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

func BenchmarkQuery2(b *testing.B) {
	for _, n := range iterSizes {
		name := strconv.Itoa(n)
		b.Run("plain/"+name, func(b *testing.B) {
			ps, vs := plainSlices(n)
			for b.Loop() {
				plainLoop(ps, vs)
			}
			perEntity(b, n)
		})
		b.Run("chunks/"+name, func(b *testing.B) {
			_, q := newPosVelWorld(n)
			for b.Loop() {
				chunkLoop(q)
			}
			perEntity(b, n)
		})
		b.Run("range/"+name, func(b *testing.B) {
			_, q := newPosVelWorld(n)
			for b.Loop() {
				rangeLoop(q)
			}
			perEntity(b, n)
		})
		b.Run("cursor/"+name, func(b *testing.B) {
			_, q := newPosVelWorld(n)
			for b.Loop() {
				cursorLoop(q)
			}
			perEntity(b, n)
		})
	}
}
