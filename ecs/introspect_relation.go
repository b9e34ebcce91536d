package ecs

import (
	"iter"
	"reflect"
	"slices"
)

// RelationInfo describes one relation a world declares ([NewRelation],
// [NewHierarchy]), for tools such as the inspector (package inspect) that
// do not know the pair types at compile time.
type RelationInfo struct {
	// Name is the pair type's stable name, as save files spell it:
	// package path and type name, such as
	// "github.com/tessera-ecs/tessera/ecs.ChildOf".
	Name            string
	GoType          reflect.Type  // the pair type T of Relation[T]
	Exclusive       bool          // one target per source (not Multi)
	Acyclic         bool          // refuses pairs that close a cycle
	SplitByTarget   bool          // sources also stored in tables per target
	OnTargetDespawn CleanupPolicy // what despawning a target does
	Sources         int           // entities that are the source of at least one pair
	Targets         int           // entities that are the target of at least one pair
}

// PairInfo is one pair of a relation, as [Reflection.PairsOf] and
// [Reflection.PairsTo] yield it.
type PairInfo struct {
	Relation reflect.Type // the pair type T of Relation[T], as RelationInfo.GoType
	Source   Entity
	Target   Entity
	// Value is a copy of the pair's value, boxed in an any whose dynamic
	// type is Relation (an empty struct for a plain link such as ChildOf).
	Value any
}

// Relations describes every relation the world declares, in declaration
// order. Meant for tools: it allocates the slice. Complexity:
// O(relations).
func (x Reflection) Relations() []RelationInfo {
	out := make([]RelationInfo, 0, len(x.w.relations))
	for _, r := range x.w.relations {
		name := typeName(r.typ)
		if pair, _, ok := savedRelation(r.out.info.name); ok {
			name = pair
		}
		out = append(out, RelationInfo{
			Name: name, GoType: r.typ, Exclusive: r.exclusive, Acyclic: r.acyclic,
			SplitByTarget: r.split, OnTargetDespawn: r.policy,
			Sources: r.out.len(), Targets: r.in.len(),
		})
	}
	return out
}

// relationsFor returns the relation of pair type pair, or every
// relation when pair is nil; none for a type the world has not
// declared as a relation.
func (x Reflection) relationsFor(pair reflect.Type) []*relation {
	if pair == nil {
		return x.w.relations
	}
	if r := x.w.relationOf[pair]; r != nil {
		return []*relation{r}
	}
	return nil
}

// NumPairs returns how many pairs e is the source of and how many it is
// the target of, along the relation of pair type relation, or along every
// relation when relation is nil (a type that is not a declared relation
// counts none). Panics, naming e, when e is not alive. Complexity:
// O(relations), no allocation.
func (x Reflection) NumPairs(e Entity, relation reflect.Type) (asSource, asTarget int) {
	w := x.w
	if w.entities.lookup(e) == nil {
		panic(w.deadMessage("Reflection.NumPairs", e, nil))
	}
	for _, r := range x.relationsFor(relation) {
		asSource += len(r.targets(e))
		asTarget += len(r.sources(e))
	}
	return asSource, asTarget
}

// PairsOf yields the pairs e is the source of, along the relation of pair
// type relation, or along every relation (in declaration order) when
// relation is nil; each relation's pairs come in the order their targets
// were added. A type that is not a declared relation yields nothing. The
// world is locked for the loop, as in a query loop: structural and
// relation changes made in the loop body wait until it ends. Panics,
// naming e, when e is not alive at the call; an e despawned before the
// loop starts yields nothing. Complexity: O(relations) plus O(1) and one
// boxed copy per pair yielded.
func (x Reflection) PairsOf(e Entity, relation reflect.Type) iter.Seq[PairInfo] {
	w := x.w
	if w.entities.lookup(e) == nil {
		panic(w.deadMessage("Reflection.PairsOf", e, nil))
	}
	rels := x.relationsFor(relation)
	return func(yield func(PairInfo) bool) {
		if !w.Alive(e) {
			return
		}
		defer w.unlockPass(w.lockPass(nil))
		for _, r := range rels {
			for i, t := range r.targets(e) {
				if !yield(PairInfo{Relation: r.typ, Source: e, Target: t, Value: r.pairValue(e, i)}) {
					return
				}
			}
		}
	}
}

// PairsTo yields the pairs t is the target of, along the relation of pair
// type relation, or along every relation (in declaration order) when
// relation is nil; each relation's pairs come in the order they were
// made (for [ChildOf]: t's children in the order they were attached). A
// type that is not a declared relation yields nothing. The world is
// locked for the loop as for [Reflection.PairsOf]. Panics, naming t, when
// t is not alive at the call; a t despawned before the loop starts yields
// nothing. Complexity: O(relations) plus, per pair yielded, one boxed
// copy and O(1) for an exclusive relation or O(targets of the source) for
// a Multi one (to find the pair's value).
func (x Reflection) PairsTo(t Entity, relation reflect.Type) iter.Seq[PairInfo] {
	w := x.w
	if w.entities.lookup(t) == nil {
		panic(w.deadMessage("Reflection.PairsTo", t, nil))
	}
	rels := x.relationsFor(relation)
	return func(yield func(PairInfo) bool) {
		if !w.Alive(t) {
			return
		}
		defer w.unlockPass(w.lockPass(nil))
		for _, r := range rels {
			for _, s := range r.sources(t) {
				i := slices.Index(r.targets(s), t)
				if i < 0 {
					continue // the two sides disagree: only a world changed behind the relation's back
				}
				if !yield(PairInfo{Relation: r.typ, Source: s, Target: t, Value: r.pairValue(s, i)}) {
					return
				}
			}
		}
	}
}

// RelationRoots yields the roots of the relation of pair type relation:
// the entities that are the target of at least one of its pairs and the
// source of none, in the order of their entity index. For [ChildOf] these
// are the tops of the hierarchy's trees (entities with children and no
// parent; an entity with neither is in no tree and is not yielded). A
// type that is not a declared relation yields nothing. The world is
// locked for the loop as for [Reflection.PairsOf]. Complexity: O(highest
// entity index) at worst (the target side's sparse pages, 1,024 indices
// each, are walked slot by slot; pages no target lies in are skipped),
// no allocation: a tool
// that pages through the roots skips and takes from the sequence.
func (x Reflection) RelationRoots(relation reflect.Type) iter.Seq[Entity] {
	w := x.w
	r := w.relationOf[relation]
	return func(yield func(Entity) bool) {
		if r == nil {
			return
		}
		defer w.unlockPass(w.lockPass(nil))
		in := r.in
		for p, page := range in.pages {
			if page == nil {
				continue
			}
			for j, slot := range page.slot[:] {
				if slot == 0 || int(slot) > len(in.dense) {
					continue
				}
				t := in.dense[slot-1]
				if t.index != uint32(p)<<sparsePageBits|uint32(j) {
					continue // a stale slot: not t's own
				}
				if !r.out.has(t) && !yield(t) {
					return
				}
			}
		}
	}
}

// pairValue returns a boxed copy of the value of the i-th pair of source
// e, which has at least i+1 targets.
func (r *relation) pairValue(e Entity, i int) any {
	v := reflect.NewAt(r.out.info.typ, r.out.get(e)).Elem().Field(1) // relOne.Value or relMany.Values
	if !r.exclusive {
		v = v.Index(i)
	}
	return v.Interface()
}
