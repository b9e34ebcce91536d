package ecs

import "fmt"

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
	// One visit per entity needs a set only when an entity can be reached
	// twice: through two cascading relations, a Multi one or one that may
	// hold a cycle. The hierarchy alone needs none.
	cascades, multi, refuse := 0, false, false
	for _, r := range w.relations {
		switch r.policy {
		case DespawnSources:
			cascades++
			multi = multi || !r.exclusive || !r.acyclic // a cycle reaches an entity twice too
		case RefuseDespawn:
			refuse = true
		}
	}
	var seen map[Entity]bool
	if cascades > 1 || multi || refuse {
		seen = map[Entity]bool{e: true}
	}
	// The walk's buffers are the world's, reused: the hooks that run
	// below cannot start another walk before this one is done (their
	// despawns wait for the unlock at the end).
	stack := append(w.treeStack[:0], treeFrame{e: e})
	order := w.treeOrder[:0]
	defer func() { w.treeStack, w.treeOrder = stack[:0], order[:0] }()
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
				if seen != nil {
					if seen[s] {
						continue
					}
					seen[s] = true
				}
				stack = append(stack, treeFrame{e: s})
			}
		}
		if len(order)+len(stack) > w.entities.alive {
			panic(fmt.Sprintf("ecs: Despawn: the relations below %v hold a cycle (loaded from a file?); remove a pair of it first", e))
		}
	}
	if refuse {
		for _, x := range order {
			for _, r := range w.relations {
				if r.policy != RefuseDespawn {
					continue
				}
				for _, s := range r.sources(x) {
					if !seen[s] && !w.batchDying[s] {
						panic(fmt.Sprintf("ecs: Despawn: entity %v is the target of %v through %s, whose policy is RefuseDespawn; remove the pair or despawn the source first", x, s, r.name()))
					}
				}
			}
		}
	}
	// The hooks of the cascade's entities run with the world locked: the
	// changes they make wait for the end of the cascade, as they would if
	// the despawn had been deferred, so both give the same world.
	w.lock++
	defer w.unlock()
	for _, x := range order {
		// A hook of an entity despawned before may have despawned x.
		if r := w.entities.lookup(x); r != nil {
			w.despawnOne(x, r)
		}
	}
}

// treeFrame is an entity on despawnTree's stack, and whether its sources
// have been pushed above it.
type treeFrame struct {
	e        Entity
	expanded bool
}

// despawnWalk holds what despawn cascades through relations use (part of
// World): DespawnMatching's entities and despawnTree's reused buffers.
type despawnWalk struct {
	batchDying map[Entity]bool // DespawnMatching's entities, for RefuseDespawn
	treeStack  []treeFrame     // despawnTree's buffers, reused
	treeOrder  []Entity
}

// unlinkRelations removes e's pairs before e is despawned: as a source,
// from its targets' lists; as a target, the pairs of its sources (under
// DespawnSources the cascade has despawned them already, and under
// RefuseDespawn they are being despawned with e).
func (w *World) unlinkRelations(e Entity) {
	for _, r := range w.relations {
		r.dropAll(e)
		for {
			srcs := r.sources(e)
			if len(srcs) == 0 {
				break
			}
			s := srcs[len(srcs)-1]
			r.dropPair(s, e)
			r.place(s)
		}
	}
}
