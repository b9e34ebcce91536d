package ecs

// Shrink gives back memory the world holds but does not use: table columns
// and sparse arrays are cut to their length (empty ones are freed), pooled
// sparse pages are dropped, and the buffers of deferred changes are
// released. The entity index keeps its pages and free list: they hold the
// generations that keep stale handles dead. Like any reallocation, Shrink
// invalidates pointers to components.
// Panics inside an iteration. Complexity: O(stored values).
func (w *World) Shrink() {
	if w.lock > 0 {
		panic("ecs: Shrink: called inside an iteration" + w.openLoopNote())
	}
	for _, t := range w.tables {
		t.shrink()
	}
	for _, s := range w.sparse {
		s.shrink()
	}
	w.cmds = commandBuffer{}
	w.heads = pendingHeads{} // all zero outside iterations
	w.batchAt, w.frames = nil, nil
	w.scratch = nil
	x := &w.entities
	x.free = exactCopy(x.free)
}

// exactCopy returns a copy of s whose capacity is its length.
func exactCopy[T any](s []T) []T {
	c := make([]T, len(s))
	copy(c, s)
	return c
}

// shrink reallocates t's columns to exactly its row count.
func (t *table) shrink() {
	n := uint32(len(t.entities))
	if n == t.capacity {
		return
	}
	for i := range t.columns {
		col := &t.columns[i]
		if col.size == 0 {
			continue
		}
		nb := col.info.alloc(int(n))
		col.info.copyN(nb, col.base, int(n))
		col.base = nb
	}
	for _, i := range t.tracked {
		t.columns[i].ticks.grow(n, n, false)
	}
	t.entities = exactCopy(t.entities)
	t.capacity = n
	t.dirty = 0
	t.relink()
}

// shrink reallocates s's dense arrays to exactly its length and drops the
// page pool.
func (s *sparseSet) shrink() {
	s.pool = nil
	n := uint32(len(s.dense))
	if n == s.capacity {
		return
	}
	nb := s.info.alloc(int(n))
	s.info.copyN(nb, s.values.base, int(n))
	s.values.base = nb
	if tc := s.values.ticks; tc != nil {
		tc.grow(n, n, true)
	}
	s.dense = exactCopy(s.dense)
	s.capacity = n
}
