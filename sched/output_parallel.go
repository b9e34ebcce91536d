package sched

import (
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// parallelFoldMin is the least number of values a stage must emit to one
// Output before its in-place fold is split over the workers: below it,
// handing the shares out costs more than folding on one goroutine.
const parallelFoldMin = 4096

// foldBlockShift sets the size of the memory blocks that the shares of a
// parallel fold's second pass are cut into (1 << foldBlockShift bytes): a
// value is folded by the share its component's block falls to, so no two
// workers write to one cache line.
const foldBlockShift = 12

// foldPiece is a run of one buffer's values whose components the first
// pass of a parallel fold looks up: values [lo, hi) of buffer buf.
type foldPiece struct {
	buf, lo, hi int
}

// foldPieceLen is the most values a piece holds.
const foldPieceLen = 2048

// foldShare returns the share, of shares, that folds the values of the
// component at p: a hash of p's memory block, spread over the shares by a
// multiply (no division per value).
func foldShare(p unsafe.Pointer, shares int) int {
	// SAFETY: the address is only hashed into a share number, never
	// turned back into a pointer. Which share folds a value changes
	// nothing in the world: an entity's values all go to one share, in
	// emission order.
	block := uint32(uintptr(p) >> foldBlockShift) //tessera:nondeterministic-ok picks a worker, not a result: every share folds its entities' values in emission order
	return int(uint64(block*0x9e3779b9) * uint64(shares) >> 32)
}

// foldCount is how many values one share of a parallel fold applied.
// Padded, so that two workers counting do not write to one cache line.
type foldCount struct {
	n int
	_ [56]byte
}

// builtinMerge returns "LastWins", "Sum" or "Max" when merge is that
// function of this package, and "" otherwise. The built-in merges are pure
// functions of their arguments, which a parallel fold may call on several
// goroutines at once and a fold kernel may write out; a merge of the
// program's own may keep state, so it is always called on one goroutine.
// (A generic function's value is a closure per instantiation site, so the
// test is by the name the runtime gives its code.)
func builtinMerge(merge any) string {
	f := runtime.FuncForPC(reflect.ValueOf(merge).Pointer())
	if f == nil {
		return ""
	}
	name, ok := strings.CutPrefix(f.Name(), thisPackage+".")
	if !ok {
		return ""
	}
	for _, b := range []string{"LastWins", "Sum", "Max"} {
		if strings.HasPrefix(name, b+"[") {
			return b
		}
	}
	return ""
}

// thisPackage is the import path of package sched, as the runtime names
// its functions.
var thisPackage = func() string {
	type probe struct{}
	return reflect.TypeFor[probe]().PkgPath()
}()

// foldParallel is syncInPlace split over the workers, in two passes. The
// first looks up every value's component (the entity index, then the
// column: most of the cost of the fold), pieces of the buffers spread over
// the workers, and writes each value's component address beside it. The
// second folds: share k walks every buffer in order and folds the values
// whose component lies in one of its memory blocks (foldShare), so no two
// workers write to one cache line, and each entity's values (all in one
// share) are folded in the order one pass would fold them, whatever
// worker runs the share. The values for entities without T are collected
// per piece and returned in emission order, for grouping.
func (o *Output[T]) foldParallel(bufs [][]emitted[T]) []emitted[T] {
	pieces := o.pieces[:0]
	for len(o.ptrs) < len(bufs) {
		o.ptrs = append(o.ptrs, nil)
	}
	ptrs := o.ptrs[:len(bufs)]
	for b, buf := range bufs {
		ptrs[b] = slices.Grow(ptrs[b][:0], len(buf))[:len(buf)]
		for lo := 0; lo < len(buf); lo += foldPieceLen {
			pieces = append(pieces, foldPiece{b, lo, min(lo+foldPieceLen, len(buf))})
		}
	}
	o.pieces = pieces
	for len(o.pieceRest) < len(pieces) {
		o.pieceRest = append(o.pieceRest, nil)
	}
	pieceRest, m := o.pieceRest, o.m
	o.s.pool.do(0, len(pieces), func(i, _ int) {
		pc := pieces[i]
		rest, at := pieceRest[i][:0], ptrs[pc.buf][pc.lo:pc.hi]
		for j, it := range bufs[pc.buf][pc.lo:pc.hi] {
			p, ok := m.TryGet(it.e)
			at[j] = p
			if !ok {
				rest = append(rest, it)
			}
		}
		pieceRest[i] = rest
	}, func(i int) string { return "the lookups of an Output's parallel fold, piece " + strconv.Itoa(i) }, nil)
	shares := o.s.workers
	if len(o.applies) < shares {
		o.applies = make([]foldCount, shares)
	}
	applies, scan := o.applies[:shares], o.kernel.scan
	o.s.pool.do(0, shares, func(k, _ int) {
		n := 0
		for b, buf := range bufs {
			n += scan(ptrs[b], buf, k, shares)
		}
		applies[k].n = n
	}, func(k int) string { return "an Output's parallel fold, share " + strconv.Itoa(k) }, nil)
	for b := range ptrs {
		clear(ptrs[b]) // pointers into component storage: not kept past the sync
	}
	rest := o.rest[:0]
	for k := range applies {
		o.applied += applies[k].n
	}
	for i := range pieces {
		rest = append(rest, pieceRest[i]...)
		if o.pointers {
			clear(pieceRest[i])
		}
	}
	return rest
}
