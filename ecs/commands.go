package ecs

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
	spawned []Entity  // while a Commands buffer is applied: its spawns so far
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
		if len(w.cmds.cmds) != 0 || len(w.touched) != 0 {
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
// once by BeginParallel, is left alone: passes run on several goroutines.
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
// lost. Call it from the function that recovered the panic, after every loop
// over w has been left. The per-table form (Chunks) is panic-safe by itself.
// Cursors left open by the panic are ended too: Close on them does
// nothing, and they must not be used again. If the panic came from an
// OnRemove hook of a queued despawn or removal, that change is completed
// (without its remaining hooks), since the changes queued after it were
// judged as after it. Recover does nothing when no iteration is open, and
// panics when called inside a hook or observer.
func (w *World) Recover() {
	w.mutating = false // a panic inside a structural mutation (an internal limit)
	if w.lock == 0 || w.shared {
		return // nothing is open, or passes in a parallel section hold no count
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
			w.move(c.e, r, w.withoutComponent(r.table, c.id))
		}
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
	case cmdAddAll:
		s := &b.staging[c.id]
		w.addAll(c.q, s.col.info, s.col.at(c.slot))
	case cmdRemoveAll:
		w.removeAll(c.q, c.id)
	case cmdDespawnAll:
		w.despawnAll(c.q)
	}
}
