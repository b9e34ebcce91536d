package ecs

import (
	"fmt"
	"reflect"
)

// ParallelControl is a world's plumbing for schedulers (package sched):
// the parallel section in which several goroutines work on the world at
// once, the access checker of a debug mode, and the test a batch writer
// makes before storing values without Set. Get one with [World.Parallel];
// it is a small value holding the world, free to make and copy. Game code
// does not need it: the scheduler calls it around each stage.
type ParallelControl struct{ w *World }

// Parallel returns w's scheduler plumbing (see [ParallelControl]). Keeping
// those calls behind it leaves World's own methods to game code and
// persistence. Complexity: O(1), no allocation. (Ark puts its id-level API
// behind World.Unsafe in the same way.)
func (w *World) Parallel() ParallelControl { return ParallelControl{w} }

// Begin opens a parallel section, which lets several goroutines work
// on one world at once, the way a scheduler runs the systems of a stage
// (package sched). Between Begin and End, any goroutine may
// iterate queries (every form), read components and resources, and overwrite
// components in place (Map.Set on a component the entity has, or a write
// through a pointer from Get or a query), provided no two goroutines write
// the same component type and none reads a type another writes, except that
// goroutines may write disjoint row ranges of one table (AppendChunks): the
// scheduler's access declarations guarantee that. Resources follow the same
// rules, and a Resource handle's Set and Remove count as writes. Structural
// changes made directly (Spawn, Despawn, Add, Remove, batches, Reserve)
// panic, and so does making a handle (NewMap, NewMap2..NewMap12,
// NewQuery1..NewQuery8, NewResource: make them once, before the first run,
// and reuse them) or registering a type, hook or resource (Register, OnAdd,
// AddResource, RemoveResource): each goroutine records its structural changes
// in a [Commands] buffer of its own, applied with [World.Apply] after
// End, which keeps the outcome independent of which goroutine ran
// first (the Run phase of the Run/Sync design of a student game engine's
// parallel lock-free ECS). Hooks fired by a Set run on the goroutine that
// called Set.
//
// The section counts as one open iteration until End. Panics inside
// an iteration or another parallel section. Complexity: O(1).
func (p ParallelControl) Begin() {
	w := p.w
	if w.lock > 0 {
		panic("ecs: Parallel().Begin: called inside an iteration or a parallel section" + w.openLoopNote())
	}
	w.lock++
	w.shared = true
}

// End closes the parallel section Begin opened; every goroutine that
// worked in it must be done. Then the changes deferred in the section are
// applied. Panics if no section is open. Complexity: O(1) plus the
// deferred changes.
func (p ParallelControl) End() {
	w := p.w
	if !w.shared {
		panic("ecs: Parallel().End: no parallel section is open")
	}
	w.shared = false
	w.epoch++ // passes opened in the section must not unlock when they end
	if w.tracking {
		// The section's changes carry one tick; what comes after is newer
		// for the passes that ran in it (see queryCache.passed).
		w.advanceTick()
	}
	w.unlock()
}

// Active reports whether a parallel section is open. Complexity: O(1).
func (p ParallelControl) Active() bool { return p.w.shared }

// mustNotMakeShared panics, naming op, when a handle of the given kind
// ("query" or "handle") is made in a parallel section: that is where a
// scheduler runs its systems, and making one there is a mistake to explain,
// not only to refuse.
func (w *World) mustNotMakeShared(op, kind string) {
	if !w.shared {
		return
	}
	if kind == "query" {
		panic(fmt.Sprintf("ecs: %s: called inside a parallel section (a running system); build queries once, outside systems (before the first Run), and reuse them: a query is a cache the world keeps up to date for its whole life, so building one per tick leaks a cache per call and costs a scan of all tables each time", op))
	}
	panic(fmt.Sprintf("ecs: %s: called inside a parallel section (a running system); make handles once, outside systems (before the first Run), and reuse them: making one may register its types and create their table, a change to the world that systems running at the same time must not make", op))
}

// mustNotShare panics, naming op and the type info describes (if any), when
// a parallel section is open.
func (w *World) mustNotShare(op string, info *componentInfo) {
	if !w.shared {
		return
	}
	name := op
	if info != nil {
		name = fmt.Sprintf("%s[%v]", op, info.typ)
	}
	panic(fmt.Sprintf("ecs: %s: not allowed in a parallel section; record structural changes in a Commands buffer and make handles beforehand", name))
}

// AccessKind says whether a checked access is to a component type or a
// resource.
type AccessKind uint8

const (
	ComponentAccess AccessKind = iota // a component type
	ResourceAccess                    // a resource type
	SpawnAccess                       // Commands.Spawn recorded (type nil)
	DespawnAccess                     // Commands.Despawn recorded: once with type nil, then once per component type the entity has
	AddAccess                         // a SetCmd of the type recorded (Map, Map2..Map12), or a relation AddCmd or SetCmd
	RemoveAccess                      // a RemoveCmd of the type recorded
)

// Structural reports whether k is one of the kinds a command buffer
// records: spawn, despawn, add or remove.
func (k AccessKind) Structural() bool { return k >= SpawnAccess }

// AccessChecker is told of the accesses made to a world while it is set
// with [ParallelControl.SetAccessChecker]: a scheduler's debug mode uses it
// to fail a system that touches a type it did not declare. Reported: query
// passes (each term, as a read), Get, TryGet and Has of Map and Map2..Map12
// (reads), Set of Map and Map2..Map12 (a write of each type), GetResource (a
// read), Get, TryGet and Has of a [Resource] handle (reads) and its Set and
// Remove (writes), the types a query pass's filters (With, Without, AnyOf,
// Optional) select on (reads), and every change recorded in a Commands
// buffer, as a write of the kind it is: [SpawnAccess], [DespawnAccess] (with
// every component type of the despawned entity and of the entities its
// despawn takes away with it through relations whose policy is
// [DespawnSources], as the world holds them when the despawn is recorded, so
// a checker can tell which types a despawn takes away), [AddAccess] and
// [RemoveAccess] (once per type for Map2..Map12). A relation's pairs are
// seen as accesses to the two component types [Relation.RelationTypes]
// returns ([RelationSide] tells them from others): its reads as reads,
// TryValue and Value as writes, its AddCmd and SetCmd as adds of both, its
// RemoveCmd and RemoveTargetsCmd as removes of the sources' type, and the
// pairs a despawn takes away as those types of the despawned entities. Not
// seen: writes through the pointers that passes, Get and GetResource hand
// out, HasResource and Alive. CheckAccess panics to reject an access.
type AccessChecker interface {
	CheckAccess(kind AccessKind, t reflect.Type, write bool, op string)
}

// SetAccessChecker makes c see every access that [AccessChecker] lists,
// until it is set to nil. Checking costs a call per access; without a
// checker it costs one test of a flag of the world's own, so a checker set
// on one world never slows another. Call it outside parallel sections.
// Complexity: O(component types x tables) to switch the checked paths on
// or off, nothing when the state does not change.
func (p ParallelControl) SetAccessChecker(c AccessChecker) {
	w := p.w
	w.checker = c
	if w.checked != (c != nil) {
		w.fillColumnSlots(c != nil)
	}
	w.checked = c != nil
}

// checkPass reports the terms of a query pass to the checker, and the
// types its filters select on: which entities a query visits depends on
// them, so a change to them must be ordered against the query like a write
// of a type it reads.
func (w *World) checkPass(c *queryCache) {
	for _, id := range c.terms {
		w.checker.CheckAccess(ComponentAccess, w.reg.infos[id].typ, false, "query")
	}
	for _, f := range c.filters {
		for _, ct := range f.types {
			// A MarksChanged filter writes its type (and marks it changed).
			w.checker.CheckAccess(ComponentAccess, ct.typ, f.kind == filterMarksChanged, "query filter")
		}
		if f.rel != nil { // To, ToVar: the target's list of sources and the sources' targets
			w.checker.CheckAccess(ComponentAccess, f.rel.out.info.typ, false, "query filter")
			w.checker.CheckAccess(ComponentAccess, f.rel.in.info.typ, false, "query filter")
		}
	}
}

// checkComponent reports an access to the type info describes.
func (w *World) checkComponent(info *componentInfo, write bool, op string) {
	w.checker.CheckAccess(ComponentAccess, info.typ, write, op)
}

// SetIsPlainWrite reports whether, at this moment, a Set of component type
// c (Map.Set, or a MapN's Set for that type) on a live entity that already
// has one would do nothing but store the value: no OnSet hook is
// registered for c, c does not track changes (TrackChanges: a Set marks
// it changed), no access checker is installed, and the world is neither
// inside an iteration nor in a parallel section (where a Set may be judged
// against, or queued behind, deferred changes). It reports false for a
// type the world has never met.
//
// It exists for batch writers, such as sched.Output's merge, that update
// many components at once: when it reports true, writing through the
// pointer [Map.TryGet] returns is equivalent to Set, without Set's
// per-call checks. The answer holds until a hook or an access checker is
// registered or an iteration or parallel section begins, so a caller must
// not run code that may do either (a hook, a Set of another type) between
// asking and writing. Complexity: one map lookup.
func (p ParallelControl) SetIsPlainWrite(c ComponentType) bool {
	w := p.w
	info := w.known(c)
	if info == nil {
		return false
	}
	h := info.hooks
	return w.lock == 0 && w.checker == nil && (h == nil || len(h.onSet) == 0) && !info.track
}
