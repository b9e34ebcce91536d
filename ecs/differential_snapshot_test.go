package ecs_test

// The differential harness's snapshots: World.Snapshot and World.Restore
// against the model's, with the harness's own bookkeeping saved and put
// back alongside.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

// Clone makes diffTags an ecs.Cloner, so snapshots copy its slice. The
// harness never writes into a Tags slice (each value gets a fresh one), so
// ecs.Shallow would be as correct; Clone exercises the cloning path, Ref
// (declared with ecs.Shallow in chooseStorage) the shared one.
func (t diffTags) Clone() diffTags { return diffTags{slices.Clone(t.L)} }

// diffSaves is how many snapshot slots the harness keeps: with two, a
// restore may go back past a newer snapshot, and taking a snapshot into a
// used slot reuses an ecs.Snapshot that holds another state.
const diffSaves = 2

// diffSave is one snapshot slot: both worlds' snapshots, Tessera's checksum
// then, and the harness's bookkeeping of the world then (the pairs alive
// and the recently dead), which a restore puts back with the worlds.
type diffSave struct {
	taken    bool
	step     int
	ts       ecs.Snapshot
	ms       *refmodel.Snapshot
	sum      uint64
	live     []diffPair
	byEnt    map[ecs.Entity]refmodel.EntityID
	dead     []diffPair
	deadN    int
	restores int // restores from this slot since it was taken
}

// anySave reports whether some slot holds a snapshot (Restore needs one).
func (h *diffHarness) anySave() bool {
	return slices.ContainsFunc(h.saves[:], func(s diffSave) bool { return s.taken })
}

// takeSnapshot snapshots both worlds and the bookkeeping into a random
// slot. A snapshot changes nothing: the checksum stays, and pins stay
// valid (the operation is exact with no storage change, so checkPins reads
// them).
func (h *diffHarness) takeSnapshot() {
	i := h.src.intn(diffSaves)
	s := &h.saves[i]
	h.note(fmt.Sprintf("Snapshot into slot %d", i), diffPair{}, len(h.live))
	sum := h.w.Checksum()
	h.w.Snapshot(&s.ts)
	s.ms = h.m.Snapshot()
	if after := h.w.Checksum(); after != sum {
		h.failf("Snapshot changed the checksum from %#x to %#x", sum, after)
	}
	s.taken, s.step, s.sum, s.restores = true, h.step, sum, 0
	s.live = slices.Clone(h.live)
	s.byEnt = maps.Clone(h.byEnt)
	s.dead = slices.Clone(h.dead)
	s.deadN = h.deadN
	if h.restores > 0 && h.restoredAt == h.step-1 {
		h.cov[covSnapshotAfterRestore]++
	}
}

// restoreSnapshot restores both worlds from a random taken slot and puts
// the bookkeeping back. It must fire nothing, give back the checksum of
// the snapshot and its Stats counts, and leave every entity alive before
// the restore but not at the snapshot dead in both worlds; checkAll then
// compares the whole state. Pointers taken
// before are dropped: they must not be used after a restore.
func (h *diffHarness) restoreSnapshot() {
	var taken []int
	for i := range h.saves {
		if h.saves[i].taken {
			taken = append(taken, i)
		}
	}
	i := taken[h.src.intn(len(taken))]
	s := &h.saves[i]
	h.note(fmt.Sprintf("Restore from slot %d (taken at step %d)", i, s.step), diffPair{}, s.restores)
	// An index freed since the snapshot and handed out again.
	byIndex := make(map[uint32]ecs.Entity, len(s.live))
	for _, p := range s.live {
		byIndex[p.e.Index()] = p.e
	}
	for _, p := range h.live {
		if e, ok := byIndex[p.e.Index()]; ok && e != p.e {
			h.cov[covRestoreReusedIndex]++
			break
		}
	}
	before := h.live
	h.w.Restore(&s.ts)
	h.m.Restore(s.ms)
	if len(h.tEvents) != 0 || len(h.mEvents) != 0 {
		h.failf("Restore fired hooks or observers: %d in tessera (%v), model %q", len(h.tEvents), h.tEvents, h.mEvents)
	}
	if sum := h.w.Checksum(); sum != s.sum {
		h.failf("checksum after Restore %#x, at the snapshot %#x", sum, s.sum)
	}
	h.checkStats(false) // the entity counts of Stats are the snapshot's
	h.live = slices.Clone(s.live)
	h.byEnt = maps.Clone(s.byEnt)
	h.dead = slices.Clone(s.dead)
	h.deadN = s.deadN
	// Entities alive before the restore but not at the snapshot are dead.
	// Handles and ids are checked apart: after a restore of an older
	// snapshot the model hands out the same ids again, paired with other
	// handles, so a model id may be in both.
	ids := make(map[refmodel.EntityID]bool, len(h.live))
	for _, p := range h.live {
		ids[p.id] = true
	}
	for _, p := range before {
		if _, ok := h.byEnt[p.e]; !ok && h.w.Alive(p.e) {
			h.failf("Restore: %v, alive before it but not at the snapshot, is alive", p.e)
		}
		if !ids[p.id] && h.m.Alive(p.id) {
			h.failf("model Restore: %d, alive before it but not at the snapshot, is alive", p.id)
		}
	}
	clear(h.pins)
	h.pins = h.pins[:0]
	if s.restores++; s.restores >= 2 {
		h.cov[covRestoreAgain]++
	}
	if s.step < 50 && h.step > 50 {
		h.cov[covRestoreLateQueries]++
	}
	if h.listen != listenNone {
		h.cov[covRestoreListening]++
	}
	h.restoredAt = h.step
	h.restores++
}

// refuseSnapshots checks that Snapshot and Restore panic, changing
// nothing, where the world is in the middle of a change (where says where:
// "an iteration", "a hook"); the worlds that are in it are given: Tessera,
// the model or both (a hook of one world runs while the other is settled).
func (h *diffHarness) refuseSnapshots(where string, tessera, model bool) {
	slot := -1
	for i := range h.saves {
		if h.saves[i].taken {
			slot = i
		}
	}
	if tessera {
		var scratch ecs.Snapshot
		h.expectPanicWith("Tessera Snapshot inside "+where, "inside", func() { h.w.Snapshot(&scratch) })
		if slot >= 0 {
			h.expectPanicWith("Tessera Restore inside "+where, "inside", func() { h.w.Restore(&h.saves[slot].ts) })
		}
	}
	if model {
		h.expectPanicWith("model Snapshot inside "+where, "inside", func() { h.m.Snapshot() })
		if slot >= 0 {
			h.expectPanicWith("model Restore inside "+where, "inside", func() { h.m.Restore(h.saves[slot].ms) })
		}
	}
}

// expectPanicWith is expectPanic for a panic whose message contains part.
func (h *diffHarness) expectPanicWith(what, part string, f func()) {
	var msg string
	if !diffPanics(func() {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
				panic(r)
			}
		}()
		f()
	}) {
		h.failf("%s did not panic", what)
	}
	if !strings.Contains(msg, part) {
		h.failf("%s panicked with %q, which does not mention %q", what, msg, part)
	}
}
