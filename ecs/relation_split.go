package ecs

import "encoding/binary"

// SplitByTarget stores the relation's sources in tables of their own per
// target, as Ark does (and flecs for every pair): the sources of one
// target that share component types are one table, contiguous in memory,
// so a query filtered by the target ([Relation.To], [Relation.ToVar])
// walks the rows of that target's tables with no per-entity lookup, and
// its Chunks form hands out whole tables.
//
// What it costs: setting or removing a pair, or replacing the target,
// moves the source's row between tables (the cost of adding a component,
// against a sparse-set write without the option); every target with
// sources leaves tables behind it, one per set of component types, which
// stay (empty) after the target is gone, so every query over those types
// has more tables to pass over. The pairs are still indexed on both sides
// (Targets, Sources, the cleanup policies and the hooks work as without
// the option).
//
// Pick it for a relation whose targets are few and long-lived and whose
// queries filter by one target over many sources (the members of a
// faction, the cells of a grid, the children of a few large parents):
// bench/results/RELATIONS.md measures the children_read workload, 100
// sources per target read through a query, both ways. Keep the default
// for relations whose targets come and go or whose pairs change often
// (a hierarchy that is reparented, the target a unit follows).
//
// Exclusive relations only: NewRelation panics for [Multi] with
// SplitByTarget.
func SplitByTarget() RelationOption { return func(o *relationOptions) { o.split = true } }

// tablePair is one pair of a split relation in a table's key: every row
// of the table is a source of target.
type tablePair struct {
	rel    *relation
	target Entity
}

// tableKey is the key of the table of the component types in mask whose
// rows are sources of pairs: the mask's key, then each pair's relation
// index and target.
func tableKey(mask bitset, pairs []tablePair) string {
	k := mask.key()
	if len(pairs) == 0 {
		return k
	}
	// The mask's key is a whole number of 8-byte words; a split key is
	// 2 + 8m + 12n bytes for n >= 1 pairs, never a multiple of 8, so the
	// two kinds cannot collide, and the length prefix keeps masks of
	// different lengths apart.
	buf := make([]byte, 0, len(k)+2+12*len(pairs))
	buf = binary.LittleEndian.AppendUint16(buf, uint16(len(k)))
	buf = append(buf, k...)
	for _, p := range pairs {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(p.rel.index))
		buf = binary.LittleEndian.AppendUint32(buf, p.target.index)
		buf = binary.LittleEndian.AppendUint32(buf, p.target.gen)
	}
	return string(buf)
}

// pairTarget returns the target of the split relation r that the rows of
// t are sources of, or the zero Entity.
func (t *table) pairTarget(r *relation) Entity {
	for _, p := range t.pairs {
		if p.rel == r {
			return p.target
		}
	}
	return Entity{}
}

// place moves e, when r is split and e lives, to the table of its
// component types and its current target (none when it has lost its
// pair), if it is not there. Called after every change of e's pair, out
// of the enter/leave section of the change. O(1) when e is in place; the
// cost of a table move otherwise.
func (r *relation) place(e Entity) {
	if !r.split {
		return
	}
	w := r.w
	rec := w.entities.lookup(e)
	if rec == nil {
		return
	}
	var want Entity
	if p := r.out.get(e); p != nil {
		// SAFETY: p points to a relOne[T] (split relations are exclusive),
		// whose first field is an Entity.
		want = *(*Entity)(p)
	}
	src := w.tableOf(rec)
	if src.pairTarget(r) == want {
		return
	}
	w.move(e, rec, w.withTarget(src, r, want))
}

// placeAll places every source of every split relation of w, in the
// order of each relation's sources: after a load or a merge, which put
// rows in the tables of their component types alone.
func (w *World) placeAll() {
	for _, r := range w.relations {
		if !r.split {
			continue
		}
		// place moves rows, not the sparse set: the dense order holds.
		for i := 0; i < len(r.out.dense); i++ {
			r.place(r.out.dense[i])
		}
	}
}

// withTarget returns the table of src's component types and pairs, with
// r's pair replaced by one with target t (removed when t is zero).
func (w *World) withTarget(src *table, r *relation, t Entity) *table {
	edge := tablePair{r, t}
	if dst := src.targetEdge[edge]; dst != nil {
		return dst
	}
	pairs := make([]tablePair, 0, len(src.pairs)+1)
	inserted := t.IsZero()
	for _, p := range src.pairs {
		if p.rel == r {
			continue
		}
		if !inserted && r.index < p.rel.index {
			pairs = append(pairs, edge)
			inserted = true
		}
		pairs = append(pairs, p)
	}
	if !inserted {
		pairs = append(pairs, edge)
	}
	dst := w.tableForPairs(src.ids, pairs)
	if src.targetEdge == nil {
		src.targetEdge = make(map[tablePair]*table)
	}
	src.targetEdge[edge] = dst
	return dst
}
