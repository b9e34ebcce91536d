package refmodel

import "maps"

// Snapshot is a copy of a [World]'s state, taken by [World.Snapshot] and put
// back by [World.Restore]: the id counter, the living entities, every
// store's values and change log, every relation's pairs, every observer's
// members and the last pass of every watch made with
// [World.NewChangeWatch]. It
// holds copies of its own, so later changes to the world leave it as it
// was, and it may be restored any number of times.
type Snapshot struct {
	w       *World
	last    EntityID
	alive   map[EntityID]struct{}
	values  []any               // per store, in kind order: a map[EntityID]T
	pairs   []any               // per relation, in declaration order
	members []map[EntityID]bool // per observer, in registration order
	watches []uint64            // per watch, in order: its last pass
}

// Snapshot returns a copy of w's state. Values of a type with a method
// Clone() T (value or pointer receiver) are copied with it, others by
// assignment. It fires nothing. Panics inside an iteration, a hook, an
// observer or a [World.Batch], where a change may be half made.
func (w *World) Snapshot() *Snapshot {
	w.mustBeSettled("Snapshot")
	s := &Snapshot{w: w, last: w.last, alive: maps.Clone(w.alive)}
	for _, st := range w.stores {
		s.values = append(s.values, st.save())
	}
	for _, r := range w.relations {
		s.pairs = append(s.pairs, r.save())
	}
	for _, o := range w.observers {
		s.members = append(s.members, maps.Clone(o.members))
	}
	for _, cw := range w.watches {
		s.watches = append(s.watches, cw.last)
	}
	return s
}

// Restore puts w back in the state s holds, which [World.Snapshot] took of
// w: the entities alive then are alive, those spawned since are not, and
// since the id counter is put back too, the next spawns return the ids
// they returned after the snapshot. Stores and relations made since the
// snapshot are emptied; observers registered since take the entities that match after
// the restore as members, as a first registration would. Values are copied
// again on every restore, so w never shares them with s. The change log
// and every watch's last pass are put back (a watch made since has seen
// nothing), so the passes after the restore see what they saw after the
// snapshot; the clock goes on. Restore fires no hook and no observer.
//
// Panics if s is nil or was taken of another world, and where
// [World.Snapshot] panics.
func (w *World) Restore(s *Snapshot) {
	w.mustBeSettled("Restore")
	switch {
	case s == nil:
		panic("refmodel: Restore: nil snapshot")
	case s.w != w:
		panic("refmodel: Restore: the snapshot was taken of another world")
	}
	w.last = s.last
	w.alive = maps.Clone(s.alive)
	for k, st := range w.stores {
		if k < len(s.values) {
			st.load(s.values[k])
		} else {
			st.load(nil)
		}
	}
	for i, r := range w.relations {
		if i < len(s.pairs) {
			r.load(s.pairs[i])
		} else {
			r.load(nil)
		}
	}
	// Stores first: the members of a new observer are computed from them.
	for i, o := range w.observers {
		if i < len(s.members) {
			o.members = maps.Clone(s.members[i])
			continue
		}
		o.members = make(map[EntityID]bool)
		for _, e := range w.Match(o.q) {
			o.members[e] = true
		}
	}
	for i, cw := range w.watches {
		cw.last = 0
		if i < len(s.watches) {
			cw.last = s.watches[i]
		}
	}
	w.touched = nil
}

// mustBeSettled panics unless w is between operations: no iteration, hook
// or observer call (which count as iterations), Batch or settling is open.
func (w *World) mustBeSettled(op string) {
	switch {
	case w.depth > 0:
		panic("refmodel: " + op + ": called inside an iteration, a hook or an observer")
	case w.batching > 0 || w.settling:
		panic("refmodel: " + op + ": called inside a Batch or while changes are being applied")
	}
}

// savedStore is a snapshot's copy of one store: its values and change log.
type savedStore[T any] struct {
	m                map[EntityID]T
	addedAt, changed map[EntityID]uint64
}

// save returns a copy of the store's map and change log.
func (s *Store[T]) save() any {
	c := make(map[EntityID]T, len(s.m))
	for e, v := range s.m {
		c[e] = cloneValue(v)
	}
	return savedStore[T]{m: c, addedAt: maps.Clone(s.addedAt), changed: maps.Clone(s.changed)}
}

// load makes the store's map and change log a copy of saved (from save),
// or empty when saved is nil. It fires nothing.
func (s *Store[T]) load(saved any) {
	s.m = make(map[EntityID]T)
	s.addedAt, s.changed = nil, nil
	if saved == nil {
		return
	}
	st := saved.(savedStore[T])
	for e, v := range st.m {
		s.m[e] = cloneValue(v)
	}
	s.addedAt, s.changed = maps.Clone(st.addedAt), maps.Clone(st.changed)
}

// cloneValue returns v's Clone() when T has that method, v otherwise.
func cloneValue[T any](v T) T {
	if c, ok := any(&v).(interface{ Clone() T }); ok {
		return c.Clone()
	}
	return v
}
