package refmodel

import (
	"fmt"
	"maps"
	"slices"
)

// CleanupPolicy says what despawning an entity does to the pairs of a
// relation that have it as their target, as Tessera's ecs.CleanupPolicy.
type CleanupPolicy uint8

const (
	// RemovePairs removes the pairs; the sources live on.
	RemovePairs CleanupPolicy = iota
	// DespawnSources despawns the sources too, and theirs in turn.
	DespawnSources
	// RefuseDespawn refuses the despawn, before anything changes, while the
	// target has a source that is not being despawned with it.
	RefuseDespawn
)

// String returns the policy's name, as Tessera spells it.
func (p CleanupPolicy) String() string {
	switch p {
	case RemovePairs:
		return "RemovePairs"
	case DespawnSources:
		return "DespawnSources"
	case RefuseDespawn:
		return "RefuseDespawn"
	}
	return fmt.Sprintf("CleanupPolicy(%d)", uint8(p))
}

// RelationOptions configures a relation made by [NewRelation]. The zero
// value is Tessera's default: exclusive (one target per source), cycles
// allowed, pairs removed when their target is despawned.
type RelationOptions struct {
	Multi   bool          // any number of targets per source
	Acyclic bool          // refuse a pair that makes an entity its own ancestor; exclusive only
	Cleanup CleanupPolicy // what despawning a target does
}

// Relation is the model of Tessera's ecs.Relation[T]: pairs of a source
// and a target, each with a value of T. It keeps, per source, its pairs in
// the order they were made and, per target, its sources in the order the
// pairs were made; removing a pair keeps the order of the others.
//
// Changes follow the package's deferral rules: inside an iteration (a hook
// or observer call included) Add, Set, Remove and RemoveTargets check only
// that their entities live and are deferred; when applied, in order with
// the other deferred changes, each does nothing if one of its entities is
// dead (or running its despawn hooks) by then, and otherwise is judged then,
// so a refused one panics out of the application (see [World.Recover]).
// Reads always see the pairs applied so far.
type Relation[T any] struct {
	w    *World
	name string
	opts RelationOptions
	out  map[EntityID][]pair[T] // per source: its pairs, oldest first
	in   map[EntityID][]EntityID
}

// pair is one pair of a relation, as its source holds it.
type pair[T any] struct {
	target EntityID
	value  T
}

// relationSet is the part of a Relation[T] the world needs without knowing
// T: despawns, snapshots, clones.
type relationSet interface {
	label() string
	cleanup() CleanupPolicy
	sourcesOf(t EntityID) []EntityID // t's sources; the caller must not change the slice
	unlink(e EntityID)               // remove every pair of e, as source or target
	save() any                       // a copy of the pairs, for a Snapshot
	load(saved any)                  // replace the pairs by a copy of saved (nil: none)
	copySources(dst, src EntityID)   // copy src's pairs as a source to dst (see CopyEntity)
	isSource(e EntityID) bool        // e is the source of a pair
}

// NewRelation declares a relation of pair values T in w, named name in
// panic messages. Every call makes a new relation. Relations count in the
// order they were declared: a cascade visits their sources in that order,
// as Tessera's does. Panics for Multi with Acyclic and for an unknown
// cleanup policy, as ecs.NewRelation does.
func NewRelation[T any](w *World, name string, opts RelationOptions) *Relation[T] {
	if opts.Multi && opts.Acyclic {
		panic(fmt.Sprintf("refmodel: NewRelation %s: Acyclic needs an exclusive relation (without Multi)", name))
	}
	if opts.Cleanup > RefuseDespawn {
		panic(fmt.Sprintf("refmodel: NewRelation %s: unknown cleanup policy %v", name, opts.Cleanup))
	}
	r := &Relation[T]{w: w, name: name, opts: opts, out: make(map[EntityID][]pair[T]), in: make(map[EntityID][]EntityID)}
	w.relations = append(w.relations, r)
	return r
}

// Name returns the name given to [NewRelation].
func (r *Relation[T]) Name() string { return r.name }

// Options returns the options given to [NewRelation].
func (r *Relation[T]) Options() RelationOptions { return r.opts }

// Add makes t a target of e with the zero value of T; a pair that exists
// is left as it is. Refused, with a panic and no change, when e has another
// target of an exclusive relation (use Set) or when the pair would close a
// cycle of an acyclic one; inside an iteration that is judged when the
// deferred change is applied. Panics if e or t is not alive.
func (r *Relation[T]) Add(e, t EntityID) {
	if err := r.CheckAdd(e, t); err != nil {
		panic(err.Error())
	}
	r.changeOrDefer("Add", e, t, nil)
}

// Set makes t a target of e with value v: it overwrites the value of a
// pair that exists, and for an exclusive relation replaces e's other
// target (the pair with the new target counts as made now). Refused like
// Add for a cycle of an acyclic relation. Panics if e or t is not alive.
func (r *Relation[T]) Set(e, t EntityID, v T) {
	if err := r.CheckSet(e, t); err != nil {
		panic(err.Error())
	}
	r.changeOrDefer("Set", e, t, &v)
}

// CheckAdd returns the reason [Relation.Add] of (e, t) would panic now, or
// nil. Inside an iteration only dead entities count: a refusal comes when
// the deferred change is applied.
func (r *Relation[T]) CheckAdd(e, t EntityID) error { return r.check("Add", e, t, false) }

// CheckSet returns the reason [Relation.Set] of (e, t) would panic now, or
// nil, as CheckAdd does.
func (r *Relation[T]) CheckSet(e, t EntityID) error { return r.check("Set", e, t, true) }

// check is CheckAdd (set false) and CheckSet.
func (r *Relation[T]) check(op string, e, t EntityID, set bool) error {
	if err := r.w.checkAlive(r.name+"."+op, e); err != nil {
		return err
	}
	if err := r.w.checkAlive(r.name+"."+op+" (target)", t); err != nil {
		return err
	}
	if r.w.depth > 0 {
		return nil // judged when applied
	}
	return r.refusal(op, e, t, set)
}

// refusal returns why Add (set false) or Set of the pair (e, t), both
// alive, is refused now, or nil. The checks come in Tessera's order: a
// pair that exists is never refused, then an exclusive Add with another
// target, then a cycle.
func (r *Relation[T]) refusal(op string, e, t EntityID, set bool) error {
	if r.index(e, t) >= 0 {
		return nil
	}
	if !r.opts.Multi && !set && len(r.out[e]) > 0 {
		return fmt.Errorf("refmodel: %s.Add: entity %d already has the target %d (exclusive relation); use Set to replace it", r.name, e, r.out[e][0].target)
	}
	if r.opts.Acyclic && r.reaches(t, e) {
		return fmt.Errorf("refmodel: %s.%s: making %d the target of %d would close a cycle (acyclic relation)", r.name, op, t, e)
	}
	return nil
}

// reaches reports whether walking up from x, target after target, meets
// e, x itself included. An exclusive relation only.
func (r *Relation[T]) reaches(x, e EntityID) bool {
	for steps := 0; steps <= len(r.out); steps++ {
		if x == e {
			return true
		}
		ps := r.out[x]
		if len(ps) == 0 {
			return false
		}
		x = ps[0].target
	}
	return true // a longer chain than there are sources: a cycle already
}

// changeOrDefer applies Add (v nil) or Set of (e, t) now, or defers it
// inside an iteration.
func (r *Relation[T]) changeOrDefer(op string, e, t EntityID, v *T) {
	w := r.w
	if w.depth > 0 {
		w.pending = append(w.pending, command{op: opRelation, fn: func() {
			if w.Alive(e) && w.Alive(t) && w.dying != e && w.dying != t {
				r.change(op, e, t, v)
			}
		}})
		return
	}
	r.change(op, e, t, v)
	w.done()
}

// change applies Add (v nil) or Set of (e, t), both alive, or panics when
// it is refused.
func (r *Relation[T]) change(op string, e, t EntityID, v *T) {
	if err := r.refusal(op, e, t, v != nil); err != nil {
		panic(err.Error())
	}
	if i := r.index(e, t); i >= 0 {
		if v != nil {
			r.out[e][i].value = *v
		}
		return
	}
	var val T
	if v != nil {
		val = *v
	}
	if !r.opts.Multi && len(r.out[e]) > 0 {
		r.unpair(e, r.out[e][0].target) // Set replaces the one target
	}
	r.out[e] = append(r.out[e], pair[T]{target: t, value: val})
	r.in[t] = append(r.in[t], e)
}

// Remove removes the pair (e, t), if there is one; t may be dead. Inside an
// iteration it is deferred, and does nothing if e is dead when applied.
// Panics if e is not alive.
func (r *Relation[T]) Remove(e, t EntityID) {
	w := r.w
	w.mustBeAlive(r.name+".Remove", e)
	if w.depth > 0 {
		w.pending = append(w.pending, command{op: opRelation, fn: func() {
			if w.Alive(e) {
				r.unpair(e, t)
			}
		}})
		return
	}
	r.unpair(e, t)
	w.done()
}

// RemoveTargets removes every pair of e as a source, deferred like Remove.
// Panics if e is not alive.
func (r *Relation[T]) RemoveTargets(e EntityID) {
	w := r.w
	w.mustBeAlive(r.name+".RemoveTargets", e)
	if w.depth > 0 {
		w.pending = append(w.pending, command{op: opRelation, fn: func() {
			if w.Alive(e) {
				r.removeTargets(e)
			}
		}})
		return
	}
	r.removeTargets(e)
	w.done()
}

// removeTargets removes every pair of e as a source, in order.
func (r *Relation[T]) removeTargets(e EntityID) {
	for _, p := range slices.Clone(r.out[e]) {
		r.unpair(e, p.target)
	}
}

// unpair removes the pair (e, t) from both sides, keeping the order of
// the others; it does nothing when there is no such pair.
func (r *Relation[T]) unpair(e, t EntityID) {
	i := r.index(e, t)
	if i < 0 {
		return
	}
	if r.out[e] = slices.Delete(r.out[e], i, i+1); len(r.out[e]) == 0 {
		delete(r.out, e)
	}
	j := slices.Index(r.in[t], e)
	if r.in[t] = slices.Delete(r.in[t], j, j+1); len(r.in[t]) == 0 {
		delete(r.in, t)
	}
}

// index returns the position of the pair (e, t) among e's pairs, or -1.
func (r *Relation[T]) index(e, t EntityID) int {
	return slices.IndexFunc(r.out[e], func(p pair[T]) bool { return p.target == t })
}

// Target returns e's first target (its only one in an exclusive relation)
// and true, or 0 and false when it has none. Panics if e is not alive.
func (r *Relation[T]) Target(e EntityID) (EntityID, bool) {
	r.w.mustBeAlive(r.name+".Target", e)
	if ps := r.out[e]; len(ps) > 0 {
		return ps[0].target, true
	}
	return 0, false
}

// Targets returns e's targets in the order their pairs were made (nil when
// there are none). Panics if e is not alive.
func (r *Relation[T]) Targets(e EntityID) []EntityID {
	r.w.mustBeAlive(r.name+".Targets", e)
	var ts []EntityID
	for _, p := range r.out[e] {
		ts = append(ts, p.target)
	}
	return ts
}

// Sources returns the entities that have t as a target, in the order their
// pairs were made (nil when there are none). Panics if t is not alive.
func (r *Relation[T]) Sources(t EntityID) []EntityID {
	r.w.mustBeAlive(r.name+".Sources", t)
	return slices.Clone(r.in[t])
}

// Has reports whether the pair (e, t) exists; false when e is dead.
func (r *Relation[T]) Has(e, t EntityID) bool { return r.w.Alive(e) && r.index(e, t) >= 0 }

// Value returns the value of the pair (e, t) and true, or the zero T and
// false when there is no such pair.
func (r *Relation[T]) Value(e, t EntityID) (T, bool) {
	if i := r.index(e, t); i >= 0 && r.w.Alive(e) {
		return r.out[e][i].value, true
	}
	var zero T
	return zero, false
}

// Len returns the number of pairs.
func (r *Relation[T]) Len() int {
	n := 0
	for _, ps := range r.out {
		n += len(ps)
	}
	return n
}

// Ancestors returns e's target, its target's target, and so on: the walk
// up of Tessera's Hierarchy.Ancestors. Panics if e is not alive, if the
// relation is Multi, and if the walk meets a cycle.
func (r *Relation[T]) Ancestors(e EntityID) []EntityID {
	r.w.mustBeAlive(r.name+".Ancestors", e)
	if r.opts.Multi {
		panic(fmt.Sprintf("refmodel: %s.Ancestors: a Multi relation has no single line of ancestors", r.name))
	}
	var up []EntityID
	for x, ok := r.Target(e); ok; x, ok = r.Target(x) {
		if len(up) > len(r.out) {
			panic(fmt.Sprintf("refmodel: %s.Ancestors: the targets above %d form a cycle", r.name, e))
		}
		up = append(up, x)
	}
	return up
}

// Root returns the last of e's ancestors, or e when it has none.
func (r *Relation[T]) Root(e EntityID) EntityID {
	if up := r.Ancestors(e); len(up) > 0 {
		return up[len(up)-1]
	}
	return e
}

// Depth returns the number of e's ancestors.
func (r *Relation[T]) Depth(e EntityID) int { return len(r.Ancestors(e)) }

// Descendants returns every entity below e, each before its own sources
// and sources in the order of their pairs (pre-order): the walk down of
// Tessera's Hierarchy.Descendants. Panics if e is not alive and for a
// relation that is not acyclic (whose walk might not end).
func (r *Relation[T]) Descendants(e EntityID) []EntityID {
	r.w.mustBeAlive(r.name+".Descendants", e)
	if !r.opts.Acyclic {
		panic(fmt.Sprintf("refmodel: %s.Descendants: the relation is not acyclic", r.name))
	}
	var down []EntityID
	var walk func(x EntityID)
	walk = func(x EntityID) {
		for _, s := range r.in[x] {
			down = append(down, s)
			walk(s)
		}
	}
	walk(e)
	return down
}

// label, cleanup and sourcesOf, with unlink, save and load, make a
// Relation a relationSet.
func (r *Relation[T]) label() string                   { return r.name }
func (r *Relation[T]) cleanup() CleanupPolicy          { return r.opts.Cleanup }
func (r *Relation[T]) sourcesOf(t EntityID) []EntityID { return r.in[t] }

// unlink removes every pair of e, as a source and as a target.
func (r *Relation[T]) unlink(e EntityID) {
	r.removeTargets(e)
	for _, s := range slices.Clone(r.in[e]) {
		r.unpair(s, e)
	}
}

// relationState is a saved copy of a relation's pairs.
type relationState[T any] struct {
	out map[EntityID][]pair[T]
	in  map[EntityID][]EntityID
}

// save returns a copy of the pairs.
func (r *Relation[T]) save() any {
	return relationState[T]{out: clonePairs(r.out), in: cloneLists(r.in)}
}

// load replaces the pairs by a copy of saved, or by none when it is nil.
func (r *Relation[T]) load(saved any) {
	if saved == nil {
		r.out, r.in = make(map[EntityID][]pair[T]), make(map[EntityID][]EntityID)
		return
	}
	s := saved.(relationState[T])
	r.out, r.in = clonePairs(s.out), cloneLists(s.in)
}

// clonePairs copies every list of pairs, each value through its Clone
// method when T has one.
func clonePairs[T any](m map[EntityID][]pair[T]) map[EntityID][]pair[T] {
	c := make(map[EntityID][]pair[T], len(m))
	for e, ps := range m {
		cp := make([]pair[T], len(ps))
		for i, p := range ps {
			cp[i] = pair[T]{target: p.target, value: cloneValue(p.value)}
		}
		c[e] = cp
	}
	return c
}

// cloneLists copies every list of sources.
func cloneLists(m map[EntityID][]EntityID) map[EntityID][]EntityID {
	c := maps.Clone(m)
	for e, l := range c {
		c[e] = slices.Clone(l)
	}
	return c
}

// DespawnOrder returns the entities Despawn(e) would despawn now, in the
// order it would despawn them: its cascade (see the package's "Relations"
// section). Panics if e is not alive.
func (w *World) DespawnOrder(e EntityID) []EntityID {
	w.mustBeAlive("DespawnOrder", e)
	order, _ := w.cascade(e)
	return order
}

// CheckDespawn returns the reason [World.Despawn] of e would panic now, or
// nil: e is dead, or, outside an iteration, a RefuseDespawn relation
// refuses.
func (w *World) CheckDespawn(e EntityID) error {
	if err := w.checkAlive("Despawn", e); err != nil {
		return err
	}
	if w.depth > 0 {
		return nil // judged when applied
	}
	return w.despawnRefusal(w.cascade(e))
}

// cascade returns the entities a despawn of e takes, in Tessera's order,
// and the same entities as a set. A node gathers its sources through the
// DespawnSources relations, relation by relation in declaration order and
// each relation's sources in the order of their pairs, skipping entities
// gathered before (by it or by any other node); it then despawns them last
// first, each with everything gathered below it before it, and goes after
// them all. Tessera walks the same tree with an explicit stack.
func (w *World) cascade(e EntityID) ([]EntityID, map[EntityID]bool) {
	seen := map[EntityID]bool{e: true}
	var order []EntityID
	var visit func(x EntityID)
	visit = func(x EntityID) {
		var below []EntityID
		for _, r := range w.relations {
			if r.cleanup() != DespawnSources {
				continue
			}
			for _, s := range r.sourcesOf(x) {
				if !seen[s] {
					seen[s] = true
					below = append(below, s)
				}
			}
		}
		for i := len(below) - 1; i >= 0; i-- {
			visit(below[i])
		}
		order = append(order, x)
	}
	visit(e)
	return order, seen
}

// despawnRefusal returns why despawning the entities of order (the set
// dying) is refused: one of them is the target of a RefuseDespawn pair
// whose source is neither dying nor in the DespawnMatching batch being
// applied.
func (w *World) despawnRefusal(order []EntityID, dying map[EntityID]bool) error {
	for _, x := range order {
		for _, r := range w.relations {
			if r.cleanup() != RefuseDespawn {
				continue
			}
			for _, s := range r.sourcesOf(x) {
				if !dying[s] && !w.batchDying[s] {
					return fmt.Errorf("refmodel: Despawn: entity %d is the target of %d through %s, whose policy is RefuseDespawn", x, s, r.label())
				}
			}
		}
	}
	return nil
}

// despawn despawns e and its cascade, in order, or panics before anything
// changes when a RefuseDespawn relation refuses. The hooks of its entities
// run as iterations, so what they change waits, as in Tessera, until the
// whole cascade is over: the caller's done (or flush) applies it.
func (w *World) despawn(e EntityID) {
	order, dying := w.cascade(e)
	if err := w.despawnRefusal(order, dying); err != nil {
		panic(err.Error())
	}
	for _, x := range order {
		if w.Alive(x) {
			w.despawnOne(x)
		}
	}
}

// despawnBatch despawns each of es that is still alive, in order: a
// DespawnMatching once it is not deferred. RefuseDespawn counts all of es as
// dying, whatever their order.
func (w *World) despawnBatch(es []EntityID) {
	if len(w.relations) > 0 {
		w.batchDying = make(map[EntityID]bool, len(es))
		for _, e := range es {
			w.batchDying[e] = true
		}
		defer func() { w.batchDying = nil }()
	}
	for _, e := range es {
		if w.Alive(e) { // a cascade may have taken it
			w.despawn(e)
		}
	}
}

// Recover applies the deferred changes left waiting after applying one of
// them panicked (a relation change or despawn refused when applied), as
// Tessera's World.Recover does: each such panic ends the application, and
// the changes after it wait. A change it applies may panic in turn; call
// Recover again then. It does nothing when nothing waits. Panics inside an
// iteration, a hook, an observer or a [World.Batch].
func (w *World) Recover() {
	if w.depth > 0 || w.batching > 0 || w.settling {
		panic("refmodel: Recover: called inside an iteration, a hook, an observer or a Batch")
	}
	w.done()
}
