package ecs

import (
	"fmt"
	"slices"
	"unsafe"
)

// queryCache is the shared state of a query: its terms and the list of
// tables that match them. The list is a subscription: the world offers each
// new table to every query once, when the table is created, so a pass never
// scans tables or entities to find its matches (the subscriptions of the
// dissertation "optimisations for the Entity Component System pattern",
// flecs' cached queries).
type queryCache struct {
	w        *World
	terms    []componentID // the query's type parameters, in order
	optional []bool        // per term
	anyOpt   bool
	all      bitset
	none     bitset
	anyOf    []bitset

	tables []*table
	cols   []int32 // per matched table, the column of each term (-1: absent optional or sparse)
	slotOf []int32 // table id -> index in tables, -1 when the table does not match

	// Sparse parts: checked per entity, since sparse types are not part of
	// the archetype.
	hasSparse   bool
	sparseTerms []*sparseSet // per term; nil for a table term
	sparseAll   []*sparseSet // required: non-optional sparse terms and With
	sparseWith  []*sparseSet // the required sparse sets that are not terms
	// sparseFilters is set when sparseWith, sparseNone or anyOfSparse has
	// anything to check.
	sparseFilters bool
	sparseNone    []*sparseSet   // excluded
	anyOfSparse   [][]*sparseSet // per AnyOf group, its sparse members
	// relTo are the Relation.To and ToVar filters: the first one's target's
	// list of sources drives the walk (see entityIter.start), the others
	// are checked per entity.
	relTo []Filter
	// splitTo are the To filters of split relations (SplitByTarget) with
	// a fixed target: checked per table, by the table's pairs.
	splitTo []Filter

	// changes are the Added and Changed filters, checked per table (the
	// column's newest tick) and per row; writes are the tracked types of
	// the MarksChanged filters, marked as the pass visits them. lastRun is
	// the change tick at the end of the previous pass (see passed).
	changes []changeTerm
	writes  []*componentInfo
	lastRun uint32

	sub *subscription // enter/leave observers, nil when none

	op      string   // the constructor, for messages (see describe)
	filters []Filter // as given, for messages
}

// newQueryCache builds and registers the cache of a query over terms.
// Panics if a filter is invalid; op names the constructor for the message.
func newQueryCache(w *World, op string, terms []componentID, filters []Filter) *queryCache {
	w.mustNotMakeShared(op, "query")
	q := &queryCache{w: w, op: op, filters: filters, terms: terms, optional: make([]bool, len(terms)), sparseTerms: make([]*sparseSet, len(terms))}
	for _, f := range filters {
		ids := make([]componentID, len(f.types))
		for i, ct := range f.types {
			if ct.id == nil {
				panic(fmt.Sprintf("ecs: %s: filter with a zero ComponentType; make one with C[T]()", op))
			}
			ids[i] = ct.id(&w.reg)
		}
		switch f.kind {
		case filterWith:
			for _, id := range ids {
				q.require(id)
			}
		case filterWithout:
			for _, id := range ids {
				if sp := w.reg.infos[id].sparse; sp != nil {
					q.sparseNone = append(q.sparseNone, sp)
				} else {
					q.none.set(id)
				}
			}
		case filterAnyOf:
			if len(ids) == 0 {
				panic(fmt.Sprintf("ecs: %s: AnyOf needs at least one component type", op))
			}
			var b bitset
			var sps []*sparseSet
			for _, id := range ids {
				if sp := w.reg.infos[id].sparse; sp != nil {
					sps = append(sps, sp)
				} else {
					b.set(id)
				}
			}
			q.anyOf = append(q.anyOf, b)
			q.anyOfSparse = append(q.anyOfSparse, sps)
		case filterRelTo:
			if f.rel.w != w {
				panic(fmt.Sprintf("ecs: %s: the filter %s.To belongs to another world", op, f.rel.name()))
			}
			switch {
			case f.rel.split && f.toVar == nil:
				// The target's sources are the rows of its tables.
				q.splitTo = append(q.splitTo, f)
			case f.rel.split:
				// First, so that the walk follows the target's tables
				// (entityIter.start).
				q.relTo = slices.Insert(q.relTo, 0, f)
			default:
				// No sparse term for the source side: the walk follows
				// the target's list of sources, which holds exactly the
				// sources.
				q.relTo = append(q.relTo, f)
			}
		case filterAdded, filterChanged:
			name := "Changed"
			if f.kind == filterAdded {
				name = "Added"
			}
			for _, id := range ids {
				info := w.reg.infos[id]
				if !info.track {
					panic(notTracked(name, info))
				}
				q.require(id)
				q.changes = append(q.changes, changeTerm{info: info, added: f.kind == filterAdded})
			}
		case filterMarksChanged:
			for _, id := range ids {
				if info := w.reg.infos[id]; info.track && !slices.Contains(q.writes, info) {
					q.writes = append(q.writes, info)
				}
			}
		case filterOptional:
			for i, id := range ids {
				k := slices.Index(terms, id)
				if k < 0 {
					panic(fmt.Sprintf("ecs: %s: Optional(%v): not one of the query's component types", op, f.types[i]))
				}
				q.optional[k] = true
				q.anyOpt = true
			}
		}
	}
	for i, id := range terms {
		q.sparseTerms[i] = w.reg.infos[id].sparse
		if !q.optional[i] {
			q.require(id)
		}
	}
	for _, sp := range q.sparseAll {
		if !slices.Contains(q.sparseTerms, sp) {
			q.sparseWith = append(q.sparseWith, sp)
		}
	}
	q.sparseFilters = len(q.sparseWith) > 0 || len(q.sparseNone) > 0 || len(q.relTo) > 1
	for _, g := range q.anyOfSparse {
		q.sparseFilters = q.sparseFilters || len(g) > 0
	}
	q.hasSparse = len(q.sparseAll) > 0 || len(q.sparseNone) > 0 || slices.ContainsFunc(q.sparseTerms, func(s *sparseSet) bool { return s != nil })
	for _, g := range q.anyOfSparse {
		q.hasSparse = q.hasSparse || len(g) > 0
	}
	q.hasSparse = q.hasSparse || len(q.relTo) > 0 || len(q.changes) > 0
	// A new query has seen nothing: every value is newer than its last run.
	// (clampTicks left no tick older than clampedAt-maxTickAge.)
	q.lastRun = w.neverRun()
	for _, s := range q.sparseAll {
		if slices.Contains(q.sparseNone, s) {
			panic(requiredAndExcluded(op, s.info))
		}
	}
	if q.all.intersects(q.none) {
		for _, info := range w.reg.infos {
			if q.all.test(info.id) && q.none.test(info.id) {
				panic(requiredAndExcluded(op, info))
			}
		}
	}
	if q.all.empty() && len(q.sparseAll) == 0 && len(q.anyOf) == 0 && len(q.relTo) == 0 && len(q.splitTo) == 0 {
		panic(fmt.Sprintf("ecs: %s: every term is optional; require at least one component", op))
	}
	for _, t := range w.tables {
		q.consider(t)
	}
	w.queries = append(w.queries, q)
	return q
}

// require adds id to the required types, table or sparse.
func (q *queryCache) require(id componentID) {
	if sp := q.w.reg.infos[id].sparse; sp != nil {
		if !slices.Contains(q.sparseAll, sp) {
			q.sparseAll = append(q.sparseAll, sp)
		}
		return
	}
	q.all.set(id)
}

// matches reports whether the entities of t may match: the table part of
// the terms. An AnyOf group with sparse members is left to the per-entity
// check when the table has none of its table members.
func (q *queryCache) matches(t *table) bool {
	if !t.mask.containsAll(q.all) || t.mask.intersects(q.none) {
		return false
	}
	for i, b := range q.anyOf {
		if !t.mask.intersects(b) && len(q.anyOfSparse[i]) == 0 {
			return false
		}
	}
	for _, f := range q.splitTo {
		if tt := t.pairTarget(f.rel); tt.IsZero() || tt != f.to {
			return false
		}
	}
	return true
}

// anyOfSparseMatch checks the AnyOf groups that have sparse members for e,
// an entity of the matching table t: a group the table satisfies needs no
// lookup.
func (q *queryCache) anyOfSparseMatch(e Entity, t *table) bool {
	for i, g := range q.anyOfSparse {
		if len(g) == 0 || t.mask.intersects(q.anyOf[i]) {
			continue
		}
		found := false
		for _, sp := range g {
			if sp.has(e) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// consider adds t to the matched tables when it matches.
func (q *queryCache) consider(t *table) {
	for len(q.slotOf) <= t.id {
		q.slotOf = append(q.slotOf, -1)
	}
	if !q.matches(t) {
		return
	}
	q.slotOf[t.id] = int32(len(q.tables))
	q.tables = append(q.tables, t)
	for _, id := range q.terms {
		q.cols = append(q.cols, t.column(id))
	}
}

// count returns the number of entities the query matches. Complexity:
// O(matched tables), or O(visited entities) with sparse terms.
func (q *queryCache) count() int {
	if q.w.checker != nil {
		q.w.checkPass(q) // what it counts depends on its terms and filters
	}
	if q.hasSparse {
		var it entityIter
		it.start(q)
		it.mark = false // counting is not a pass
		n := 0
		for it.next() {
			n++
		}
		return n
	}
	n := 0
	for _, t := range q.tables {
		n += len(t.entities)
	}
	return n
}

// Matcher is implemented by every query type. Batch operations such as
// [Map.AddMatching], [Map.RemoveMatching] and [World.DespawnMatching] take a
// Matcher to select the entities they act on.
type Matcher interface {
	cache() *queryCache
}

// termBase returns the base of column col of t, or nil for an absent
// optional column.
func termBase(t *table, col int32) unsafe.Pointer {
	if col < 0 {
		return nil
	}
	return t.columns[col].base
}

// columnSlice returns column col of t as a []T of n rows, or nil when absent.
func columnSlice[T any](t *table, col int32, n int) []T {
	if col < 0 {
		return nil
	}
	// SAFETY: column col of t stores T values and has at least n rows.
	return unsafe.Slice((*T)(t.columns[col].base), n)
}

// subSlice returns s[lo:hi:hi], or nil when s is nil (an absent optional
// column).
func subSlice[T any](s []T, lo, hi int) []T {
	if s == nil {
		return nil
	}
	return s[lo:hi:hi]
}

// checkDistinct panics if a component type appears twice among ids.
func checkDistinct(w *World, op string, ids []componentID) {
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			panic(fmt.Sprintf("ecs: %s: component type %s is listed twice", op, w.reg.infos[id].label()))
		}
	}
}

// cursorPointer returns the address of row i of a column of T values at
// base, or nil for an absent optional column (nil base). The stride comes
// from T itself, a constant in each instantiation: a shift instead of a load
// and a multiply on the cursor's hot path. The nil test must be explicit:
// the compiler assumes unsafe.Add never yields nil and would fold a caller's
// nil test away.
func cursorPointer[T any](base unsafe.Pointer, i int) *T {
	if base == nil {
		return nil
	}
	// SAFETY: base points to a live column of T values with more than i
	// rows (columns of zero-size types have a zero stride too).
	return (*T)(unsafe.Add(base, uintptr(i)*unsafe.Sizeof(*(*T)(nil))))
}

// requiredAndExcluded is the message for a query that both requires and
// excludes (Without) the type info describes.
func requiredAndExcluded(op string, info *componentInfo) string {
	if info.relation {
		return fmt.Sprintf("ecs: %s: %s is both required and excluded (Without)", op, info.label())
	}
	return fmt.Sprintf("ecs: %s: component type %v is both required and excluded (Without)", op, info.typ)
}
