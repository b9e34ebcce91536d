package ecs

import "sync/atomic"

// tickColumn holds the change ticks of one tracked component type (see
// [TrackChanges]) beside its column in one table or sparse set: per row (or
// dense slot), the tick at which the value was added and the tick at which
// it last changed, plus the newest tick written anywhere in the column, so
// that a pass filtered by [Added] or [Changed] skips a table with no change
// since its last run without reading a row (Bevy's per-component added and
// changed ticks; flecs' per-table change counters). A sparse set also keeps
// the newest tick of every block of tickBlock dense slots (its pages).
//
// The slices have one entry per row of capacity; the rows a table or set
// holds always have valid ticks, because every path that makes a row stamps
// it (stampRows), every path that moves one carries its ticks, and a
// restore puts back the ticks its snapshot saved (savedTicks).
type tickColumn struct {
	added, changed []uint32
	// lastAdded and lastChanged are the newest ticks written. They are
	// atomic because the passes of one system split across workers
	// (sched's ForEach) may mark rows of one column at once; rows are
	// disjoint, the summary is shared.
	lastAdded, lastChanged atomic.Uint32
	// blocks, for a sparse set only: per tickBlock dense slots, the newest
	// tick added or changed.
	blocks []atomic.Uint32
	clock  *uint32 // the world's change tick
}

// tickBlockBits sets the size of a sparse set's tick block: 1024 slots,
// the size of its pages.
const tickBlockBits = sparsePageBits

// newer reports whether tick a comes after tick b, modulo 2^32: ticks wrap,
// and World.clampTicks keeps every live tick within 2^31 of the clock so
// that the difference has the right sign (Bevy's Tick::is_newer_than).
func newer(a, b uint32) bool { return int32(a-b) > 0 }

func newTickColumn(clock *uint32, sparse bool, capacity uint32) *tickColumn {
	tc := &tickColumn{clock: clock}
	tc.grow(capacity, 0, sparse)
	return tc
}

// grow makes room for capacity rows, keeping the first rows ones.
func (tc *tickColumn) grow(capacity, rows uint32, sparse bool) {
	a := make([]uint32, capacity)
	c := make([]uint32, capacity)
	copy(a, tc.added[:rows])
	copy(c, tc.changed[:rows])
	tc.added, tc.changed = a, c
	if sparse {
		nb := int(capacity+(1<<tickBlockBits)-1) >> tickBlockBits
		if nb > len(tc.blocks) {
			b := make([]atomic.Uint32, nb)
			for i := range tc.blocks {
				b[i].Store(tc.blocks[i].Load())
			}
			tc.blocks = b
		}
	}
}

// note records that tick t was written at row i: the column's newest tick
// and, for a sparse set, the block's.
func (tc *tickColumn) note(i uint32, t uint32, added bool) {
	if tc.lastChanged.Load() != t {
		tc.lastChanged.Store(t)
	}
	if added && tc.lastAdded.Load() != t {
		tc.lastAdded.Store(t)
	}
	if tc.blocks != nil {
		if b := &tc.blocks[i>>tickBlockBits]; b.Load() != t {
			b.Store(t)
		}
	}
}

// stampRows marks rows [start, start+n) as added and changed now: rows a
// spawn, an add or a load made.
func (tc *tickColumn) stampRows(start, n uint32) {
	if n == 0 {
		return
	}
	now := *tc.clock
	fill(tc.added[start:start+n], now)
	fill(tc.changed[start:start+n], now)
	tc.note(start, now, true)
	if tc.blocks != nil {
		for b := (start >> tickBlockBits) + 1; b <= (start+n-1)>>tickBlockBits; b++ {
			tc.blocks[b].Store(now)
		}
	}
}

// touch marks row i as changed now.
func (tc *tickColumn) touch(i uint32) {
	now := *tc.clock
	tc.changed[i] = now
	tc.note(i, now, false)
}

// touchRange marks rows [lo, hi) as changed now: a writing pass over a
// table (MarksChanged).
func (tc *tickColumn) touchRange(lo, hi uint32) {
	if lo >= hi {
		return
	}
	now := *tc.clock
	fill(tc.changed[lo:hi], now)
	tc.note(lo, now, false)
}

// carry copies the ticks of row j of src to row i of tc: a value that
// moved between tables keeps its history.
func (tc *tickColumn) carry(i uint32, src *tickColumn, j uint32) {
	a, c := src.added[j], src.changed[j]
	tc.added[i], tc.changed[i] = a, c
	tc.noteCarried(i, a, c)
}

// noteCarried folds carried ticks into the summaries, which only ever move
// forward.
func (tc *tickColumn) noteCarried(i, a, c uint32) {
	if newer(c, tc.lastChanged.Load()) {
		tc.lastChanged.Store(c)
	}
	if newer(a, tc.lastAdded.Load()) {
		tc.lastAdded.Store(a)
	}
	if tc.blocks != nil {
		if b := &tc.blocks[i>>tickBlockBits]; newer(c, b.Load()) {
			b.Store(c)
		}
	}
}

// carryRows copies the ticks of rows [0, n) of src to rows [start,
// start+n) of tc.
func (tc *tickColumn) carryRows(start uint32, src *tickColumn, n uint32) {
	if n == 0 {
		return
	}
	copy(tc.added[start:start+n], src.added[:n])
	copy(tc.changed[start:start+n], src.changed[:n])
	tc.noteCarried(start, src.lastAdded.Load(), src.lastChanged.Load())
}

// moveRow copies the ticks of row last to row i: removal by swap-and-pop.
func (tc *tickColumn) moveRow(i, last uint32) {
	tc.carry(i, tc, last)
}

// tickOf returns the tick of row i that a filter compares: the added tick
// for Added, the changed one for Changed.
func (tc *tickColumn) tickOf(i uint32, added bool) uint32 {
	if added {
		return tc.added[i]
	}
	return tc.changed[i]
}

// last returns the column's newest added or changed tick.
func (tc *tickColumn) last(added bool) uint32 {
	if added {
		return tc.lastAdded.Load()
	}
	return tc.lastChanged.Load()
}

// clamp moves every tick older than now-maxTickAge up to it, so that no
// tick is ever 2^31 behind the clock (see World.clampTicks).
func (tc *tickColumn) clamp(rows int, now uint32) {
	floor := now - maxTickAge
	for _, s := range [][]uint32{tc.added[:rows], tc.changed[:rows]} {
		for i, t := range s {
			if newer(floor, t) {
				s[i] = floor
			}
		}
	}
	for _, a := range []*atomic.Uint32{&tc.lastAdded, &tc.lastChanged} {
		if newer(floor, a.Load()) {
			a.Store(floor)
		}
	}
	for i := range tc.blocks {
		if newer(floor, tc.blocks[i].Load()) {
			tc.blocks[i].Store(floor)
		}
	}
}
