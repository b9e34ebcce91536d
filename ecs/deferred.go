package ecs

import "unsafe"

// cmdKind names a deferred structural change.
type cmdKind uint8

const (
	cmdDespawn cmdKind = iota
	cmdAdd
	cmdRemove
	cmdAddAll
	cmdRemoveAll
	cmdDespawnAll
	cmdSpawn // Commands.Spawn: a new entity, made when the buffer is applied
	// Changes of several types at once (Map2..Map12 with a Commands
	// buffer): id holds the number of types and slot the offset of their
	// entries in the buffer's multi list.
	cmdSpawnN     // SpawnCmd: a new entity with components, made in their table
	cmdAddN       // SetCmd: adds or overwrites, in one move
	cmdRemoveN    // RemoveCmd: removals, in one move
	cmdAddAllN    // Map2.AddMatching and the like, deferred: one batch of all the types
	cmdRemoveAllN // Map2.RemoveMatching and the like, deferred: one batch of all the types
	cmdExchangeN  // Exchange: removals and adds, in one move (see exchangeMany)
	// cmdFunc runs funcs[slot]: a relation change, which checks when it
	// runs that its entities still live.
	cmdFunc
)

// command is one deferred structural change. Values of deferred adds wait in
// a per-type staging column (slot), so recording a change allocates nothing
// once the buffers have grown.
type command struct {
	kind  cmdKind
	round uint16 // the cascade round (see MaxCascadeRounds)
	id    componentID
	slot  uint32
	prev  uint32 // position+1 of the previous queued change of e's index (see queue)
	e     Entity
	q     *queryCache
}

// staging holds the values of deferred adds of one component type.
type staging struct {
	col      column
	n        uint32
	capacity uint32
}

func (s *staging) grow() {
	c := max(2*s.capacity, 8)
	nb := s.col.info.alloc(int(c))
	s.col.info.copyN(nb, s.col.base, int(s.n))
	s.col.base = nb
	s.capacity = c
}

// release frees slot, the last one staged, zeroing it for the collector.
func (s *staging) release(slot uint32) {
	if !s.col.info.pointerFree {
		s.col.info.clearN(s.col.at(slot), 1)
	}
	s.n = slot
}

// commandBuffer records structural changes made while an iteration runs, in
// the order they were made.
type commandBuffer struct {
	cmds    []command
	staging []staging // indexed by component id
	spawned []Entity  // a Commands buffer's spawns, made by its Apply so far
	// multi holds the entries of the changes of several types (cmdSpawnN,
	// cmdAddN, cmdAddAllN: a component id and its staging slot per type;
	// cmdRemoveN, cmdRemoveAllN: a component id per type), in the handle's
	// order. A cmdSpawnN's entries start with the position of its table in
	// tables.
	multi  []componentID
	tables []*table               // the tables of cmdSpawnN changes
	funcs  []func(*commandBuffer) // the changes of cmdFunc commands, given the buffer to resolve pending entities
}

// deferral is the state machine that decides whether a structural change
// applies at once or waits (part of World). Its states, and the fields
// that tell them, some of them in other parts of World:
//
//   - no iteration: lock == 0 and none of the flags below; changes apply
//     at once.
//   - iterating: lock > 0. Raised by every iteration pass (openedBy is the
//     outermost one's query), and also around hook calls, observers,
//     batches and by a parallel section. Changes go to cmds (indexed by
//     pendingIndex) and are applied when lock drops back to zero.
//   - flushing: flush is applying the queued changes (applied counts those
//     applied), or World.Apply a Commands buffer's, each with lock == 0.
//     Changes their hooks make are queued: a flush applies them at its
//     end, World.Apply after the buffer.
//   - settling (observerState.settling): settle is firing pair hooks and
//     enter and leave observers, with lock raised around them; it flushes
//     the changes they make between rounds, so it may hold flushing.
//   - in a hook (hookState.frames not empty): hook calls in progress,
//     always with lock raised, inside any of the states above.
//   - despawning (hookState.dying): a despawn is running its OnRemove
//     hooks; removing (hookState.removingE and removingIDs): a removal
//     is. Each holds only around those hook calls, and never both at once,
//     since the changes hooks make are deferred.
//   - mutating (misuseGuard.mutating): inside a structural mutation core
//     (enter and leave), or an operation calling the stored types' own
//     methods (beginMethods, methodsOf). It may hold inside any state
//     above and is the innermost: the cores call no user code, so nothing
//     runs inside it but those methods.
//   - parallel section (misuseGuard.shared): Parallel().Begin raised lock
//     once (it refuses to open with lock > 0) and passes leave it alone;
//     hooks run without frames. It combines with none of flushing,
//     settling, a hook frame, despawning or removing.
//
// World.Recover always clears mutating and methodsOf, and does nothing
// more in a parallel section. With lock == 0 it applies the changes queued
// after one whose application panicked. With lock > 0 it panics inside a
// hook, flush or settle (their own defers clear frames, flushing and
// settling when a panic leaves them); otherwise it sets lock to 0, clears
// dying, removingE and openedBy, bumps epoch so that passes and cursors
// opened before it do not unlock again, completes the queued despawn or
// removal whose OnRemove hook panicked (finishInterrupted, without its
// remaining hooks), then flushes the rest of the queue and settles.
type deferral struct {
	// lock counts the iterations in progress. While it is above zero,
	// structural changes go to cmds and are applied when it drops to zero.
	lock     int32
	epoch    uint32 // bumped by Recover and Parallel().End, which end the open passes
	cmds     commandBuffer
	applied  int  // deferred changes applied so far by flush
	flushing bool // flush is applying deferred changes
	// openedBy is the query of the outermost open iteration (nil when none
	// is open, or when a hook, batch or observer raised the count), for
	// messages.
	openedBy *queryCache
}

func (b *commandBuffer) push(c command) { b.cmds = append(b.cmds, c) }

func (b *commandBuffer) stagingFor(info *componentInfo) *staging {
	for len(b.staging) <= int(info.id) {
		b.staging = append(b.staging, staging{})
	}
	s := &b.staging[info.id]
	if s.col.info == nil {
		s.col = newColumn(info, 0)
	}
	return s
}

// unlock ends one iteration; the outermost one applies the deferred changes.
func (w *World) unlock() {
	w.lock--
	if w.lock == 0 {
		w.openedBy = nil
		if len(w.cmds.cmds) != 0 || len(w.touched) != 0 || len(w.pairEvents) != 0 {
			w.unlocked()
		}
	}
}

// unlocked applies the deferred changes and settles enter/leave observers
// once no iteration runs.
func (w *World) unlocked() {
	if len(w.cmds.cmds) != 0 && !w.flushing {
		w.flush()
	}
	w.settle()
}

// unlockPass ends an iteration that began at the given epoch. After a
// Recover (a new epoch) the iteration was already ended, so this does
// nothing.
func (w *World) unlockPass(epoch uint32) {
	if w.epoch == epoch && !w.shared {
		w.unlock()
	}
}

// lockPass starts an iteration pass of c (nil for a hook call) and returns
// the epoch to hand unlockPass. Inside a parallel section the count, raised
// once by ParallelControl.Begin, is left alone: passes run on several
// goroutines.
func (w *World) lockPass(c *queryCache) uint32 {
	if w.checker != nil && c != nil {
		w.checkPass(c)
	}
	if !w.shared {
		if w.lock == 0 {
			w.openedBy = c // named by openLoopNote
		}
		w.lock++
	}
	return w.epoch
}

// Recover makes w usable again after a panic escaped the body of a
// per-entity (range) or cursor loop and was recovered: those two forms do not
// use defer (it would stop the compiler from inlining the loop body, see the
// package documentation), so such a panic leaves w believing the loop still
// runs and structural changes stay queued. Recover ends every open iteration
// and applies the queued changes in the order they were made; nothing is
// lost. The same holds for a deferred change that panicked when the
// outermost loop ended and applied it (a relation change refused then, a
// despawn refused by RefuseDespawn): Recover applies the changes queued
// after it. Call it from the function that recovered the panic, after every loop
// over w has been left. The per-table form (Chunks) is panic-safe by itself.
// Cursors left open by the panic are ended too: Close on them does
// nothing, and they must not be used again. If the panic came from an
// OnRemove hook of a queued despawn or removal, that change is completed
// (without its remaining hooks), since the changes queued after it were
// judged as after it. Recover does nothing when no iteration is open, and
// panics when called inside a hook or observer.
func (w *World) Recover() {
	w.mutating, w.methodsOf = false, "" // a panic inside a structural mutation (an internal limit, a Clone method)
	if w.shared {
		return // passes in a parallel section hold no count
	}
	if w.lock == 0 {
		// No loop is open, but a change applied at the end of one may
		// have panicked (a relation change refused when it was applied, a
		// refused despawn): apply the changes queued after it.
		if w.applied > 0 && w.applied < len(w.cmds.cmds) && !w.flushing && len(w.frames) == 0 {
			w.flush()
			w.settle()
		}
		return
	}
	if len(w.frames) > 0 || w.flushing || w.settling {
		panic("ecs: Recover: called inside a hook or observer, while the world is applying changes; recover the panic (and call Recover) outside every hook, observer and loop body")
	}
	w.lock = 0
	w.shared = false
	w.frames = w.frames[:0]
	w.dying, w.removingE = Entity{}, Entity{}
	w.openedBy = nil
	w.epoch++ // cursors opened before now must not unlock again
	w.finishInterrupted()
	w.flush()
	w.settle()
}

// finishInterrupted completes the deferred despawn or removal whose
// OnRemove hook panicked, without its remaining hooks: the changes queued
// after it were judged as after it, so it must not be lost. (An add is
// complete before its hooks run; a batch interrupted by a panicking hook
// stays partly applied.)
func (w *World) finishInterrupted() {
	if w.applied == 0 || w.applied > len(w.cmds.cmds) {
		return
	}
	c := w.cmds.cmds[w.applied-1]
	r := w.entities.lookup(c.e)
	if r == nil {
		return
	}
	hooked := w.hooked
	w.hooked = false // the hooks ran, or panicked: they do not run again
	defer func() { w.hooked = hooked }()
	switch c.kind {
	case cmdDespawn:
		w.despawn(c.e, r)
	case cmdRemove:
		info := w.reg.infos[c.id]
		if !w.hasComponent(c.e, r, info) {
			return
		}
		if s := info.sparse; s != nil {
			s.remove(c.e)
		} else {
			w.move(c.e, r, w.withoutComponent(w.tableOf(r), c.id))
		}
	case cmdRemoveN:
		w.removeMany(c.e, r, w.cmds.multi[c.slot:c.slot+uint32(c.id)]) // hooks off: a move
	case cmdExchangeN:
		w.exchangeMany(c.e, r, &w.cmds, w.cmds.exchangeEntries(&c))
	}
}

// flush applies the deferred changes in order. It runs with w unlocked, so
// each change applies immediately.
func (w *World) flush() {
	// Hooks fired by the changes may record more changes: they join the
	// end of this flush rather than start another.
	// A change counts as applied (w.applied passes it) before its hooks
	// run, so changes they make are judged against the state after it. If
	// a hook panics, the flush resumes after that change at the next
	// Recover: nothing is applied twice.
	w.flushing = true
	defer func() { w.flushing = false }()
	for w.applied < len(w.cmds.cmds) {
		i := w.applied
		w.applied++
		w.apply(&w.cmds, &w.cmds.cmds[i])
	}
	w.clearQueued()
	w.cmds.reset()
}

// reset empties b, zeroing its staged values for the collector.
func (b *commandBuffer) reset() {
	b.cmds = b.cmds[:0]
	b.multi = b.multi[:0]
	b.tables = b.tables[:0]
	clear(b.funcs)
	b.funcs = b.funcs[:0]
	for i := range b.staging {
		s := &b.staging[i]
		if s.n != 0 && !s.col.info.pointerFree {
			s.col.info.clearN(s.col.base, int(s.n))
		}
		s.n = 0
	}
}

// apply carries out one deferred change recorded in b. Changes to an
// entity that an earlier deferred change despawned are dropped.
func (w *World) apply(b *commandBuffer, c *command) {
	switch c.kind {
	case cmdSpawn:
		b.spawned = append(b.spawned, w.Spawn())
		return
	case cmdSpawnN:
		w.spawnMany(b, b.tables[b.multi[c.slot]], b.multi[c.slot+1:c.slot+1+2*uint32(c.id)])
		return
	case cmdFunc:
		b.funcs[c.slot](b)
		return
	}
	if c.e.index == 0 && c.e.gen != 0 {
		c.e = b.spawned[c.e.gen-1] // a pending entity of a Commands buffer
	}
	switch c.kind {
	case cmdDespawn:
		if r := w.entities.lookup(c.e); r != nil {
			w.despawn(c.e, r)
		}
	case cmdAdd:
		r := w.entities.lookup(c.e)
		if r == nil {
			return
		}
		s := &b.staging[c.id]
		src := s.col.at(c.slot)
		info := s.col.info
		if w.hasComponent(c.e, r, info) {
			p := w.componentAt("Add", c.e, r, info)
			info.copy1(p, src)
			w.overwritten(info, c.e, p)
			return
		}
		p := w.addSlot(c.e, r, info)
		info.copy1(p, src)
		w.added(info, c.e, p)
	case cmdRemove:
		if r := w.entities.lookup(c.e); r != nil {
			w.removeComponent(c.e, r, c.id)
		}
	case cmdAddN:
		if r := w.entities.lookup(c.e); r != nil {
			w.addMany(c.e, r, b, b.multi[c.slot:c.slot+2*uint32(c.id)])
		}
	case cmdRemoveN:
		if r := w.entities.lookup(c.e); r != nil {
			w.removeMany(c.e, r, b.multi[c.slot:c.slot+uint32(c.id)])
		}
	case cmdExchangeN:
		if r := w.entities.lookup(c.e); r != nil {
			w.exchangeMany(c.e, r, b, b.exchangeEntries(c))
		}
	case cmdAddAll:
		s := &b.staging[c.id]
		w.addAll(c.q, s.col.info, s.col.at(c.slot))
	case cmdRemoveAll:
		w.removeAll(c.q, c.id)
	case cmdAddAllN:
		w.addAllMany(c.q, b, b.multi[c.slot:c.slot+2*uint32(c.id)])
	case cmdRemoveAllN:
		w.removeAllMany(c.q, b.multi[c.slot:c.slot+uint32(c.id)])
	case cmdDespawnAll:
		w.despawnAll(c.q)
	}
}

// spawnMany applies a cmdSpawnN of b whose entries are pairs: it makes an
// entity directly in t, the table of the pairs' types (no move), writes
// their staged values, records the entity as b's next spawn, and fires
// OnAdd hooks and observers as Map2.Spawn and the like do.
func (w *World) spawnMany(b *commandBuffer, t *table, pairs []componentID) {
	w.enter("Spawn")
	e, r := w.entities.alloc()
	row := t.pushEntity(e)
	r.slot, r.row = t.slot, row
	for i := 0; i < len(pairs); i += 2 {
		info := w.reg.infos[pairs[i]]
		info.copy1(spawnSlot(e, t, row, t.column(info.id), info), b.staging[info.id].col.at(uint32(pairs[i+1])))
	}
	w.leave()
	b.spawned = append(b.spawned, e)
	if w.notify {
		w.touch(e)
		if w.hooked {
			w.addedMany(e, pairs, 0)
		}
		w.settle()
	}
}

// addMany applies a cmdAddN of b to the live entity e (record r): the
// types e lacks are added in one move, the ones it has are overwritten,
// then the OnAdd or OnSet hooks of each type fire in the handle's order,
// as Map2.Add and the like fire them.
func (w *World) addMany(e Entity, r *record, b *commandBuffer, pairs []componentID) {
	var had uint16 // bit i: e has the i-th type already (at most 12 types)
	src := w.tableOf(r)
	dst := src
	for i := 0; i < len(pairs); i += 2 {
		info := w.reg.infos[pairs[i]]
		if w.hasComponent(e, r, info) {
			had |= 1 << (i / 2)
		} else if info.sparse == nil {
			dst = w.withComponent(dst, info.id)
		}
	}
	if dst != src {
		w.move(e, r, dst)
	}
	for i := 0; i < len(pairs); i += 2 {
		info := w.reg.infos[pairs[i]]
		var p unsafe.Pointer
		if had&(1<<(i/2)) != 0 {
			p = w.componentAt("SetCmd", e, r, info)
			if info.track {
				w.touchValue(info, e)
			}
		} else {
			p = spawnSlot(e, dst, r.row, dst.column(info.id), info)
		}
		info.copy1(p, b.staging[info.id].col.at(uint32(pairs[i+1])))
	}
	if w.notify {
		if w.hooked {
			w.addedMany(e, pairs, had)
		}
		w.settle()
	}
}

// addedMany fires, for each type of pairs in order, the OnSet hooks of
// those marked in had (the i-th type by bit i) and the OnAdd hooks of the
// others, for the live entity e, with the world locked for
// all of them: changes the hooks make wait until every hook has run.
func (w *World) addedMany(e Entity, pairs []componentID, had uint16) {
	w.lock++
	for i := 0; i < len(pairs); i += 2 {
		info := w.reg.infos[pairs[i]]
		h := info.hooks
		if h == nil {
			continue
		}
		kind, hooks := hookOnAdd, h.onAdd
		if had&(1<<(i/2)) != 0 {
			kind, hooks = hookOnSet, h.onSet
		}
		if len(hooks) > 0 {
			// The record is read again for each hook (see addedAll).
			w.runHooks(kind, info, hooks, e, w.componentAt("SetCmd", e, w.entities.at(e.index), info))
		}
	}
	w.unlock()
}

// stage copies v into the staging column of its type and returns its slot.
func stage[T any](b *commandBuffer, info *componentInfo, v T) uint32 {
	s := b.stagingFor(info)
	slot := s.n
	if slot == s.capacity {
		s.grow()
	}
	s.n++
	// SAFETY: slot < capacity of a column that stores T values.
	*(*T)(s.col.at(slot)) = v
	return slot
}
