package ecs

import (
	"fmt"
	"unsafe"
)

// table stores the entities of one archetype (one set of table component
// types): an entity column and one column per component type, all of the same
// length (struct of arrays, as in Ark, flecs and Bevy). Rows are dense:
// removing a row moves the last row into its place (swap-and-pop, as in Pierre
// Vigier, "Entity-Component-System – Part 1", the ECS of the game Vagabond,
// and the "type-erased component registry" tutorial of the Multiversal
// Consciousness engine).
type table struct {
	id int
	// slot is id + 1: what an entity record stores (World.tableOf), and
	// the table's index in componentInfo.cols (slot 0 is deadTable's).
	slot    uint32
	mask    bitset
	ids     []componentID // sorted
	columns []column      // parallel to ids
	colOf   []int32       // component id -> column index, -1 when absent
	// pointerCols lists the columns of types that hold pointers: the ones
	// a removed row must be zeroed in (removeRow's copy plan).
	pointerCols []int32
	// tracked lists the columns of types that track changes (their
	// column.ticks is set): the ones whose ticks rows carry.
	tracked []int32
	// entities has one entry per row; its length is the row count.
	entities []Entity
	capacity uint32
	// dirty bounds the rows that may hold stale values: every column is zero
	// from row max(len(entities), dirty) up to capacity (the zero tail).
	// removeRow leaves its vacated row stale (zeroing it would slow every
	// despawn and move) and raises dirty; clearRows zeroes in bulk and a
	// growth copies only live rows, so both reset it. A spawn of zero values
	// into a row at or past dirty writes nothing (Map.SpawnFunc, a SpawnBatch
	// of zero values), as Ark's creation without values does.
	dirty uint32

	// pairs are the pairs of split relations (SplitByTarget) that every
	// row of the table is the source of, sorted by relation: tables of
	// the same component types and different targets are distinct.
	pairs []tablePair
	// targetEdge caches the tables reached by changing the target of one
	// split relation (relation.place), created on first use.
	targetEdge map[tablePair]*table

	// Archetype graph: the table reached by adding or removing one
	// component id, cached after the first lookup.
	addEdge    []*table
	removeEdge []*table
}

// column returns the column index of id, or -1.
func (t *table) column(id componentID) int32 {
	if int(id) < len(t.colOf) {
		return t.colOf[id]
	}
	return -1
}

func (t *table) len() uint32 { return uint32(len(t.entities)) }

// reserve grows every column to hold at least n rows.
func (t *table) reserve(n uint32) {
	if n <= t.capacity {
		return
	}
	c := max(n, 2*t.capacity, 8)
	rows := len(t.entities)
	for i := range t.columns {
		col := &t.columns[i]
		if col.size == 0 {
			continue
		}
		nb := col.info.alloc(int(c))
		col.info.copyN(nb, col.base, rows)
		col.base = nb
	}
	for _, i := range t.tracked {
		t.columns[i].ticks.grow(c, uint32(rows), false)
	}
	ents := make([]Entity, rows, c)
	copy(ents, t.entities)
	t.entities = ents
	t.capacity = c
	t.dirty = 0 // only live rows were copied: the rest is fresh zero memory
	t.relink()
}

// pushEntity appends a row for e and returns its index. The component values
// of the new row are zero or stale and must be written by the caller.
func (t *table) pushEntity(e Entity) uint32 {
	row := uint32(len(t.entities))
	if row == t.capacity {
		t.reserve(row + 1)
	}
	t.entities = append(t.entities, e)
	if len(t.tracked) > 0 {
		t.stampRows(row, 1)
	}
	return row
}

// stampRows marks rows [start, start+n) of every tracked column as added
// and changed now: rows just made by a spawn, an add (the move then
// carries the ticks of the columns the entity had) or a load. (A restore
// puts back the ticks its snapshot saved.)
func (t *table) stampRows(start, n uint32) {
	for _, i := range t.tracked {
		t.columns[i].ticks.stampRows(start, n)
	}
}

// removeRow removes row by moving the last row into it and returns the
// entity that moved (zero if none did). The vacated last row is zeroed for
// pointer-holding types, so the collector can reclaim what they referenced,
// and left stale for the rest (dirty records it). The per-column work follows
// the column's copy plan (copyPlan): small pointer-free values are copied
// inline, without a call.
func (t *table) removeRow(row uint32) Entity {
	last := uint32(len(t.entities)) - 1
	if row > last || last >= t.capacity {
		// Only two goroutines changing the world at once get here (the
		// caller read row from a live record); stop before the unchecked
		// copies below write outside the columns.
		panic(concurrentMessage(fmt.Sprintf("removing row %d of a table of %d rows", row, last+1)))
	}
	var moved Entity
	if row != last {
		for i := range t.columns {
			col := &t.columns[i]
			// SAFETY: row and last are rows of the table; words > 0 only for
			// pointer-free types whose words match exactly (see copyValue).
			dst, src := col.at(row), col.at(last)
			if !col.words.copyWords(dst, src) && col.size != 0 {
				col.info.copy1(dst, src)
			}
		}
		moved = t.entities[last]
		t.entities[row] = moved
		for _, i := range t.tracked {
			t.columns[i].ticks.moveRow(row, last)
		}
	}
	for _, i := range t.pointerCols {
		col := &t.columns[i]
		col.info.clearN(col.at(last), 1)
	}
	t.dirty = max(t.dirty, last+1)
	t.entities = t.entities[:last]
	return moved
}

// clearRows drops every row and zeroes every column up to the dirty mark,
// in bulk: a batch despawn or move pays once for the zero tail that later
// spawns of zero values use.
func (t *table) clearRows() {
	t.clearColumns(0, int(max(t.len(), t.dirty)))
	t.entities = t.entities[:0]
	t.dirty = 0
}

// dropRows drops every row, as clearRows does, but leaves the rows of
// pointer-free types stale (dirty records them): a batch move out of t pays
// nothing for a zero tail that only a later spawn of zero values would use.
func (t *table) dropRows() {
	n := len(t.entities)
	for _, i := range t.pointerCols {
		col := &t.columns[i]
		col.info.clearN(col.base, n)
	}
	t.dirty = max(t.dirty, uint32(n))
	t.entities = t.entities[:0]
}

// clearColumns zeroes rows [start, start+n) of every column.
func (t *table) clearColumns(start uint32, n int) {
	if n <= 0 {
		return
	}
	for i := range t.columns {
		col := &t.columns[i]
		if col.size != 0 {
			col.info.clearN(col.at(start), n)
		}
	}
}

// clearRow zeroes one row of every column, inline for small pointer-free
// values (the copy plan of removeRow) and through the typed
// clearN otherwise.
func (t *table) clearRow(row uint32) {
	for i := range t.columns {
		col := &t.columns[i]
		// SAFETY: row < capacity; words > 0 only for pointer-free types
		// whose words match exactly (see copyValue).
		p := col.at(row)
		if !col.words.clearWords(p) && col.size != 0 {
			col.info.clearN(p, 1)
		}
	}
}

// cleanRows makes rows [start, start+n) zero in every column, clearing only
// those below the dirty mark: the rest are in the zero tail already.
func (t *table) cleanRows(start uint32, n int) {
	if start < t.dirty {
		t.clearColumns(start, int(min(t.dirty-start, uint32(n))))
	}
}

// zeroTail reports whether rows [max(len, dirty), capacity) of every column
// of t are zero: the invariant that lets a spawn of zero values skip its
// writes. For tests; O(capacity x row size).
func (t *table) zeroTail() bool {
	n := int(max(t.len(), t.dirty))
	for i := range t.columns {
		col := &t.columns[i]
		if col.size == 0 || uint32(n) >= t.capacity {
			continue
		}
		// SAFETY: rows [n, capacity) lie inside the column's allocation.
		b := unsafe.Slice((*byte)(col.at(uint32(n))), uintptr(t.capacity-uint32(n))*col.size)
		for _, x := range b {
			if x != 0 {
				return false
			}
		}
	}
	return true
}

// addColumnSlot gives every component type's column list (componentInfo.cols)
// the slot of the new table t, holding the base of t's column of the type
// where t has one; a column that reallocates relinks it (table.relink).
// Complexity: O(component types).
func (w *World) addColumnSlot(t *table) {
	w.reg.slots = int(t.slot) + 1
	for _, info := range w.reg.infos {
		info.cols = append(info.cols, nil)
	}
	if !w.checked { // a checked world's Get always takes the checking path
		w.linkColumns(t)
	}
}

// linkColumns points each of t's types' column list at its column in t.
func (w *World) linkColumns(t *table) {
	for i, id := range t.ids {
		w.reg.infos[id].cols[t.slot] = t.columns[i].base
	}
}

// relink points each of t's types' column list at its column's current
// base, after the columns were reallocated (reserve, shrink). A checked
// world keeps every list nil (fillColumnSlots).
func (t *table) relink() {
	for i := range t.columns {
		col := &t.columns[i]
		if !col.info.w.checked {
			col.info.cols[t.slot] = col.base
		}
	}
}

// fillColumnSlots sets every component type's column list from the tables,
// or to nil everywhere when checked: SetAccessChecker calls it when a
// checker comes or goes. Complexity: O(component types x tables).
func (w *World) fillColumnSlots(checked bool) {
	for _, info := range w.reg.infos {
		clear(info.cols)
	}
	if checked {
		return
	}
	for _, t := range w.tables {
		w.linkColumns(t)
	}
}
