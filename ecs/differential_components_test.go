package ecs_test

// The differential harness's component kinds, spawn handles and queries
// (the generated arities are in differential_gen_test.go).

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

// The component types: plain values, a string, a slice, a pointer (so the
// collector must see the columns) and a zero-size tag.
type (
	diffPos  struct{ X, Y float64 }
	diffVel  struct{ DX, DY int32 }
	diffName struct{ S string }
	diffTags struct{ L []uint16 }
	diffRef  struct{ P *int64 }
	diffTag  struct{}
)

// Component kinds: the order of the model's stores and of diffCT.
const (
	kPos = iota
	kVel
	kName
	kTags
	kRef
	kTag
	numKinds
)

var diffCT = [numKinds]ecs.ComponentType{
	ecs.C[diffPos](), ecs.C[diffVel](), ecs.C[diffName](), ecs.C[diffTags](), ecs.C[diffRef](), ecs.C[diffTag](),
}

var diffKindNames = [numKinds]string{"Pos", "Vel", "Name", "Tags", "Ref", "Tag"}

var diffTypesOf = [numKinds]reflect.Type{
	reflect.TypeFor[diffPos](), reflect.TypeFor[diffVel](), reflect.TypeFor[diffName](),
	reflect.TypeFor[diffTags](), reflect.TypeFor[diffRef](), reflect.TypeFor[diffTag](),
}

// diffRegisters registers the type of each kind in a world.
var diffRegisters = [numKinds]func(*ecs.World, ...ecs.ComponentOption){
	ecs.Register[diffPos], ecs.Register[diffVel], ecs.Register[diffName],
	ecs.Register[diffTags], ecs.Register[diffRef], ecs.Register[diffTag],
}

func diffKindOf[T any]() int {
	var zero T
	switch any(zero).(type) {
	case diffPos:
		return kPos
	case diffVel:
		return kVel
	case diffName:
		return kName
	case diffTags:
		return kTags
	case diffRef:
		return kRef
	case diffTag:
		return kTag
	}
	panic("diffKindOf: not a differential component type")
}

// Value constructors. Each call makes fresh heap objects, so Tessera and the
// model never share a string, slice or pointer: if Tessera's columns hid a
// pointer from the collector, the object could be freed and reused, and the
// comparison would see it.
func mkPos(x int) diffPos { return diffPos{float64(x), float64(-x) / 2} }
func mkVel(x int) diffVel { return diffVel{int32(x%7 - 3), int32(x % 5)} }
func mkName(x int) diffName {
	if x == 0 {
		return diffName{}
	}
	return diffName{"n" + strconv.Itoa(x)}
}
func mkTags(x int) diffTags {
	if x == 0 {
		return diffTags{}
	}
	l := make([]uint16, x%5) // x%5 == 0: empty but not nil
	for i := range l {
		l[i] = uint16(x*31 + i)
	}
	return diffTags{l}
}
func mkRef(x int) diffRef {
	if x == 0 {
		return diffRef{}
	}
	p := new(int64)
	*p = int64(x) * 1_000_003
	return diffRef{p}
}
func mkTag(int) diffTag { return diffTag{} }

func eqComparable[T comparable](a, b T) bool { return a == b }
func eqTags(a, b diffTags) bool {
	return (a.L == nil) == (b.L == nil) && slices.Equal(a.L, b.L)
}
func eqRef(a, b diffRef) bool {
	return (a.P == nil) == (b.P == nil) && (a.P == nil || *a.P == *b.P)
}

func showValue(v any) string {
	if r, ok := v.(diffRef); ok && r.P != nil {
		return fmt.Sprintf("{P:&%d}", *r.P)
	}
	return fmt.Sprintf("%+v", v)
}

type diffComp interface {
	add(h *diffHarness, p diffPair, x int)
	set(h *diffHarness, p diffPair, x int)
	writeGet(h *diffHarness, p diffPair, x int)
	remove(h *diffHarness, p diffPair)
	addEntities(h *diffHarness, ps []diffPair, x int)
	removeEntities(h *diffHarness, ps []diffPair)
	addAll(h *diffHarness, q *diffQuery, x int)
	removeAll(h *diffHarness, q *diffQuery)
	check(h *diffHarness, p diffPair)
	checkRow(h *diffHarness, r *diffRow, id refmodel.EntityID, optional bool)
	writeRow(h *diffHarness, r *diffRow, id refmodel.EntityID, x int) bool
	changePass(h *diffHarness)
	markChanged(h *diffHarness, p diffPair)
	checkDead(h *diffHarness, p diffPair, misuse int)
	junk(e ecs.Entity, x int) // Tessera only: for entities the model never sees
	newQuery(h *diffHarness, spec diffSpec)
	pin(h *diffHarness, p diffPair) (ptr any, how string) // nil if p lacks the kind
	checkPin(h *diffHarness, pin diffPin)
	len() int
	spawn1(h *diffHarness)
	spawnBatch1(h *diffHarness, n int) // outside iterations only
}

type diffKind[T any] struct {
	k    int
	name string
	tm   *ecs.Map[T]
	ms   *refmodel.Store[T]
	mk   func(int) T
	eq   func(a, b T) bool
	disc *ecs.Query1[T] // finds the entities of a Map.SpawnBatch

	// The change-filtered queries of a tracked kind, by Added (bit 1) and
	// Writes (bit 0), made on first use, and the model's memory of their
	// last passes, made with them (snapshots rewind both).
	watched [4]*ecs.Query1[T]
	watches [4]*refmodel.ChangeWatch
}

func newDiffKind[T any](h *diffHarness, k int, name string, mk func(int) T, eq func(a, b T) bool) *diffKind[T] {
	c := &diffKind[T]{k: k, name: name, tm: ecs.NewMap[T](h.w), ms: refmodel.NewStore[T](h.m, name), mk: mk, eq: eq,
		disc: ecs.NewQuery1[T](h.w)}
	if int(c.ms.Kind()) != k || diffKindOf[T]() != k {
		panic("differential harness: kinds out of order")
	}
	return c
}

func (c *diffKind[T]) junk(e ecs.Entity, x int) { c.tm.Set(e, c.mk(x)) }

func (c *diffKind[T]) len() int { return c.ms.Len() }

func (c *diffKind[T]) pin(h *diffHarness, p diffPair) (any, string) {
	if !c.ms.Has(p.id) {
		return nil, ""
	}
	if h.src.intn(2) == 0 {
		return c.tm.Get(p.e), "Get"
	}
	tp, _ := c.tm.TryGet(p.e)
	return tp, "TryGet"
}

func (c *diffKind[T]) checkPin(h *diffHarness, pin diffPin) {
	tp := pin.ptr.(*T)
	// A valid pointer is the value's address: TryGet gives the same one
	// (pointers to zero-size values need not differ, so Tag is left out).
	if cur, _ := c.tm.TryGet(pin.p.e); cur != tp && diffTypesOf[c.k].Size() != 0 {
		h.failf("pointer stability: %s of %v from %s (%s storage, signature %#x), with no structural change of its storage since, is %p; TryGet gives %p",
			c.name, pin.p.e, pin.how, map[bool]string{false: "table", true: "sparse"}[h.sparse[c.k]], pin.sig, tp, cur)
	}
	mv, ok := c.ms.Get(pin.p.id)
	if !ok {
		h.failf("a %s pin of %v (from %s) is still valid, but the model entity %d has no %s", c.name, pin.p.e, pin.how, pin.p.id, c.name)
	}
	if !c.eq(*tp, mv) {
		h.failf("pointer stability: %s of %v from %s (%s storage, signature %#x), with no structural change of its storage since, reads %s; model %s",
			c.name, pin.p.e, pin.how, map[bool]string{false: "table", true: "sparse"}[h.sparse[c.k]], pin.sig, showValue(*tp), showValue(mv))
	}
}

// spawn1 spawns an entity with this one component, with Map.Spawn.
func (c *diffKind[T]) spawn1(h *diffHarness) {
	x := h.val()
	e := c.tm.Spawn(c.mk(x))
	var id refmodel.EntityID
	h.m.Batch(func() {
		id = h.m.Spawn()
		c.ms.Add(id, c.mk(x))
	})
	h.pair(id, e)
	h.note("Map.Spawn["+c.name+"]", diffPair{id, e}, x)
}

// spawnBatch1 spawns n entities with Map.SpawnBatch and finds them with a
// query, as diffMap2.spawnBatch does.
func (c *diffKind[T]) spawnBatch1(h *diffHarness, n int) {
	x := h.val()
	h.note("Map.SpawnBatch["+c.name+"]", diffPair{}, n)
	c.tm.SpawnBatch(n, c.mk(x))
	var news []ecs.Entity
	for ch := range c.disc.Chunks() {
		news = h.appendUnpaired(news, ch.Entities)
	}
	if len(news) != n {
		h.failf("Map.SpawnBatch(%d) made %d entities", n, len(news))
	}
	h.m.Batch(func() {
		for _, e := range news {
			id := h.m.Spawn()
			c.ms.Add(id, c.mk(x))
			h.pair(id, e)
		}
	})
}

func (c *diffKind[T]) newQuery(h *diffHarness, spec diffSpec) {
	ecs.NewQuery1[T](h.w, spec.filters()...)
}

// covNested counts a structural change of this kind at depth >= 2.
func (c *diffKind[T]) covNested(h *diffHarness) {
	if h.depth >= 2 && h.sparse[c.k] {
		h.cov[covNestedDeferSparse]++
	}
}

// covBatch counts a batch operation of this kind over q, when q matches
// something.
func (c *diffKind[T]) covBatch(h *diffHarness, q *diffQuery, comp, query int) {
	if (!h.sparse[c.k] && !q.sparse) || h.m.Count(q.mq) == 0 {
		return
	}
	if h.sparse[c.k] {
		h.cov[comp]++
	}
	if q.sparse {
		h.cov[query]++
	}
}

func (c *diffKind[T]) add(h *diffHarness, p diffPair, x int) {
	h.note("Add["+c.name+"]", p, x)
	c.covNested(h)
	if err := c.ms.CheckAdd(p.id); err != nil {
		h.expectPanic("Tessera Map.Add["+c.name+"] where the model says "+err.Error(), func() { c.tm.Add(p.e, c.mk(x)) })
		h.expectPanic("model Add["+c.name+"]", func() { c.ms.Add(p.id, c.mk(x)) })
		return
	}
	c.tm.Add(p.e, c.mk(x))
	c.ms.Add(p.id, c.mk(x))
}

func (c *diffKind[T]) set(h *diffHarness, p diffPair, x int) {
	h.note("Set["+c.name+"]", p, x)
	c.covNested(h)
	if err := c.ms.CheckSet(p.id); err != nil {
		h.expectPanic("Tessera Map.Set["+c.name+"] where the model says "+err.Error(), func() { c.tm.Set(p.e, c.mk(x)) })
		return
	}
	c.tm.Set(p.e, c.mk(x))
	c.ms.Set(p.id, c.mk(x))
}

// writeGet writes through the pointer Map.Get returns.
func (c *diffKind[T]) writeGet(h *diffHarness, p diffPair, x int) {
	h.note("*Get["+c.name+"]=", p, x)
	if !c.ms.Has(p.id) {
		h.expectPanic("Tessera Map.Get of a missing "+c.name, func() { c.tm.Get(p.e) })
		return
	}
	*c.tm.Get(p.e) = c.mk(x)
	c.ms.Update(p.id, func(v *T) { *v = c.mk(x) })
}

func (c *diffKind[T]) remove(h *diffHarness, p diffPair) {
	h.note("Remove["+c.name+"]", p, 0)
	c.covNested(h)
	c.tm.Remove(p.e)
	c.ms.Remove(p.id)
}

// addEntities gives x to the entities ps with Map.AddEntities; the model
// adds them one by one, and where it refuses one, Tessera must panic
// having added the ones before it.
func (c *diffKind[T]) addEntities(h *diffHarness, ps []diffPair, x int) {
	h.note(fmt.Sprintf("AddEntities[%s] of %d", c.name, len(ps)), ps[0], x)
	c.covNested(h)
	es := diffEntities(ps)
	for i, p := range ps {
		if err := c.ms.CheckAdd(p.id); err != nil {
			h.expectPanic(fmt.Sprintf("Tessera Map.AddEntities[%s] where the model says of entity %d of %d: %v", c.name, i, len(ps), err),
				func() { c.tm.AddEntities(es, c.mk(x)) })
			return
		}
		c.ms.Add(p.id, c.mk(x))
	}
	c.tm.AddEntities(es, c.mk(x))
}

// removeEntities takes the kind from the entities ps with
// Map.RemoveEntities, as addEntities adds.
func (c *diffKind[T]) removeEntities(h *diffHarness, ps []diffPair) {
	h.note(fmt.Sprintf("RemoveEntities[%s] of %d", c.name, len(ps)), ps[0], 0)
	c.covNested(h)
	es := diffEntities(ps)
	for i, p := range ps {
		if !h.m.Alive(p.id) {
			h.expectPanic(fmt.Sprintf("Tessera Map.RemoveEntities[%s] of a list whose entity %d of %d the model has despawned", c.name, i, len(ps)),
				func() { c.tm.RemoveEntities(es) })
			return
		}
		c.ms.Remove(p.id)
	}
	c.tm.RemoveEntities(es)
}

func diffEntities(ps []diffPair) []ecs.Entity {
	es := make([]ecs.Entity, len(ps))
	for i, p := range ps {
		es[i] = p.e
	}
	return es
}

func (c *diffKind[T]) addAll(h *diffHarness, q *diffQuery, x int) {
	h.note("AddMatching["+c.name+"] "+q.name, diffPair{}, x)
	c.covBatch(h, q, covAddAllSparseComp, covAddAllSparseQuery)
	c.tm.AddMatching(q.tq, c.mk(x))
	c.ms.AddMatching(q.mq, c.mk(x))
}

func (c *diffKind[T]) removeAll(h *diffHarness, q *diffQuery) {
	h.note("RemoveMatching["+c.name+"] "+q.name, diffPair{}, 0)
	c.covBatch(h, q, covRemoveAllSparseComp, covRemoveAllSparseQuery)
	c.tm.RemoveMatching(q.tq)
	c.ms.RemoveMatching(q.mq)
}

func (c *diffKind[T]) check(h *diffHarness, p diffPair) {
	mv, mok := c.ms.Get(p.id)
	tp, tok := c.tm.TryGet(p.e)
	if tok != mok || c.tm.Has(p.e) != mok {
		h.failf("%s presence of tessera %v / model %d: TryGet %v, Has %v, model %v", c.name, p.e, p.id, tok, c.tm.Has(p.e), mok)
	}
	if tok && !c.eq(*tp, mv) {
		h.failf("%s value of tessera %v / model %d: tessera %s, model %s", c.name, p.e, p.id, showValue(*tp), showValue(mv))
	}
}

func (c *diffKind[T]) checkRow(h *diffHarness, r *diffRow, id refmodel.EntityID, optional bool) {
	tp, _ := r.p[c.k].(*T)
	mv, mok := c.ms.Get(id)
	switch {
	case tp == nil && !optional:
		h.failf("query row of %v: nil pointer for required term %s", r.e, c.name)
	case (tp != nil) != mok:
		h.failf("query row of %v / model %d: %s pointer present %v, model has %v", r.e, id, c.name, tp != nil, mok)
	case tp != nil && !c.eq(*tp, mv):
		h.failf("query row of %v / model %d: %s = %s, model %s", r.e, id, c.name, showValue(*tp), showValue(mv))
	}
}

// writeRow writes through the row's pointer, if it has one for this type.
func (c *diffKind[T]) writeRow(h *diffHarness, r *diffRow, id refmodel.EntityID, x int) bool {
	tp, _ := r.p[c.k].(*T)
	if tp == nil {
		return false
	}
	h.note("row."+c.name+"=", diffPair{id, r.e}, x)
	*tp = c.mk(x)
	if !c.ms.Update(id, func(v *T) { *v = c.mk(x) }) {
		h.failf("row of %v has a %s the model entity %d lacks", r.e, c.name, id)
	}
	return true
}

func (c *diffKind[T]) checkDead(h *diffHarness, p diffPair, misuse int) {
	if c.tm.Has(p.e) {
		h.failf("Has[%s] true for dead %v", c.name, p.e)
	}
	if _, ok := c.tm.TryGet(p.e); ok {
		h.failf("TryGet[%s] found a value for dead %v", c.name, p.e)
	}
	switch misuse {
	case 0:
		h.expectPanic("Map.Add on a dead entity", func() { c.tm.Add(p.e, c.mk(1)) })
		h.expectPanic("model Add on a dead entity", func() { c.ms.Add(p.id, c.mk(1)) })
	case 1:
		h.expectPanic("Map.Set on a dead entity", func() { c.tm.Set(p.e, c.mk(1)) })
		h.expectPanic("model Set on a dead entity", func() { c.ms.Set(p.id, c.mk(1)) })
	case 2:
		h.expectPanic("Map.Remove on a dead entity", func() { c.tm.Remove(p.e) })
		h.expectPanic("model Remove on a dead entity", func() { c.ms.Remove(p.id) })
	case 3:
		h.expectPanic("Map.Get on a dead entity", func() { c.tm.Get(p.e) })
	}
}

type diffMapN interface {
	spawn(h *diffHarness)
	spawnBatch(h *diffHarness, n int) // outside iterations only
	spawnBatchFunc(h *diffHarness, n int)
	spawnFunc(h *diffHarness)
	add(h *diffHarness, p diffPair)
	remove(h *diffHarness, p diffPair)
	set(h *diffHarness, p diffPair)
	addAll(h *diffHarness, q *diffQuery)    // outside iterations only
	removeAll(h *diffHarness, q *diffQuery) // outside iterations only
	check(h *diffHarness, p diffPair)
	checkDead(h *diffHarness, p diffPair, misuse int)
	has(k int) bool // whether the handle's types include kind k
}

// diffInit is the body of a SpawnBatchFunc init for one type: the value
// handed in must be the zero value (the entity starts "with zero components
// of these types"); it is then sometimes left as it is, sometimes filled in.
func diffInit[T any](h *diffHarness, c *diffKind[T], e ecs.Entity, id refmodel.EntityID, p *T) {
	var v T
	if !c.eq(*p, v) {
		h.failf("SpawnBatchFunc handed init a non-zero %s for %v: %s", c.name, e, showValue(*p))
	}
	if h.src.intn(4) != 0 {
		x := h.val()
		*p = c.mk(x)
		v = c.mk(x)
	}
	c.ms.Add(id, v)
}

// appendUnpaired appends the entities of es the harness does not know yet:
// the ones a SpawnBatch just made.
func (h *diffHarness) appendUnpaired(news, es []ecs.Entity) []ecs.Entity {
	for _, e := range es {
		if _, ok := h.byEnt[e]; !ok {
			news = append(news, e)
		}
	}
	return news
}

// diffRow is one visited entity, in any iteration form: the entity and a
// typed pointer (*diffPos, ...) per query term, nil for an absent optional one.
type diffRow struct {
	e ecs.Entity
	p [numKinds]any
}

// diffSpec is a query's filters, as component kinds.
type diffSpec struct {
	with, without, opt []int
	anyOf              [][]int
	split              bool // one With / Without filter per kind instead of one for all
}

func diffTypes(ks []int) []ecs.ComponentType {
	ts := make([]ecs.ComponentType, len(ks))
	for i, k := range ks {
		ts[i] = diffCT[k]
	}
	return ts
}

func diffKinds(ks []int) []refmodel.Kind {
	out := make([]refmodel.Kind, len(ks))
	for i, k := range ks {
		out[i] = refmodel.Kind(k)
	}
	return out
}

func (s diffSpec) filters() []ecs.Filter {
	var fs []ecs.Filter
	group := func(mk func(...ecs.ComponentType) ecs.Filter, ks []int) {
		if len(ks) == 0 {
			return
		}
		if !s.split {
			fs = append(fs, mk(diffTypes(ks)...))
			return
		}
		for _, k := range ks {
			fs = append(fs, mk(diffCT[k]))
		}
	}
	group(ecs.With, s.with)
	group(ecs.Without, s.without)
	for _, g := range s.anyOf {
		fs = append(fs, ecs.AnyOf(diffTypes(g)...))
	}
	if len(s.opt) > 0 {
		fs = append(fs, ecs.Optional(diffTypes(s.opt)...))
	}
	return fs
}

// diffQuery is one Tessera query and its model twin.
type diffQuery struct {
	name  string
	mq    *refmodel.Query
	tq    ecs.Matcher
	count func() int
	// observe registers Tessera enter and leave observers on tq.
	observe func(enter, leave func(ecs.Entity))
	terms   []int
	opt     [numKinds]bool
	// What the query does with sparse types (for the coverage counts).
	sparse     bool // it names a sparse type, as a term or in a filter
	mixedTerms bool // its terms are of both storages
	withSparse bool // With on a sparse type
	without    bool // Without on a sparse type
	anyOfMixed bool // an AnyOf group of both storages
	// forms runs the query's Chunks, All and Iter forms, calling body per
	// entity until it returns false.
	forms [3]func(h *diffHarness, body func(r *diffRow) bool)
}

var diffFormNames = [3]string{"Chunks", "All", "Iter"}

func newDiffQuery(h *diffHarness, name string, tq ecs.Matcher, count func() int, spec diffSpec, terms ...int) *diffQuery {
	q := &diffQuery{name: name, tq: tq, count: count, terms: terms}
	q.mq = &refmodel.Query{Terms: diffKinds(terms), With: diffKinds(spec.with), Without: diffKinds(spec.without),
		Optional: diffKinds(spec.opt)}
	for _, g := range spec.anyOf {
		q.mq.AnyOf = append(q.mq.AnyOf, diffKinds(g))
	}
	if err := q.mq.Validate(h.m); err != nil {
		panic("differential harness: model query " + name + ": " + err.Error())
	}
	for _, k := range spec.opt {
		q.opt[k] = true
	}
	sp, tb := h.sparseIn(terms...)
	q.mixedTerms = sp && tb
	q.withSparse, _ = h.sparseIn(spec.with...)
	q.without, _ = h.sparseIn(spec.without...)
	q.sparse = sp || q.withSparse || q.without
	for _, g := range spec.anyOf {
		gs, gt := h.sparseIn(g...)
		q.anyOfMixed = q.anyOfMixed || gs && gt
		q.sparse = q.sparse || gs
	}
	return q
}

func diffAt[T any](s []T, i int) *T {
	if s == nil {
		return nil
	}
	return &s[i]
}

func (h *diffHarness) checkChunk(n int, lens ...int) {
	if n == 0 {
		h.failf("Chunks yielded an empty chunk")
	}
	for _, l := range lens {
		if l != 0 && l != n {
			h.failf("Chunks yielded a column of %d rows for %d entities", l, n)
		}
	}
}

// closeCursor ends a cursor loop: Close after an early exit, and sometimes a
// second, no-op Close (also after exhaustion). Then Next must say false.
func closeCursor(h *diffHarness, early bool, close func(), next func() bool) {
	if early {
		close()
	}
	if h.src.intn(2) == 0 {
		close()
	}
	if next() {
		h.failf("cursor Next returned true after the cursor was closed")
	}
}

// showValues formats component values for a failure message.
func showValues(vs ...any) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = showValue(v)
	}
	return strings.Join(s, ", ")
}
