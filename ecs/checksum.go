package ecs

import (
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// Checksum returns a 64-bit hash of w's whole observable state: the entity
// index (every index's generation, the free list in order, so the ids the
// next spawns return), the rows of every non-empty table in iteration order
// (each entity with its generation and each component value), the sparse
// sets (their entities in dense order and values), the resources and the
// events left to read. Equal worlds give equal checksums however they were
// built, in any process, on every little-endian machine (amd64, arm64, 386,
// wasm: 32-bit words and 64-bit alike), and in any two worlds of one
// process: the world's tag is left out of every entity, also of entities held
// in component values. Use it to check that two simulations agree (a
// lockstep or rollback game compares its peers' checksums every tick, as
// GGPO's and GGRS' desync detection does) and that a restore or a load gave
// back the world that was saved.
//
// What counts, precisely:
//   - Component types are named by their stable name ([Name], by default
//     their package path and type name), and a table's columns are taken in
//     the order of those names, so the order in which types were first used
//     does not matter. Empty tables are left out,
//     so neither does the order of tables that history made and emptied. The
//     order of non-empty tables does: it is the iteration order.
//   - Values are read field by field in declaration order; padding bytes
//     are never read. An int, uint or uintptr counts as its 64-bit value,
//     so a 32-bit machine hashes it as a 64-bit one does. A float's bits count as they are, so -0.0 and +0.0
//     differ (they behave differently: 1/x, math.Signbit); every NaN counts
//     as the same NaN, whatever its payload.
//   - Strings count by content. Fields of pointer, slice, map, channel,
//     function and interface kinds are skipped: what they reference is not
//     hashed, unless the type implements [Checksummer], whose method then
//     hashes the whole value.
//   - Storage counts: a type held in tables and the same type held in a
//     sparse set give different checksums.
//   - Deferred changes not yet applied do not count: inside an iteration the
//     checksum is the state the loop sees.
//   - Event queues count by type name, while some reader has events left
//     to read: those events, and how many each reader that has some left
//     has left. A reader with nothing left to read does not count, nor do
//     the number of events sent and the events every reader has read (see
//     [Events]): history that two peers, or a world and the one a save file
//     gives back, need not share.
//
// Panics inside a parallel section, where systems may be writing.
// Complexity: O(entities x their components + index length + tables + types
// log types); it allocates a little per table and per type, and nothing per
// entity. (A world checksum: GGPO's and GGRS' per-frame desync checks, and
// the checksums lockstep strategy games compare.)
func (w *World) Checksum() uint64 {
	if w.shared {
		panic("ecs: Checksum: called inside a parallel section, where systems may be writing; take it between stages or ticks")
	}
	w.beginMethods("Checksum") // Checksum methods run
	defer w.endMethods()
	var h stateHash
	w.hashIndex(&h)
	names := make([]string, len(w.reg.infos))
	for i, info := range w.reg.infos {
		names[i] = info.name
	}
	var cols []int
	for _, t := range w.tables {
		if len(t.entities) == 0 {
			continue
		}
		cols = cols[:0]
		for i := range t.columns {
			cols = append(cols, i)
		}
		slices.SortFunc(cols, func(a, b int) int { return strings.Compare(names[t.columns[a].id], names[t.columns[b].id]) })
		h.word(uint64(len(cols)))
		for _, i := range cols {
			h.str(names[t.columns[i].id])
		}
		h.entities(t.entities)
		for _, i := range cols {
			col := &t.columns[i]
			h.values(w.hashPlanOf(col.info), col.base, len(t.entities), col.info.size)
		}
	}
	sparse := slices.Clone(w.sparse)
	slices.SortFunc(sparse, func(a, b *sparseSet) int { return strings.Compare(names[a.info.id], names[b.info.id]) })
	for _, s := range sparse {
		if len(s.dense) == 0 {
			continue
		}
		h.str(names[s.info.id])
		hashSparse(&h, w.hashPlanOf(s.info), s)
	}
	w.hashResources(&h)
	w.hashEvents(&h)
	return h.sum()
}

// hashIndex hashes the entity index: how many indices were handed out, the
// generation of each (living or not: a dead index's generation is the one
// its next entity gets), and the free list in the order it is reused.
func (w *World) hashIndex(h *stateHash) {
	x := &w.entities
	h.word(uint64(x.next))
	h.word(uint64(x.alive))
	h.records(x.recs[1:max(x.next, 1)])
	h.word(uint64(len(x.free)))
	// SAFETY: a []uint32 is plain memory, len*4 bytes from its first element.
	h.plainBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x.free))), 4*len(x.free)))
}

// hashResources hashes the resources that are present, in the order of
// their type names.
func (w *World) hashResources(h *stateHash) {
	rs := w.presentResources()
	h.word(uint64(len(rs)))
	for _, r := range rs {
		h.str(r.name)
		h.values(cachedHashPlan(r.typ), r.v, 1, r.typ.Size())
	}
}

// presentResource is a resource that is present: its type's name, its
// type and its value's address.
type presentResource struct {
	name string
	typ  reflect.Type
	v    unsafe.Pointer
}

// presentResources returns w's resources that are present, in the order of
// their type names, types of one name in the order their slots were made.
func (w *World) presentResources() []presentResource {
	var rs []presentResource
	for _, t := range w.resourceOrder {
		if p := w.resources[t].(resourceHolder).pointer(); p != nil {
			rs = append(rs, presentResource{typeName(t), t, p})
		}
	}
	slices.SortStableFunc(rs, func(a, b presentResource) int { return strings.Compare(a.name, b.name) })
	return rs
}

// hashPlanOf returns the hash plan of info's type, built on first use.
func (w *World) hashPlanOf(info *componentInfo) *hashPlan {
	if info.hash == nil {
		info.hash = newHashPlan(info.typ)
	}
	return info.hash
}

// typeName is the name a type is known by in checksums: its package path
// and name, or its description for unnamed types.
func typeName(t reflect.Type) string {
	if t.PkgPath() != "" && t.Name() != "" {
		return t.PkgPath() + "." + t.Name()
	}
	return t.String()
}
