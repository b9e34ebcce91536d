package ecs

import (
	"fmt"
	"unsafe"
)

// bundle is the non-generic half of a Map2..Map12 handle: the types it
// covers and every decision about them. Each of the handle's generic
// methods asks the bundle where its values go (slots), writes them there
// with typed assignments, then hands back a put so the bundle can finish:
// so one place decides whether a change applies now or waits in the
// world's queue, judges it against the changes queued before it, and
// makes it one table move on every path. (The split of flecs'
// flecs_defer_add and friends, which judge, queue or apply a change given
// its component ids, and of Ark's generated maps, thin wrappers over
// non-generic world operations. A bundle is Bevy's word for a set of
// components inserted together.)
type bundle struct {
	w      *World
	handle string // "Map2", for messages
	ids    []componentID
	infos  []*componentInfo
	table  *table  // the table of exactly the table types
	cols   []int32 // the types' columns in table, -1 for a sparse type
	sparse bool    // some type is sparse: Spawn writes through spawnSlot
}

// newBundle makes the bundle of the distinct types ids in w; handle names it
// in messages. Panics if a type is listed twice or inside a parallel section.
func newBundle(w *World, handle string, ids []componentID) bundle {
	w.mustNotMakeShared("New"+handle, "handle")
	t, infos, cols := w.spawnTable("New"+handle, ids)
	b := bundle{w: w, handle: handle, ids: ids, infos: infos, table: t, cols: cols}
	for _, c := range cols {
		b.sparse = b.sparse || c < 0
	}
	return b
}

// putMode says what finishing a put involves.
type putMode uint8

const (
	putQueued  putMode = iota // the values went to the queue: nothing is left to do
	putSpawned                // a new entity in its table: observers, then OnAdd hooks
	putMoved                  // an entity gained or overwrote the types: observers, OnAdd or OnSet hooks
	putInPlace                // every type overwritten in place while changes are deferred: OnSet hooks
	putNothing                // a batch of no entities
)

// put is what a bundle's begin tells its end: the entity, which types it
// had before (bit i: the i-th type, overwritten rather than added) and what
// is left to do once the caller has written the values.
type put struct {
	e    Entity
	had  uint16
	mode putMode
	row  uint32 // the first row of a batch spawn
	n    int    // a batch's size
	// unlock: an Exchange's OnRemove hooks left the world locked, so the
	// changes they made wait for the whole exchange; end unlocks.
	unlock bool
}

// direct reports whether a spawn can write the table's columns now: no
// type is sparse and changes are not deferred.
func (b *bundle) direct() bool { return b.w.lock == 0 && !b.sparse }

// spawn begins a Spawn: it makes e with the bundle's types (at once in
// their table, or, while changes are deferred, as an empty entity whose
// add of the types is queued as one change) and fills p with where the
// caller writes each value. Complexity: O(number of types).
func (b *bundle) spawn(p []unsafe.Pointer) put {
	w := b.w
	if w.lock > 0 {
		e := w.Spawn()
		b.queueAdd(e, p)
		return put{e: e}
	}
	t := b.table
	w.enter("Spawn")
	e, r := w.entities.alloc()
	row := t.pushEntity(e)
	r.slot, r.row = t.slot, row
	for i, info := range b.infos {
		p[i] = spawnSlot(e, t, row, b.cols[i], info)
	}
	w.leave()
	return put{e: e, mode: putSpawned}
}

// add begins an Add (set false) or Set (set true) of every type on the
// live entity e and fills p with where the caller writes each value. Add
// panics, naming the handle, the type and e, if e has one of the types (or
// will have it once the queued changes apply). Outside an iteration the
// types e lacks are added in one move; inside one, a Set of types e has,
// none of them with a change queued, overwrites in place, and every other
// case queues one add-or-overwrite of all the types.
func (b *bundle) add(e Entity, p []unsafe.Pointer, set bool) put {
	w := b.w
	op := "Add"
	if set {
		op = "Set"
		if w.checker != nil {
			for _, info := range b.infos {
				w.checkComponent(info, true, "Set")
			}
		}
	}
	r := w.checkAliveN(b.handle, b.infos, op, e)
	if w.lock > 0 {
		return b.addDeferred(e, r, p, set)
	}
	var had uint16
	src := w.tableOf(r)
	dst := src
	for i, info := range b.infos {
		if w.hasComponent(e, r, info) {
			if !set {
				panic(fmt.Sprintf("ecs: %s: entity %v already has %v; use Set to overwrite", handleOp(b.handle, b.infos, "Add"), e, info.typ))
			}
			had |= 1 << i
		} else if info.sparse == nil {
			dst = w.withComponent(dst, info.id)
		}
	}
	row := r.row
	if dst != src {
		row = w.move(e, r, dst)
	}
	for i, info := range b.infos {
		p[i] = putSlot(e, dst, row, dst.column(info.id), info, had&(1<<i) != 0)
	}
	return put{e: e, had: had, mode: putMoved}
}

// addDeferred is add while changes are deferred (see add).
func (b *bundle) addDeferred(e Entity, r *record, p []unsafe.Pointer, set bool) put {
	w := b.w
	if set {
		inPlace := true
		for _, info := range b.infos {
			if w.judgeAdd(e, r, info, true) {
				inPlace = false
				break
			}
		}
		if inPlace {
			for i, info := range b.infos {
				p[i] = w.componentAt("Set", e, r, info)
			}
			return put{e: e, had: 1<<len(b.infos) - 1, mode: putInPlace}
		}
		if w.shared {
			for _, info := range b.infos {
				if !w.hasComponent(e, r, info) {
					w.mustNotShare("Set", info)
				}
			}
			w.mustNotShare("Set", b.infos[0]) // has them all, but a change is queued
		}
	} else {
		w.mustNotShare("Add", b.infos[0])
		for _, info := range b.infos {
			w.judgeAdd(e, r, info, false)
		}
	}
	b.queueAdd(e, p)
	return put{e: e}
}

// queueAdd queues one add-or-overwrite of every type on e (a cmdAddN),
// after the changes queued before it, and fills p with the staging slots
// the caller writes the values into.
func (b *bundle) queueAdd(e Entity, p []unsafe.Pointer) {
	w := b.w
	off := b.stage(&w.cmds, p)
	w.queue(command{kind: cmdAddN, e: e, id: componentID(len(b.ids)), slot: off})
}

// stage reserves a staging slot in buf for each type, appends the pairs
// (id, slot) to buf.multi, and fills p with the slots' addresses. It
// returns the offset of the pairs in buf.multi.
func (b *bundle) stage(buf *commandBuffer, p []unsafe.Pointer) uint32 {
	off := uint32(len(buf.multi))
	for i, info := range b.infos {
		s := buf.stagingFor(info)
		slot := s.n
		if slot == s.capacity {
			s.grow()
		}
		s.n++
		p[i] = s.col.at(slot)
		buf.multi = append(buf.multi, info.id, componentID(slot))
	}
	return off
}

// stageIDs appends the bundle's ids to buf.multi (the entries of a
// removal of every type) and returns their offset.
func (b *bundle) stageIDs(buf *commandBuffer) uint32 {
	off := uint32(len(buf.multi))
	buf.multi = append(buf.multi, b.ids...)
	return off
}

// end finishes what begin started, once the caller wrote the values: the
// observers and the OnAdd or OnSet hooks of each type, in the handle's
// order. Changes the hooks make wait until every hook has run.
func (b *bundle) end(pt put) {
	w := b.w
	switch pt.mode {
	case putSpawned:
		if w.notify {
			w.spawned(pt.e, b.infos)
		}
	case putMoved:
		// The move and the sparse adds told observers that e changed.
		if w.notify {
			if w.hooked {
				w.addedAll(pt.e, b.infos, pt.had)
			}
			w.settle()
		}
	case putInPlace:
		for _, info := range b.infos {
			// Read again for each type: an OnSet hook of the one before
			// may have spawned and moved the index.
			w.overwritten(info, pt.e, w.componentAt("Set", pt.e, w.entities.at(pt.e.index), info))
		}
	}
	if pt.unlock {
		w.unlock()
	}
}

// remove takes every type e has away from it, in one table move, after
// their OnRemove hooks ran; while changes are deferred it queues that as
// one change. Panics, naming the handle and e, if e is not alive.
func (b *bundle) remove(e Entity) {
	w := b.w
	r := w.checkAliveN(b.handle, b.infos, "Remove", e)
	if w.lock > 0 {
		w.mustNotShare("Remove", b.infos[0])
		w.queue(command{kind: cmdRemoveN, e: e, id: componentID(len(b.ids)), slot: b.stageIDs(&w.cmds)})
		return
	}
	w.removeMany(e, r, b.ids)
}

// get fills p with e's values of the types for Get and TryGet off their
// fast paths (sparse types, an access checker, errors). With try it
// reports false, and fills nothing, when e is dead or lacks a type;
// otherwise it panics then, naming the handle, the type, e and op.
func (b *bundle) get(op string, e Entity, p []unsafe.Pointer, try bool) bool {
	w := b.w
	if w.checker != nil {
		for _, info := range b.infos {
			w.checkComponent(info, false, op)
		}
	}
	var r *record
	if try {
		if r = w.entities.lookup(e); r == nil || !b.hasAll(e, r) {
			return false
		}
	} else {
		r = w.checkAliveN(b.handle, b.infos, op, e)
	}
	for i, info := range b.infos {
		p[i] = w.componentAt(op, e, r, info)
	}
	return true
}

// addable reports whether an Add of every type on e would be accepted (see
// World.addable): e is alive and lacks each type, now or once the queued
// changes apply.
func (b *bundle) addable(e Entity) bool {
	r := b.w.entities.lookup(e)
	if r == nil {
		return false
	}
	for _, info := range b.infos {
		if !b.w.addable(e, r, info) {
			return false
		}
	}
	return true
}

// has is Has off its fast path.
func (b *bundle) has(e Entity) bool {
	w := b.w
	if w.checker != nil {
		for _, info := range b.infos {
			w.checkComponent(info, false, "Has")
		}
	}
	r := w.entities.lookup(e)
	return r != nil && b.hasAll(e, r)
}

// hasAll reports whether the live entity e (record r) has every type.
func (b *bundle) hasAll(e Entity, r *record) bool {
	for _, info := range b.infos {
		if !b.w.hasComponent(e, r, info) {
			return false
		}
	}
	return true
}
