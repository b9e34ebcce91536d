package ecs

import "unsafe"

// sparseIter walks the entities of a query that has sparse terms, one at a
// time, checking the sparse part of the terms per entity. When a required
// sparse set holds fewer entities than the matching tables, the walk is
// driven from that set instead (its dense array, in insertion order), so a
// query for a rare sparse component visits only its holders.
//
// The iteration forms step it with next, which is not inlined; they never
// hand it their yield function, so the range loop's fast path is unaffected.
type sparseIter struct {
	c      *queryCache
	driver *sparseSet // nil: walk the matching tables
	ti     int        // table walk: current table index
	row    int        // table walk: current row; driver walk: dense index
	t      *table     // the current entity's table
	trow   uint32     // and its row
	e      Entity
	ptr    [8]unsafe.Pointer // the current entity's components, by term
}

// start positions the iterator before the first entity of c.
func (it *sparseIter) start(c *queryCache) {
	*it = sparseIter{c: c, ti: 0, row: -1}
	rows := 0
	for _, t := range c.tables {
		rows += len(t.entities)
	}
	for _, s := range c.sparseAll {
		if s.len() < rows && (it.driver == nil || s.len() < it.driver.len()) {
			it.driver = s
		}
	}
}

// next advances to the next matching entity and reports whether there is one.
func (it *sparseIter) next() bool {
	c := it.c
	for {
		var slot int
		if it.driver != nil {
			it.row++
			if it.row >= it.driver.len() {
				return false
			}
			it.e = it.driver.dense[it.row]
			r := c.w.entities.at(it.e.index)
			if slot = int(c.slotOf[r.table.id]); slot < 0 {
				continue
			}
			it.t, it.trow = r.table, r.row
		} else {
			if it.ti >= len(c.tables) {
				return false
			}
			t := c.tables[it.ti]
			if it.row++; it.row >= len(t.entities) {
				it.ti, it.row = it.ti+1, -1
				continue
			}
			slot = it.ti
			it.t, it.trow, it.e = t, uint32(it.row), t.entities[it.row]
		}
		if it.fill(slot) {
			return true
		}
	}
}

// fill checks the sparse part of the terms for the current entity and
// records its component addresses, one sparse lookup per term: a required
// sparse term whose value is missing rejects the entity. The driving set's
// value is read from its dense slot directly.
func (it *sparseIter) fill(slot int) bool {
	c := it.c
	e := it.e
	k := len(c.terms)
	cols := c.cols[slot*k : slot*k+k]
	for i, sp := range c.sparseTerms {
		var p unsafe.Pointer
		switch {
		case sp == it.driver && sp != nil:
			p = sp.values.at(uint32(it.row))
		case sp != nil:
			if p = sp.get(e); p == nil && !c.optional[i] {
				return false
			}
		case cols[i] >= 0:
			p = it.t.columns[cols[i]].at(it.trow)
		}
		it.ptr[i] = p
	}
	if !c.sparseFilters {
		return true
	}
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
	return c.anyOfSparseMatch(e, it.t)
}

// entities returns the current entity as a one-element slice of its table's
// entity column, for the chunk form.
func (it *sparseIter) entities() []Entity {
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
