package ecs

import (
	"fmt"
	"slices"
	"strings"
)

// PartKind says which part of a world a [PartChecksum] covers.
type PartKind uint8

const (
	// PartEntities is the entity index: the generation of every index
	// handed out, which are alive, and the free list in reuse order, so
	// the ids the next spawns return; and the order of every entity in a
	// table, as a query over all entities sees them.
	PartEntities PartKind = iota + 1
	// PartComponent is one component type: its entities and values, in
	// iteration order.
	PartComponent
	// PartRelation is one relation: every source's targets and pair
	// values, and every target's sources, in the order the relation
	// keeps them.
	PartRelation
	// PartResource is one resource's value.
	PartResource
	// PartEvents is one event queue: the events some reader has left to
	// read, and how many each such reader has left (see [World.Checksum]).
	PartEvents
)

var partKindNames = [...]string{PartEntities: "entities", PartComponent: "component",
	PartRelation: "relation", PartResource: "resource", PartEvents: "events"}

// String names the kind as logs write it: entities, component, relation,
// resource or events.
func (k PartKind) String() string {
	if k >= PartEntities && k <= PartEvents {
		return partKindNames[k]
	}
	return fmt.Sprintf("PartKind(%d)", uint8(k))
}

// PartChecksum is the checksum of one part of a world: the entity index,
// one component type, one relation, one resource or one event queue.
// Name is the part's stable name: "entities", a component type's name
// ([Name]; by default its package path and type name), Relation[T] with
// T's package path and name, a resource's or an event type's package path
// and name.
type PartChecksum struct {
	Kind PartKind
	Name string
	Sum  uint64
}

// Checksums appends to dst, and returns, the checksum of each part of w's
// state: the entity index first, then every component type that has
// values, every relation that has pairs, every resource present and every
// event queue with events left to read, each group in the order of the
// parts' names. Two worlds with equal [World.Checksum]s give equal lists;
// when two runs disagree, the parts whose sums differ ([DiffChecksums]) say
// which types to look at: the bisection that GGRS' and GGPO's users do by
// hand when a single per-frame checksum tells them only that a desync
// happened, not where.
//
// The parts hash what World.Checksum hashes, with the same rules (stable
// names, fields in declaration order without padding, 64-bit ints, NaNs
// made canonical, pointer kinds skipped unless the type is a
// [Checksummer]). A component's sum covers its entities and values in
// iteration order, so a changed value, a moved entity and a changed order
// all show; a relation's sum covers both sides of its pairs. A part with
// nothing in it (a type with no values, an absent resource, a relation
// with no pairs) is left out.
//
// Panics inside a parallel section, where systems may be writing.
// Complexity: that of World.Checksum, in one pass over the rows; it
// allocates the parts' names' slice and a hash state per type, nothing
// per entity.
func (w *World) Checksums(dst []PartChecksum) []PartChecksum {
	if w.shared {
		panic("ecs: Checksums: called inside a parallel section, where systems may be writing; take them between stages or ticks")
	}
	w.beginMethods("Checksums") // Checksum methods run
	defer w.endMethods()
	// The entity index's part also counts the order of the non-empty
	// tables, each by its entities: the order in which a query over every
	// entity sees them, which no type's part holds.
	var ix stateHash
	w.hashIndex(&ix)
	dst = append(dst, PartChecksum{Kind: PartEntities, Name: "entities"})
	first := len(dst) - 1

	// One hash state per component type, fed table by table in iteration
	// order: a type's sum is its rows in the order queries see them.
	infos := w.reg.infos
	hs := make([]stateHash, len(infos))
	used := make([]bool, len(infos))
	for _, t := range w.tables {
		if len(t.entities) == 0 {
			continue
		}
		// The table's entities are hashed once, and their hash goes into
		// each of its types' sums.
		var eh stateHash
		eh.entities(t.entities)
		ix.word(eh.h)
		for i := range t.columns {
			col := &t.columns[i]
			h := &hs[col.id]
			used[col.id] = true
			h.word(eh.h)
			h.values(w.hashPlanOf(col.info), col.base, len(t.entities), col.info.size)
		}
	}
	dst[first].Sum = ix.sum()
	start := len(dst)
	for id, info := range infos {
		if used[id] {
			dst = append(dst, PartChecksum{Kind: PartComponent, Name: info.name, Sum: hs[id].sum()})
		}
	}
	rel := make([]*stateHash, len(w.relations)) // by relation index
	for _, s := range w.sparse {
		if len(s.dense) == 0 {
			continue
		}
		var h stateHash
		hashSparse(&h, w.hashPlanOf(s.info), s)
		if s.rel != nil {
			rh := rel[s.rel.index]
			if rh == nil {
				rh = new(stateHash)
				rel[s.rel.index] = rh
			}
			// Source side first, then target side, whatever the order of
			// the sets: the two are folded in a fixed order.
			if s.relIn {
				rh.word(^h.sum())
			} else {
				rh.word(h.sum())
			}
			continue
		}
		dst = append(dst, PartChecksum{Kind: PartComponent, Name: s.info.name, Sum: h.sum()})
	}
	sortParts(dst[start:])
	start = len(dst)
	for i, h := range rel {
		if h != nil {
			dst = append(dst, PartChecksum{Kind: PartRelation, Name: "Relation[" + typeName(w.relations[i].typ) + "]", Sum: h.sum()})
		}
	}
	sortParts(dst[start:])
	start = len(dst)
	for _, r := range w.presentResources() {
		var h stateHash
		h.values(cachedHashPlan(r.typ), r.v, 1, r.typ.Size())
		dst = append(dst, PartChecksum{Kind: PartResource, Name: r.name, Sum: h.sum()})
	}
	sortParts(dst[start:])
	start = len(dst)
	for _, q := range w.events {
		var h stateHash
		q.hashTo(&h)
		if h != (stateHash{}) {
			dst = append(dst, PartChecksum{Kind: PartEvents, Name: typeName(q.eventType()), Sum: h.sum()})
		}
	}
	sortParts(dst[start:])
	return dst
}

// hashSparse hashes a sparse set's entities and values in dense order.
func hashSparse(h *stateHash, plan *hashPlan, s *sparseSet) {
	h.entities(s.dense)
	h.values(plan, s.values.base, len(s.dense), s.info.size)
}

// sortParts orders parts of one kind by name; parts of one name (types of
// two packages' scopes that share a path and name) keep the order they
// came in, which the world's order of first use fixes.
func sortParts(ps []PartChecksum) {
	slices.SortStableFunc(ps, func(a, b PartChecksum) int { return strings.Compare(a.Name, b.Name) })
}

// DiffChecksums returns the parts whose checksums differ between two lists
// that [World.Checksums] made (of two runs, two machines or two builds):
// a part in both with different sums, or in one list only (a type that has
// values in one run and none in the other). It returns them in a's order,
// then those only in b in b's order, with a's sum (b's for those only in
// b). Complexity: O(len(a) + len(b)), plus a map of b's names.
func DiffChecksums(a, b []PartChecksum) []PartChecksum {
	// Parts are matched by kind, name and, for parts of one name, their
	// rank among them.
	type name struct {
		kind PartKind
		name string
	}
	type key struct {
		name
		nth int
	}
	keys := func(ps []PartChecksum) []key {
		seen := make(map[name]int, len(ps))
		ks := make([]key, len(ps))
		for i, p := range ps {
			n := name{p.Kind, p.Name}
			ks[i] = key{n, seen[n]}
			seen[n]++
		}
		return ks
	}
	ka, kb := keys(a), keys(b)
	inB := make(map[key]uint64, len(b))
	for i, p := range b {
		inB[kb[i]] = p.Sum
	}
	var out []PartChecksum
	inA := make(map[key]bool, len(a))
	for i, p := range a {
		inA[ka[i]] = true
		if s, ok := inB[ka[i]]; !ok || s != p.Sum {
			out = append(out, p)
		}
	}
	for i, p := range b {
		if !inA[kb[i]] {
			out = append(out, p)
		}
	}
	return out
}
