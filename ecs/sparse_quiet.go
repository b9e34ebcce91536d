package ecs

// addQuiet gives the live entity e the value v when e's page exists and the
// dense arrays have room, and reports whether it did; otherwise, or when e
// is dead or already has a value, it changes nothing.
//
// addQuiet and removeQuiet are the quiet paths of Map.Add and Map.Remove on
// a sparse component, taken when nothing listens (no hooks, no observers)
// and no iteration is open: the common case of a tag or status added and
// removed many times per tick. Each is one function with the value's type
// known, so the swap-and-pop copies a T directly and no further call is
// made; growth, a new page and every error go to the general paths.
func addQuiet[T any](s *sparseSet, x *entityIndex, e Entity, v T) bool {
	p := e.index >> sparsePageBits
	if x.lookup(e) == nil || p >= uint32(len(s.pages)) {
		return false
	}
	page := s.pages[p]
	if page == nil {
		return false
	}
	entry := &page.slot[e.index&(sparsePageSize-1)]
	i := uint32(len(s.dense))
	if *entry != 0 || i >= uint32(cap(s.dense)) {
		return false
	}
	s.dense = s.dense[:i+1]
	s.dense[i] = e
	*entry = i + 1
	page.used++
	// SAFETY: the values column of s stores T values and has room for
	// cap(dense) of them.
	*(*T)(s.values.at(i)) = v
	if tc := s.values.ticks; tc != nil {
		tc.stampRows(i, 1)
	}
	return true
}

// removeQuiet drops e's value, moving the last value into its slot, and
// reports whether e had one: the typed twin of sparseSet.remove, without the
// touch.
func removeQuiet[T any](s *sparseSet, e Entity) bool {
	p := e.index >> sparsePageBits
	if p >= uint32(len(s.pages)) {
		return false
	}
	page := s.pages[p]
	if page == nil {
		return false
	}
	entry := &page.slot[e.index&(sparsePageSize-1)]
	i := int(*entry) - 1
	if i < 0 || i >= len(s.dense) || s.dense[i] != e {
		return false
	}
	last := len(s.dense) - 1
	// SAFETY: the values column of s stores T values and i, last < len(dense).
	lastValue := (*T)(s.values.at(uint32(last)))
	if i != last {
		*(*T)(s.values.at(uint32(i))) = *lastValue
		moved := s.dense[last]
		s.dense[i] = moved
		s.pages[moved.index>>sparsePageBits].slot[moved.index&(sparsePageSize-1)] = uint32(i) + 1
		if tc := s.values.ticks; tc != nil {
			tc.moveRow(uint32(i), uint32(last))
		}
	}
	if !s.info.pointerFree {
		var zero T
		*lastValue = zero
	}
	s.dense = s.dense[:last]
	*entry = 0
	if page.used--; page.used == 0 {
		s.pages[p] = nil
		s.pool = append(s.pool, page)
	}
	return true
}

// quiet reports whether structural changes can skip deferral, hooks and
// observers: no iteration is open and nothing listens.
func (w *World) quiet() bool { return w.lock == 0 && !w.notify }
