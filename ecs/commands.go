package ecs

import (
	"fmt"
	"strings"
)

// Commands is a command buffer of one's own: structural changes recorded
// now, by one goroutine, and applied later with [World.Apply] in the order
// they were recorded. It is how the systems of a parallel stage change the
// world (each has its own buffer, applied at the end of the stage in system
// order: the Run and Sync phases of a student game engine's parallel
// lock-free ECS, Bevy's Commands, flecs' deferred mode), and it works the
// same outside parallel sections. Recording reads
// the world (to check that entities are alive) but never changes it, so
// buffers can be filled on several goroutines at once, one buffer per
// goroutine. Values wait in per-type staging columns, so recording
// allocates nothing once warm.
//
// The verbs: [Commands.Spawn], [Commands.Despawn], [Map.SpawnCmd],
// [Map.SetCmd], [Map.RemoveCmd], and for several types at once
// [Map2.SpawnCmd], [Map2.SetCmd], [Map2.RemoveCmd] (to Map12); relation
// changes ([Relation.AddCmd] and its siblings, [Hierarchy.SetParentCmd],
// [Hierarchy.RemoveParentCmd]) and prefab spawns ([Prefab.SpawnCmd],
// [Prefab.SpawnCmdNodes]).
//
// Spawn returns a pending entity, which becomes a real one when the buffer
// is applied; changes recorded for it in the same buffer apply to that
// entity, in the order they were recorded, and [Commands.Resolve] gives the
// real entity after the Apply (as Bevy's Commands::spawn hands out an id
// reserved ahead of the spawn). A pending entity is a number within its
// buffer: one used with another buffer is not detected, and stands for that
// buffer's spawn of the same number (or panics if that buffer has made
// fewer). Spawning at Apply time rather than at record time keeps entity
// ids the same whatever the number of goroutines.
type Commands struct {
	w      *World
	buf    commandBuffer
	spawns uint32 // pending entities handed out since the last Apply or Reset
	// resolvable says buf.spawned maps the pending entities of the last
	// Apply to the entities it made: true from the end of an Apply until
	// the next change is recorded or the buffer is Reset.
	resolvable bool
}

// NewCommands returns an empty command buffer for w.
func (w *World) NewCommands() *Commands { return &Commands{w: w} }

// Len returns the number of recorded changes. A change of several types
// ([Map2.SpawnCmd], [Map2.SetCmd], [Map2.RemoveCmd] and the like) counts
// as one.
func (c *Commands) Len() int { return len(c.buf.cmds) }

// Reset drops every recorded change without applying it, and forgets the
// pending entities of the last Apply ([Commands.Resolve] returns false for
// them from then on).
func (c *Commands) Reset() {
	c.buf.reset()
	c.buf.spawned = c.buf.spawned[:0]
	c.spawns = 0
	c.resolvable = false
}

// push records cmd. The first change recorded after an Apply forgets the
// pending entities of that Apply.
func (c *Commands) push(cmd command) {
	if c.resolvable {
		c.resolvable = false
		c.buf.spawned = c.buf.spawned[:0]
	}
	c.buf.push(cmd)
}

// pending hands out the next pending entity.
func (c *Commands) pending() Entity {
	c.spawns++
	return Entity{0, c.spawns} // index 0 is never alive: the mark of a pending entity
}

// Spawn records the creation of an entity with no components and returns
// it as a pending entity: valid only for recording further changes in this
// buffer ([Commands.Despawn], [Map.SetCmd], [Map.RemoveCmd], [Map2.SetCmd]
// and the like), and never alive itself; after [World.Apply],
// [Commands.Resolve] turns it into the entity the Apply made.
// Complexity: O(1) amortised.
func (c *Commands) Spawn() Entity {
	if c.w.checker != nil {
		c.w.checker.CheckAccess(SpawnAccess, nil, true, "Spawn")
	}
	e := c.pending()
	c.push(command{kind: cmdSpawn, e: e})
	return e
}

// Resolve returns the entity that the last [World.Apply] of c made for the
// pending entity that c's Spawn (or a SpawnCmd with c) handed out, and
// true. The mapping is valid from the end of that Apply until c records
// its next change or is Reset; Resolve returns the zero Entity and false
// for an entity that is not pending, for a pending number c had not handed
// out before that Apply (or whose spawn a panicking hook kept from being
// applied), during an Apply, and once the mapping is gone. A pending
// entity of another buffer is not detected (see [Commands]): it stands for
// c's spawn of the same number. The entity may
// have been despawned since (by the buffer itself, or later): check it
// with [World.Alive]. A scheduler that applies a system's buffer at the
// end of its stage lets the system resolve, at the start of its next run
// and before recording anything, the entities it spawned in the last one.
// (Bevy's Commands::spawn, whose id is reserved at once; here it is known
// after the Apply, see [Commands].) Complexity: O(1).
func (c *Commands) Resolve(pending Entity) (Entity, bool) {
	if !c.resolvable || pending.index != 0 || pending.gen == 0 || int(pending.gen) > len(c.buf.spawned) {
		return Entity{}, false
	}
	return c.buf.spawned[pending.gen-1], true
}

// Despawn records the despawning of e. Panics if e is neither alive nor a
// pending entity of this buffer. If e is dead by the time the buffer is
// applied, nothing happens.
func (c *Commands) Despawn(e Entity) {
	c.check(DespawnAccess, "Despawn", e, c.w, nil)
	c.push(command{kind: cmdDespawn, e: e})
}

// check panics, naming op, the type info describes (if any) and e, unless
// e is alive or a pending entity of c and w, the world of the handle, is
// c's. It reports the structural change, of the given kind, to the world's
// access checker.
func (c *Commands) check(kind AccessKind, op string, e Entity, w *World, info *componentInfo) {
	if w != c.w {
		panic(fmt.Sprintf("ecs: %s: the Commands buffer belongs to another world", opName(op, info)))
	}
	if c.w.checker != nil {
		c.report(kind, op, e, info)
	}
	if !c.valid(e) {
		panic(c.invalidMessage(opName(op, info), e))
	}
}

// checkN is check for a handle of several types (Map2..Map12, named
// handle): each of infos is reported to the checker, and messages name the
// operation as handle[types].op. A nil e (SpawnCmd) is not checked; a
// SpawnAccess is reported as a spawn followed by an add of each type.
func (c *Commands) checkN(kind AccessKind, op string, e *Entity, w *World, handle string, infos []*componentInfo) {
	if w != c.w {
		panic(fmt.Sprintf("ecs: %s: the Commands buffer belongs to another world", handleOp(handle, infos, op)))
	}
	if c.w.checker != nil {
		if kind == SpawnAccess {
			c.w.checker.CheckAccess(SpawnAccess, nil, true, op)
			kind = AddAccess
		}
		for _, info := range infos {
			c.report(kind, op, Entity{}, info)
		}
	}
	if e != nil && !c.valid(*e) {
		panic(c.invalidMessage(handleOp(handle, infos, op), *e))
	}
}

// valid reports whether e is alive or a pending entity of c.
func (c *Commands) valid(e Entity) bool {
	if e.index == 0 {
		return e.gen != 0 && e.gen <= c.spawns
	}
	return c.w.entities.lookup(e) != nil
}

// invalidMessage is the panic message for an entity that valid rejects,
// the operation being name.
func (c *Commands) invalidMessage(name string, e Entity) string {
	if e.index != 0 {
		return c.w.deadMessage(name, e, nil)
	}
	msg := fmt.Sprintf("ecs: %s: entity %v is not a pending entity of this Commands buffer", name, e)
	if c.resolvable && e.gen != 0 && int(e.gen) <= len(c.buf.spawned) {
		msg += " (the buffer was applied since it handed the entity out: Commands.Resolve gives the entity it became)"
	}
	return msg
}

// handleOp names op of the handle of several types infos describe, as
// Map2[main.Pos,main.Vel].SetCmd.
func handleOp(handle string, infos []*componentInfo, op string) string {
	var b strings.Builder
	b.WriteString(handle)
	b.WriteByte('[')
	for i, info := range infos {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(info.typ.String())
	}
	b.WriteString("].")
	b.WriteString(op)
	return b.String()
}

func opName(op string, info *componentInfo) string {
	if info == nil {
		return op
	}
	if info.relation {
		return op // a relation's operation, which names the relation
	}
	return fmt.Sprintf("%s[%v]", op, info.typ)
}

// Apply carries out the changes recorded in c, in order, then empties c.
// Hooks fire as the changes apply, and the structural changes hooks make
// join the end; enter and leave observers are settled once, after all of
// them, as for the deferred changes of a loop. Changes to an entity that is
// dead by then are dropped. Afterwards [Commands.Resolve] maps c's pending
// entities to the entities made, until c records again or is Reset, and
// c's pending numbering starts again at 1. Panics inside an iteration or a
// parallel section, if c belongs to another world, or, before applying
// anything, if the spawns c recorded do not fit ([World.Room]). If a hook
// panics, or a recorded relation change is refused when applied (a pair
// that would close a cycle of an acyclic relation, a second target of an
// exclusive one), the panic leaves Apply: the changes recorded after it
// are dropped, c is emptied all the same (what was applied stays applied, and the spawns
// made so far can be resolved) and, as after any panic in a hook,
// [World.Recover] makes the world usable again. Complexity: O(changes),
// each as its direct counterpart.
func (w *World) Apply(c *Commands) {
	if c.w != w {
		panic("ecs: Apply: the Commands buffer belongs to another world")
	}
	if w.lock > 0 {
		panic("ecs: Apply: called inside an iteration or a parallel section" + w.openLoopNote())
	}
	if int64(c.spawns) > int64(w.entities.room()) {
		// Refused whole, before anything is applied (c is kept).
		panic(w.entities.tooMany("Apply of the spawns recorded", uint64(c.spawns)))
	}
	c.buf.spawned = c.buf.spawned[:0]
	c.resolvable = false
	defer c.applied() // applied or not, if a hook panics: never applied twice
	w.applyBuffer(&c.buf)
}

// applied empties c after an Apply, keeping the pending entities' mapping
// for Resolve.
func (c *Commands) applied() {
	c.buf.reset()
	c.spawns = 0
	c.resolvable = true
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
