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
// pass of a parallel fold looks up: values [lo, hi) of buffer buf, whose
// places in the stage's emission order start at at.
type foldPiece struct {
	buf, lo, hi, at int
}

// foldPieceLen is the most values a piece holds.
const foldPieceLen = 2048

// foldShare is one share of a parallel fold: how many values it applied,
// and for share 0 the values for entities without T, left for grouping.
// Padded, so that two workers filling their shares do not write to one
// cache line.
type foldShare[T any] struct {
	rest    []emitted[T]
	applied int
	_       [32]byte
}

// builtinMerge reports whether merge is LastWins, Sum or Max of this
// package: pure functions of their arguments, which a parallel fold may
// call on several goroutines at once. A merge of the program's own may
// keep state, so it is always called on one goroutine. (A generic
// function's value is a closure per instantiation site, so the test is by
// the name the runtime gives its code.)
func builtinMerge(merge any) bool {
	f := runtime.FuncForPC(reflect.ValueOf(merge).Pointer())
	if f == nil {
		return false
	}
	name, ok := strings.CutPrefix(f.Name(), thisPackage+".")
	if !ok {
		return false
	}
	for _, b := range []string{"LastWins[", "Sum[", "Max["} {
		if strings.HasPrefix(name, b) {
			return true
		}
	}
	return false
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
// workers. The second folds: share k walks every value in the stage's
// emission order and folds those whose component lies in a memory block
// that is k modulo the number of shares, so each entity's values are
// folded in the order one pass would fold them, whatever worker runs the
// share, and no two workers write to one cache line. Share 0 also collects,
// in that order, the values for entities without T, for grouping.
func (o *Output[T]) foldParallel(bufs [][]emitted[T], n int) []emitted[T] {
	pieces, at := o.pieces[:0], 0
	for b, buf := range bufs {
		for lo := 0; lo < len(buf); lo += foldPieceLen {
			hi := min(lo+foldPieceLen, len(buf))
			pieces = append(pieces, foldPiece{b, lo, hi, at + lo})
		}
		at += len(buf)
	}
	o.pieces = pieces
	if cap(o.found) < n {
		o.found = make([]*T, n)
	}
	found := o.found[:n]
	m := o.m
	o.s.pool.do(0, len(pieces), func(i, _ int) {
		pc := pieces[i]
		for j, it := range bufs[pc.buf][pc.lo:pc.hi] {
			found[pc.at+j], _ = m.TryGet(it.e)
		}
	}, func(i int) string { return "the lookups of an Output's parallel fold, piece " + strconv.Itoa(i) }, nil)
	workers := o.s.workers
	if len(o.shares) < workers {
		o.shares = make([]foldShare[T], workers)
	}
	shares := o.shares[:workers]
	shares[0].rest = o.rest[:0]
	o.s.pool.do(0, workers, func(k, _ int) { o.foldShare(&shares[k], k, workers, bufs, found) },
		func(k int) string { return "an Output's parallel fold, share " + strconv.Itoa(k) }, nil)
	for k := range shares {
		o.applied += shares[k].applied
	}
	rest := shares[0].rest
	shares[0].rest = nil
	clear(found) // pointers into component storage: not kept past the sync
	return rest
}

// foldShare folds share k of n: the values whose component lies in a
// memory block that is k modulo n. Share 0 also collects the values for
// entities without T, in emission order.
func (o *Output[T]) foldShare(sh *foldShare[T], k, n int, bufs [][]emitted[T], found []*T) {
	merge, at, applied, rest := o.merge, 0, 0, sh.rest
	for _, buf := range bufs {
		for i := range buf {
			p := found[at+i]
			if p == nil {
				if k == 0 {
					rest = append(rest, buf[i])
				}
				continue
			}
			// SAFETY: the address is only hashed into a block number,
			// never turned back into a pointer.
			if int(uintptr(unsafe.Pointer(p))>>foldBlockShift)%n != k {
				continue
			}
			*p = merge(*p, buf[i].v)
			applied++
		}
		at += len(buf)
	}
	sh.rest, sh.applied = rest, applied
}
