package ecs

import "fmt"

// SpawnCmd records in c the creation of an entity with the single
// component v and returns it as a pending entity (see [Commands.Spawn]):
// changes recorded for it afterwards apply to it, in order, and
// [Commands.Resolve] gives the real entity once c is applied. Applying the
// change makes the entity directly in the table of T alone (the table of
// no type, for a sparse T), with no table move, and fires OnAdd hooks and
// enter observers as [Map.Spawn] does: the one-type form of
// [Map2.SpawnCmd], one change in [Commands.Len] where a Commands.Spawn and
// a [Map.SetCmd] are two. Panics if c belongs to another world.
// Complexity: O(1) amortised to record, no allocation once c has grown.
// (Bevy's Commands::spawn; flecs' deferred mode.)
func (m *Map[T]) SpawnCmd(c *Commands, v T) Entity {
	if m.w != c.w {
		panic(fmt.Sprintf("ecs: %s: the Commands buffer belongs to another world", opName("SpawnCmd", m.info)))
	}
	if c.w.checker != nil {
		c.w.checker.CheckAccess(SpawnAccess, nil, true, "SpawnCmd")
		c.report(AddAccess, "SpawnCmd", Entity{}, m.info)
	}
	t := m.table
	if t == nil {
		t = m.w.empty // a sparse T: the entity's row holds no column
	}
	e := c.pending()
	b := &c.buf
	off := uint32(len(b.multi))
	b.multi = append(b.multi, componentID(len(b.tables)), m.id, componentID(stage(b, m.info, v)))
	b.tables = append(b.tables, t)
	c.push(command{kind: cmdSpawnN, e: e, id: 1, slot: off})
	return e
}

// SetCmd records giving e the component v: when the buffer is applied, e
// gains a T, or has its T overwritten if it has one by then (firing OnAdd or
// OnSet). Panics if e is neither alive nor a pending entity of c, or if c
// belongs to another world. Complexity: O(1) amortised, no allocation once
// warm.
func (m *Map[T]) SetCmd(c *Commands, e Entity, v T) {
	c.check(AddAccess, "SetCmd", e, m.w, m.info)
	c.push(command{kind: cmdAdd, e: e, id: m.id, slot: stage(&c.buf, m.info, v)})
}

// RemoveCmd records taking T away from e; when the buffer is applied, it
// does nothing if e has no T or is dead by then. Panics like SetCmd.
func (m *Map[T]) RemoveCmd(c *Commands, e Entity) {
	c.check(RemoveAccess, "RemoveCmd", e, m.w, m.info)
	c.push(command{kind: cmdRemove, e: e, id: m.id})
}
