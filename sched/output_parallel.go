package sched

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// parallelFoldMin is the least number of values a stage must emit to one
// Output before its in-place fold is split over the workers: below it,
// handing the shares out costs more than folding on one goroutine.
const parallelFoldMin = 4096

// foldBlockShift sets the size of the blocks of entity indices that the
// shares of a parallel fold are cut into (1 << foldBlockShift indices). A
// block, not a single index, goes to one worker: entities spawned together
// have neighbouring indices and neighbouring rows, and two workers writing
// to one cache line would contend for it.
const foldBlockShift = 10

// foldShare is one share of a parallel fold: what it left for grouping
// (values for entities without T, with their place in the stage's
// emission order) and how many values it applied. Padded, so that two
// workers filling their shares do not write to one cache line.
type foldShare[T any] struct {
	rest    []placedValue[T]
	applied int
	_       [40]byte
}

// placedValue is an emitted value and its place in the stage's emission
// order (buffer after buffer in the order of record).
type placedValue[T any] struct {
	at int
	emitted[T]
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

// foldParallel is syncInPlace split over the workers: share k folds the
// values for the entities whose index block is k modulo the number of
// shares, every buffer in the order of record, each in emission order, so
// each entity's values are folded in the order a single pass would fold
// them, whatever worker runs the share. The values for entities without T
// come back from the shares with their places and are merged into
// emission order for grouping, as one pass would have collected them.
func (o *Output[T]) foldParallel(bufs [][]emitted[T]) []emitted[T] {
	n := o.s.workers
	if len(o.shares) < n {
		o.shares = make([]foldShare[T], n)
	}
	shares := o.shares[:n]
	o.s.pool.do(0, n, func(k, _ int) { o.foldShare(&shares[k], k, n, bufs) },
		func(k int) string { return "the parallel fold of an Output, share " + strconv.Itoa(k) }, nil)
	rest, total := o.rest[:0], 0
	for k := range shares {
		o.applied += shares[k].applied
		total += len(shares[k].rest)
	}
	if total > 0 {
		rest = mergePlaced(rest, shares)
	}
	for k := range shares {
		if o.pointers {
			clear(shares[k].rest)
		}
		shares[k].rest = shares[k].rest[:0]
	}
	return rest
}

// foldShare folds share k of n: the values whose entity index lies in a
// block that is k modulo n.
func (o *Output[T]) foldShare(sh *foldShare[T], k, n int, bufs [][]emitted[T]) {
	m, merge := o.m, o.merge
	at, applied, rest := 0, 0, sh.rest[:0]
	for _, buf := range bufs {
		for i := range buf {
			it := &buf[i]
			if int(it.e.Index()>>foldBlockShift)%n != k {
				continue
			}
			if p, ok := m.TryGet(it.e); ok {
				*p = merge(*p, it.v)
				applied++
			} else {
				rest = append(rest, placedValue[T]{at + i, *it})
			}
		}
		at += len(buf)
	}
	sh.rest, sh.applied = rest, applied
}

// mergePlaced appends the shares' values to rest in the order of their
// places: each share's list is in that order already.
func mergePlaced[T any](rest []emitted[T], shares []foldShare[T]) []emitted[T] {
	var places [64]int
	var next []int // per share, its first value not yet merged
	if len(shares) <= len(places) {
		next = places[:len(shares)]
	} else {
		next = make([]int, len(shares))
	}
	for {
		best := -1
		for k := range shares {
			if next[k] < len(shares[k].rest) && (best < 0 || shares[k].rest[next[k]].at < shares[best].rest[next[best]].at) {
				best = k
			}
		}
		if best < 0 {
			return rest
		}
		rest = append(rest, shares[best].rest[next[best]].emitted)
		next[best]++
	}
}
