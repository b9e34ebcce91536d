package ecs

import (
	"sync/atomic"
	"unsafe"
)

// entityIter walks the entities of a query that has sparse terms, one at a
// time, checking the sparse part of the terms per entity. When a required
// sparse set holds fewer entities than the matching tables, the walk is
// driven from that set instead (its dense array, in insertion order), so a
// query for a rare sparse component visits only its holders.
//
// The iteration forms step it with next, which is not inlined; they never
// hand it their yield function, so the range loop's fast path is unaffected.
type entityIter struct {
	c       *queryCache
	driver  *sparseSet // nil: walk the matching tables
	ti      int        // table walk: current table index
	row     int        // table walk: current row; driver walk: dense index
	t       *table     // the current entity's table
	trow    uint32     // and its row
	e       Entity
	k       int      // number of terms
	list    []Entity // with useList: the sources the walk visits
	useList bool     // the walk follows list (a Relation.To filter)
	// split: the walk visits the rows of tables, the target's tables of a
	// split relation's ToVar filter, in their order.
	split    []*table
	useSplit bool
	// since is the query's last run, for its change filters; scan, when
	// not nil, is the tick column of the current table that the walk
	// scans for rows newer than since (enterTable). mark says the walk
	// marks what it visits for the query's MarksChanged filters (a pass, not
	// a Count).
	since uint32
	scan  []uint32
	// blocks, when the walk follows a driving sparse set that a change
	// filter is on, are that set's per-block newest ticks: a block with no
	// change since the last run is skipped whole.
	blocks []atomic.Uint32
	mark   bool
	src    [8]termSource     // where each term's value comes from
	ptr    [8]unsafe.Pointer // the current entity's components, by term
}

// termSource says where fill finds a term's value.
type termSource uint8

const (
	fromColumn      termSource = iota // the table's column (nil if absent: optional)
	fromDriver                        // the driving sparse set's dense slot
	fromSparse                        // a sparse lookup; absent rejects the entity
	fromSparseMaybe                   // a sparse lookup of an optional term
)

// start positions the iterator before the first entity of c. The driver is
// the smallest required sparse set, when it holds no more entities than the
// matching tables: walking it costs an entity-index lookup per holder but
// saves that set's own lookup.
func (it *entityIter) start(c *queryCache) {
	*it = entityIter{c: c, ti: 0, row: -1, k: len(c.terms), since: c.lastRun, mark: c.writes != nil}
	if len(c.relTo) > 0 {
		// The sources of the first To filter's target are exactly the
		// entities with that pair: walk them, O(sources), no scan.
		f := c.relTo[0]
		t := f.target()
		if f.rel.split {
			if !t.IsZero() {
				it.split = f.rel.splitTables[t]
			}
			it.useSplit = true
		} else {
			it.useList = true
			if !t.IsZero() {
				it.list = f.rel.sources(t)
			}
		}
	} else {
		rows := 0
		for _, t := range c.tables {
			rows += len(t.entities)
		}
		for _, s := range c.sparseAll {
			if s.len() <= rows && (it.driver == nil || s.len() < it.driver.len()) {
				it.driver = s
			}
		}
	}
	for _, ct := range c.changes {
		if s := ct.info.sparse; s != nil && s == it.driver {
			it.blocks = s.values.ticks.blocks
		}
	}
	for i, sp := range c.sparseTerms {
		switch {
		case sp == nil:
			it.src[i] = fromColumn
		case sp == it.driver:
			it.src[i] = fromDriver
		case c.optional[i]:
			it.src[i] = fromSparseMaybe
		default:
			it.src[i] = fromSparse
		}
	}
}

// next advances to the next matching entity and reports whether there is one.
func (it *entityIter) next() bool {
	c := it.c
	if es, ok := it.walkList(); ok {
		x := &c.w.entities
		for it.row++; it.row < len(es); it.row++ {
			if it.blocks != nil && !newer(it.blocks[it.row>>tickBlockBits].Load(), it.since) {
				it.row |= 1<<tickBlockBits - 1 // no change in the block: to its end
				continue
			}
			e := es[it.row]
			r := x.at(e.index)
			if slot := c.slotOf[r.tableID()]; slot >= 0 {
				it.e, it.t, it.trow = e, c.w.tableOf(r), r.row
				if it.fill(int(slot)) {
					return true
				}
			}
		}
		return false
	}
	if it.useSplit {
		return it.nextSplit()
	}
	for it.ti < len(c.tables) {
		t := c.tables[it.ti]
		if it.row < 0 && c.changes != nil && !it.enterTable(t) {
			it.ti++
			continue
		}
		it.row++
		if it.scan != nil {
			it.row = it.scanFrom(it.row, len(t.entities))
		}
		if it.row >= len(t.entities) {
			it.ti, it.row = it.ti+1, -1
			continue
		}
		it.t, it.trow, it.e = t, uint32(it.row), t.entities[it.row]
		if it.fill(it.ti) {
			return true
		}
	}
	return false
}

// nextSplit is next over the rows of the tables in it.split that the
// query matches.
func (it *entityIter) nextSplit() bool {
	c := it.c
	for it.ti < len(it.split) {
		t := it.split[it.ti]
		slot := c.slotOf[t.id]
		if it.row++; slot < 0 || it.row >= len(t.entities) {
			it.ti, it.row = it.ti+1, -1
			continue
		}
		it.t, it.trow, it.e = t, uint32(it.row), t.entities[it.row]
		if it.fill(int(slot)) {
			return true
		}
	}
	return false
}

// tableRuns reports whether the walk can hand out whole tables: it
// follows a split relation's target tables and nothing needs a check per
// entity (no sparse term, no other sparse filter).
func (it *entityIter) tableRuns() bool {
	if !it.useSplit || it.c.sparseFilters || it.c.changes != nil {
		return false
	}
	for _, sp := range it.c.sparseTerms {
		if sp != nil {
			return false
		}
	}
	return true
}

// nextTable returns the next table with rows of the walk of tableRuns
// and its index among the query's matched tables.
func (it *entityIter) nextTable() (*table, int, bool) {
	for it.ti < len(it.split) {
		t := it.split[it.ti]
		it.ti++
		if slot := it.c.slotOf[t.id]; slot >= 0 && len(t.entities) > 0 {
			return t, int(slot), true
		}
	}
	return nil, 0, false
}

// walkList returns the entities the walk follows instead of the matching
// tables, if it follows a list: a To filter's sources, or the driving
// sparse set's entities.
func (it *entityIter) walkList() ([]Entity, bool) {
	if it.useList {
		return it.list, true
	}
	if d := it.driver; d != nil {
		return d.dense, true
	}
	return nil, false
}

// fill checks the sparse part of the terms for the current entity and
// records its component addresses, one sparse lookup per sparse term that
// does not drive the walk: a required sparse term whose value is missing
// rejects the entity.
func (it *entityIter) fill(slot int) bool {
	c := it.c
	k := it.k
	cols := c.cols[slot*k : slot*k+k]
	for i := range k {
		var p unsafe.Pointer
		switch it.src[i] {
		case fromColumn:
			if col := cols[i]; col >= 0 {
				p = it.t.columns[col].at(it.trow)
			}
		case fromDriver:
			p = it.driver.values.at(uint32(it.row))
		default:
			sp := c.sparseTerms[i]
			if j := sp.slotOf(it.e); j >= 0 {
				p = sp.values.at(uint32(j))
			} else if it.src[i] == fromSparse {
				return false
			}
		}
		it.ptr[i] = p
	}
	if c.changes != nil && !it.changesPass() {
		return false
	}
	if !c.sparseFilters {
		if it.mark {
			it.markEntity()
		}
		return true
	}
	e := it.e
	for _, sp := range c.sparseWith {
		if sp != it.driver && !sp.has(e) {
			return false
		}
	}
	for _, sp := range c.sparseNone {
		if sp.has(e) {
			return false
		}
	}
	if !c.relToMatch(e, 1) || !c.anyOfSparseMatch(e, it.t) {
		return false
	}
	if it.mark {
		it.markEntity()
	}
	return true
}

// entities returns the current entity as a one-element slice of its table's
// entity column, for the chunk form.
func (it *entityIter) entities() []Entity {
	return it.t.entities[it.trow : it.trow+1 : it.trow+1]
}

// oneSlice returns the value at p as a one-element slice, or nil.
func oneSlice[T any](p unsafe.Pointer) []T {
	if p == nil {
		return nil
	}
	// SAFETY: p points to a live value of T (a column row or a sparse slot).
	return unsafe.Slice((*T)(p), 1)
}

// maxSparseRun is the longest run of entities one chunk of a sparse-driven
// query holds (see entityIter.nextRun) when the caller sets no size.
const maxSparseRun = 1024

// runs reports whether the walk can hand out runs of entities instead of
// one entity at a time: it is driven by a sparse set, every term is that
// set's own value, and no sparse filter needs a per-entity test. Then a run
// of consecutive dense slots is a pair of slices, the set's entities and its
// values, like a table's rows. (A query with table terms cannot: its table
// values for consecutive dense slots are scattered over rows and tables.)
func (it *entityIter) runs() bool {
	// Change filters and writes need the per-entity walk (fill).
	if it.driver == nil || it.c.sparseFilters || it.c.changes != nil || it.c.writes != nil {
		return false
	}
	for i := range it.k {
		if it.src[i] != fromDriver {
			return false
		}
	}
	return true
}

// nextRun advances over the next run of at most limit consecutive dense
// slots of the driving set whose entities are all in tables the query
// matches, and returns its bounds [lo, hi), or ok false at the end. Call it
// only when runs reports true. Complexity: one entity-index read per slot,
// none when the query matches every table.
func (it *entityIter) nextRun(limit int) (lo, hi int, ok bool) {
	n := len(it.driver.dense)
	if len(it.c.tables) == len(it.c.w.tables) {
		// The query matches every table (no table terms or filters), so
		// every holder of the set matches: no entity-index reads, which
		// are cache misses in dense order once the index is large.
		if lo = it.row + 1; lo >= n {
			it.row = n
			return 0, 0, false
		}
		hi = min(lo+limit, n)
		it.row = hi - 1
		return lo, hi, true
	}
	for lo = it.row + 1; lo < n && !it.driverMatches(lo); lo++ {
	}
	if lo >= n {
		it.row = n
		return 0, 0, false
	}
	for hi = lo + 1; hi < n && hi-lo < limit && it.driverMatches(hi); hi++ {
	}
	it.row = hi - 1
	return lo, hi, true
}

// driverMatches reports whether the entity in dense slot i of the driving
// set is in a table the query matches.
func (it *entityIter) driverMatches(i int) bool {
	return it.c.slotOf[it.c.w.entities.at(it.driver.dense[i].index).tableID()] >= 0
}

// runEntities returns the entities of the run [lo, hi) of the driving set.
func (it *entityIter) runEntities(lo, hi int) []Entity {
	return it.driver.dense[lo:hi:hi]
}

// runSlice returns the values of the run [lo, hi) of s, a set of T values.
func runSlice[T any](s *sparseSet, lo, hi int) []T {
	// SAFETY: s stores T values and lo < hi <= len(s.dense), so the hi-lo
	// values from slot lo are live slots of the dense column.
	return unsafe.Slice((*T)(s.values.at(uint32(lo))), hi-lo)
}
