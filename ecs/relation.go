package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// CleanupPolicy says what happens to the pairs of a relation whose target
// is despawned (flecs' OnDeleteTarget cleanup traits).
type CleanupPolicy uint8

const (
	// RemovePairs removes every pair that has the despawned entity as its
	// target; the sources live on. The default, except for [ChildOf].
	RemovePairs CleanupPolicy = iota
	// DespawnSources despawns the sources too, and theirs in turn: the
	// whole tree below the target goes, children before parents. The
	// default for [ChildOf].
	DespawnSources
	// RefuseDespawn makes despawning a target that still has sources
	// panic, naming both, before anything changes: the sources must be
	// moved or despawned first.
	RefuseDespawn
)

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

// RelationOption configures a relation at [NewRelation].
type RelationOption func(*relationOptions)

type relationOptions struct {
	multi     bool
	acyclic   bool
	policy    CleanupPolicy
	policySet bool
	split     bool
}

// Multi lets each source have any number of targets (many-to-many: items
// in several inventories, units in several groups); without it a relation
// is exclusive, one target per source (a parent, the target a unit
// follows), and Set replaces the target.
func Multi() RelationOption { return func(o *relationOptions) { o.multi = true } }

// Acyclic refuses, with a panic naming both entities, a pair that would
// close a cycle (an entity its own ancestor). Exclusive relations only: the
// check walks the chain of targets, O(depth). [ChildOf] is acyclic.
func Acyclic() RelationOption { return func(o *relationOptions) { o.acyclic = true } }

// OnTargetDespawn sets what despawning a target does to its pairs.
func OnTargetDespawn(p CleanupPolicy) RelationOption {
	return func(o *relationOptions) { o.policy, o.policySet = p, true }
}

// relation is the untyped core of a Relation: what despawn cleanup and
// the hierarchy need without knowing the pair value's type.
type relation struct {
	w         *World
	typ       reflect.Type // the pair value's type
	exclusive bool
	acyclic   bool
	policy    CleanupPolicy
	index     int // in w.relations
	// split is set by SplitByTarget: sources live in tables per target,
	// and splitTables lists each target's tables, in creation order.
	split       bool
	splitTables map[Entity][]*table
	out         *sparseSet // relOne[T] or relMany[T], on sources
	in          *sparseSet // relIn[T], on targets
	// dropAt removes pair i of a relMany value at p (Multi only).
	dropAt func(p unsafe.Pointer, i int)
	// onAdd and onRemove are the pair hooks (see Relation.OnAdd).
	onAdd, onRemove []func(source, target Entity)
}

// relationState is the world's relations (part of World).
type relationState struct {
	relations  []*relation // in declaration order (NewRelation)
	relationOf map[reflect.Type]*relation
}

// name is the relation's name in messages: Relation[main.Likes].
func (r *relation) name() string { return fmt.Sprintf("Relation[%v]", r.typ) }

// targets returns e's targets, in a slice that aliases the sparse set's
// value: valid until the relation changes.
func (r *relation) targets(e Entity) []Entity {
	p := r.out.get(e)
	if p == nil {
		return nil
	}
	if r.exclusive {
		// SAFETY: p points to a relOne[T], whose first field is an Entity.
		return unsafe.Slice((*Entity)(p), 1)
	}
	// SAFETY: p points to a relMany[T], whose first field is a []Entity.
	return *(*[]Entity)(p)
}

// sources returns t's sources, aliased as targets' result is.
func (r *relation) sources(t Entity) []Entity {
	p := r.in.get(t)
	if p == nil {
		return nil
	}
	// SAFETY: p points to a relIn[T], whose one field is a []Entity.
	return *(*[]Entity)(p)
}

// addSource records e among t's sources.
func (r *relation) addSource(t, e Entity) {
	p, added := r.in.insert(t)
	// SAFETY: p points to t's relIn[T] (zero or stale when just added).
	s := (*[]Entity)(p)
	if added {
		*s = []Entity{e}
		return
	}
	*s = append(*s, e)
}

// dropSource removes e from t's sources, and t's relIn when none is left.
func (r *relation) dropSource(t, e Entity) {
	p := r.in.get(t)
	if p == nil {
		return
	}
	// SAFETY: as in addSource.
	s := (*[]Entity)(p)
	if len(*s) > 0 && (*s)[0] == e {
		// The first source: drop it by reslicing, O(1), so a batch that
		// despawns a target's sources in the order they were linked
		// (DespawnMatching over them) is linear, not quadratic. The slot
		// left before the list holds no pointer and goes at the next
		// growth.
		*s = (*s)[1:]
	} else if i := lastIndex(*s, e); i >= 0 {
		*s = slices.Delete(*s, i, i+1)
	}
	if len(*s) == 0 {
		r.in.remove(t)
	}
}

// dropPair removes the pair (e, t) from e's side and t's; it reports
// whether there was one.
func (r *relation) dropPair(e, t Entity) bool {
	p := r.out.get(e)
	if p == nil {
		return false
	}
	if r.exclusive {
		// SAFETY: p points to a relOne[T].
		if *(*Entity)(p) != t {
			return false
		}
		r.out.remove(e)
	} else {
		// SAFETY: p points to a relMany[T].
		i := slices.Index(*(*[]Entity)(p), t)
		if i < 0 {
			return false
		}
		r.dropAt(p, i)
		if len(*(*[]Entity)(p)) == 0 {
			r.out.remove(e)
		}
	}
	r.dropSource(t, e)
	r.w.touch(e)
	r.removed(e, t)
	return true
}

// dropAll removes every pair of e as a source.
func (r *relation) dropAll(e Entity) {
	ts := r.targets(e)
	if len(ts) == 0 {
		return
	}
	for _, t := range ts { // ts is e's own value: dropSource edits the targets' side only
		r.dropSource(t, e)
		r.removed(e, t)
	}
	r.out.remove(e)
}

// wouldCycle reports whether making t the target of e closes a cycle: e
// is t or one of t's ancestors along the relation (exclusive only). O(1)
// when e has no sources (a leaf, the usual case when a tree is built),
// O(depth of t) otherwise.
func (r *relation) wouldCycle(e, t Entity) bool {
	if e != t && !r.in.has(e) {
		return false // e has no sources: it is nobody's ancestor
	}
	// A chain longer than the relation has sources is a cycle already
	// there (a loaded file may hold one): refuse rather than loop.
	for x, n := t, 0; ; n++ {
		if x == e || n > len(r.out.dense) {
			return true
		}
		p := r.out.get(x)
		if p == nil {
			return false
		}
		// SAFETY: p points to a relOne[T].
		x = *(*Entity)(p)
	}
}

// lastIndex is slices.Index from the end: a despawned tree leaves its
// parents' lists from the last source back, so each removal is O(1).
func lastIndex(s []Entity, e Entity) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == e {
			return i
		}
	}
	return -1
}
