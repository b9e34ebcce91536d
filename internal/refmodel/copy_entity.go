package refmodel

// CopyEntity spawns a new entity with a copy of every component e has, in
// every [Store], and of e's relation pairs as a source, and returns it: the
// same targets in the same order, with copies of the pair values, so a clone
// of a child is a sibling under the same parent. The pairs that have e as
// their target stay e's alone. Values are copied as snapshots copy them:
// through a Clone() T method when T has one, by assignment otherwise. Once
// everything is copied, OnAdd fires for each component, in kind order, as
// for an add, so a hook sees the whole clone; observers see it enter. This
// is Tessera's (*ecs.World).CopyEntity, except that Tessera refuses a type
// with references and no way to copy them safely.
//
// Inside an iteration the clone is spawned at once, empty, and filled by a
// deferred change, applied in order with the others: it copies e's
// components and pairs as they are then, and does nothing unless e and the
// clone are both alive and the clone is still empty. The fill counts in no
// queued state (as in Tessera), so an Add to the clone in the same
// iteration is legal and, applied after the fill, overwrites the copy.
// Panics if e is not alive.
func (w *World) CopyEntity(e EntityID) EntityID {
	w.mustBeAlive("CopyEntity", e)
	c := w.Spawn()
	if w.depth > 0 {
		w.pending = append(w.pending, command{op: opClone, e: c, fn: func() {
			// The clone can have gained something only from a top-level
			// change made while the changes after a refused one waited
			// for Recover; filling it then would merge two entities.
			if w.Alive(e) && w.Alive(c) && w.isEmpty(c) {
				w.cloneInto(c, e)
			}
		}})
		return c
	}
	w.cloneInto(c, e)
	w.done()
	return c
}

// cloneInto gives c, which is alive and empty, copies of the components
// and source pairs of the live entity e, then fires the OnAdd hooks.
func (w *World) cloneInto(c, e EntityID) {
	var added []storage
	for _, s := range w.stores {
		if s.copyTo(c, e) {
			added = append(added, s)
		}
	}
	for _, r := range w.relations {
		r.copySources(c, e)
	}
	for _, s := range added {
		s.fireAdd(c)
	}
}

// isEmpty reports whether e has no component and is the source of no pair.
func (w *World) isEmpty(e EntityID) bool {
	for _, s := range w.stores {
		if s.has(e) {
			return false
		}
	}
	for _, r := range w.relations {
		if r.isSource(e) {
			return false
		}
	}
	return true
}

// copyTo gives dst, which has no T, a copy of src's T, firing nothing, and
// reports whether src had one.
func (s *Store[T]) copyTo(dst, src EntityID) bool {
	v, ok := s.m[src]
	if !ok {
		return false
	}
	s.m[dst] = cloneValue(v)
	s.stamp(dst, true)
	s.w.touch(dst)
	return true
}

// fireAdd fires OnAdd for e's T, which e has.
func (s *Store[T]) fireAdd(e EntityID) {
	v := s.m[e]
	for _, fn := range s.onAdd {
		s.w.fire(func() { fn(e, v) })
	}
}

// copySources gives dst, the source of no pair, copies of src's pairs as a
// source, in order; dst goes last among the sources of each target.
func (r *Relation[T]) copySources(dst, src EntityID) {
	for _, p := range r.out[src] {
		r.out[dst] = append(r.out[dst], pair[T]{target: p.target, value: cloneValue(p.value)})
		r.in[p.target] = append(r.in[p.target], dst)
	}
}

// isSource reports whether e is the source of a pair.
func (r *Relation[T]) isSource(e EntityID) bool { return len(r.out[e]) > 0 }
