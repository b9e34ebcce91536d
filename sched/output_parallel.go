package sched

import (
	"reflect"
	"runtime"
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

// foldValue is a value to fold and the component it is folded into.
type foldValue[T any] struct {
	p *T
	v T
}

// foldPieceLen is the most values a piece holds.
const foldPieceLen = 2048

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
// column: the cost of the fold), pieces of the buffers spread over the
// workers, and sorts each piece's values by the share that will fold them:
// the share whose memory blocks hold the component, so no two workers
// write to one cache line. The second folds: share k walks its values of
// every piece, in piece order, each in emission order, so each entity's
// values (all in one share) are folded in the order one pass would fold
// them, whatever worker runs the share. The values for entities without T
// are collected per piece and returned in emission order, for grouping.
func (o *Output[T]) foldParallel(bufs [][]emitted[T]) []emitted[T] {
	pieces := o.pieces[:0]
	for b, buf := range bufs {
		for lo := 0; lo < len(buf); lo += foldPieceLen {
			pieces = append(pieces, foldPiece{b, lo, min(lo+foldPieceLen, len(buf))})
		}
	}
	o.pieces = pieces
	shares := o.s.workers
	for len(o.binned) < len(pieces)*shares {
		o.binned = append(o.binned, nil)
	}
	for len(o.pieceRest) < len(pieces) {
		o.pieceRest = append(o.pieceRest, nil)
	}
	binned, pieceRest, m := o.binned, o.pieceRest, o.m
	o.s.pool.do(0, len(pieces), func(i, _ int) {
		pc := pieces[i]
		bins, rest := binned[i*shares:(i+1)*shares], pieceRest[i][:0]
		for k := range bins {
			bins[k] = bins[k][:0]
		}
		for _, it := range bufs[pc.buf][pc.lo:pc.hi] {
			p, ok := m.TryGet(it.e)
			if !ok {
				rest = append(rest, it)
				continue
			}
			// SAFETY: the address is only hashed into a block number,
			// never turned back into a pointer. Which share folds a value
			// changes nothing in the world: an entity's values all go to
			// one share, in emission order.
			k := int(uintptr(unsafe.Pointer(p))>>foldBlockShift) % shares //tessera:nondeterministic-ok picks a worker, not a result: every share folds its entities' values in emission order
			bins[k] = append(bins[k], foldValue[T]{p, it.v})
		}
		pieceRest[i] = rest
	}, func(i int) string { return "the lookups of an Output's parallel fold, piece " + strconv.Itoa(i) }, nil)
	if len(o.applies) < shares {
		o.applies = make([]foldCount, shares)
	}
	applies, foldBin := o.applies[:shares], o.kernel.bin
	o.s.pool.do(0, shares, func(k, _ int) {
		n := 0
		for i := range pieces {
			bin := binned[i*shares+k]
			foldBin(bin)
			n += len(bin)
			clear(bin) // pointers into component storage: not kept past the sync
		}
		applies[k].n = n
	}, func(k int) string { return "an Output's parallel fold, share " + strconv.Itoa(k) }, nil)
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
