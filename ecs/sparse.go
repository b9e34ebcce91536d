package ecs

import "unsafe"

// sparsePageBits sets the size of a sparse page: 1024 entries (4 KiB).
const sparsePageBits = 10

const sparsePageSize = 1 << sparsePageBits

// sparsePage maps the entity indices of one page to dense slots plus one
// (0: absent).
type sparsePage struct {
	slot [sparsePageSize]uint32
	used int // entries in use; an empty page goes back to the pool
}

// sparseSet stores one component type outside the archetype tables: a paged
// sparse array indexed by entity index, a dense array of entities and a dense
// column of values, with swap-and-pop removal (the packed arrays of Pierre
// Vigier, "Entity-Component-System – Part 1", the ECS of the game Vagabond,
// and of the "type-erased component registry" tutorial of the Multiversal
// Consciousness engine; the paged storage with chunk pooling of the
// dissertation "optimisations for the Entity Component System pattern").
// Pages exist only where entities have the component, and emptied pages are
// kept in a pool for reuse. Adding or removing never moves a table row.
type sparseSet struct {
	w        *World // told of every entity that gains or loses a value
	info     *componentInfo
	pages    []*sparsePage
	pool     []*sparsePage
	dense    []Entity
	values   column
	capacity uint32
	// rel is the relation whose pairs the set holds, nil for a component
	// type; relIn says the set is the relation's target side (relIn).
	rel   *relation
	relIn bool
}

func newSparseSet(w *World, info *componentInfo, hint int) *sparseSet {
	s := &sparseSet{w: w, info: info, values: newColumn(info, 0)}
	if info.track {
		s.values.ticks = newTickColumn(&w.tick, true, 0)
	}
	if hint > 0 {
		s.grow(uint32(hint))
	}
	return s
}

// slotOf returns e's dense slot, or -1 when e has no value here. The dense
// entry must equal e, generation included; since despawning removes an
// entity's sparse values, a slot found here also proves e is alive.
func (s *sparseSet) slotOf(e Entity) int {
	p := int(e.index >> sparsePageBits)
	if p >= len(s.pages) || s.pages[p] == nil {
		return -1
	}
	i := int(s.pages[p].slot[e.index&(sparsePageSize-1)]) - 1
	if i < 0 || s.dense[i] != e {
		return -1
	}
	return i
}

// get returns the address of e's value, or nil.
func (s *sparseSet) get(e Entity) unsafe.Pointer {
	i := s.slotOf(e)
	if i < 0 {
		return nil
	}
	return s.values.at(uint32(i))
}

func (s *sparseSet) has(e Entity) bool { return s.slotOf(e) >= 0 }

func (s *sparseSet) len() int { return len(s.dense) }

func (s *sparseSet) grow(n uint32) {
	if n <= s.capacity {
		return
	}
	c := max(n, 2*s.capacity, 8)
	nb := s.info.alloc(int(c))
	s.info.copyN(nb, s.values.base, len(s.dense))
	s.values.base = nb
	if tc := s.values.ticks; tc != nil {
		tc.grow(c, uint32(len(s.dense)), true)
	}
	d := make([]Entity, len(s.dense), c)
	copy(d, s.dense)
	s.dense = d
	s.capacity = c
}

// add appends a slot for e, which must not have one, and returns the address
// of its value (zero or stale: the caller writes it).
func (s *sparseSet) add(e Entity) unsafe.Pointer {
	p, _ := s.insert(e)
	return p
}

// insert returns the address of e's value, adding a slot for it (zero or
// stale: the caller writes it) when it has none, and reports whether it
// added one. One walk of the pages serves the test and the insertion.
func (s *sparseSet) insert(e Entity) (unsafe.Pointer, bool) {
	page := s.page(e.index)
	entry := &page.slot[e.index&(sparsePageSize-1)]
	if *entry != 0 {
		// Entries exist only for living entities (despawn removes them),
		// so an entry at e's index is e's own.
		return s.values.at(*entry - 1), false
	}
	i := uint32(len(s.dense))
	if i == s.capacity {
		s.grow(i + 1)
	}
	s.dense = append(s.dense, e)
	*entry = i + 1
	page.used++
	s.w.touch(e)
	if tc := s.values.ticks; tc != nil {
		tc.stampRows(i, 1)
	}
	return s.values.at(i), true
}

// stampRows marks dense slots [start, start+n) as added and changed now,
// when the type tracks changes.
func (s *sparseSet) stampRows(start, n uint32) {
	if tc := s.values.ticks; tc != nil {
		tc.stampRows(start, n)
	}
}

// page returns the page of entity index i, taking one from the pool (or a
// new one) when there is none.
func (s *sparseSet) page(i uint32) *sparsePage {
	p := int(i >> sparsePageBits)
	for len(s.pages) <= p {
		s.pages = append(s.pages, nil)
	}
	page := s.pages[p]
	if page == nil {
		if n := len(s.pool); n > 0 {
			page = s.pool[n-1]
			s.pool = s.pool[:n-1]
		} else {
			page = new(sparsePage)
		}
		s.pages[p] = page
	}
	return page
}

// remove drops e's value, if any, by moving the last value into its slot,
// and reports whether there was one.
func (s *sparseSet) remove(e Entity) bool {
	i := s.slotOf(e)
	if i < 0 {
		return false
	}
	s.w.touch(e)
	last := len(s.dense) - 1
	if i != last {
		s.values.copyValue(s.values.at(uint32(i)), s.values.at(uint32(last)))
		moved := s.dense[last]
		s.dense[i] = moved
		s.pages[moved.index>>sparsePageBits].slot[moved.index&(sparsePageSize-1)] = uint32(i) + 1
		if tc := s.values.ticks; tc != nil {
			tc.moveRow(uint32(i), uint32(last))
		}
	}
	if !s.info.pointerFree {
		s.info.clearN(s.values.at(uint32(last)), 1)
	}
	s.dense = s.dense[:last]
	p := e.index >> sparsePageBits
	page := s.pages[p]
	page.slot[e.index&(sparsePageSize-1)] = 0
	if page.used--; page.used == 0 {
		s.pages[p] = nil
		s.pool = append(s.pool, page)
	}
	return true
}
