package ecs_test

// The differential harness's checks: whole-state comparison, pointer
// stability, stats, and hook and observer events.

import (
	"fmt"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

// A pin is a pointer to a component, from Map.Get, Map.TryGet or a query
// row, kept across later top-level operations. By the package's pointer
// stability rule it stays valid until the next structural change of the
// table (or, for a sparse type, the sparse set) that holds the value: a
// spawn into it, or an add, remove or despawn that moves a value in or out
// of it, or a Shrink. While that has not happened, reading through the pin
// must give the model's current value.
type diffPin struct {
	p   diffPair
	k   int
	sig uint16 // the entity's storage signature when pinned
	ptr any    // *T
	how string
}

// sigOf returns the storage signature of a living model entity: bits 0-5
// are the table kinds it has (which name its table), bits 8-13 the sparse
// kinds it has.
func (h *diffHarness) sigOf(id refmodel.EntityID) uint16 {
	var sig uint16
	for k := range numKinds {
		if h.m.HasKind(id, refmodel.Kind(k)) {
			if h.sparse[k] {
				sig |= 1 << (8 + k)
			} else {
				sig |= 1 << k
			}
		}
	}
	return sig
}

// snapshot records the signature of every living entity in snap, also of
// those not paired yet (storageStep may run before a spawn pairs them).
func (h *diffHarness) snapshot(snap map[refmodel.EntityID]uint16) {
	clear(snap)
	for _, id := range h.m.Entities() {
		snap[id] = h.sigOf(id)
	}
}

// storageStep notes the tables and sparse sets changed since the last
// snapshot (snapA) and takes a new one. It runs before each deferred change
// the model applies (refmodel.World.BeforeDeferred) and at the end of each
// step: between two calls an entity changes its storage at most once, so
// the signatures before and after tell every table and set it went through,
// also when hooks and observers move it on and back. A deferred change of
// an acting listener can take an entity through a table that neither its
// first nor its last signature names.
func (h *diffHarness) storageStep() {
	if len(h.pins) == 0 {
		return
	}
	h.snapshot(h.snapB)
	for id, b := range h.snapA {
		switch a, ok := h.snapB[id]; {
		case !ok: // despawned
			h.pinTables[b&0xff] = true
			h.pinSets |= b
		case a != b:
			if a&0xff != b&0xff {
				h.pinTables[a&0xff], h.pinTables[b&0xff] = true, true
			} else {
				h.pinShared[a&0xff] = true
			}
			h.pinSets |= a ^ b
		}
	}
	for id, a := range h.snapB {
		if _, ok := h.snapA[id]; !ok { // spawned
			h.pinTables[a&0xff] = true
			h.pinSets |= a
		}
	}
	h.snapA, h.snapB = h.snapB, h.snapA
}

// addPin keeps ptr, e's pointer to its kind k.
func (h *diffHarness) addPin(p diffPair, id refmodel.EntityID, k int, ptr any, how string) {
	if len(h.pins) == 0 {
		h.snapshot(h.snapA) // the state the pins are taken in
		h.pinTables, h.pinSets, h.pinShared = [1 << numKinds]bool{}, 0, [1 << numKinds]bool{}
	}
	h.pins = append(h.pins, diffPin{p, k, h.sigOf(id), ptr, how})
}

// pinSome pins a few components of random living entities.
func (h *diffHarness) pinSome() {
	for n := 1 + h.src.intn(3); n > 0 && len(h.live) > 0; n-- {
		p := h.pickLive()
		k := h.src.intn(numKinds)
		if ptr, how := h.kinds[k].pin(h, p); ptr != nil {
			h.addPin(p, p.id, k, ptr, how)
		}
	}
}

// checkPins reads through the pins that the last top-level operation left
// valid, and forgets the others. exact says the operation's changes can be
// told from the signatures taken by storageStep; otherwise (changes
// deferred inside iterations may pass through tables no signature shows)
// every pin is dropped.
func (h *diffHarness) checkPins(exact bool) {
	if len(h.pins) == 0 {
		return
	}
	if !exact {
		h.pins = h.pins[:0]
		return
	}
	h.storageStep()
	tables, sets := &h.pinTables, h.pinSets
	kept := h.pins[:0]
	for _, pin := range h.pins {
		if h.sparse[pin.k] && sets&(1<<(8+pin.k)) != 0 || !h.sparse[pin.k] && tables[pin.sig&0xff] {
			continue
		}
		h.kinds[pin.k].checkPin(h, pin)
		kept = append(kept, pin)
		if h.sparse[pin.k] && (sets != 0 || slices.Contains(tables[:], true)) {
			h.cov[covPinSparse]++
		}
		if !h.sparse[pin.k] && h.pinShared[pin.sig&0xff] {
			h.cov[covPinShared]++
		}
	}
	clear(h.pins[len(kept):])
	h.pins = kept
	h.pinTables, h.pinSets, h.pinShared = [1 << numKinds]bool{}, 0, [1 << numKinds]bool{}
}

// statsAndShrink compares World.Stats with the model and the storage
// choices, then sometimes calls Shrink, which must change nothing visible
// (checkAll follows) and leave no unused capacity.
func (h *diffHarness) statsAndShrink() {
	h.note("Stats", diffPair{}, 0)
	h.checkStats(false)
	if h.src.intn(2) == 0 {
		h.note("Shrink", diffPair{}, 0)
		h.w.Shrink()
		h.checkStats(true)
	}
}

func (h *diffHarness) checkStats(shrunk bool) {
	st := h.w.Stats()
	if st.Entities != h.m.Len() {
		h.failf("Stats.Entities = %d, model %d", st.Entities, h.m.Len())
	}
	for _, cs := range st.Components {
		k := slices.Index(diffTypesOf[:], cs.Type)
		if k < 0 {
			h.failf("Stats lists component type %v", cs.Type)
		}
		if want := h.kinds[k].len(); cs.Count != want {
			h.failf("Stats: %d entities have %s, model %d", cs.Count, diffKindNames[k], want)
		}
		if (cs.Storage == ecs.SparseStorage) != h.sparse[k] {
			h.failf("Stats: %s has %v storage, registered sparse %v", diffKindNames[k], cs.Storage, h.sparse[k])
		}
		if shrunk && (cs.Capacity != cs.Count || cs.Pooled != 0) {
			h.failf("after Shrink, %s: capacity %d for %d values, %d pooled pages", diffKindNames[k], cs.Capacity, cs.Count, cs.Pooled)
		}
	}
}

func (h *diffHarness) checkAll() {
	h.pairHookSpawns()
	if h.w.IsIterating() != h.m.IsIterating() || h.w.IsIterating() != (h.depth > 0) {
		h.failf("IsIterating: tessera %v, model %v, harness depth %d", h.w.IsIterating(), h.m.IsIterating(), h.depth)
	}
	if h.w.Len() != h.m.Len() {
		h.failf("Len: tessera %d, model %d", h.w.Len(), h.m.Len())
	}
	for i := 0; i < len(h.live); {
		p := h.live[i]
		ta, ma := h.w.Alive(p.e), h.m.Alive(p.id)
		if ta != ma {
			h.failf("Alive: tessera %v = %v, model %d = %v", p.e, ta, p.id, ma)
		}
		if !ta {
			h.live[i] = h.live[len(h.live)-1]
			h.live = h.live[:len(h.live)-1]
			delete(h.byEnt, p.e)
			h.gone[p.e] = p.id
			if len(h.dead) < 32 {
				h.dead = append(h.dead, p)
			} else {
				h.dead[h.deadN%32] = p
			}
			h.deadN++
			continue
		}
		for _, c := range h.kinds {
			c.check(h, p)
		}
		i++
	}
	if h.checks++; h.checks%16 == 0 {
		if err := ecs.CheckZeroTails(h.w); err != nil {
			h.failf("zero tail: %v", err)
		}
	}
	if len(h.live) != h.m.Len() {
		h.failf("harness tracks %d entities, the model has %d", len(h.live), h.m.Len())
	}
	if len(h.live) > 0 {
		h.maps[h.src.intn(len(h.maps))].check(h, h.pickLive())
	}
	if len(h.dead) > 0 {
		p := h.dead[h.src.intn(len(h.dead))]
		if h.w.Alive(p.e) || h.m.Alive(p.id) {
			h.failf("despawned entity alive again: tessera %v = %v, model %d = %v", p.e, h.w.Alive(p.e), p.id, h.m.Alive(p.id))
		}
	}
}

// diffHookKind registers recording-only OnAdd, OnSet and OnRemove hooks for
// c's type in Tessera and in the model.
func diffHookKind[T any](h *diffHarness, c *diffKind[T]) {
	rec := func(what string) func(ecs.Entity, *T) {
		what = c.name + "." + what
		return func(e ecs.Entity, v *T) {
			h.tEvents = append(h.tEvents, diffTEvent{what, e, showValue(*v)})
			if len(h.tEvents)%8 == 1 {
				h.refuseSnapshots("a hook", true, false)
			}
		}
	}
	mrec := func(what string) func(refmodel.EntityID, T) {
		what = c.name + "." + what
		return func(id refmodel.EntityID, v T) {
			h.mEvents = append(h.mEvents, fmt.Sprintf("%s %d %s", what, id, showValue(v)))
			if len(h.mEvents)%8 == 1 {
				h.refuseSnapshots("a hook", false, true)
			}
		}
	}
	ecs.OnAdd(h.w, rec("OnAdd"))
	ecs.OnSet(h.w, rec("OnSet"))
	ecs.OnRemove(h.w, rec("OnRemove"))
	c.ms.OnAdd(mrec("OnAdd"))
	c.ms.OnSet(mrec("OnSet"))
	c.ms.OnRemove(mrec("OnRemove"))
}

// observeQuery registers recording-only enter and leave observers on q in
// both worlds.
func (h *diffHarness) observeQuery(q *diffQuery) {
	rec := func(what string) func(ecs.Entity) {
		what = q.name + " " + what
		return func(e ecs.Entity) {
			h.tEvents = append(h.tEvents, diffTEvent{what, e, ""})
			if len(h.tEvents)%8 == 1 {
				h.refuseSnapshots("an observer", true, false)
			}
		}
	}
	mrec := func(what string) func(refmodel.EntityID) {
		what = q.name + " " + what
		return func(id refmodel.EntityID) {
			h.mEvents = append(h.mEvents, fmt.Sprintf("%s %d ", what, id))
			if len(h.mEvents)%8 == 1 {
				h.refuseSnapshots("an observer", false, true)
			}
		}
	}
	q.observe(rec("OnEnter"), rec("OnLeave"))
	h.m.OnEnter(q.mq, mrec("OnEnter"))
	h.m.OnLeave(q.mq, mrec("OnLeave"))
}

// The listener modes of a harness.
const (
	listenNone      = iota // no hooks or observers: the quiet paths run
	listenRecording        // recording hooks and observers
	listenActing           // recording ones, then ones that change the world
)

// chooseListeners picks the listener mode and notes it in h.storage.
func (h *diffHarness) chooseListeners() {
	h.listen = h.src.intn(3)
	h.storage += " listeners:" + [...]string{"none", "recording", "acting"}[h.listen]
	if h.listen == listenNone && slices.Contains(h.sparse[:], true) {
		h.cov[covQuietSparse]++
	}
}

// diffActingListeners registers, after the recording ones, hooks and
// observers that make structural changes, the same in both worlds. Tessera
// defers them as it does the changes of a loop body, and the model predicts
// the result and every callback they cause in turn. None of them can start
// a cycle: each change reaches only listeners further down this list.
//
//   - Pos.OnAdd sets Tag on the entity (an add, or an overwrite in place).
//   - physics OnEnter sets Name (an add firing Name.OnAdd and the Name
//     observers, or an overwrite firing Name.OnSet).
//   - Name.OnRemove removes Ref (firing Ref.OnRemove), also on despawn.
//   - renamer OnLeave removes Vel from the entity, if it is still alive,
//     which may make it leave physics.
//   - Vel.OnRemove of a value with DX 3 sets Vel back, to a value with DX 0:
//     a Set of the type being removed, judged as after the removal (a
//     queued add), and dropped when the removal is a despawn.
func diffActingListeners(h *diffHarness, pos *diffKind[diffPos], vel *diffKind[diffVel],
	name *diffKind[diffName], ref *diffKind[diffRef], tag *diffKind[diffTag]) {
	acted := func() { h.cov[covActingEvent]++ }
	ecs.OnAdd(h.w, func(e ecs.Entity, _ *diffPos) { acted(); tag.tm.Set(e, diffTag{}) })
	pos.ms.OnAdd(func(id refmodel.EntityID, _ diffPos) { tag.ms.Set(id, diffTag{}) })

	h.physics.observe(func(e ecs.Entity) { acted(); name.tm.Set(e, mkName(7)) }, func(ecs.Entity) {})
	h.m.OnEnter(h.physics.mq, func(id refmodel.EntityID) { name.ms.Set(id, mkName(7)) })

	ecs.OnRemove(h.w, func(e ecs.Entity, _ *diffName) { acted(); ref.tm.Remove(e) })
	name.ms.OnRemove(func(id refmodel.EntityID, _ diffName) { ref.ms.Remove(id) })

	// A spawn inside OnRemove: the entity index may grow and move while the
	// removal or despawn that fired the hook still has to write the record.
	ecs.OnRemove(h.w, func(ecs.Entity, *diffRef) {
		if len(h.live) < diffMaxLive && !h.spreading {
			h.hookSpawnsT = append(h.hookSpawnsT, h.w.Spawn())
		}
	})
	ref.ms.OnRemove(func(refmodel.EntityID, diffRef) {
		if len(h.live) < diffMaxLive {
			h.hookSpawnsM = append(h.hookSpawnsM, h.m.Spawn())
		}
	})

	ecs.OnRemove(h.w, func(e ecs.Entity, v *diffVel) {
		if v.DX == 3 {
			acted()
			vel.tm.Set(e, mkVel(3))
		}
	})
	vel.ms.OnRemove(func(id refmodel.EntityID, v diffVel) {
		if v.DX == 3 {
			vel.ms.Set(id, mkVel(3))
		}
	})

	h.renamer.observe(func(ecs.Entity) {}, func(e ecs.Entity) {
		if h.w.Alive(e) {
			acted()
			vel.tm.Remove(e)
		}
	})
	h.m.OnLeave(h.renamer.mq, func(id refmodel.EntityID) {
		if h.m.Alive(id) {
			vel.ms.Remove(id)
		}
	})
}

// pairHookSpawns pairs the entities hooks spawned in the step just ended.
// They have no components, so any pairing of the living ones (and of the
// ones the step despawned again) is a faithful one; the counts must agree.
func (h *diffHarness) pairHookSpawns() {
	if len(h.hookSpawnsT) != len(h.hookSpawnsM) {
		h.failf("hooks spawned %d entities in tessera, %d in the model", len(h.hookSpawnsT), len(h.hookSpawnsM))
	}
	var deadT []ecs.Entity
	var liveM, deadM []refmodel.EntityID
	for _, id := range h.hookSpawnsM {
		if h.m.Alive(id) {
			liveM = append(liveM, id)
		} else {
			deadM = append(deadM, id)
		}
	}
	for _, e := range h.hookSpawnsT {
		if !h.w.Alive(e) {
			deadT = append(deadT, e)
			continue
		}
		if len(liveM) == 0 {
			h.failf("more hook-spawned entities alive in tessera than in the model")
		}
		h.pair(liveM[0], e)
		liveM = liveM[1:]
		h.cov[covHookSpawn]++
	}
	if len(liveM) != 0 || len(deadT) != len(deadM) {
		h.failf("hook-spawned entities: %d dead in tessera, %d dead in the model", len(deadT), len(deadM))
	}
	for i, e := range deadT {
		h.gone[e] = deadM[i]
	}
	h.hookSpawnsT, h.hookSpawnsM = h.hookSpawnsT[:0], h.hookSpawnsM[:0]
}

// checkEvents compares the hook and observer calls of the step just ended,
// as multisets: within a batch Tessera fires in table and row order, which
// the model does not know.
func (h *diffHarness) checkEvents() {
	got := make([]string, len(h.tEvents))
	for i, ev := range h.tEvents {
		id, ok := h.byEnt[ev.e]
		if !ok {
			if id, ok = h.gone[ev.e]; !ok {
				h.failf("%s fired for %v, which the harness does not know", ev.what, ev.e)
			}
		}
		got[i] = fmt.Sprintf("%s %d %s", ev.what, id, ev.val)
	}
	want := h.mEvents
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		var extra, missing []string
		for _, g := range got {
			if !slices.Contains(want, g) {
				extra = append(extra, g)
			}
		}
		for _, m := range want {
			if !slices.Contains(got, m) {
				missing = append(missing, m)
			}
		}
		h.failf("hook/observer events differ\ntessera: %q\nmodel:   %q\nonly in tessera (by kind): %q\nonly in the model (by kind): %q",
			got, want, extra, missing)
	}
	h.events += len(want)
	h.tEvents = h.tEvents[:0]
	clear(h.mEvents)
	h.mEvents = h.mEvents[:0]
	clear(h.gone)
}
