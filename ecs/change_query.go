package ecs

// maxChangeRun is the longest run of rows one chunk of a change-filtered
// pass holds: no limit but the table's.
const maxChangeRun = 1 << 30

// changeTerm is one Added or Changed filter of a query.
type changeTerm struct {
	info  *componentInfo
	added bool // Added: compare the added ticks, not the changed ones
}

// ticksIn returns the tick column of the term's type in t, or nil when t
// has no column of it (a sparse type).
func (ct changeTerm) ticksIn(t *table) *tickColumn {
	if c := t.column(ct.info.id); c >= 0 {
		return t.columns[c].ticks
	}
	return nil
}

// passed records the end of a pass of c: its last run becomes the current
// tick, and outside a parallel section the tick moves on, so that what
// changes after the pass is newer than it and what changed during it is
// not. In a parallel section the tick stays (every change of the section
// carries it) and ParallelControl.End moves it on.
func (c *queryCache) passed() {
	w := c.w
	c.lastRun = w.tick
	if !w.shared {
		w.advanceTick()
	}
}

// endPass ends a pass of c that lockPass started: the change filters'
// bookkeeping, then the world's iteration count.
func (c *queryCache) endPass(epoch uint32) {
	if c.changes != nil {
		c.passed()
	}
	c.w.unlockPass(epoch)
}

// markTable marks rows [lo, hi) of t changed for every tracked type the
// query declares it writes ([MarksChanged]) and t has a column of.
func (c *queryCache) markTable(t *table, lo, hi int) {
	for _, info := range c.writes {
		if col := t.column(info.id); col >= 0 {
			t.columns[col].ticks.touchRange(uint32(lo), uint32(hi))
		}
	}
}

// markEntity marks the current entity's values of the written types.
func (it *entityIter) markEntity() {
	for _, info := range it.c.writes {
		if s := info.sparse; s != nil {
			if i := s.slotOf(it.e); i >= 0 {
				s.values.ticks.touch(uint32(i))
			}
		} else if col := it.t.column(info.id); col >= 0 {
			it.t.columns[col].ticks.touch(it.trow)
		}
	}
}

// enterTable reports whether t may hold a row that passes the change
// filters (every table term's column has a tick newer than the last run)
// and sets up the scan of the first table term's ticks.
func (it *entityIter) enterTable(t *table) bool {
	it.scan = nil
	for _, ct := range it.c.changes {
		tc := ct.ticksIn(t)
		if tc == nil {
			continue
		}
		if !newer(tc.last(ct.added), it.since) {
			return false
		}
		if it.scan == nil {
			it.scan = tc.changed
			if ct.added {
				it.scan = tc.added
			}
		}
	}
	return true
}

// scanFrom returns the first row from row on, below n, whose scanned tick
// is newer than the last run, or n.
func (it *entityIter) scanFrom(row, n int) int {
	s, since := it.scan, it.since
	if row >= n {
		return n
	}
	// Eight ticks at a time, without a branch per tick: t is newer than
	// since exactly when t-since-1 has its sign bit clear, so eight ticks
	// none of which is newer AND to a value with the sign bit set.
	k := since + 1
	for x := s[row:n]; len(x) >= 8; x = x[8:] {
		if (x[0]-k)&(x[1]-k)&(x[2]-k)&(x[3]-k)&(x[4]-k)&(x[5]-k)&(x[6]-k)&(x[7]-k)>>31 == 0 {
			break
		}
		row += 8
	}
	for row < n && !newer(s[row], since) {
		row++
	}
	return row
}

// changesPass reports whether the current entity passes every change
// filter.
func (it *entityIter) changesPass() bool {
	for _, ct := range it.c.changes {
		var tick uint32
		if s := ct.info.sparse; s != nil {
			i := s.slotOf(it.e)
			if i < 0 {
				return false
			}
			tick = s.values.ticks.tickOf(uint32(i), ct.added)
		} else {
			tc := ct.ticksIn(it.t)
			if tc == nil {
				return false
			}
			tick = tc.tickOf(it.trow, ct.added)
		}
		if !newer(tick, it.since) {
			return false
		}
	}
	return true
}

// changeRuns reports whether the walk can hand out runs of rows that pass
// the change filters: the query walks its tables (no driving set or
// relation list), every term and change filter is a table type, and no
// sparse filter needs a per-entity test.
func (it *entityIter) changeRuns() bool {
	c := it.c
	if c.changes == nil || it.driver != nil || it.useList || it.useSplit || c.sparseFilters {
		return false
	}
	for _, sp := range c.sparseTerms {
		if sp != nil {
			return false
		}
	}
	for _, ct := range c.changes {
		if ct.info.sparse != nil {
			return false
		}
	}
	return true
}

// nextChangedRun returns the next run of at most limit consecutive rows
// [lo, hi) of one table that pass the change filters, with the table's
// index among the query's matched tables, and marks the run's written
// types (MarksChanged). Call it only when changeRuns reports true.
func (it *entityIter) nextChangedRun(limit int) (t *table, ti, lo, hi int, ok bool) {
	c := it.c
	for it.ti < len(c.tables) {
		t = c.tables[it.ti]
		if it.row < 0 && !it.enterTable(t) {
			it.ti++
			continue
		}
		n := len(t.entities)
		lo = it.rowPassing(t, it.row+1, n)
		if lo >= n {
			it.ti, it.row = it.ti+1, -1
			continue
		}
		hi = it.runEnd(t, lo, min(n, lo+limit))

		it.row = hi - 1
		if it.mark && c.writes != nil {
			c.markTable(t, lo, hi)
		}
		return t, it.ti, lo, hi, true
	}
	return nil, 0, 0, 0, false
}

// runEnd returns the end of the run of rows from lo on, below n, that
// pass every change filter; row lo passes. With one filter it reads the
// scanned ticks alone.
func (it *entityIter) runEnd(t *table, lo, n int) int {
	hi := lo + 1
	if len(it.c.changes) == 1 {
		s, since := it.scan[:n], it.since
		for hi < n && newer(s[hi], since) {
			hi++
		}
		return hi
	}
	for hi < n && it.rowPasses(t, hi) {
		hi++
	}
	return hi
}

// rowPassing returns the first row from row on, below n, of the table
// being scanned that passes every change filter, or n.
func (it *entityIter) rowPassing(t *table, row, n int) int {
	for {
		row = it.scanFrom(row, n)
		if row >= n || len(it.c.changes) == 1 || it.rowPasses(t, row) {
			return row
		}
		row++
	}
}

// rowPasses reports whether row of t passes every change filter (all
// table terms, see changeRuns).
func (it *entityIter) rowPasses(t *table, row int) bool {
	for _, ct := range it.c.changes {
		if !newer(ct.ticksIn(t).tickOf(uint32(row), ct.added), it.since) {
			return false
		}
	}
	return true
}
