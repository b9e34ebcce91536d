package refmodel

import (
	"fmt"
	"slices"
)

// Store is the component map of one component type T: the ComponentMap of the
// "super simple ECS" blog post, an ordinary Go map from entity id to value.
// Values are stored by value; [Store.Update] is the model's write through a
// pointer.
type Store[T any] struct {
	w    *World
	kind Kind
	name string
	m    map[EntityID]T
	// addedAt and changed are the change log (see changes.go): per entity,
	// the world's clock when its T was added and last changed.
	addedAt, changed map[EntityID]uint64

	onAdd, onSet, onRemove []func(EntityID, T) // hooks (see OnAdd)
}

// NewStore adds a component type to w and returns its store. The name is
// used in panic messages and by [World.KindName]. Every call makes a new
// kind, even for a T that already has a store.
func NewStore[T any](w *World, name string) *Store[T] {
	s := &Store[T]{w: w, kind: Kind(len(w.stores)), name: name, m: make(map[EntityID]T)}
	w.stores = append(w.stores, s)
	return s
}

// Kind returns the store's component kind, for use in a [Query].
func (s *Store[T]) Kind() Kind { return s.kind }

// Name returns the name given to [NewStore].
func (s *Store[T]) Name() string { return s.name }

// Len returns the number of entities that have a T.
func (s *Store[T]) Len() int { return len(s.m) }

// Has reports whether e has a T (a dead entity has none).
func (s *Store[T]) Has(e EntityID) bool {
	_, ok := s.m[e]
	return ok
}

// Get returns e's T and true, or the zero T and false when e has none.
func (s *Store[T]) Get(e EntityID) (T, bool) {
	v, ok := s.m[e]
	return v, ok
}

// Entities returns the entities that have a T, in increasing id order.
func (s *Store[T]) Entities() []EntityID {
	ids := s.keys()
	slices.Sort(ids)
	return ids
}

// Add gives e the value v. Panics if e is not alive or already has a T.
// Inside an iteration the add is deferred and judged against the state the
// changes deferred before it leave (see the package's deferral rules):
// after a deferred remove of T it is legal, after a deferred add of T it
// panics, and after a deferred despawn of e it is deferred and dropped.
func (s *Store[T]) Add(e EntityID, v T) {
	if err := s.CheckAdd(e); err != nil {
		panic(err.Error())
	}
	s.addOrDefer(e, v)
}

// CheckAdd returns the reason [Store.Add] of e would panic, or nil.
func (s *Store[T]) CheckAdd(e EntityID) error {
	if err := s.w.checkAlive("Add["+s.name+"]", e); err != nil {
		return err
	}
	present := s.Has(e) && !s.w.removingNow(e, s)
	if s.w.depth > 0 {
		switch s.w.queuedFor(e, s) {
		case queuedGains:
			present = true
		case queuedLoses, queuedUnknown, queuedDespawned:
			present = false // a deferred add; dropped after a despawn
		}
	}
	if present {
		return fmt.Errorf("refmodel: Add[%s]: entity %d already has the component", s.name, e)
	}
	return nil
}

// Set gives e the value v: an immediate overwrite when e has a T now and no
// deferred change of e's T is pending, an add otherwise (deferred inside an
// iteration, where it overwrites what the changes deferred before it
// leave; dropped after a deferred despawn of e). Panics if e is not alive.
func (s *Store[T]) Set(e EntityID, v T) {
	if err := s.CheckSet(e); err != nil {
		panic(err.Error())
	}
	if s.SetsNow(e) {
		s.write(e, v)
		s.w.done()
		return
	}
	s.addOrDefer(e, v)
}

// SetsNow reports whether a Set of e's T writes at once: e has a T that is
// not being removed, and no change of it is queued.
func (s *Store[T]) SetsNow(e EntityID) bool {
	return s.Has(e) && !s.w.removingNow(e, s) && (s.w.depth == 0 || s.w.queuedFor(e, s) == queuedNone)
}

// SetQueued is the part of a Set of several types at once (Tessera's
// Map2.Set and the like) that one type gets when some of the types cannot
// be written at once: an add-or-overwrite, queued inside an iteration as
// for all of them, so that the whole Set applies as one change. Panics if
// e is not alive.
func (s *Store[T]) SetQueued(e EntityID, v T) {
	if err := s.CheckSet(e); err != nil {
		panic(err.Error())
	}
	s.addOrDefer(e, v)
}

// CheckSet returns the reason [Store.Set] of e would panic, or nil.
func (s *Store[T]) CheckSet(e EntityID) error {
	return s.w.checkAlive("Set["+s.name+"]", e)
}

func (s *Store[T]) addOrDefer(e EntityID, v T) {
	if s.w.depth > 0 {
		s.w.pending = append(s.w.pending, command{op: opAdd, e: e, s: s, v: v})
		return
	}
	s.write(e, v)
	s.w.done()
}

// write adds or overwrites e's T, firing OnAdd or OnSet afterwards.
func (s *Store[T]) write(e EntityID, v T) {
	_, had := s.m[e]
	s.m[e] = v
	s.stamp(e, !had)
	hooks := s.onSet
	if !had {
		hooks = s.onAdd
		s.w.touch(e)
	}
	for _, fn := range hooks {
		s.w.fire(func() { fn(e, v) })
	}
}

// delete removes e's T if it has one, firing OnRemove first.
func (s *Store[T]) delete(e EntityID) {
	if !s.Has(e) {
		return
	}
	s.w.removing(e, []storage{s}, func() { s.fireRemove(e) })
	s.erase(e)
}

// fireRemove fires OnRemove for e's T, which e has.
func (s *Store[T]) fireRemove(e EntityID) {
	v := s.m[e]
	for _, fn := range s.onRemove {
		s.w.fire(func() { fn(e, v) })
	}
}

// erase removes e's T, which e has, firing nothing.
func (s *Store[T]) erase(e EntityID) {
	delete(s.m, e)
	s.unstamp(e)
	s.w.touch(e)
}

// Update calls f with a pointer to a copy of e's T and stores the result, at
// once even inside an iteration: the model's write through a component
// pointer. It reports whether e had a T; f is not called when it had none.
func (s *Store[T]) Update(e EntityID, f func(*T)) bool {
	v, ok := s.m[e]
	if !ok {
		return false
	}
	f(&v)
	s.m[e] = v
	return true
}

// Remove takes T away from e; it does nothing if e has none. Panics if e is
// not alive. Inside an iteration the removal is deferred.
func (s *Store[T]) Remove(e EntityID) {
	s.w.mustBeAlive("Remove["+s.name+"]", e)
	if s.w.depth > 0 {
		s.w.pending = append(s.w.pending, command{op: opRemove, e: e, s: s})
		return
	}
	s.delete(e)
	s.w.done()
}

// AddMatching gives v to every entity q matches, overwriting the T of those
// that have one. Inside an iteration it is deferred as one change that
// selects its entities when applied. Panics if q is invalid for the world.
func (s *Store[T]) AddMatching(q *Query, v T) {
	s.w.mustBeValid("AddMatching["+s.name+"]", q)
	if s.w.depth > 0 {
		s.w.pending = append(s.w.pending, command{op: opAddAll, s: s, v: v, q: q.clone()})
		return
	}
	for _, e := range s.w.Match(q) {
		s.write(e, v)
	}
	s.w.done()
}

// RemoveMatching takes T away from every entity q matches that has one.
// Inside an iteration it is deferred as one change that selects its entities
// when applied. Panics if q is invalid for the world.
func (s *Store[T]) RemoveMatching(q *Query) {
	s.w.mustBeValid("RemoveMatching["+s.name+"]", q)
	if s.w.depth > 0 {
		s.w.pending = append(s.w.pending, command{op: opRemoveAll, s: s, q: q.clone()})
		return
	}
	for _, e := range s.w.Match(q) {
		s.delete(e)
	}
	s.w.done()
}

func (s *Store[T]) kindOf() Kind          { return s.kind }
func (s *Store[T]) label() string         { return s.name }
func (s *Store[T]) has(e EntityID) bool   { return s.Has(e) }
func (s *Store[T]) size() int             { return len(s.m) }
func (s *Store[T]) drop(e EntityID)       { s.delete(e) }
func (s *Store[T]) fire(e EntityID)       { s.fireRemove(e) }
func (s *Store[T]) remove(e EntityID)     { s.erase(e) }
func (s *Store[T]) put(e EntityID, v any) { s.write(e, v.(T)) }

func (s *Store[T]) keys() []EntityID {
	ids := make([]EntityID, 0, len(s.m))
	for e := range s.m {
		ids = append(ids, e)
	}
	return ids
}
