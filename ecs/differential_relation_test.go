package ecs_test

// TestDifferentialRelations and FuzzDifferentialRelations drive Tessera's
// relations and those of the reference model (internal/refmodel) with the
// same random operations and compare the two worlds after every step.
//
// Both worlds declare, in the same order: the hierarchy (ChildOf:
// exclusive, acyclic, DespawnSources), a Multi relation with an int value
// that removes pairs (drLink), an exclusive relation with an int value
// that refuses despawns (drGuard; not acyclic, so self pairs and cycles
// occur), and a Multi relation that cascades (drOwns; cycles and entities
// reached twice occur). Every entity has a drTag, which the loops iterate
// over, and a drHook, whose OnRemove hook may despawn the entity's parent
// or another entity, adopt another entity under the parent, or link to the
// dying entity: changes made while a cascade runs, so they wait for its end.
// A clone (World.CopyEntity) copies both, and its entity's pairs as a source;
// made inside a loop, it stays empty until the loop ends, and for good if
// its entity dies first.
//
// The entities form a small pool (at most drMaxLive), so the same ones are
// hit again and again. A step is one change made at once, a script (a few
// changes to the same entities in a row), a loop whose changes are deferred
// until it ends (a range loop or a cursor, with nested loops inside), or a
// Snapshot or Restore of both worlds. A refused change panics in both
// worlds, of the same kind (a cycle, a second exclusive target, a
// RefuseDespawn target); one refused when deferred changes are applied
// leaves the changes after it waiting, and World.Recover, in both worlds,
// applies them. After every step, and at random points inside loops, the
// whole relation state is compared: see checkAll.
//
// Replay a failure of TestDifferentialRelations with the subtest name it
// prints, for example: go test ./ecs -run 'TestDifferentialRelations/seed=7$'.

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Component and pair types of the relation differential test.
type (
	drTag   struct{ N int }
	drHook  struct{ Act, Other int } // Other: an index into the harness's table of pairs
	drLink  struct{ W int }          // Multi, RemovePairs
	drGuard struct{ W int }          // exclusive, RefuseDespawn
	drOwns  struct{}                 // Multi, DespawnSources
)

// What a drHook's OnRemove hook does.
const (
	drActNone          = iota
	drActDespawnParent // despawn the dying entity's parent
	drActDespawnOther  // despawn another entity
	drActAdoptOther    // make another entity a child of the dying entity's parent
	drActLinkOther     // link another entity and the dying one, both ways
	drActs
)

// Sizes of the harness's lists.
const (
	drMaxLive = 24 // the pool's size: small, so every full check is cheap
	drMinLive = 6
	drDeadMax = 16 // recently dead entities kept for checks with dead ends
)

// Situations that the seeds of TestDifferentialRelations must reach.
const (
	drCovCycleNow = iota
	drCovCycleApplied
	drCovExclusiveNow
	drCovExclusiveApplied
	drCovRefuseNow
	drCovRefuseApplied
	drCovGuardInside
	drCovCascade3
	drCovCascadeOwns
	drCovHookDespawn
	drCovRestore
	drCovDespawnAll
	drCovClonePairs
	drCovCloneFilled
	drCovCloneEmpty
	drCovN
)

// drCovNames describes the situations, by index.
var drCovNames = [drCovN]string{
	"a cycle refused at once",
	"a cycle refused when deferred changes were applied",
	"a second exclusive target refused at once",
	"a second exclusive target refused when deferred changes were applied",
	"a despawn refused at once by RefuseDespawn",
	"a despawn refused by RefuseDespawn when deferred changes were applied",
	"a despawn whose cascade holds a RefuseDespawn source, allowed",
	"a cascade of three or more entities",
	"a cascade through the Multi DespawnSources relation",
	"an OnRemove hook that despawns an entity (deferred)",
	"a Restore",
	"a DespawnMatching of targets guarded by RefuseDespawn with their sources",
	"a clone, made at once, of an entity with pairs as a source",
	"a clone made inside a loop, filled when the loop ended",
	"a clone made inside a loop whose entity died first, left empty",
}

// drShape sums samples of the worlds' shape, to report how rich the
// structures the seeds build are.
type drShape struct {
	samples, live, depth, maxDepth int
	pairs                          [4]int // per relation of drHarness.rels
}

// String reports the averages of the samples.
func (s *drShape) String() string {
	n := float64(max(s.samples, 1))
	return fmt.Sprintf("on average %.1f entities, %.1f ChildOf, %.1f drLink, %.1f drGuard and %.1f drOwns pairs, depth %.2f (at most %d)",
		float64(s.live)/n, float64(s.pairs[0])/n, float64(s.pairs[1])/n, float64(s.pairs[2])/n, float64(s.pairs[3])/n,
		float64(s.depth)/float64(max(s.live, 1)), s.maxDepth)
}

// drPair is one entity in both worlds.
type drPair struct {
	e  ecs.Entity
	id refmodel.EntityID
}

// drRel is one relation in both worlds, for the checks.
type drRel struct {
	name     string
	targets  func(dst []ecs.Entity, e ecs.Entity) []ecs.Entity
	sources  func(dst []ecs.Entity, t ecs.Entity) []ecs.Entity
	value    func(e, t ecs.Entity) (int, bool)
	has      func(e, t ecs.Entity) bool
	target   func(e ecs.Entity) (ecs.Entity, bool)
	count    func(t ecs.Entity) int // NumSources
	to       *ecs.Query1[drTag]     // the sources of the harness's TargetVar
	mTargets func(refmodel.EntityID) []refmodel.EntityID
	mSources func(refmodel.EntityID) []refmodel.EntityID
	mValue   func(e, t refmodel.EntityID) (int, bool)
	mHas     func(e, t refmodel.EntityID) bool
}

// newDrRel pairs Tessera's relation r with the model's m; val and mval
// read a pair value as an int (0 for a relation without values).
func newDrRel[T, M any](w *ecs.World, name string, r *ecs.Relation[T], m *refmodel.Relation[M], v *ecs.TargetVar, val func(T) int, mval func(M) int) drRel {
	return drRel{
		name:    name,
		targets: r.AppendTargets,
		sources: r.AppendSources,
		value: func(e, t ecs.Entity) (int, bool) {
			p, ok := r.TryValue(e, t)
			if !ok {
				return 0, false
			}
			return val(*p), true
		},
		has:      r.Has,
		target:   r.Target,
		count:    r.NumSources,
		to:       ecs.NewQuery1[drTag](w, r.ToVar(v)),
		mTargets: m.Targets,
		mSources: m.Sources,
		mValue: func(e, t refmodel.EntityID) (int, bool) {
			v, ok := m.Value(e, t)
			return mval(v), ok
		},
		mHas: m.Has,
	}
}

// drFailure is the panic value of a disagreement found by the harness.
type drFailure struct{ msg string }

// drLogEntry is one operation in the harness's log of the latest ones.
type drLogEntry struct {
	step, depth int
	op          string
	a, b        refmodel.EntityID
	v           int
}

// drHarness holds the two worlds, their relations and the harness's
// bookkeeping: which entity of one is which of the other.
type drHarness struct {
	src    diffChooser
	opRuns map[string]int // how often each of drChanges ran, by name

	w     *ecs.World
	h     *ecs.Hierarchy
	link  *ecs.Relation[drLink]
	guard *ecs.Relation[drGuard]
	owns  *ecs.Relation[drOwns]
	tags  *ecs.Map[drTag]
	hooks *ecs.Map[drHook]
	all   *ecs.Query1[drTag]
	toVar ecs.TargetVar
	mAll  *refmodel.Query // all's twin

	m      *refmodel.World
	mh     *refmodel.Relation[struct{}]
	mlink  *refmodel.Relation[int]
	mguard *refmodel.Relation[int]
	mowns  *refmodel.Relation[struct{}]
	mtags  *refmodel.Store[int]
	mhooks *refmodel.Store[drHook]

	rels []drRel

	live   []drPair
	dead   []drPair // the latest dead, oldest first
	toM    map[ecs.Entity]refmodel.EntityID
	table  []drPair // every entity spawned, for drHook.Other
	focus  []drPair // the entities a loop's changes favour
	clones []drPair // the clones made inside the current loop

	// The entities whose OnRemove hook ran during the current step, in
	// order, in each world: the order of every despawn and cascade.
	removedT []ecs.Entity
	removedM []refmodel.EntityID
	// unordered says a DespawnMatching ran in the step: Tessera despawns in
	// its iteration order, the model in id order, so the hooks are compared
	// as sets.
	unordered bool

	snapT    ecs.Snapshot
	snapM    *refmodel.Snapshot
	snapLive []drPair
	snapSum  uint64
	snapN    int // len(table) at the snapshot

	depth      int // open loops
	steps, ops int
	log        [48]drLogEntry
	logN       int
	cov        [drCovN]int
	shape      drShape
	bufA, bufB []ecs.Entity
	bufC       []ecs.Entity
}

// newDrHarness makes the two worlds, empty, with their relations and
// hooks; src makes every choice.
// drGuard's storage and policy vary with the seed: variant 0 is the
// default storage with RefuseDespawn, 1 the same split by target
// (SplitByTarget), 2 split by target with RemovePairs, so that sources
// move out of a despawned target's table.
func newDrHarness(src diffChooser, variant int) *drHarness {
	w := ecs.NewWorld()
	policy, mpolicy := ecs.RefuseDespawn, refmodel.RefuseDespawn
	if variant == 2 {
		policy, mpolicy = ecs.RemovePairs, refmodel.RemovePairs
	}
	guardOpts := []ecs.RelationOption{ecs.OnTargetDespawn(policy)}
	if variant > 0 {
		guardOpts = append(guardOpts, ecs.SplitByTarget())
	}
	m := refmodel.NewWorld()
	h := &drHarness{
		src:    src,
		w:      w,
		h:      ecs.NewHierarchy(w),
		link:   ecs.NewRelation[drLink](w, ecs.Multi()),
		guard:  ecs.NewRelation[drGuard](w, guardOpts...),
		owns:   ecs.NewRelation[drOwns](w, ecs.Multi(), ecs.OnTargetDespawn(ecs.DespawnSources)),
		tags:   ecs.NewMap[drTag](w),
		hooks:  ecs.NewMap[drHook](w),
		all:    ecs.NewQuery1[drTag](w),
		m:      m,
		mh:     refmodel.NewRelation[struct{}](m, "ChildOf", refmodel.RelationOptions{Acyclic: true, Cleanup: refmodel.DespawnSources}),
		mlink:  refmodel.NewRelation[int](m, "drLink", refmodel.RelationOptions{Multi: true}),
		mguard: refmodel.NewRelation[int](m, "drGuard", refmodel.RelationOptions{Cleanup: mpolicy}),
		mowns:  refmodel.NewRelation[struct{}](m, "drOwns", refmodel.RelationOptions{Multi: true, Cleanup: refmodel.DespawnSources}),
		mtags:  refmodel.NewStore[int](m, "drTag"),
		mhooks: refmodel.NewStore[drHook](m, "drHook"),
		toM:    make(map[ecs.Entity]refmodel.EntityID),
	}
	none := func(struct{}) int { return 0 }
	id := func(v int) int { return v }
	h.mAll = &refmodel.Query{Terms: []refmodel.Kind{h.mtags.Kind()}}
	h.rels = []drRel{
		newDrRel(w, "ChildOf", h.h.Relation(), h.mh, &h.toVar, func(ecs.ChildOf) int { return 0 }, none),
		newDrRel(w, "drLink", h.link, h.mlink, &h.toVar, func(v drLink) int { return v.W }, id),
		newDrRel(w, "drGuard", h.guard, h.mguard, &h.toVar, func(v drGuard) int { return v.W }, id),
		newDrRel(w, "drOwns", h.owns, h.mowns, &h.toVar, func(drOwns) int { return 0 }, none),
	}
	ecs.OnRemove(w, func(e ecs.Entity, v *drHook) {
		h.removedT = append(h.removedT, e)
		h.hookT(e, *v)
	})
	h.mhooks.OnRemove(func(e refmodel.EntityID, v drHook) {
		h.removedM = append(h.removedM, e)
		h.hookM(e, v)
	})
	return h
}

// hookT is the OnRemove hook of drHook in Tessera; hookM, its twin in the
// model, must do the same. Their changes are deferred: hooks run with the
// world locked.
func (h *drHarness) hookT(e ecs.Entity, v drHook) {
	other := h.table[v.Other].e
	switch v.Act {
	case drActDespawnParent:
		if p, ok := h.h.Parent(e); ok {
			h.w.Despawn(p)
		}
	case drActDespawnOther:
		if other != e && h.w.Alive(other) {
			h.w.Despawn(other)
		}
	case drActAdoptOther:
		if p, ok := h.h.Parent(e); ok && h.w.Alive(other) {
			h.h.SetParent(other, p) // may close a cycle: refused when applied
		}
	case drActLinkOther:
		if h.w.Alive(other) { // e is dead when these are applied: both dropped
			h.link.Set(other, e, drLink{-1})
			h.link.Set(e, other, drLink{-2})
		}
	}
}

// hookM is hookT in the model; it also counts the despawns it asks for.
func (h *drHarness) hookM(e refmodel.EntityID, v drHook) {
	other := h.table[v.Other].id
	switch v.Act {
	case drActDespawnParent:
		if p, ok := h.mh.Target(e); ok {
			h.cov[drCovHookDespawn]++
			h.m.Despawn(p)
		}
	case drActDespawnOther:
		if other != e && h.m.Alive(other) {
			h.cov[drCovHookDespawn]++
			h.m.Despawn(other)
		}
	case drActAdoptOther:
		if p, ok := h.mh.Target(e); ok && h.m.Alive(other) {
			h.mh.Set(other, p, struct{}{})
		}
	case drActLinkOther:
		if h.m.Alive(other) {
			h.mlink.Set(other, e, -1)
			h.mlink.Set(e, other, -2)
		}
	}
}

// run runs steps until ops operations were made or the chooser's input
// ran out, and returns the first disagreement, or "".
func (h *drHarness) run(ops int) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(drFailure); ok {
				msg = f.msg
				return
			}
			msg = fmt.Sprintf("unexpected panic: %v\n%s\n%s", r, h.history(), debug.Stack())
		}
	}()
	if len(h.table) == 0 {
		for range drMinLive {
			h.spawn()
		}
		h.after()
	}
	for h.ops < ops && !h.src.exhausted() {
		h.step()
	}
	return ""
}

// step makes one top-level step and checks both worlds after it.
func (h *drHarness) step() {
	h.steps++
	switch k := h.src.intn(32); {
	case len(h.live) < drMinLive || h.src.intn(drMaxLive) >= len(h.live):
		h.grow() // the emptier the pool, the likelier
	case k < 8:
		h.loop()
	case k < 12:
		h.script()
	case k == 12:
		h.snapshotOrRestore()
	case k == 13 && h.src.intn(8) == 0:
		h.despawnAll()
	default:
		h.change()
	}
	h.after()
}

// pick returns a living entity; inside a loop, mostly one of the loop's
// focus.
func (h *drHarness) pick() drPair {
	if h.depth > 0 && len(h.focus) > 0 && h.src.intn(4) != 0 {
		return h.focus[h.src.intn(len(h.focus))]
	}
	return h.live[h.src.intn(len(h.live))]
}

// pickAny is pick, or now and then a recently dead entity.
func (h *drHarness) pickAny() drPair {
	if len(h.dead) > 0 && h.src.intn(6) == 0 {
		return h.dead[h.src.intn(len(h.dead))]
	}
	return h.pick()
}

// targetOf returns one of a's targets through relation h.rels[ri], if a
// is alive and has one.
func (h *drHarness) targetOf(ri int, a drPair) (drPair, bool) {
	if !h.w.Alive(a.e) {
		return drPair{}, false
	}
	h.bufC = h.rels[ri].targets(h.bufC[:0], a.e)
	if len(h.bufC) == 0 {
		return drPair{}, false
	}
	e := h.bufC[h.src.intn(len(h.bufC))]
	return drPair{e, h.toM[e]}, true
}

// someTarget returns one of a's targets through relation h.rels[ri], most
// of the time, or any entity (perhaps a dead one): for a removal.
func (h *drHarness) someTarget(ri int, a drPair) drPair {
	if h.src.intn(4) != 0 {
		if t, ok := h.targetOf(ri, a); ok {
			return t
		}
	}
	return h.pickAny()
}

// targetOrPick returns, half of the time, one of a's targets through
// h.rels[ri] if it has one (an Add of a pair that exists must leave its
// value alone, a Set must overwrite it), and otherwise a living entity.
func (h *drHarness) targetOrPick(ri int, a drPair) drPair {
	if h.src.intn(2) == 0 {
		if t, ok := h.targetOf(ri, a); ok {
			return t
		}
	}
	return h.pick()
}

// usable reports whether every one of ps is alive, in both worlds alike.
// A top-level script's entities may die on the way (its changes are
// immediate); its later changes to them are then skipped.
func (h *drHarness) usable(ps ...drPair) bool {
	ok := true
	for _, p := range ps {
		at, am := h.w.Alive(p.e), h.m.Alive(p.id)
		if at != am {
			h.fail("%v (model %d): alive %v in Tessera, %v in the model", p.e, p.id, at, am)
		}
		ok = ok && at
	}
	return ok
}

// parentOf returns c's parent in both worlds.
func (h *drHarness) parentOf(c drPair) (drPair, bool) {
	p, ok := h.h.Parent(c.e)
	mp, mok := h.mh.Target(c.id)
	if ok != mok || ok && h.toM[p] != mp {
		h.fail("parent of %d: %v %v in Tessera, %d %v in the model", c.id, p, ok, mp, mok)
	}
	return drPair{p, mp}, ok
}

// spawn makes an entity in both worlds with a tag and a hook of a random
// action.
func (h *drHarness) spawn() drPair {
	act := h.src.intn(3 * drActs)
	if act >= drActs {
		act = drActNone // most entities do nothing when removed
	}
	other := 0 // the entity itself when it is the first
	if len(h.table) > 0 {
		other = h.src.intn(len(h.table))
	}
	p := drPair{h.w.Spawn(), h.m.Spawn()}
	h.enlist(p)
	h.record("Spawn", p, drPair{}, act)
	h.ops++
	// Inside a loop the entity lives at once and its components come when
	// the loop ends, in both worlds.
	h.tags.Add(p.e, drTag{len(h.table)})
	h.mtags.Add(p.id, len(h.table))
	h.hooks.Add(p.e, drHook{act, other})
	h.mhooks.Add(p.id, drHook{act, other})
	return p
}

// enlist takes p, just spawned in both worlds, into the pool.
func (h *drHarness) enlist(p drPair) {
	h.table = append(h.table, p)
	h.toM[p.e] = p.id
	h.live = append(h.live, p)
	if h.depth > 0 {
		h.focus = append(h.focus, p)
	}
}

// clone clones x in both worlds and takes the clone into the pool. Its
// drHook is x's: its OnRemove hook runs for the clone in both worlds.
func (h *drHarness) clone(x drPair) {
	if h.depth == 0 && !h.usable(x) {
		return
	}
	if h.depth == 0 && slices.ContainsFunc(h.rels, func(r drRel) bool { return len(r.mTargets(x.id)) > 0 }) {
		h.cov[drCovClonePairs]++
	}
	var c drPair
	h.both("CopyEntity", x, drPair{}, 0, nil, func() { c.e = h.w.CopyEntity(x.e) }, func() { c.id = h.m.CopyEntity(x.id) })
	h.enlist(c)
	h.record("CopyEntity made", c, x, 0)
	if h.depth > 0 {
		h.clones = append(h.clones, c)
	}
}

// grow spawns a few entities and links most of them into the structures
// already there: new leaves of the trees, new owners and links.
func (h *drHarness) grow() {
	for range 1 + h.src.intn(3) {
		if len(h.live) >= drMaxLive {
			return
		}
		p := h.spawn()
		switch h.src.intn(4) {
		case 0, 1:
			h.setParent(p, h.pick())
		case 2:
			h.ownsAdd(p, h.pick())
		}
	}
}

// drChanges are the random changes of the relation harness, a table of
// named, weighted operations as the main harness's (diffOp): every name must
// run in TestDifferentialRelations. a and b are two random entities, v a
// random value.
var drChanges = []diffOp[func(h *drHarness, a, b drPair, v int)]{
	{"spawn (despawn when full)", 1, func(h *drHarness, a, _ drPair, _ int) {
		if len(h.live) < drMaxLive {
			h.spawn()
		} else {
			h.despawn(a)
		}
	}},
	{"despawn", 2, func(h *drHarness, a, _ drPair, _ int) { h.despawn(a) }},
	{"ChildOf: set a parent", 4, func(h *drHarness, a, b drPair, _ int) { h.setParent(a, b) }},
	{"ChildOf: remove the parent", 1, func(h *drHarness, a, _ drPair, _ int) { h.removeParent(a) }},
	{"ChildOf.Remove", 1, func(h *drHarness, a, _ drPair, _ int) {
		b := h.someTarget(0, a)
		h.both("ChildOf.Remove", a, b, 0, nil,
			func() { h.h.Relation().Remove(a.e, b.e) }, func() { h.mh.Remove(a.id, b.id) })
	}},
	{"drLink.Set", 1, func(h *drHarness, a, b drPair, v int) { h.linkSet(a, b, v) }},
	{"drLink.Set on a target", 1, func(h *drHarness, a, _ drPair, v int) { h.linkSet(a, h.targetOrPick(1, a), v) }},
	{"drLink.Add", 1, func(h *drHarness, a, _ drPair, _ int) { h.linkAdd(a, h.targetOrPick(1, a)) }},
	{"drLink.Remove", 1, func(h *drHarness, a, _ drPair, _ int) { h.linkRemove(a, h.someTarget(1, a)) }},
	{"drLink.RemoveTargets", 1, func(h *drHarness, a, _ drPair, _ int) {
		h.both("drLink.RemoveTargets", a, drPair{}, 0, nil,
			func() { h.link.RemoveTargets(a.e) }, func() { h.mlink.RemoveTargets(a.id) })
	}},
	{"drGuard.Add or Set", 1, func(h *drHarness, a, _ drPair, v int) {
		if h.src.intn(2) == 0 {
			h.guardAdd(a, h.targetOrPick(2, a))
		} else {
			h.guardSet(a, h.targetOrPick(2, a), v)
		}
	}},
	{"drGuard.Remove", 3, func(h *drHarness, a, _ drPair, _ int) { h.guardRemove(a, h.someTarget(2, a)) }},
	{"drGuard.RemoveTargets", 1, func(h *drHarness, a, _ drPair, _ int) {
		h.both("drGuard.RemoveTargets", a, drPair{}, 0, nil,
			func() { h.guard.RemoveTargets(a.e) }, func() { h.mguard.RemoveTargets(a.id) })
	}},
	{"drOwns.Add", 2, func(h *drHarness, a, b drPair, _ int) { h.ownsAdd(a, b) }},
	{"drOwns.Remove or RemoveTargets", 1, func(h *drHarness, a, _ drPair, _ int) {
		if h.src.intn(2) == 0 {
			b := h.someTarget(3, a)
			h.both("drOwns.Remove", a, b, 0, nil, func() { h.owns.Remove(a.e, b.e) }, func() { h.mowns.Remove(a.id, b.id) })
		} else {
			h.both("drOwns.RemoveTargets", a, drPair{}, 0, nil, func() { h.owns.RemoveTargets(a.e) }, func() { h.mowns.RemoveTargets(a.id) })
		}
	}},
	{"clone (despawn when full)", 2, func(h *drHarness, a, _ drPair, _ int) {
		if len(h.live) < drMaxLive {
			h.clone(a)
		} else {
			h.despawn(a)
		}
	}},
}

// change makes one random change.
func (h *drHarness) change() {
	a, b := h.pick(), h.pick()
	v := h.src.intn(100)
	drChanges[pickOp(h, drChanges)].do(h, a, b, v)
}

// choose returns an index with probability proportional to its weight
// (the opPicker of pickOp).
func (h *drHarness) choose(weights ...int) int { return chooseWeighted(h.src, weights) }

// ranOp counts a run of the operation named name.
func (h *drHarness) ranOp(name string) {
	if h.opRuns == nil {
		h.opRuns = make(map[string]int)
	}
	h.opRuns[name]++
}

// script makes a few changes to the same entities in a row: the awkward
// sequences, at once at top level, deferred inside a loop.
func (h *drHarness) script() {
	a, b, c := h.pick(), h.pick(), h.pick()
	switch h.src.intn(14) {
	case 0: // remove a pair and make it again: it goes last on both sides
		h.linkRemove(a, b)
		if h.src.intn(2) == 0 {
			h.linkAdd(a, b)
		} else {
			h.linkSet(a, b, 7)
		}
	case 1: // set a pair, then despawn its target
		h.linkSet(a, b, 3)
		h.despawn(b)
	case 2: // despawn a parent, then reparent its child
		if p, ok := h.parentOf(c); ok {
			h.despawn(p)
			h.setParent(c, a)
		}
	case 3: // reparent a child, then despawn its old parent
		if p, ok := h.parentOf(c); ok {
			h.setParent(c, a)
			h.despawn(p)
		}
	case 4: // the second change closes a cycle once the first is made
		h.setParent(a, b)
		h.setParent(b, a)
	case 5: // guard a target, then despawn it
		h.guardAdd(a, b)
		h.despawn(b)
	case 6: // despawn a target, then guard it
		h.despawn(b)
		h.guardAdd(a, b)
	case 7: // a cycle of owners, then a despawn inside it
		h.ownsAdd(a, b)
		h.ownsAdd(b, a)
		h.despawn(a)
	case 8: // detach and attach again: the child goes last among its siblings
		if p, ok := h.parentOf(c); ok {
			h.removeParent(c)
			h.setParent(c, p)
		}
	case 9: // replace an exclusive target twice, then remove the first pair
		h.guardSet(a, b, 1)
		h.guardSet(a, c, 2)
		h.guardRemove(a, b)
	case 10: // a chain: a deep tree, or a cycle refused at its end
		for _, x := range []drPair{b, c, a} {
			h.setParent(x, h.pick())
		}
	case 11: // overwrite the values of pairs that exist, then add them again
		if t, ok := h.targetOf(2, a); ok {
			h.guardSet(a, t, 11)
			h.guardAdd(a, t)
		}
		if t, ok := h.targetOf(1, a); ok {
			h.linkSet(a, t, 12)
			h.linkAdd(a, t)
		}
	case 12: // clone, then despawn the original: in a loop the clone is filled first
		if len(h.live) < drMaxLive {
			h.clone(a)
			h.despawn(a)
		}
	case 13: // despawn, then clone: in a loop the clone stays empty
		h.despawn(a)
		if len(h.live) < drMaxLive {
			h.clone(a)
		}
	}
}

// despawn despawns x, counting at top level the situations its cascade
// reaches.
func (h *drHarness) despawn(x drPair) {
	if h.depth == 0 && !h.usable(x) {
		return
	}
	refusal := h.m.CheckDespawn(x.id)
	if h.depth == 0 && refusal == nil {
		order := h.m.DespawnOrder(x.id)
		if len(order) >= 3 {
			h.cov[drCovCascade3]++
		}
		for _, y := range order {
			if h.mguard.Sources(y) != nil {
				h.cov[drCovGuardInside]++
			}
			if y != x.id && slices.ContainsFunc(h.mowns.Targets(y), func(t refmodel.EntityID) bool { return slices.Contains(order, t) }) {
				h.cov[drCovCascadeOwns]++
			}
		}
	}
	h.both("Despawn", x, drPair{}, 0, refusal, func() { h.w.Despawn(x.e) }, func() { h.m.Despawn(x.id) })
}

// despawnAll despawns every entity with a tag: every entity but those
// spawned or cloned in the loop after it. No RefuseDespawn applies then
// (a guard's source dies in the same batch), and what the hooks change is
// dropped (its entities are dead by then), so the two worlds agree
// although they despawn in different orders.
func (h *drHarness) despawnAll() {
	h.unordered = true
	if h.depth == 0 && h.mguard.Len() > 0 {
		h.cov[drCovDespawnAll]++
	}
	h.both("DespawnMatching", drPair{}, drPair{}, 0, nil, func() { h.w.DespawnMatching(h.all) }, func() { h.m.DespawnMatching(h.mAll) })
}

// setParent makes p the parent of c, refused for a cycle.
func (h *drHarness) setParent(c, p drPair) {
	if h.depth == 0 && !h.usable(c, p) {
		return
	}
	h.both("SetParent", c, p, 0, h.mh.CheckSet(c.id, p.id),
		func() { h.h.SetParent(c.e, p.e) }, func() { h.mh.Set(c.id, p.id, struct{}{}) })
}

// removeParent makes c a root.
func (h *drHarness) removeParent(c drPair) {
	if h.depth == 0 && !h.usable(c) {
		return
	}
	h.both("RemoveParent", c, drPair{}, 0, nil, func() { h.h.RemoveParent(c.e) }, func() { h.mh.RemoveTargets(c.id) })
}

// linkSet makes or overwrites the drLink pair (a, b) with value v.
func (h *drHarness) linkSet(a, b drPair, v int) {
	if h.depth == 0 && !h.usable(a, b) {
		return
	}
	h.both("drLink.Set", a, b, v, nil, func() { h.link.Set(a.e, b.e, drLink{v}) }, func() { h.mlink.Set(a.id, b.id, v) })
}

// linkAdd makes the drLink pair (a, b), or leaves it as it is.
func (h *drHarness) linkAdd(a, b drPair) {
	if h.depth == 0 && !h.usable(a, b) {
		return
	}
	h.both("drLink.Add", a, b, 0, nil, func() { h.link.Add(a.e, b.e) }, func() { h.mlink.Add(a.id, b.id) })
}

// linkRemove removes a pair; b may be dead.
func (h *drHarness) linkRemove(a, b drPair) {
	if h.depth == 0 && !h.usable(a) {
		return
	}
	h.both("drLink.Remove", a, b, 0, nil, func() { h.link.Remove(a.e, b.e) }, func() { h.mlink.Remove(a.id, b.id) })
}

// guardAdd makes b a's guarded target, refused when a has another.
func (h *drHarness) guardAdd(a, b drPair) {
	if h.depth == 0 && !h.usable(a, b) {
		return
	}
	h.both("drGuard.Add", a, b, 0, h.mguard.CheckAdd(a.id, b.id),
		func() { h.guard.Add(a.e, b.e) }, func() { h.mguard.Add(a.id, b.id) })
}

// guardSet makes b a's guarded target with value v, replacing another.
func (h *drHarness) guardSet(a, b drPair, v int) {
	if h.depth == 0 && !h.usable(a, b) {
		return
	}
	h.both("drGuard.Set", a, b, v, h.mguard.CheckSet(a.id, b.id),
		func() { h.guard.Set(a.e, b.e, drGuard{v}) }, func() { h.mguard.Set(a.id, b.id, v) })
}

// guardRemove removes a pair; b may be dead.
func (h *drHarness) guardRemove(a, b drPair) {
	if h.depth == 0 && !h.usable(a) {
		return
	}
	h.both("drGuard.Remove", a, b, 0, nil, func() { h.guard.Remove(a.e, b.e) }, func() { h.mguard.Remove(a.id, b.id) })
}

// ownsAdd makes a one of b's owned entities: a dies with b.
func (h *drHarness) ownsAdd(a, b drPair) {
	if h.depth == 0 && !h.usable(a, b) {
		return
	}
	h.both("drOwns.Add", a, b, 0, nil, func() { h.owns.Add(a.e, b.e) }, func() { h.mowns.Add(a.id, b.id) })
}

// both makes one change in each world, Tessera's first. refusal is the
// model's prediction that the change is refused now (always nil inside a
// loop, where changes are judged when applied): Tessera must then panic
// and change nothing. At top level the worlds are settled afterwards.
func (h *drHarness) both(op string, a, b drPair, v int, refusal error, fe, fm func()) {
	h.record(op, a, b, v)
	h.ops++
	var sum uint64
	if refusal != nil {
		if h.depth > 0 {
			h.fail("%s: the model refuses inside a loop: %v", op, refusal)
		}
		sum = h.w.Checksum()
	}
	msgT := drCatch(fe)
	if refusal != nil {
		if msgT == "" {
			h.fail("%s: Tessera accepted a change the model refuses: %v", op, refusal)
		}
		if s := h.w.Checksum(); s != sum {
			h.fail("%s: a refused change (%s) changed the world", op, msgT)
		}
		switch drCategory(msgT) {
		case "cycle":
			h.cov[drCovCycleNow]++
		case "exclusive":
			h.cov[drCovExclusiveNow]++
		case "refuse":
			h.cov[drCovRefuseNow]++
		}
	}
	msgM := drCatch(fm)
	if h.depth > 0 {
		if msgT != "" || msgM != "" {
			h.fail("%s inside a loop panicked: Tessera %q, the model %q", op, msgT, msgM)
		}
		// Each change is one deferred change in each world, and the end
		// of a nested loop applies none.
		if h.w.Pending() != h.m.Pending() {
			h.fail("%s inside a loop: %d changes pending in Tessera, %d in the model", op, h.w.Pending(), h.m.Pending())
		}
		return
	}
	h.settle(msgT, msgM, refusal != nil)
}

// settle compares the panics of one operation in the two worlds and, while
// there were some, calls Recover on both: a change refused when deferred
// changes were applied stops their application, and Recover applies the
// rest (which may stop at another refusal). refusedNow says the first
// panics are refusals of the operation itself.
func (h *drHarness) settle(msgT, msgM string, refusedNow bool) {
	for round := 0; msgT != "" || msgM != ""; round++ {
		ct, cm := drCategory(msgT), drCategory(msgM)
		if ct != cm {
			h.fail("Tessera panicked %q, the model %q", msgT, msgM)
		}
		if round > 0 || !refusedNow {
			switch ct {
			case "cycle":
				h.cov[drCovCycleApplied]++
			case "exclusive":
				h.cov[drCovExclusiveApplied]++
			case "refuse":
				h.cov[drCovRefuseApplied]++
			}
		}
		if round > 2*drMaxLive+100 {
			h.fail("Recover keeps panicking: %q", msgT)
		}
		msgT, msgM = drCatch(h.w.Recover), drCatch(h.m.Recover)
	}
	if h.w.IsIterating() || h.w.Pending() != 0 || h.m.IsIterating() || h.m.Pending() != 0 {
		h.fail("after the changes settled: Tessera iterating %v pending %d, the model iterating %v pending %d",
			h.w.IsIterating(), h.w.Pending(), h.m.IsIterating(), h.m.Pending())
	}
}

// loop makes changes inside an iteration of Tessera, a range loop or a
// cursor, and inside an iteration of the model: both defer them until
// the loop ends.
func (h *drHarness) loop() {
	n := 1 + h.src.intn(8)
	h.focus = h.focus[:0]
	h.clones = h.clones[:0]
	for range 3 {
		h.focus = append(h.focus, h.live[h.src.intn(len(h.live))])
	}
	cursor := h.src.intn(2) == 0
	h.record("loop", drPair{}, drPair{}, n)
	h.m.BeginIteration()
	h.depth++
	msgT := drCatch(func() {
		if cursor {
			cur := h.all.Iter()
			if cur.Next() {
				h.loopBody(n)
			}
			cur.Close()
			return
		}
		for range h.all.All() {
			h.loopBody(n)
			break
		}
	})
	h.depth--
	msgM := drCatch(h.m.EndIteration)
	h.record("loop end", drPair{}, drPair{}, 0)
	h.settle(msgT, msgM, false)
	for _, c := range h.clones {
		switch {
		case h.mtags.Has(c.id):
			h.cov[drCovCloneFilled]++
		case h.usable(c):
			// Every entity outside a loop has a tag and a hook, so
			// that a DespawnMatching takes every source of a guard.
			h.cov[drCovCloneEmpty]++
			h.record("tag empty clone", c, drPair{}, 0)
			h.tags.Add(c.e, drTag{-1})
			h.mtags.Add(c.id, -1)
			h.hooks.Add(c.e, drHook{drActNone, 0})
			h.mhooks.Add(c.id, drHook{drActNone, 0})
		}
	}
}

// loopBody makes n changes, scripts, nested loops or checks inside a loop.
func (h *drHarness) loopBody(n int) {
	for range n {
		switch h.src.intn(12) {
		case 0: // a nested loop: its end applies nothing
			h.m.BeginIteration()
			for range h.all.All() {
				h.change()
				break
			}
			h.m.EndIteration()
		case 1, 2, 3:
			h.script()
		case 4:
			h.checkAll("inside a loop") // reads see the pairs applied so far
		case 5:
			// Not after a clone: one left empty, without a tag, could
			// guard a target the batch takes, and the worlds refuse
			// after despawning different entities.
			if h.src.intn(16) == 0 && len(h.clones) == 0 {
				h.despawnAll()
			} else {
				h.change()
			}
		default:
			h.change()
		}
	}
}

// snapshotOrRestore snapshots both worlds, or restores both from the
// latest snapshot, with the harness's bookkeeping of then.
func (h *drHarness) snapshotOrRestore() {
	if h.snapM == nil || h.src.intn(2) == 0 {
		h.record("Snapshot", drPair{}, drPair{}, 0)
		h.w.Snapshot(&h.snapT)
		h.snapM = h.m.Snapshot()
		h.snapLive = slices.Clone(h.live)
		h.snapSum = h.w.Checksum()
		h.snapN = len(h.table)
		return
	}
	h.record("Restore", drPair{}, drPair{}, 0)
	h.cov[drCovRestore]++
	h.w.Restore(&h.snapT)
	h.m.Restore(h.snapM)
	if s := h.w.Checksum(); s != h.snapSum {
		h.fail("Restore: checksum %x, the snapshot's %x", s, h.snapSum)
	}
	// Entities spawned since the snapshot are dead, and their handles and
	// ids are handed out again: forget them, and every dead entity.
	h.table = h.table[:h.snapN]
	h.live = slices.Clone(h.snapLive)
	h.dead = h.dead[:0]
	clear(h.toM)
	for _, p := range h.live {
		h.toM[p.e] = p.id
	}
}

// after ends a top-level step: the hooks must have run for the same
// entities in the same order, and the living entities are sorted out.
func (h *drHarness) after() {
	got, want := h.ids(h.removedT), h.removedM
	if h.unordered {
		got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	}
	if !slices.Equal(got, want) || slices.Contains(got, 0) {
		h.fail("OnRemove ran for %v in Tessera (model ids %v), for %v in the model", h.removedT, h.ids(h.removedT), h.removedM)
	}
	h.removedT, h.removedM, h.unordered = h.removedT[:0], h.removedM[:0], false
	kept := h.live[:0]
	for _, p := range h.live {
		if h.usable(p) {
			kept = append(kept, p)
			continue
		}
		if len(h.dead) == drDeadMax {
			delete(h.toM, h.dead[0].e)
			h.dead = append(h.dead[:0], h.dead[1:]...)
		}
		h.dead = append(h.dead, p)
	}
	h.live = kept
	h.checkAll("after the step")
	if h.steps%64 == 0 {
		h.sample()
	}
}

// sample adds the worlds' shape now to h.shape.
func (h *drHarness) sample() {
	s := &h.shape
	s.samples++
	s.live += len(h.live)
	for _, p := range h.live {
		for ri := range h.rels {
			s.pairs[ri] += len(h.rels[ri].targets(h.bufA[:0], p.e))
		}
		d := h.h.Depth(p.e)
		s.depth += d
		s.maxDepth = max(s.maxDepth, d)
	}
}

// checkAll compares the two worlds: the same entities alive; for every
// living entity and relation the same targets, in order, with the same
// values, and the same sources, in order (Tessera keeps both lists in the
// order the pairs were made); both sides of every pair in step and naming
// living entities only; Has on random pairs, dead entities included; the
// hierarchy's walks; and a To query on each relation, as a set (a query
// promises no order).
func (h *drHarness) checkAll(where string) {
	some := len(h.live) > 0 // a cascade may have taken every entity
	if err := ecs.CheckSplitTables(h.w); err != nil {
		h.fail("%s: %v", where, err)
	}
	if h.w.Len() != h.m.Len() || h.w.Len() != len(h.live) {
		h.fail("%s: %d alive in Tessera, %d in the model, %d in the harness", where, h.w.Len(), h.m.Len(), len(h.live))
	}
	for _, p := range h.live {
		h.usable(p)
	}
	for _, p := range h.dead {
		if h.w.Alive(p.e) || h.m.Alive(p.id) {
			h.fail("%s: %v (model %d), dead before, alive: %v, %v", where, p.e, p.id, h.w.Alive(p.e), h.m.Alive(p.id))
		}
	}
	for ri := range h.rels {
		r := &h.rels[ri]
		pairs := 0
		for _, p := range h.live {
			h.bufA = r.targets(h.bufA[:0], p.e)
			if mt := r.mTargets(p.id); !h.same(h.bufA, mt) {
				h.fail("%s: %s targets of %d: %v in Tessera (model ids %v), %v in the model", where, r.name, p.id, h.bufA, h.ids(h.bufA), mt)
			}
			for _, x := range h.bufA {
				if !h.w.Alive(x) {
					h.fail("%s: %s: %d has the dead target %v", where, r.name, p.id, x)
				}
				v, ok := r.value(p.e, x)
				mv, mok := r.mValue(p.id, h.toM[x])
				if !ok || !mok || v != mv || !r.has(p.e, x) {
					h.fail("%s: %s value of (%d, %d): %d %v in Tessera, %d %v in the model", where, r.name, p.id, h.toM[x], v, ok, mv, mok)
				}
				h.bufC = r.sources(h.bufC[:0], x)
				if !slices.Contains(h.bufC, p.e) {
					h.fail("%s: %s: %d targets %d, whose sources %v do not list it", where, r.name, p.id, h.toM[x], h.ids(h.bufC))
				}
			}
			if x, ok := r.target(p.e); ok != (len(h.bufA) > 0) || ok && x != h.bufA[0] {
				h.fail("%s: %s.Target(%d) = %v, %v; its targets are %v", where, r.name, p.id, x, ok, h.bufA)
			}
			pairs += len(h.bufA)
			h.bufB = r.sources(h.bufB[:0], p.e)
			if n := r.count(p.e); n != len(h.bufB) {
				h.fail("%s: %s.NumSources(%d) = %d; its sources are %v", where, r.name, p.id, n, h.bufB)
			}
			if ms := r.mSources(p.id); !h.same(h.bufB, ms) {
				h.fail("%s: %s sources of %d: %v in Tessera (model ids %v), %v in the model", where, r.name, p.id, h.bufB, h.ids(h.bufB), ms)
			}
			for _, s := range h.bufB {
				if !h.w.Alive(s) {
					h.fail("%s: %s: %d has the dead source %v", where, r.name, p.id, s)
				}
			}
			pairs -= len(h.bufB)
		}
		// Every pair is listed by its source and by its target: with the
		// check above (each target lists its source), no list holds more.
		if pairs != 0 {
			h.fail("%s: %s: the targets' lists and the sources' lists count pairs differently (%d)", where, r.name, pairs)
		}
		for range 2 {
			if !some {
				break
			}
			a, b := h.pickAny(), h.pickAny()
			if got, want := r.has(a.e, b.e), r.mHas(a.id, b.id); got != want {
				h.fail("%s: %s.Has(%d, %d): %v in Tessera, %v in the model", where, r.name, a.id, b.id, got, want)
			}
		}
		if !some {
			continue
		}
		t := h.pick()
		h.toVar.Set(t.e)
		h.bufA = h.bufA[:0]
		for row := range r.to.All() {
			h.bufA = append(h.bufA, row.Entity)
		}
		ms := slices.Sorted(slices.Values(r.mSources(t.id)))
		got := slices.Sorted(slices.Values(h.ids(h.bufA)))
		if !slices.Equal(got, ms) {
			h.fail("%s: %s.To(%d) visits %v, the model's sources are %v", where, r.name, t.id, got, ms)
		}
		h.bufA = h.bufA[:0]
		for c := range r.to.Chunks() { // whole tables for a split relation
			h.bufA = append(h.bufA, c.Entities...)
		}
		if got := slices.Sorted(slices.Values(h.ids(h.bufA))); !slices.Equal(got, ms) {
			h.fail("%s: %s.To(%d).Chunks visits %v, the model's sources are %v", where, r.name, t.id, got, ms)
		}
	}
	for _, p := range h.live {
		parent, ok := h.parentOf(p)
		if root, mroot := h.h.Root(p.e), h.mh.Root(p.id); h.toM[root] != mroot {
			h.fail("%s: Root(%d): %d in Tessera, %d in the model", where, p.id, h.toM[root], mroot)
		}
		if d, md := h.h.Depth(p.e), h.mh.Depth(p.id); d != md || ok != (d > 0) {
			h.fail("%s: Depth(%d): %d in Tessera, %d in the model (parent %d)", where, p.id, d, md, parent.id)
		}
		if n := h.h.NumChildren(p.e); n != len(h.mh.Sources(p.id)) {
			h.fail("%s: NumChildren(%d): %d in Tessera, model %v", where, p.id, n, h.mh.Sources(p.id))
		}
	}
	if !some {
		return
	}
	// Hierarchy.Cascade visits parents first: by depth, and within one
	// depth in the query's order, which the model does not know.
	h.bufA = h.bufA[:0]
	last := 0
	for e := range h.h.Cascade(h.all) {
		d := h.mh.Depth(h.toM[e])
		if d < last {
			h.fail("%s: Hierarchy.Cascade yields %d at depth %d after depth %d", where, h.toM[e], d, last)
		}
		last = d
		h.bufA = append(h.bufA, e)
	}
	if got, want := slices.Sorted(slices.Values(h.ids(h.bufA))), h.m.Match(h.mAll); !slices.Equal(got, want) {
		h.fail("%s: Hierarchy.Cascade yields %v, the entities with a tag are %v", where, got, want)
	}
	p := h.pick()
	if got, want := slices.Collect(h.h.Descendants(p.e)), h.mh.Descendants(p.id); !h.same(got, want) {
		h.fail("%s: Descendants(%d): %v in Tessera, %v in the model", where, p.id, h.ids(got), want)
	}
	if got, want := slices.Collect(h.h.Ancestors(p.e)), h.mh.Ancestors(p.id); !h.same(got, want) {
		h.fail("%s: Ancestors(%d): %v in Tessera, %v in the model", where, p.id, h.ids(got), want)
	}
}

// same reports whether Tessera's list es names the model's ids, in order.
func (h *drHarness) same(es []ecs.Entity, ids []refmodel.EntityID) bool {
	return slices.EqualFunc(es, ids, func(e ecs.Entity, id refmodel.EntityID) bool {
		got, ok := h.toM[e]
		return ok && got == id
	})
}

// ids translates Tessera entities to model ids (0 for one the harness does
// not know), for messages and set comparisons.
func (h *drHarness) ids(es []ecs.Entity) []refmodel.EntityID {
	out := make([]refmodel.EntityID, len(es))
	for i, e := range es {
		out[i] = h.toM[e]
	}
	return out
}

// record logs an operation, by model ids.
func (h *drHarness) record(op string, a, b drPair, v int) {
	h.log[h.logN%len(h.log)] = drLogEntry{step: h.steps, depth: h.depth, op: op, a: a.id, b: b.id, v: v}
	h.logN++
}

// history renders the latest operations, oldest first, by model id.
func (h *drHarness) history() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "after %d steps, %d operations; the latest:", h.steps, h.ops)
	for i := max(0, h.logN-len(h.log)); i < h.logN; i++ {
		l := h.log[i%len(h.log)]
		fmt.Fprintf(&sb, "\n  step %d%s %s(%d, %d) %d", l.step, strings.Repeat("  ", l.depth), l.op, l.a, l.b, l.v)
	}
	return sb.String()
}

// fail reports a disagreement, with the latest operations.
func (h *drHarness) fail(format string, args ...any) {
	panic(drFailure{fmt.Sprintf(format, args...) + "\n" + h.history()})
}

// drCatch runs f and returns what it panicked with, or "". A disagreement
// found inside f goes on up.
func drCatch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			if d, ok := r.(drFailure); ok {
				panic(d)
			}
			if msg = fmt.Sprint(r); msg == "" {
				msg = "(an empty panic)"
			}
		}
	}()
	f()
	return ""
}

// drCategory names the kind of refusal a panic message reports; any other
// message is its own category, so that two unexpected panics never match.
func drCategory(msg string) string {
	switch {
	case msg == "":
		return ""
	case strings.Contains(msg, "would close a cycle"):
		return "cycle"
	case strings.Contains(msg, "RefuseDespawn"):
		return "refuse"
	case strings.Contains(msg, "already has the target"):
		return "exclusive"
	}
	return msg
}

// TestDifferentialRelations runs seeds 1 to 16, 62,500 operations each
// (1,000,000 in all) with TESSERA_LONG=1 (testhelp.LongEnv), and 500 each
// (8,000 in all) without it or with -short, and checks that the seeds
// together reach every situation of drCovNames.
func TestDifferentialRelations(t *testing.T) {
	seeds, opsPerSeed := 16, testhelp.LongSize(t, 500, 62_500)
	var (
		mu     sync.Mutex
		cov    [drCovN]int
		opRuns = make(map[string]int)
		passed int
	)
	t.Cleanup(func() {
		if passed != seeds {
			return
		}
		for i, n := range cov {
			if n == 0 {
				t.Errorf("no seed reached %s; change the seeds or the harness's weights", drCovNames[i])
			}
			t.Logf("%7d × %s", n, drCovNames[i])
		}
		for _, o := range drChanges {
			if opRuns[o.name] == 0 {
				t.Errorf("no seed ran the change %q; change the seeds or the harness's weights", o.name)
			}
		}
	})
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			// Odd seeds keep drGuard's default storage (variant 0),
			// even ones split it (variants 1 and 2, see newDrHarness).
			h := newDrHarness(randChooser{rand.New(rand.NewPCG(uint64(seed), 0x5e1a7))}, []int{0, 1, 0, 2}[seed%4])
			if msg := h.run(opsPerSeed); msg != "" {
				t.Fatalf("seed %d: %s\nreplay: go test ./ecs -run 'TestDifferentialRelations/seed=%d$'", seed, msg, seed)
			}
			if h.ops < opsPerSeed {
				t.Fatalf("ran %d operations, want %d", h.ops, opsPerSeed)
			}
			t.Logf("%d steps, %d operations; %v", h.steps, h.ops, &h.shape)
			mu.Lock()
			defer mu.Unlock()
			passed++
			for i, n := range h.cov {
				cov[i] += n
			}
			for name, n := range h.opRuns {
				opRuns[name] += n
			}
		})
	}
}

// FuzzDifferentialRelations is TestDifferentialRelations driven by the
// fuzzer's bytes: each byte is one choice, and the run ends when they run
// out.
func FuzzDifferentialRelations(f *testing.F) {
	for seed, n := range []int{16, 64, 256, 1024, 4096} {
		r := rand.New(rand.NewPCG(uint64(seed), 0xf022))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := newDrHarness(&byteChooser{data: data}, len(data)%3)
		if msg := h.run(1 << 20); msg != "" {
			t.Fatal(msg)
		}
	})
}
