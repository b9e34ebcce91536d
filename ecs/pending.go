package ecs

import (
	"fmt"
	"slices"
)

// queuedState is what the deferred changes not yet applied do to one
// component of one entity.
//
// While structural changes are deferred, a change is judged against the
// state the entity will have once the changes already queued are applied,
// not against its state now: a Remove queued earlier in a loop means a later
// Add of the same component is legal (and wins), a queued Add means a later
// Add is a duplicate, and a queued Despawn means a later Add or Set would be
// lost. The rules are the table in the package documentation ("Deferred
// structural changes"). flecs judges deferred commands the same way, by
// applying them in order to the entity's pending state.
type queuedState uint8

const (
	queuedNone      queuedState = iota // nothing queued: the current state holds
	queuedGains                        // the newest queued change adds the component
	queuedLoses                        // the newest queued change removes it
	queuedDespawned                    // a queued Despawn (or one in progress) ends the entity
	queuedUnknown                      // a queued batch may change it: judged when applied
)

// pendingPageBits sets the size of one page of pendingHeads: 4096 entries.
const pendingPageBits = 12

// pendingHead is what the world keeps per entity index about the deferred
// changes of that index: the position (plus one) of the newest in the
// command buffer, and a summary of the entity's chain: bit id%31 is set
// when the chain has an add or remove of component id (a hint: the walk
// decides), and summaryDespawn when it has a despawn. A head is valid only
// while its epoch is the world's queue epoch, which every flush bumps: the
// heads are forgotten all at once, without a pass over them.
//
// The heads answer "what do the queued changes do to entity e and component
// T" without scanning the queue: the head gives the position of the newest
// queued change of e's index, and each queued change links to the previous
// one of the same entity index, so a walk visits only e's own changes.
// Batch operations (AddMatching, RemoveMatching, DespawnMatching) select
// their entities when applied, so what they will do to e is not known until
// then; their positions are kept in a short list of their own.
type pendingHead struct {
	pos     uint32
	summary uint32
	epoch   uint32
}

const summaryDespawn = 1 << 31

func summaryBit(id componentID) uint32 { return 1 << (id % 31) }

// pendingHeads maps an entity index to its pendingHead. Pages are made when
// first needed, so a world that never defers changes costs nothing.
type pendingHeads struct {
	pages []*[1 << pendingPageBits]pendingHead
}

// pendingIndex indexes the deferred changes by entity and by batch, for
// judging a change against those queued before it (part of World).
type pendingIndex struct {
	heads        pendingHeads // per entity index, its newest queued change (see queue)
	queueEpoch   uint32       // the epoch of valid heads; starts at 1, bumped by every flush
	batchAt      []uint32     // per component id, position+1 of its newest queued AddMatching or RemoveMatching
	despawnAllAt uint32       // position+1 of the newest queued DespawnMatching
}

// slot returns the head of index i, making its page if needed.
func (p *pendingHeads) slot(i uint32) *pendingHead {
	pg := int(i >> pendingPageBits)
	for len(p.pages) <= pg {
		p.pages = append(p.pages, nil)
	}
	if p.pages[pg] == nil {
		p.pages[pg] = new([1 << pendingPageBits]pendingHead)
	}
	return &p.pages[pg][i&(1<<pendingPageBits-1)]
}

// head returns the head of index i, the zero head when it has none.
func (p *pendingHeads) head(i uint32) pendingHead {
	pg := int(i >> pendingPageBits)
	if pg >= len(p.pages) || p.pages[pg] == nil {
		return pendingHead{}
	}
	return p.pages[pg][i&(1<<pendingPageBits-1)]
}

// queue appends c to the world's deferred changes, linking it into its
// entity's chain (or noting the batch's position for its type). Changes
// queued while deferred changes are being applied (by hooks) count one
// round more than the change being applied, which is how a runaway cascade
// is caught (see MaxCascadeRounds).
func (w *World) queue(c command) {
	b := &w.cmds
	if w.flushing && w.applied > 0 {
		c.round = b.cmds[w.applied-1].round + 1
		if c.round > MaxCascadeRounds {
			w.runawayCascade(c)
		}
	}
	w.enter("a deferred change")
	pos := uint32(len(b.cmds)) + 1
	switch c.kind {
	case cmdDespawnAll:
		w.despawnAllAt = pos
	case cmdFunc:
		// Not chained to an entity: a relation change reads the world as
		// it is when it runs.
	case cmdAddAll, cmdRemoveAll:
		w.batchOver(c.id, pos)
	case cmdAddAllN:
		for i := range uint32(c.id) {
			w.batchOver(b.multi[c.slot+2*i], pos)
		}
	case cmdRemoveAllN:
		for _, id := range b.multi[c.slot : c.slot+uint32(c.id)] {
			w.batchOver(id, pos)
		}
	default:
		h := w.heads.slot(c.e.index)
		if h.epoch != w.queueEpoch || b.cmds[h.pos-1].e != c.e {
			// A new chain, or one of an earlier entity of this index.
			*h = pendingHead{epoch: w.queueEpoch}
		}
		switch c.kind {
		case cmdDespawn:
			h.summary |= summaryDespawn
		case cmdAddN:
			for i := range uint32(c.id) {
				h.summary |= summaryBit(b.multi[c.slot+2*i])
			}
		case cmdRemoveN:
			for _, id := range b.multi[c.slot : c.slot+uint32(c.id)] {
				h.summary |= summaryBit(id)
			}
		case cmdExchangeN:
			entries := b.exchangeEntries(&c)
			nrm := 1 + int(entries[0])
			for _, id := range entries[1:nrm] {
				h.summary |= summaryBit(id)
			}
			for i := nrm; i < len(entries); i += 2 {
				h.summary |= summaryBit(entries[i])
			}
		default:
			h.summary |= summaryBit(c.id)
		}
		c.prev = h.pos
		h.pos = pos
	}
	b.cmds = append(b.cmds, c)
	w.leave()
}

// batchOver notes that the batch at position pos (plus one) of the queue
// may change component id of any entity.
func (w *World) batchOver(id componentID, pos uint32) {
	for len(w.batchAt) <= int(id) {
		w.batchAt = append(w.batchAt, 0)
	}
	w.batchAt[id] = pos
}

// queuedFor reports what the deferred changes not yet applied do to e's
// component id (see queuedState). e is alive. Complexity: O(1) when the
// entity has no queued change of id; otherwise O(changes of e queued since
// its newest change of id).
func (w *World) queuedFor(e Entity, id componentID) queuedState {
	if w.despawningNow(e) {
		return queuedDespawned
	}
	cmds := w.cmds.cmds
	applied := uint32(w.applied)
	if uint32(len(cmds)) <= applied {
		return queuedNone
	}
	state, at := queuedNone, uint32(0)
	if h := w.heads.head(e.index); h.epoch == w.queueEpoch && h.pos > applied && cmds[h.pos-1].e == e {
		if h.summary&summaryDespawn != 0 {
			// Queued, not yet applied: e would be dead otherwise (or
			// running its despawn hooks, caught above).
			return queuedDespawned
		}
		if h.summary&summaryBit(id) != 0 {
			for pos := h.pos; pos > applied; pos = cmds[pos-1].prev {
				c := &cmds[pos-1]
				if c.e != e {
					continue
				}
				if s := w.cmds.effectOn(c, id); s != queuedNone {
					state, at = s, pos
					break
				}
			}
		}
	}
	batch := w.despawnAllAt
	if int(id) < len(w.batchAt) {
		batch = max(batch, w.batchAt[id])
	}
	if batch > max(at, applied) {
		return queuedUnknown
	}
	return state
}

// effectOn reports what c, a queued change of one entity, does to its
// component id: queuedGains (an add, alone or among several types),
// queuedLoses (a removal) or queuedNone.
func (b *commandBuffer) effectOn(c *command, id componentID) queuedState {
	switch c.kind {
	case cmdAdd, cmdRemove:
		if c.id != id {
			return queuedNone
		}
		if c.kind == cmdAdd {
			return queuedGains
		}
		return queuedLoses
	case cmdAddN:
		for i := range uint32(c.id) {
			if b.multi[c.slot+2*i] == id {
				return queuedGains
			}
		}
	case cmdRemoveN:
		for _, x := range b.multi[c.slot : c.slot+uint32(c.id)] {
			if x == id {
				return queuedLoses
			}
		}
	case cmdExchangeN:
		entries := b.exchangeEntries(c)
		nrm := int(entries[0])
		if slices.Contains(entries[1:1+nrm], id) {
			return queuedLoses
		}
		for i := 1 + nrm; i < len(entries); i += 2 {
			if entries[i] == id {
				return queuedGains
			}
		}
	}
	return queuedNone
}

// clearQueued forgets the deferred changes, which have all been applied.
func (w *World) clearQueued() {
	w.dropQueued(0)
	w.applied = 0
}

// dropQueued drops the deferred changes from position from on, unapplied.
// Every head is forgotten (a new epoch): the changes kept are applied ones,
// which judging ignores.
func (w *World) dropQueued(from int) {
	w.queueEpoch++
	if w.queueEpoch == 0 { // wrapped: heads of epoch 0 may be 2^32 flushes old
		w.heads = pendingHeads{}
		w.queueEpoch = 1
	}
	clear(w.batchAt) // one entry per type that was ever batched while deferred
	w.despawnAllAt = 0
	w.cmds.cmds = w.cmds.cmds[:from]
}

// mayHaveQueued reports whether a change could be judged differently from
// the current state: something is queued and not yet applied, or a despawn
// is running hooks. Cheap enough for every deferred Set.
func (w *World) mayHaveQueued() bool {
	return len(w.cmds.cmds) > w.applied || !w.dying.IsZero() || !w.removingE.IsZero()
}

// removingNow reports whether e's component id is being removed: its
// OnRemove hooks are running. Only one removal runs hooks at a time:
// removals their hooks make are deferred.
func (w *World) removingNow(e Entity, id componentID) bool {
	return w.removingE == e && !e.IsZero() && slices.Contains(w.removingIDs, id)
}

// judgeAdd decides, while changes are deferred, what an Add (overwrite
// false) or Set (overwrite true) of the type info describes on the live
// entity e (record r) does, by the rules of the package documentation: it
// reports whether the change must be queued (false: a Set that overwrites
// in place now), and panics, naming the type and e, for an Add of a
// component e has or will have. A change to an entity whose despawn is
// queued is queued too, and dropped when applied, as a Remove or Despawn
// of it would be: the despawn removes everything the entity has.
func (w *World) judgeAdd(e Entity, r *record, info *componentInfo, overwrite bool) bool {
	switch w.queuedFor(e, info.id) {
	case queuedNone:
		if !w.hasComponent(e, r, info) || w.removingNow(e, info.id) {
			return true
		}
		if !overwrite {
			panic(presentMessage(e, info, ""))
		}
		return false
	case queuedGains:
		if !overwrite {
			panic(presentMessage(e, info, " once the changes queued before this one apply (an Add or Set of it is queued)"))
		}
	}
	return true
}

// addable reports whether an Add of the type info describes on the live
// entity e (record r) would be accepted rather than panic as a duplicate:
// e lacks it now, or, while changes are deferred, once the changes queued
// before it apply. It is judgeAdd's verdict without the panic, the check
// behind TryAdd.
func (w *World) addable(e Entity, r *record, info *componentInfo) bool {
	if w.lock == 0 {
		return !w.hasComponent(e, r, info)
	}
	switch w.queuedFor(e, info.id) {
	case queuedNone:
		return !w.hasComponent(e, r, info) || w.removingNow(e, info.id)
	case queuedGains:
		return false
	}
	return true
}

// presentMessage is the panic message of an Add of a component e has.
func presentMessage(e Entity, info *componentInfo, when string) string {
	return fmt.Sprintf("ecs: Add[%v]: entity %v already has the component%s; use Set to overwrite", info.typ, e, when)
}

// openLoopNote explains, for a panic message that deferred changes may
// cause (a component that a queued add has not given yet, an operation
// refused inside an iteration), that an iteration is open, which one, and
// how to end it if a panic or a forgotten Close left it open. It is empty
// when no iteration is open, and inside hooks and observers, where
// deferral is expected.
func (w *World) openLoopNote() string {
	if w.lock == 0 || len(w.frames) > 0 || w.flushing || w.settling {
		return ""
	}
	if w.shared {
		return "; a parallel section is open (World.Parallel().End ends it)"
	}
	loop := "an iteration (a loop, a SpawnBatchFunc init or a batch)"
	if c := w.openedBy; c != nil {
		loop = "a loop over " + c.describe()
	}
	return fmt.Sprintf("; note: %s is open, so structural changes wait for it to end (%d waiting). If a panic escaped that loop, call World.Recover; close a cursor left open with Close", loop, w.Pending())
}
