package ecs

import "unsafe"

// AddMatching gives v to every entity q matches. Entities that already have
// a T are overwritten with v. Panics if q belongs to another world.
// Complexity: O(matched tables + moved rows x components).
func (m *Map[T]) AddMatching(q Matcher, v T) {
	c := m.w.ownCache("AddMatching", q)
	if m.w.lock > 0 {
		m.w.mustNotShare("AddMatching", m.info)
		m.w.queue(command{kind: cmdAddAll, id: m.id, q: c, slot: stage(&m.w.cmds, m.info, v)})
		return
	}
	// The value goes through the staging column of deferred adds: handing
	// &v to the type's fill function would move v to the heap on every call.
	b := &m.w.cmds
	slot := stage(b, m.info, v)
	s := &b.staging[m.id]
	m.w.addAll(c, m.info, s.col.at(slot))
	s.release(slot)
}

// RemoveMatching takes T away from every entity q matches that has one.
// Panics if q belongs to another world.
func (m *Map[T]) RemoveMatching(q Matcher) {
	c := m.w.ownCache("RemoveMatching", q)
	if m.w.lock > 0 {
		m.w.mustNotShare("RemoveMatching", m.info)
		m.w.queue(command{kind: cmdRemoveAll, id: m.id, q: c})
		return
	}
	m.w.removeAll(c, m.id)
}

// AddEntities gives each entity of es the component v, in order, as
// [Map.Add] would one by one: the same panics (an entity that is dead,
// of another world, or that already has a T, at its turn, the entities
// before it being changed already), hooks, observers and deferral inside
// an iteration, and the same final state, row order included. When T is
// table-stored, has no hooks and nothing observes the world, the entities
// move in one tight loop that reads ahead of itself, so the cache misses of
// entities scattered over a large world overlap instead of adding up (as
// EnTT's registry.insert over a range of entities). Complexity: O(len(es)).
func (m *Map[T]) AddEntities(es []Entity, v T) {
	w := m.w
	if m.sparse != nil || w.lock > 0 || w.notify || w.checker != nil {
		for _, e := range es {
			m.Add(e, v)
		}
		return
	}
	// SAFETY: &v points to a T, m.info's type, which moveEntities copies
	// into each entity's new row.
	w.moveEntities("AddEntities", es, m.info, true, unsafe.Pointer(&v))
}

// RemoveEntities takes T away from each entity of es, in order, as
// [Map.Remove] would one by one (an entity without a T is left alone; a
// dead one panics at its turn), with the same final state, row order
// included, and the fast path of [Map.AddEntities]. Complexity: O(len(es)).
func (m *Map[T]) RemoveEntities(es []Entity) {
	w := m.w
	if m.sparse != nil || w.lock > 0 || w.notify || w.checker != nil || m.info.hooks != nil {
		for _, e := range es {
			m.Remove(e)
		}
		return
	}
	w.moveEntities("RemoveEntities", es, m.info, false, nil)
}
