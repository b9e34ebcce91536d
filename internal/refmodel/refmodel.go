package refmodel

import (
	"fmt"
	"slices"
)

// EntityID identifies an entity of a [World]. The model hands ids out from a
// counter starting at 1 and never reuses one, so a despawned id stays dead
// for good; only [World.Restore] puts the counter back, so the ids spawned
// after the snapshot are handed out again. The zero EntityID is never alive.
type EntityID uint64

// Kind numbers a component type within one [World], in the order its
// [Store] was made: 0 for the first store, 1 for the second, and so on.
type Kind int

// World holds the living entities, one [Store] per component type and the
// changes deferred while an iteration runs. The zero World is not usable;
// make one with [NewWorld]. A World is not safe for concurrent use.
type World struct {
	last    EntityID
	clock   uint64         // the change log's clock (see changes.go)
	watches []*ChangeWatch // made by NewChangeWatch, in order
	alive   map[EntityID]struct{}
	stores  []storage
	depth   int       // iterations in progress (and hook calls, see fire)
	pending []command // changes deferred while depth > 0
	applied int       // pending changes applied so far by flush
	dying   EntityID  // the entity whose despawn is running its OnRemove hooks
	// removingE is the entity whose removal of the components of the
	// stores removingS is running their OnRemove hooks.
	removingE EntityID
	removingS []storage

	observers []*observer // in registration order (see OnEnter)
	touched   []EntityID  // entities changed since the last settling
	batching  int         // open Batch calls
	settling  bool        // inside done

	beforeApply []func() // see BeforeDeferred

	relations  []relationSet     // in declaration order (NewRelation)
	batchDying map[EntityID]bool // the DespawnMatching batch being applied, for RefuseDespawn
}

// storage is the part of a Store[T] the world needs without knowing T.
type storage interface {
	kindOf() Kind
	label() string
	has(e EntityID) bool
	size() int
	keys() []EntityID      // unsorted
	drop(e EntityID)       // delete if present, firing OnRemove
	fire(e EntityID)       // fire OnRemove for a present value
	remove(e EntityID)     // delete a present value, firing nothing
	put(e EntityID, v any) // add or overwrite, firing OnAdd or OnSet
	save() any             // a copy of the values, for a Snapshot
	load(saved any)        // replace the values by a copy of saved, firing nothing

	// For CopyEntity:
	copyTo(dst, src EntityID) bool // copy src's value, if any, to dst, firing nothing
	fireAdd(e EntityID)            // fire OnAdd for a present value
}

// NewWorld returns an empty world with no component types.
func NewWorld() *World {
	return &World{alive: make(map[EntityID]struct{})}
}

// Spawn creates an entity with no components and returns its id. It is never
// deferred: the entity is alive at once, even inside an iteration.
func (w *World) Spawn() EntityID {
	w.last++
	w.alive[w.last] = struct{}{}
	return w.last
}

// Despawn removes e and all its components, and applies the cleanup
// policies of the relations that have e as a target (see the package's
// "Relations" section): with DespawnSources, the sources go first. Inside
// an iteration it is deferred (e stays alive until the outermost iteration
// ends). Panics if e is not alive, and when a RefuseDespawn relation
// refuses (see [World.CheckDespawn]); a deferred despawn that is refused
// when applied panics then.
func (w *World) Despawn(e EntityID) {
	w.mustBeAlive("Despawn", e)
	if w.depth > 0 {
		w.pending = append(w.pending, command{op: opDespawn, e: e})
		return
	}
	w.despawn(e)
	w.done()
}

// despawnOne fires OnRemove for each component of e, removes them, e's
// relation pairs, and e: e alone, without its relations' policies.
func (w *World) despawnOne(e EntityID) {
	w.dying = e // changes the hooks make to e are judged as after the despawn
	for _, s := range w.stores {
		s.drop(e)
	}
	w.dying = 0
	for _, r := range w.relations { // after the hooks, which may read the pairs
		r.unlink(e)
	}
	delete(w.alive, e)
	w.touch(e)
}

// Alive reports whether e is a living entity of w.
func (w *World) Alive(e EntityID) bool {
	_, ok := w.alive[e]
	return ok
}

// Len returns the number of living entities.
func (w *World) Len() int { return len(w.alive) }

// Entities returns the living entities in increasing id order.
func (w *World) Entities() []EntityID {
	ids := make([]EntityID, 0, len(w.alive))
	for e := range w.alive {
		ids = append(ids, e)
	}
	slices.Sort(ids)
	return ids
}

// Kinds returns the number of component types (stores) of w.
func (w *World) Kinds() int { return len(w.stores) }

// KindName returns the name given to the store of kind k. Panics if k is not
// a kind of w.
func (w *World) KindName(k Kind) string { return w.store("KindName", k).label() }

// HasKind reports whether e is alive and has a component of kind k. Panics if
// k is not a kind of w.
func (w *World) HasKind(e EntityID, k Kind) bool { return w.store("HasKind", k).has(e) }

// IsIterating reports whether an iteration is in progress, so structural
// changes are being deferred.
func (w *World) IsIterating() bool { return w.depth > 0 }

// Pending returns the number of deferred changes waiting for the outermost
// iteration to end.
func (w *World) Pending() int { return len(w.pending) }

// BeginIteration marks the start of an iteration: from now until the
// matching [World.EndIteration], structural changes are deferred. [World.Each]
// and [World.Iter] call it for you; a test harness that runs another ECS's
// iteration in lockstep with the model calls it around that iteration, so the
// model defers exactly when the other ECS does.
func (w *World) BeginIteration() { w.depth++ }

// EndIteration marks the end of an iteration begun with
// [World.BeginIteration]. When the outermost iteration ends, the deferred
// changes are applied in the order they were made. Panics if no iteration is
// in progress.
func (w *World) EndIteration() {
	if w.depth == 0 {
		panic("refmodel: EndIteration: no iteration in progress")
	}
	w.depth--
	w.done()
}

// DespawnMatching despawns every entity q matches, in increasing id order,
// each with its cascade unless an earlier one took it; a RefuseDespawn pair
// whose source is matched too refuses nothing. Inside an iteration it is
// deferred as one change that selects its entities when applied. Panics if q
// is invalid for w (see [Query.Validate]). Tessera despawns in its iteration
// order instead: with relations whose policies refuse or with hooks, the two
// may end differently.
func (w *World) DespawnMatching(q *Query) {
	w.mustBeValid("DespawnMatching", q)
	if w.depth > 0 {
		w.pending = append(w.pending, command{op: opDespawnAll, q: q.clone()})
		return
	}
	w.despawnBatch(w.Match(q))
	w.done()
}

// System is a system of the "super simple ECS" blog post: a plain function
// over the world (or, in user code, over just the stores it needs).
type System func(w *World)

// Run runs the systems once each, in the order given.
func (w *World) Run(systems ...System) {
	for _, s := range systems {
		s(w)
	}
}

// BeforeDeferred registers fn to run just before each deferred change is
// applied, with no iteration in progress. Between two calls, and between the
// operation that deferred the changes and the first call, every entity has
// gone through at most one change of its component set in Tessera's terms
// (one table move, or one change of each of its sparse sets), so a harness
// can see each set of components an entity passes through: the changes a
// hook or observer makes follow the operation that fired it instead of
// blending with it. fn must not change the world.
func (w *World) BeforeDeferred(fn func()) { w.beforeApply = append(w.beforeApply, fn) }

func (w *World) mustBeAlive(op string, e EntityID) {
	if err := w.checkAlive(op, e); err != nil {
		panic(err.Error())
	}
}

func (w *World) checkAlive(op string, e EntityID) error {
	if !w.Alive(e) {
		return fmt.Errorf("refmodel: %s: entity %d is not alive", op, e)
	}
	return nil
}

func (w *World) store(op string, k Kind) storage {
	if k < 0 || int(k) >= len(w.stores) {
		panic(fmt.Sprintf("refmodel: %s: unknown component kind %d", op, k))
	}
	return w.stores[k]
}

// opKind names a deferred change.
type opKind uint8

const (
	opDespawn opKind = iota
	opAdd
	opRemove
	opAddAll
	opRemoveAll
	opDespawnAll
	opRelation // a relation change: fn applies it
	opClone    // the filling of the clone e (see CopyEntity): fn applies it
)

// command is one deferred structural change.
type command struct {
	op opKind
	e  EntityID
	s  storage
	v  any
	q  *Query
	fn func()
}

// flush applies the deferred changes in order. It runs with depth 0, so every
// change applies at once; changes that hooks fired by it make are appended
// and applied in the same flush.
func (w *World) flush() {
	for w.applied < len(w.pending) {
		for _, fn := range w.beforeApply {
			fn()
		}
		c := w.pending[w.applied]
		w.applied++ // counts as applied before its hooks run
		switch c.op {
		case opDespawn:
			if w.Alive(c.e) {
				w.despawn(c.e)
			}
		case opAdd:
			if w.Alive(c.e) {
				c.s.put(c.e, c.v) // overwrites a value an earlier deferred add gave
			}
		case opRemove:
			if w.Alive(c.e) {
				c.s.drop(c.e)
			}
		case opAddAll:
			for _, e := range w.Match(c.q) {
				c.s.put(e, c.v)
			}
		case opRemoveAll:
			for _, e := range w.Match(c.q) {
				c.s.drop(e)
			}
		case opDespawnAll:
			w.despawnBatch(w.Match(c.q))
		case opRelation, opClone:
			c.fn()
		}
	}
	clear(w.pending) // let the collector have the staged values
	w.pending = w.pending[:0]
	w.applied = 0
}

// queued is what the deferred changes not yet applied do to one component
// of one entity.
type queued uint8

const (
	queuedNone      queued = iota // nothing queued: the current state holds
	queuedGains                   // the newest queued change of it is an add
	queuedLoses                   // the newest queued change of it is a remove
	queuedDespawned               // a despawn of the entity is queued or running
	queuedUnknown                 // a batch queued after that may change it
)

// queuedFor reports what the pending changes do to e's component of store
// s: a despawn of e, queued or running, wins; otherwise the newest of e's
// adds and removes of s and the batches over s (and DespawnMatching) decides,
// a batch making the outcome unknown until it is applied.
func (w *World) queuedFor(e EntityID, s storage) queued {
	if w.dying == e {
		return queuedDespawned
	}
	for _, c := range w.pending[w.applied:] {
		if c.op == opDespawn && c.e == e {
			return queuedDespawned
		}
	}
	for i := len(w.pending) - 1; i >= w.applied; i-- { // newest first
		switch c := w.pending[i]; {
		case c.op == opAdd && c.e == e && c.s == s:
			return queuedGains
		case c.op == opRemove && c.e == e && c.s == s:
			return queuedLoses
		case c.op == opDespawnAll, (c.op == opAddAll || c.op == opRemoveAll) && c.s == s:
			return queuedUnknown
		}
	}
	return queuedNone
}

// removing runs hooks, the OnRemove hooks of the removal of e's components
// of the stores ss, with those marked as being removed: an Add or Set the
// hooks make to one of them is judged as after the removal.
func (w *World) removing(e EntityID, ss []storage, hooks func()) {
	w.removingE, w.removingS = e, ss
	hooks()
	w.removingE, w.removingS = 0, nil
}

// removingNow reports whether e's component of store s is being removed.
func (w *World) removingNow(e EntityID, s storage) bool {
	return w.removingE == e && e != 0 && slices.Contains(w.removingS, s)
}

// RemoveKinds takes the components of the kinds ks that e has away from it
// as one operation, as Tessera's Map2..Map12 Remove does: the OnRemove hooks
// of each, in the order given, run first, while e still has them all; then
// they are removed together. Inside an iteration it defers one remove per
// kind, like [Store.Remove]. Panics if e is not alive or a kind is unknown.
func (w *World) RemoveKinds(e EntityID, ks ...Kind) {
	w.mustBeAlive("RemoveKinds", e)
	ss := make([]storage, 0, len(ks))
	for _, k := range ks {
		ss = append(ss, w.store("RemoveKinds", k))
	}
	if w.depth > 0 {
		for _, s := range ss {
			w.pending = append(w.pending, command{op: opRemove, e: e, s: s})
		}
		return
	}
	present := slices.DeleteFunc(ss, func(s storage) bool { return !s.has(e) })
	w.removing(e, present, func() {
		for _, s := range present {
			s.fire(e)
		}
	})
	for _, s := range present {
		s.remove(e)
	}
	w.done()
}
