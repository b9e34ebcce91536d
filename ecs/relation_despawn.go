package ecs

import (
	"fmt"
	"slices"
)

// guardsSources reports whether despawning e must look beyond e: it is the
// target of pairs of a relation whose policy is DespawnSources or
// RefuseDespawn.
func (w *World) guardsSources(e Entity) bool {
	for _, r := range w.relations {
		if r.policy != RemovePairs && r.in.has(e) {
			return true
		}
	}
	return false
}

// despawnTree despawns e and, through the relations with DespawnSources,
// every entity below it, children before parents: a depth-first walk with
// an explicit stack (no recursion, so trees of any depth), each node's
// sources taken in reverse order of their pairs, last first. Before
// anything changes it panics if a relation with RefuseDespawn has a
// target among them with a source outside them.
func (w *World) despawnTree(e Entity) {
	type frame struct {
		e        Entity
		expanded bool
	}
	seen := map[Entity]bool{e: true}
	stack := []frame{{e: e}}
	var order []Entity
	for len(stack) > 0 {
		top := len(stack) - 1
		if stack[top].expanded {
			order = append(order, stack[top].e)
			stack = stack[:top]
			continue
		}
		stack[top].expanded = true
		x := stack[top].e
		for _, r := range w.relations {
			if r.policy != DespawnSources {
				continue
			}
			for _, s := range r.sources(x) {
				if !seen[s] {
					seen[s] = true
					stack = append(stack, frame{e: s})
				}
			}
		}
	}
	for _, x := range order {
		for _, r := range w.relations {
			if r.policy != RefuseDespawn {
				continue
			}
			for _, s := range r.sources(x) {
				if !seen[s] {
					panic(fmt.Sprintf("ecs: Despawn: entity %v is the target of %v through %s, whose policy is RefuseDespawn; remove the pair or despawn the source first", x, s, r.name()))
				}
			}
		}
	}
	for _, x := range order {
		// A hook of an entity despawned before may have despawned x.
		if r := w.entities.lookup(x); r != nil {
			w.despawnOne(x, r)
		}
	}
}

// unlinkRelations removes e's pairs before e is despawned: as a source
// from its targets' lists; as a target, by its relations' policies. A
// source still there when its target goes under DespawnSources (a hook
// added it after despawnTree's walk) is despawned first, children before
// parents still; under RefuseDespawn (the same late case) its pair is
// removed.
func (w *World) unlinkRelations(e Entity) {
	var late []Entity
	for _, r := range w.relations {
		r.dropAll(e)
		srcs := r.sources(e)
		if len(srcs) == 0 {
			continue
		}
		srcs = slices.Clone(srcs)
		if r.policy == DespawnSources {
			late = append(late, srcs...)
			continue
		}
		for i := len(srcs) - 1; i >= 0; i-- {
			r.dropPair(srcs[i], e)
		}
	}
	for _, s := range late {
		if r := w.entities.lookup(s); r != nil {
			w.despawn(s, r)
		}
	}
	for _, r := range w.relations {
		for _, s := range slices.Clone(r.sources(e)) {
			r.dropPair(s, e) // sources a late despawn's hooks added back
		}
	}
}
