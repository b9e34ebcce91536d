package sched_test

import (
	"cmp"
	"fmt"
	"math"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Component types of the kernel tests: each kind through a named type, the
// way programs declare components.
type (
	kernelF32 float32
	kernelF64 float64
	kernelI8  int8
	kernelU16 uint16
	kernelInt int
)

// foldThrough folds the same emissions through an Output made with merge,
// on the given number of workers, and returns every entity's value as
// fmt prints it (so -0 and NaN are told apart from 0), or "none". Two
// systems emit several values per entity (enough for the parallel fold on
// two workers); some entities gain T from their values, some are dead.
func foldThrough[T any](t *testing.T, workers int, merge func(a, b T) T, start, val func(i int) T) []string {
	t.Helper()
	w := ecs.NewWorld()
	m := ecs.NewMap[T](w)
	const n = 9000
	es := make([]ecs.Entity, n)
	for i := range es {
		if i%11 == 4 {
			es[i] = w.Spawn()
			continue
		}
		es[i] = m.Spawn(start(i))
	}
	for i := 6; i < n; i += 97 {
		w.Despawn(es[i])
	}
	s := sched.New(w, sched.Workers(workers))
	defer s.Close()
	o := sched.NewOutput(s, merge)
	for k, name := range []string{"a", "b"} {
		s.AddFunc(name, func(ctx *sched.Context) {
			for i := range es {
				o.Emit(ctx, es[(i*7+k)%n], val(i+k))
			}
		}, sched.Emits[T]())
	}
	s.Run()
	s.Run()
	out := make([]string, n)
	for i, e := range es {
		out[i] = "none"
		if p, ok := m.TryGet(e); ok {
			out[i] = fmt.Sprint(*p)
		}
	}
	return out
}

// builtins are Sum, Max and LastWins on one type. They are named where the
// type is concrete: inside a generic function the compiler wraps them in
// a closure of that function, which the scheduler cannot tell from a
// merge of the program's own.
type builtins[T any] struct{ sum, max, last func(a, b T) T }

// checkKernel checks that the built-in merges give what the same
// arithmetic written as a merge of the program's own gives, which always
// takes the one-goroutine fold through the function value, on 1 and 2
// workers.
func checkKernel[T cmp.Ordered](t *testing.T, b builtins[T], start, val func(i int) T) {
	t.Helper()
	merges := []struct {
		name             string
		builtin, program func(a, b T) T
	}{
		{"Sum", b.sum, func(a, b T) T { return a + b }},
		{"Max", b.max, func(a, b T) T { return max(a, b) }},
		{"LastWins", b.last, func(_, b T) T { return b }},
	}
	for _, mg := range merges {
		want := foldThrough(t, 1, mg.program, start, val)
		for _, workers := range []int{1, 2} {
			got := foldThrough(t, workers, mg.builtin, start, val)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%T %s on %d workers: entity %d is %s, want %s", *new(T), mg.name, workers, i, got[i], want[i])
				}
			}
		}
	}
}

// TestFoldKernelsMatchTheMerges checks the written-out loops of Sum, Max
// and LastWins against their definitions, on float kinds with NaN, -0 and
// infinities (whose adds and max depend on order and sign), on integer
// kinds that overflow, and on a plain int.
func TestFoldKernelsMatchTheMerges(t *testing.T) {
	specials := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1e30, -1e-30}
	float := func(i int) float64 {
		if i%17 == 0 {
			return specials[(i/17)%len(specials)]
		}
		return float64(i%29)*0.37 - 5
	}
	checkKernel(t, builtins[kernelF32]{sched.Sum[kernelF32], sched.Max[kernelF32], sched.LastWins[kernelF32]},
		func(i int) kernelF32 { return kernelF32(float(i + 3)) }, func(i int) kernelF32 { return kernelF32(float(i)) })
	checkKernel(t, builtins[kernelF64]{sched.Sum[kernelF64], sched.Max[kernelF64], sched.LastWins[kernelF64]},
		func(i int) kernelF64 { return kernelF64(float(i + 3)) }, func(i int) kernelF64 { return kernelF64(float(i)) })
	checkKernel(t, builtins[kernelI8]{sched.Sum[kernelI8], sched.Max[kernelI8], sched.LastWins[kernelI8]},
		func(i int) kernelI8 { return kernelI8(i) }, func(i int) kernelI8 { return kernelI8(i*37 - 90) })
	checkKernel(t, builtins[kernelU16]{sched.Sum[kernelU16], sched.Max[kernelU16], sched.LastWins[kernelU16]},
		func(i int) kernelU16 { return kernelU16(i * 13) }, func(i int) kernelU16 { return kernelU16(i * 7919) })
	checkKernel(t, builtins[kernelInt]{sched.Sum[kernelInt], sched.Max[kernelInt], sched.LastWins[kernelInt]},
		func(i int) kernelInt { return kernelInt(-i) }, func(i int) kernelInt { return kernelInt(i%100 - 50) })
	checkKernel(t, builtins[string]{sched.Sum[string], sched.Max[string], sched.LastWins[string]},
		func(i int) string { return fmt.Sprint(i % 5) }, func(i int) string { return string(rune('a' + i%26)) })
}
