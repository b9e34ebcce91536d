package ecs

import "fmt"

// Commands is a command buffer of one's own: structural changes recorded
// now, by one goroutine, and applied later with [World.Apply] in the order
// they were recorded. It is how the systems of a parallel stage change the
// world (each has its own buffer, applied at the end of the stage in system
// order: seed 003's Run and Sync phases, Bevy's Commands), and it works the
// same outside parallel sections. Recording reads the world (to check that
// entities are alive) but never changes it, so buffers can be filled on
// several goroutines at once, one buffer per goroutine. Values wait in
// per-type staging columns, so recording allocates nothing once warm.
//
// Spawn returns a pending entity, which becomes a real one when the buffer
// is applied; changes recorded for it in the same buffer apply to that
// entity. A pending entity is a number within its buffer: one used with
// another buffer is not detected, and stands for that buffer's spawn of the
// same number (or panics if that buffer has made fewer). Spawning at Apply time rather than at record time keeps entity ids
// the same whatever the number of goroutines.
type Commands struct {
	w      *World
	buf    commandBuffer
	spawns uint32 // pending entities handed out
}

// NewCommands returns an empty command buffer for w.
func (w *World) NewCommands() *Commands { return &Commands{w: w} }

// Len returns the number of recorded changes.
func (c *Commands) Len() int { return len(c.buf.cmds) }

// Reset drops every recorded change without applying it.
func (c *Commands) Reset() {
	c.buf.reset()
	c.buf.spawned = c.buf.spawned[:0]
	c.spawns = 0
}

// Spawn records the creation of an entity with no components and returns
// it as a pending entity: valid only for recording further changes in this
// buffer ([Commands.Despawn], [Map.AddCmd], [Map.RemoveCmd]), and never
// alive itself. Complexity: O(1) amortised.
func (c *Commands) Spawn() Entity {
	if c.w.checker != nil {
		c.w.checker.CheckAccess(SpawnAccess, nil, true, "Spawn")
	}
	c.spawns++
	e := Entity{0, c.spawns} // index 0 is never alive: the mark of a pending entity
	c.buf.push(command{kind: cmdSpawn, e: e})
	return e
}

// Despawn records the despawning of e. Panics if e is neither alive nor a
// pending entity of this buffer. If e is dead by the time the buffer is
// applied, nothing happens.
func (c *Commands) Despawn(e Entity) {
	c.check("Despawn", e, c.w, nil)
	c.buf.push(command{kind: cmdDespawn, e: e})
}

// AddCmd records giving e the component v: when the buffer is applied, e
// gains a T, or has its T overwritten if it has one by then (firing OnAdd or
// OnSet). Panics if e is neither alive nor a pending entity of c, or if c
// belongs to another world. Complexity: O(1) amortised, no allocation once
// warm.
func (m *Map[T]) AddCmd(c *Commands, e Entity, v T) {
	c.check("AddCmd", e, m.w, m.info)
	c.buf.push(command{kind: cmdAdd, e: e, id: m.id, slot: stage(&c.buf, m.info, v)})
}

// RemoveCmd records taking T away from e; when the buffer is applied, it
// does nothing if e has no T or is dead by then. Panics like AddCmd.
func (m *Map[T]) RemoveCmd(c *Commands, e Entity) {
	c.check("RemoveCmd", e, m.w, m.info)
	c.buf.push(command{kind: cmdRemove, e: e, id: m.id})
}

// check panics, naming op, the type info describes (if any) and e, unless
// e is alive or a pending entity of c and w, the world of the handle, is
// c's. It reports the structural change to the world's access checker.
func (c *Commands) check(op string, e Entity, w *World, info *componentInfo) {
	if w != c.w {
		panic(fmt.Sprintf("ecs: %s: the Commands buffer belongs to another world", opName(op, info)))
	}
	if c.w.checker != nil {
		c.report(op, e, info)
	}
	if e.index == 0 {
		if e.gen == 0 || e.gen > c.spawns {
			panic(fmt.Sprintf("ecs: %s: entity %v is not a pending entity of this Commands buffer", opName(op, info), e))
		}
		return
	}
	if c.w.entities.lookup(e) == nil {
		panic(c.w.deadMessage(op, e, info))
	}
}

func opName(op string, info *componentInfo) string {
	if info == nil {
		return op
	}
	return fmt.Sprintf("%s[%v]", op, info.typ)
}

// Apply carries out the changes recorded in c, in order, then empties c.
// Hooks fire as the changes apply, and the structural changes hooks make
// join the end; enter and leave observers are settled once, after all of
// them, as for the deferred changes of a loop. Changes to an entity that is
// dead by then are dropped. Panics inside an iteration or a parallel
// section, or if c belongs to another world. If a hook panics, c is emptied
// all the same (what was applied stays applied) and, as after any panic in
// a hook, [World.Recover] makes the world usable again.
func (w *World) Apply(c *Commands) {
	if c.w != w {
		panic("ecs: Apply: the Commands buffer belongs to another world")
	}
	if w.lock > 0 {
		panic("ecs: Apply: called inside an iteration or a parallel section" + w.openLoopNote())
	}
	defer c.Reset() // applied or not, if a hook panics: never applied twice
	w.applyBuffer(&c.buf)
}

func (w *World) applyBuffer(b *commandBuffer) {
	w.flushing = true
	func() {
		defer func() { w.flushing = false }()
		for i := 0; i < len(b.cmds); i++ { // changes recorded into b by hooks apply too
			w.apply(b, &b.cmds[i])
		}
	}()
	w.unlocked()
}
