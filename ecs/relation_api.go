package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// Relation is a typed handle on a relation between entities: pairs of a
// source and a target, each pair holding a value of T (use an empty struct
// for a relation without values). A relation is exclusive, one target per
// source, unless declared [Multi]. Both sides are indexed: Targets(e) and
// Sources(t) read one list each, O(its length), never a scan of the world,
// and adding a pair moves no table row, so relations do not fragment
// tables (both sides in sync, as Bevy's ChildOf and Children). An
// exclusive relation may add tables per target, as flecs and Ark keep
// them: [SplitByTarget].
//
// Inside an iteration, a hook or an observer, changes to a relation are
// deferred like other structural changes and applied, in order with them,
// when the outermost iteration ends; each checks then that its entities
// still live and does nothing if one does not. Reads always see the pairs
// applied so far. Despawning an entity removes its pairs as a source; as
// a target, the relation's [CleanupPolicy] applies.
type Relation[T any] struct {
	r *relation
}

// NewRelation declares the relation of pair type T in w, or returns a
// handle on it when it was declared before (options, if any are given
// again, must be the same). [ChildOf] is declared [Acyclic] with
// [DespawnSources] unless options say otherwise. Its two internal
// component types are sparse and named after T for save files, so a
// world that loads a save declares its relations first, as it makes its
// Maps. Panics inside a parallel section, and for [Multi] with [Acyclic]
// or [SplitByTarget].
func NewRelation[T any](w *World, opts ...RelationOption) *Relation[T] {
	w.mustNotMakeShared("NewRelation", "handle")
	typ := reflect.TypeFor[T]()
	var o relationOptions
	if typ == reflect.TypeFor[ChildOf]() {
		o.acyclic, o.policy = true, DespawnSources
	}
	for _, opt := range opts {
		opt(&o)
	}
	if r := w.relationOf[typ]; r != nil {
		if len(opts) > 0 && (r.exclusive == o.multi || r.acyclic != o.acyclic || r.policy != o.policy || r.split != o.split) {
			panic(fmt.Sprintf("ecs: NewRelation[%v]: declared before with other options (exclusive %v, acyclic %v, %v, split by target %v)", typ, r.exclusive, r.acyclic, r.policy, r.split))
		}
		return &Relation[T]{r}
	}
	if o.multi && o.acyclic {
		panic(fmt.Sprintf("ecs: NewRelation[%v]: Acyclic needs an exclusive relation (without Multi)", typ))
	}
	if o.multi && o.split {
		panic(fmt.Sprintf("ecs: NewRelation[%v]: SplitByTarget needs an exclusive relation (without Multi)", typ))
	}
	if o.policy > RefuseDespawn {
		panic(fmt.Sprintf("ecs: NewRelation[%v]: unknown cleanup policy %v", typ, o.policy))
	}
	r := &relation{w: w, typ: typ, exclusive: !o.multi, acyclic: o.acyclic, policy: o.policy, index: len(w.relations), split: o.split}
	if r.split {
		r.splitTables = make(map[Entity][]*table)
	}
	if r.exclusive {
		Register[relOne[T]](w, Sparse())
		r.out = w.reg.infos[idOf[relOne[T]](&w.reg)].sparse
	} else {
		Register[relMany[T]](w, Sparse())
		r.out = w.reg.infos[idOf[relMany[T]](&w.reg)].sparse
		r.dropAt = func(p unsafe.Pointer, i int) {
			// SAFETY: p points to a relMany[T] (relation.dropPair).
			m := (*relMany[T])(p)
			m.Targets = slices.Delete(m.Targets, i, i+1)
			m.Values = slices.Delete(m.Values, i, i+1)
		}
	}
	Register[relIn[T]](w, Sparse())
	r.in = w.reg.infos[idOf[relIn[T]](&w.reg)].sparse
	r.out.rel, r.in.rel, r.in.relIn = r, r, true
	pairSnapshotPolicy[T](r)
	if w.relationOf == nil {
		w.relationOf = map[reflect.Type]*relation{}
	}
	w.relations = append(w.relations, r)
	w.relationOf[typ] = r
	return &Relation[T]{r}
}

// Add makes t a target of e with the zero value of T. For an exclusive
// relation e must have no other target (use Set to replace it). Adding a
// pair that exists does nothing. Panics, naming the relation and the
// entities, when either is not alive or belongs to another world, when
// the pair would close a cycle of an [Acyclic] relation, and inside a
// parallel section (use a Commands buffer). Complexity: O(1) amortised,
// plus O(depth) for an acyclic relation.
func (rel *Relation[T]) Add(e, t Entity) { rel.change("Add", e, t, nil) }

// Set makes t the target of e with value v: for an exclusive relation it
// replaces e's target, if any; for a Multi relation it adds the pair, or
// overwrites the value of the pair that exists. Panics as Add does.
// Complexity: O(1) amortised, plus O(depth) for an acyclic relation and
// O(sources of the old target) when an exclusive target is replaced.
func (rel *Relation[T]) Set(e, t Entity, v T) { rel.change("Set", e, t, &v) }

func (rel *Relation[T]) change(op string, e, t Entity, v *T) {
	r := rel.r
	w := r.w
	w.checkPairEnds(r, op, e, t)
	if w.lock > 0 {
		w.mustNotShare(r.name()+"."+op, nil)
		w.queueFunc(func(*commandBuffer) { rel.applyChange(op, e, t, v) })
		return
	}
	rel.changeNow(op, e, t, v)
	w.settle()
}

// changeNow applies Add (v nil) or Set of the pair (e, t), both alive.
func (rel *Relation[T]) changeNow(op string, e, t Entity, v *T) {
	r := rel.r
	w := r.w
	var val T
	if v != nil {
		val = *v
	}
	p := r.out.get(e)
	if r.exclusive {
		if p != nil {
			// SAFETY: p is e's slot in r.out, which stores relOne[T] values for
			// an exclusive relation (NewRelation).
			one := (*relOne[T])(p)
			if one.Target == t {
				if v != nil {
					one.Value = val
				}
				return
			}
			if v == nil {
				panic(fmt.Sprintf("ecs: %s.Add: entity %v already has the target %v (exclusive relation); use Set to replace it, or Remove first", r.name(), e, one.Target))
			}
		}
		if r.acyclic && r.wouldCycle(e, t) {
			panic(fmt.Sprintf("ecs: %s.%s: making %v the target of %v would close a cycle (acyclic relation): %v is %v or one of its ancestors", r.name(), op, t, e, e, t))
		}
		w.enter("a relation change")
		if p != nil {
			// SAFETY: as above: nothing has changed r.out since p was read.
			one := (*relOne[T])(p)
			old := one.Target
			one.Target, one.Value = t, val
			r.dropSource(old, e)
			r.removed(e, old)
		} else {
			// SAFETY: insert returns e's new slot in r.out, which stores relOne[T]
			// values for an exclusive relation.
			p, _ = r.out.insert(e)
			*(*relOne[T])(p) = relOne[T]{t, val}
		}
		r.addSource(t, e)
		r.added(e, t)
		w.touch(e) // To filters' membership may change with the target
		w.leave()
		r.place(e)
		return
	}
	w.enter("a relation change")
	defer w.leave()
	if p != nil {
		// SAFETY: p is e's slot in r.out, which stores relMany[T] values for
		// a Multi relation (NewRelation).
		m := (*relMany[T])(p)
		if i := slices.Index(m.Targets, t); i >= 0 {
			if v != nil {
				m.Values[i] = val
			}
			return
		}
		m.Targets = append(m.Targets, t)
		m.Values = append(m.Values, val)
	} else {
		// SAFETY: insert returns e's new slot in r.out, which stores
		// relMany[T] values for a Multi relation.
		p, _ = r.out.insert(e)
		*(*relMany[T])(p) = relMany[T]{Targets: []Entity{t}, Values: []T{val}}
	}
	r.addSource(t, e)
	r.added(e, t)
	w.touch(e)
}

// Remove removes the pair (e, t), if there is one. t may be dead (its
// pairs went with it). Panics when e is not alive, when either belongs to
// another world, and inside a parallel section. Complexity: O(targets of
// e + sources of t).
func (rel *Relation[T]) Remove(e, t Entity) {
	r := rel.r
	w := r.w
	w.checkSource(r, "Remove", e)
	if w.foreign(t) {
		panic(fmt.Sprintf("ecs: %s.Remove: entity %v belongs to another world", r.name(), t))
	}
	if w.lock > 0 {
		w.mustNotShare(r.name()+".Remove", nil)
		w.queueFunc(func(*commandBuffer) { rel.applyRemove(e, t) })
		return
	}
	rel.removeNow(e, t)
	w.settle()
}

func (rel *Relation[T]) removeNow(e, t Entity) {
	w := rel.r.w
	w.enter("a relation change")
	rel.r.dropPair(e, t)
	w.leave()
	rel.r.place(e)
}

// RemoveTargets removes every pair of e as a source. Panics as Remove
// does. Complexity: O(targets of e x their sources).
func (rel *Relation[T]) RemoveTargets(e Entity) {
	r := rel.r
	w := r.w
	w.checkSource(r, "RemoveTargets", e)
	if w.lock > 0 {
		w.mustNotShare(r.name()+".RemoveTargets", nil)
		w.queueFunc(func(*commandBuffer) { rel.applyRemoveTargets(e) })
		return
	}
	rel.removeTargetsNow(e)
	w.settle()
}

func (rel *Relation[T]) removeTargetsNow(e Entity) {
	w := rel.r.w
	w.enter("a relation change")
	rel.r.dropAll(e)
	w.leave()
	rel.r.place(e)
}

// Target returns e's target and true, or the zero Entity and false when e
// has none. For a Multi relation it returns the first target e was given
// of those it still has. Panics when e is not alive. O(1).
func (rel *Relation[T]) Target(e Entity) (Entity, bool) {
	rel.r.w.checkSource(rel.r, "Target", e)
	rel.r.read(rel.r.out, false, "Target")
	if ts := rel.r.targets(e); len(ts) > 0 {
		return ts[0], true
	}
	return Entity{}, false
}

// Targets returns e's targets in the order they were added, in a new
// slice (nil when there are none). Panics when e is not alive. O(targets).
func (rel *Relation[T]) Targets(e Entity) []Entity { return rel.AppendTargets(nil, e) }

// AppendTargets appends e's targets to dst and returns it: Targets
// without an allocation once dst has room.
func (rel *Relation[T]) AppendTargets(dst []Entity, e Entity) []Entity {
	rel.r.w.checkSource(rel.r, "Targets", e)
	rel.r.read(rel.r.out, false, "Targets")
	return append(dst, rel.r.targets(e)...)
}

// Sources returns the entities that have t as a target, in the order the
// pairs were made, in a new slice (nil when there are none). Panics when t
// is not alive. O(sources), from t's own list: no scan.
func (rel *Relation[T]) Sources(t Entity) []Entity { return rel.AppendSources(nil, t) }

// AppendSources appends t's sources to dst and returns it.
func (rel *Relation[T]) AppendSources(dst []Entity, t Entity) []Entity {
	rel.r.w.checkSource(rel.r, "Sources", t)
	rel.r.read(rel.r.in, false, "Sources")
	return append(dst, rel.r.sources(t)...)
}

// NumSources returns the number of sources that have t as a target.
// Panics when t is not alive. O(1).
func (rel *Relation[T]) NumSources(t Entity) int {
	rel.r.w.checkSource(rel.r, "NumSources", t)
	rel.r.read(rel.r.in, false, "NumSources")
	return len(rel.r.sources(t))
}

// Has reports whether the pair (e, t) exists. Either entity may be dead
// (then it is false). O(targets of e).
func (rel *Relation[T]) Has(e, t Entity) bool {
	rel.r.read(rel.r.out, false, "Has")
	if !rel.r.w.Alive(e) {
		return false
	}
	return slices.Contains(rel.r.targets(e), t)
}

// HasTargets reports whether e has at least one target; false for a dead
// e. O(1).
func (rel *Relation[T]) HasTargets(e Entity) bool {
	rel.r.read(rel.r.out, false, "HasTargets")
	return rel.r.w.Alive(e) && rel.r.out.has(e)
}

// Value returns a pointer to the value of the pair (e, t), valid until
// the relation or e's sparse storage next changes. Panics when e is not
// alive or has no such pair; TryValue is the checking twin. O(targets of
// e).
func (rel *Relation[T]) Value(e, t Entity) *T {
	v, ok := rel.TryValue(e, t)
	if !ok {
		rel.r.w.checkSource(rel.r, "Value", e)
		panic(fmt.Sprintf("ecs: %s.Value: entity %v has no pair with %v", rel.r.name(), e, t))
	}
	return v
}

// TryValue returns a pointer to the value of the pair (e, t) and true, or
// nil and false when there is no such pair or e is dead.
func (rel *Relation[T]) TryValue(e, t Entity) (*T, bool) {
	r := rel.r
	r.read(r.out, true, "TryValue")
	if !r.w.Alive(e) {
		return nil, false
	}
	p := r.out.get(e)
	if p == nil {
		return nil, false
	}
	if r.exclusive {
		// SAFETY: p is e's slot in r.out, which stores relOne[T] values for
		// an exclusive relation.
		one := (*relOne[T])(p)
		if one.Target != t {
			return nil, false
		}
		return &one.Value, true
	}
	// SAFETY: p is e's slot in r.out, which stores relMany[T] values for
	// a Multi relation.
	m := (*relMany[T])(p)
	if i := slices.Index(m.Targets, t); i >= 0 {
		return &m.Values[i], true
	}
	return nil, false
}

// checkPairEnds panics unless e and t are living entities of w.
func (w *World) checkPairEnds(r *relation, op string, e, t Entity) {
	w.checkSource(r, op, e)
	if w.entities.lookup(t) == nil {
		panic(w.deadMessage(r.name()+"."+op+" (target)", t, nil))
	}
}

// checkSource panics unless e is a living entity of w.
func (w *World) checkSource(r *relation, op string, e Entity) {
	if w.entities.lookup(e) == nil {
		panic(w.deadMessage(r.name()+"."+op, e, nil))
	}
}

// queueFunc defers fn like a structural change.
func (w *World) queueFunc(fn func(*commandBuffer)) {
	b := &w.cmds
	b.funcs = append(b.funcs, fn)
	w.queue(command{kind: cmdFunc, slot: uint32(len(b.funcs) - 1)})
}

// read reports a read (or, with write, a pointer handed out) of one side
// of r to the world's access checker, when it has one.
func (r *relation) read(side *sparseSet, write bool, op string) {
	if r.w.checked {
		r.w.checkComponent(side.info, write, r.name()+"."+op)
	}
}

// RelationTypes returns the component types of the relation's two sides:
// the one its sources hold (targets and values) and the one its targets
// hold (sources). Package sched declares a system's access to a relation
// through them ([sched.ReadsRelation] and its siblings); an access checker
// sees relation reads as reads of these types.
func (rel *Relation[T]) RelationTypes() (source, target reflect.Type) {
	return rel.r.out.info.typ, rel.r.in.info.typ
}
