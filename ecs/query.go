package ecs

import (
	"fmt"
	"slices"
	"unsafe"
)

// queryCache is the shared state of a query: its terms and the list of
// tables that match them. The list is a subscription: the world offers each
// new table to every query once, when the table is created, so a pass never
// scans tables or entities to find its matches (seed 004's subscriptions,
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
	cols   []int32 // per matched table, the column of each term (-1: absent optional)
}

// newQueryCache builds and registers the cache of a query over terms.
// Panics if a filter is invalid; op names the constructor for the message.
func newQueryCache(w *World, op string, terms []componentID, filters []Filter) *queryCache {
	q := &queryCache{w: w, terms: terms, optional: make([]bool, len(terms))}
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
				q.all.set(id)
			}
		case filterWithout:
			for _, id := range ids {
				q.none.set(id)
			}
		case filterAnyOf:
			if len(ids) == 0 {
				panic(fmt.Sprintf("ecs: %s: AnyOf needs at least one component type", op))
			}
			var b bitset
			for _, id := range ids {
				b.set(id)
			}
			q.anyOf = append(q.anyOf, b)
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
		if !q.optional[i] {
			q.all.set(id)
		}
	}
	if q.all.intersects(q.none) {
		panic(fmt.Sprintf("ecs: %s: a component type is both required and excluded (Without)", op))
	}
	if q.all.empty() && len(q.anyOf) == 0 {
		panic(fmt.Sprintf("ecs: %s: every term is optional; require at least one component", op))
	}
	for _, t := range w.tables {
		q.consider(t)
	}
	w.queries = append(w.queries, q)
	return q
}

func (q *queryCache) matches(t *table) bool {
	if !t.mask.containsAll(q.all) || t.mask.intersects(q.none) {
		return false
	}
	for _, b := range q.anyOf {
		if !t.mask.intersects(b) {
			return false
		}
	}
	return true
}

// consider adds t to the matched tables when it matches.
func (q *queryCache) consider(t *table) {
	if !q.matches(t) {
		return
	}
	q.tables = append(q.tables, t)
	for _, id := range q.terms {
		q.cols = append(q.cols, t.column(id))
	}
}

// count returns the number of entities the query matches. Complexity:
// O(matched tables).
func (q *queryCache) count() int {
	n := 0
	for _, t := range q.tables {
		n += len(t.entities)
	}
	return n
}

// Matcher is implemented by every query type. Batch operations such as
// [Map.AddAll], [Map.RemoveAll] and [World.DespawnAll] take a Matcher to
// select the entities they act on.
type Matcher interface {
	cache() *queryCache
}

// termBase returns the base and stride of column col of t, or nil and 0
// for an absent optional column.
func termBase(t *table, col int32) (unsafe.Pointer, uintptr) {
	if col < 0 {
		return nil, 0
	}
	c := &t.columns[col]
	return c.base, c.size
}

// columnSlice returns column col of t as a []T of n rows, or nil when absent.
func columnSlice[T any](t *table, col int32, n int) []T {
	if col < 0 {
		return nil
	}
	// SAFETY: column col of t stores T values and has at least n rows.
	return unsafe.Slice((*T)(t.columns[col].base), n)
}

// checkDistinct panics if a component type appears twice among ids.
func checkDistinct(w *World, op string, ids []componentID) {
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			panic(fmt.Sprintf("ecs: %s: component type %v is listed twice", op, w.reg.infos[id].typ))
		}
	}
}

// rowPointer returns the address of row i of a column with the given base
// and stride, or nil for an absent optional column (nil base). The test must
// be explicit: the compiler assumes unsafe.Add never yields nil and folds a
// caller's nil test away.
func rowPointer[T any](base unsafe.Pointer, i int, stride uintptr) *T {
	if base == nil {
		return nil
	}
	// SAFETY: base points to a live column with more than i rows.
	return (*T)(unsafe.Add(base, uintptr(i)*stride))
}

// cursorPointer is rowPointer with the stride taken from T itself, which is
// a constant in each instantiation: a shift instead of a load and a
// multiply on the cursor's hot path.
func cursorPointer[T any](base unsafe.Pointer, i int) *T {
	if base == nil {
		return nil
	}
	// SAFETY: base points to a live column of T values with more than i
	// rows (columns of zero-size types have a zero stride too).
	return (*T)(unsafe.Add(base, uintptr(i)*unsafe.Sizeof(*(*T)(nil))))
}
