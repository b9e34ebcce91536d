package sched

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type foldProbe float32

// TestBuiltinMergesTakeTheParallelFold checks that LastWins, Sum and Max
// are known as built-in merges and a function of the program's own is
// not, and that a stage's sync on two workers with enough values goes
// through the parallel fold: without it, the tests that compare its world
// with one worker's would pass on the one-goroutine fold alone.
func TestBuiltinMergesTakeTheParallelFold(t *testing.T) {
	for name, merge := range map[string]func(a, b foldProbe) foldProbe{
		"LastWins": LastWins[foldProbe], "Sum": Sum[foldProbe], "Max": Max[foldProbe],
	} {
		if got := builtinMerge(merge); got != name {
			t.Errorf("%s is known as the built-in merge %q", name, got)
		}
	}
	if builtinMerge(func(a, b foldProbe) foldProbe { return a - b }) != "" {
		t.Error("a merge of the program's own is taken for a built-in one")
	}

	for _, workers := range []int{1, 2} {
		w := ecs.NewWorld()
		m := ecs.NewMap[foldProbe](w)
		m.SpawnBatch(2*parallelFoldMin, 1)
		var es []ecs.Entity
		for r := range ecs.NewQuery1[foldProbe](w).All() {
			es = append(es, r.Entity)
		}
		s := New(w, Workers(workers))
		o := NewOutput(s, Sum[foldProbe])
		s.AddFunc("emit", func(ctx *Context) {
			for _, e := range es {
				o.Emit(ctx, e, 2)
			}
		}, Emits[foldProbe]())
		s.Run()
		s.Close()
		if parallel := len(o.pieces) > 0; parallel != (workers > 1) {
			t.Errorf("%d workers: the parallel fold ran: %v", workers, parallel)
		}
		if got := *m.Get(es[len(es)-1]); got != 3 || o.Applied() != len(es) {
			t.Errorf("%d workers: value %v, applied %d; want 3 and %d", workers, got, o.Applied(), len(es))
		}
	}
}

// TestFoldKernelsCoverTheNumericKinds checks that Sum and Max get a
// written-out loop on every numeric kind and LastWins on any type, so that
// TestFoldKernelsMatchTheMerges compares the kernels and not the function
// values; strings keep the function value.
func TestFoldKernelsCoverTheNumericKinds(t *testing.T) {
	type named uint32
	kinds := map[string][2]bool{ // Sum and Max have a kernel
		"float32": {kernelFor[float32]("Sum") != nil, kernelFor[float32]("Max") != nil},
		"float64": {kernelFor[float64]("Sum") != nil, kernelFor[float64]("Max") != nil},
		"int8":    {kernelFor[int8]("Sum") != nil, kernelFor[int8]("Max") != nil},
		"uint16":  {kernelFor[uint16]("Sum") != nil, kernelFor[uint16]("Max") != nil},
		"int":     {kernelFor[int]("Sum") != nil, kernelFor[int]("Max") != nil},
		"named":   {kernelFor[named]("Sum") != nil, kernelFor[named]("Max") != nil},
		"uintptr": {kernelFor[uintptr]("Sum") != nil, kernelFor[uintptr]("Max") != nil},
	}
	for kind, has := range kinds {
		if !has[0] || !has[1] {
			t.Errorf("%s: Sum and Max have kernels: %v", kind, has)
		}
	}
	if kernelFor[string]("Sum") != nil || kernelFor[float32]("") != nil {
		t.Error("a kernel for Sum on strings, or for a merge of the program's own")
	}
	if kernelFor[struct{ a, b int }]("LastWins") == nil {
		t.Error("LastWins has no kernel for a struct")
	}
}
