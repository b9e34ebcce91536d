package sched_test

import (
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// The scheduling workloads of the public rust-ecs-bench-suite
// (the rust-ecs-bench-suite's "schedule" and "heavy_compute" workloads, github.com/rust-gamedev/ecs_bench_suite), each with one worker and with the default
// GOMAXPROCS workers, in the same run.

type (
	SA struct{ V float32 }
	SB struct{ V float32 }
	SC struct{ V float32 }
	SD struct{ V float32 }
	SE struct{ V float32 }
)

func workerCounts() []int { return []int{1, 0} } // 0: GOMAXPROCS

func workersName(n int) string {
	if n == 0 {
		return "workers=max"
	}
	return "workers=" + strconv.Itoa(n)
}

//go:noinline
func swapAB(q *ecs.Query2[SA, SB]) {
	for c := range q.Chunks() {
		for i := range c.A {
			c.A[i].V, c.B[i].V = c.B[i].V, c.A[i].V
		}
	}
}

//go:noinline
func swapCD(q *ecs.Query2[SC, SD]) {
	for c := range q.Chunks() {
		for i := range c.A {
			c.A[i].V, c.B[i].V = c.B[i].V, c.A[i].V
		}
	}
}

//go:noinline
func swapCE(q *ecs.Query2[SC, SE]) {
	for c := range q.Chunks() {
		for i := range c.A {
			c.A[i].V, c.B[i].V = c.B[i].V, c.A[i].V
		}
	}
}

// BenchmarkSchedule: 10,000 entities each of (A,B), (A,B,C), (A,B,C,D) and
// (A,B,C,E); three systems swap A and B, C and D, C and E. The first two
// share a stage; the third writes C too and runs after. Time per tick.
func BenchmarkSchedule(b *testing.B) {
	for _, workers := range workerCounts() {
		b.Run(workersName(workers), func(b *testing.B) {
			w := ecs.NewWorld()
			ecs.NewMap2[SA, SB](w).SpawnBatch(10_000, SA{1}, SB{2})
			ecs.NewMap3[SA, SB, SC](w).SpawnBatch(10_000, SA{1}, SB{2}, SC{3})
			ecs.NewMap4[SA, SB, SC, SD](w).SpawnBatch(10_000, SA{1}, SB{2}, SC{3}, SD{4})
			ecs.NewMap4[SA, SB, SC, SE](w).SpawnBatch(10_000, SA{1}, SB{2}, SC{3}, SE{5})
			ab, cd, ce := ecs.NewQuery2[SA, SB](w), ecs.NewQuery2[SC, SD](w), ecs.NewQuery2[SC, SE](w)
			s := sched.New(w, sched.Workers(workers))
			defer s.Close()
			s.AddFunc("ab", func(*sched.Context) { swapAB(ab) }, sched.Writes[SA](), sched.Writes[SB]())
			s.AddFunc("cd", func(*sched.Context) { swapCD(cd) }, sched.Writes[SC](), sched.Writes[SD]())
			s.AddFunc("ce", func(*sched.Context) { swapCE(ce) }, sched.Writes[SC](), sched.Writes[SE]())
			for b.Loop() {
				s.Run()
			}
		})
	}
}

type (
	Matrix4  [16]float32
	HPos     struct{ X, Y, Z float32 }
	Rotation struct{ X, Y, Z float32 }
	HVel     struct{ X, Y, Z float32 }
)

// invert4 inverts m in place by Gauss-Jordan elimination with partial
// pivoting; a singular matrix is left as it is.
func invert4(m *Matrix4) {
	var a [4][8]float32
	for r := range 4 {
		for c := range 4 {
			a[r][c] = m[r*4+c]
		}
		a[r][4+r] = 1
	}
	for c := range 4 {
		p := c
		for r := c + 1; r < 4; r++ {
			if abs32(a[r][c]) > abs32(a[p][c]) {
				p = r
			}
		}
		if a[p][c] == 0 {
			return
		}
		a[c], a[p] = a[p], a[c]
		inv := 1 / a[c][c]
		for k := range 8 {
			a[c][k] *= inv
		}
		for r := range 4 {
			if r != c {
				f := a[r][c]
				for k := range 8 {
					a[r][k] -= f * a[c][k]
				}
			}
		}
	}
	for r := range 4 {
		for c := range 4 {
			m[r*4+c] = a[r][4+c]
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// heavyChunk inverts each matrix 100 times, then transforms the position.
func heavyChunk(ms []Matrix4, ps []HPos) {
	for i := range ms {
		for range 100 {
			invert4(&ms[i])
		}
		m, p := &ms[i], &ps[i]
		p.X, p.Y, p.Z = m[0]*p.X+m[1]*p.Y+m[2]*p.Z+m[3], m[4]*p.X+m[5]*p.Y+m[6]*p.Z+m[7], m[8]*p.X+m[9]*p.Y+m[10]*p.Z+m[11]
	}
}

func heavyMatrix(i int) Matrix4 {
	f := float32(i%7) + 2
	return Matrix4{f, 1, 0, 0, 0, f, 1, 0, 0, 0, f, 1, 1, 0, 0, f}
}

// BenchmarkHeavyCompute: 1,000 entities with a 4x4 matrix, Position,
// Rotation and Velocity; in parallel batches of 64, invert the matrix 100
// times, then transform Position by it. Time per tick; "floor" is the same
// work over plain slices on one goroutine.
func BenchmarkHeavyCompute(b *testing.B) {
	const n = 1000
	b.Run("floor", func(b *testing.B) {
		ms, ps := make([]Matrix4, n), make([]HPos, n)
		for i := range ms {
			ms[i] = heavyMatrix(i)
		}
		for b.Loop() {
			heavyChunk(ms, ps)
		}
	})
	for _, workers := range workerCounts() {
		b.Run(workersName(workers), func(b *testing.B) {
			w := ecs.NewWorld()
			m4 := ecs.NewMap4[Matrix4, HPos, Rotation, HVel](w)
			for i := range n {
				m4.Spawn(heavyMatrix(i), HPos{1, 2, 3}, Rotation{}, HVel{})
			}
			q := ecs.NewQuery2[Matrix4, HPos](w)
			var chunks []ecs.Chunk2[Matrix4, HPos]
			s := sched.New(w, sched.Workers(workers))
			defer s.Close()
			s.AddFunc("heavy", func(ctx *sched.Context) {
				chunks = q.AppendChunks(chunks[:0], 64)
				sched.ForEach(ctx, chunks, func(c ecs.Chunk2[Matrix4, HPos]) { heavyChunk(c.A, c.B) })
			}, sched.Writes[Matrix4](), sched.Writes[HPos]())
			for b.Loop() {
				s.Run()
			}
		})
	}
}

// BenchmarkEmptyStage measures the scheduler's own cost: a tick of stages
// whose systems do nothing, per stage.
func BenchmarkEmptyStage(b *testing.B) {
	for _, systems := range []int{1, 2} {
		for _, workers := range workerCounts() {
			b.Run("systems="+strconv.Itoa(systems)+"/"+workersName(workers), func(b *testing.B) {
				s := sched.New(ecs.NewWorld(), sched.Workers(workers))
				defer s.Close()
				const stages = 10
				for k := range stages {
					for j := range systems {
						// One written resource per stage makes each stage
						// depend on the one before.
						opts := []sched.Option{sched.ReadsResource[SA]()}
						if j == 0 {
							opts = []sched.Option{sched.WritesResource[SA]()}
						}
						s.AddFunc(strconv.Itoa(k)+"/"+strconv.Itoa(j), func(*sched.Context) {}, opts...)
					}
				}
				s.Build()
				for b.Loop() {
					s.Run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stages, "ns/stage")
			})
		}
	}
}
