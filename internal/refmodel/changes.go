package refmodel

import "slices"

// The change log: Tessera's change detection (ecs.TrackChanges, ecs.Added,
// ecs.Changed) stated plainly. Every store records, per entity, the step of
// the world's change clock at which its value was added and at which it
// last changed; the clock is a counter that never wraps and never goes
// back, not even on Restore. A [ChangeWatch] is one query's memory of its
// last pass.
//
// What counts: an add by any path (Add, Set of a missing value, AddMatching,
// deferred adds when they are applied, CopyEntity) is an add and a change; a
// Set or AddMatching over a present value, and [Store.MarkChanged], is a
// change; [Store.Update], the model's write through a pointer, is not. A
// Restore is no change: it puts back every value's steps and the last pass
// of every watch made with [World.NewChangeWatch] as they were at the
// snapshot, and a watch made since has seen nothing. Since the clock goes
// on, everything after the restore is newer than all of those, as it was
// after the snapshot: the passes after a restore see what they saw then.

// ChangeWatch is the last pass of one change-filtered query. The zero
// value has seen nothing: its first pass reports every present value. A
// zero value belongs to no world, and no Restore rewinds it; one from
// [World.NewChangeWatch] is part of its world's state, as Tessera's
// queries are.
type ChangeWatch struct{ last uint64 }

// NewChangeWatch returns a watch that has seen nothing and is part of w's
// state: [World.Snapshot] saves its last pass and [World.Restore] puts it
// back (a watch made after the snapshot has then seen nothing again).
func (w *World) NewChangeWatch() *ChangeWatch {
	cw := &ChangeWatch{}
	w.watches = append(w.watches, cw)
	return cw
}

// stamp records a change of e's T now, and an add when added.
func (s *Store[T]) stamp(e EntityID, added bool) {
	s.w.clock++
	if s.changed == nil {
		s.addedAt, s.changed = make(map[EntityID]uint64), make(map[EntityID]uint64)
	}
	s.changed[e] = s.w.clock
	if added {
		s.addedAt[e] = s.w.clock
	}
}

// unstamp forgets e's ticks: its T is gone.
func (s *Store[T]) unstamp(e EntityID) {
	delete(s.addedAt, e)
	delete(s.changed, e)
}

// MarkChanged records a change of e's T, as ecs.Map.MarkChanged does, and
// reports whether e has a T (nothing is recorded when it has none).
func (s *Store[T]) MarkChanged(e EntityID) bool {
	if !s.Has(e) {
		return false
	}
	s.stamp(e, false)
	return true
}

// Changed returns, in increasing id order, the entities whose T was added
// or changed after w's last pass, and makes this call w's last pass: what
// a pass of a query with ecs.Changed[T] visits.
func (s *Store[T]) Changed(w *ChangeWatch) []EntityID { return s.Pass(w, false, false) }

// Added returns, in increasing id order, the entities whose T was added
// after w's last pass, and makes this call w's last pass: what a pass of a
// query with ecs.Added[T] visits.
func (s *Store[T]) Added(w *ChangeWatch) []EntityID { return s.Pass(w, true, false) }

// Pass is [Store.Added] (added true) or [Store.Changed]; with writes, the
// pass also marks every entity it returns as changed, as a query that
// declares ecs.MarksChanged[T] does, before it becomes w's last pass: a query
// does not see its own writes.
func (s *Store[T]) Pass(w *ChangeWatch, added, writes bool) []EntityID {
	at := s.changed
	if added {
		at = s.addedAt
	}
	var ids []EntityID
	for e, t := range at {
		if t > w.last {
			ids = append(ids, e)
		}
	}
	slices.Sort(ids)
	if writes {
		for _, e := range ids {
			s.stamp(e, false)
		}
	}
	w.last = s.w.clock
	return ids
}
