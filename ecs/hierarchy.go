package ecs

import (
	"fmt"
	"iter"
)

// ChildOf is the pair type of the built-in hierarchy: the pair (child,
// parent). Declared through [NewHierarchy] (or NewRelation[ChildOf]), it is
// exclusive (one parent), [Acyclic] (an entity cannot become its own
// ancestor) and [DespawnSources] (despawning a parent despawns its
// subtree, children first), as Bevy's ChildOf and flecs' ChildOf are.
type ChildOf struct{}

// Hierarchy is a handle on a world's tree of entities: the [ChildOf]
// relation with the walks a scene graph needs. Children are kept in the
// order they were attached; every walk is deterministic and iterative, so
// trees of any depth work.
type Hierarchy struct {
	rel *Relation[ChildOf]
	// Cascade's depths, by entity index, valid under stamp, and its walk
	// up buffer.
	memo  []depthMemo
	stamp uint32
	path  []Entity
}

// NewHierarchy returns the hierarchy of w, declaring [ChildOf] on first
// use. Panics inside a parallel section.
func NewHierarchy(w *World) *Hierarchy { return &Hierarchy{rel: NewRelation[ChildOf](w)} }

// Relation returns the ChildOf relation under the hierarchy, for the
// operations of [Relation].
func (h *Hierarchy) Relation() *Relation[ChildOf] { return h.rel }

// SetParent makes parent the parent of child, detaching it from its old
// parent if it had one (reparenting). Panics when either entity is not
// alive, when parent is child or one of its descendants (a cycle), and
// inside a parallel section; deferred inside iterations like other
// changes. O(depth of parent + children of the old parent).
func (h *Hierarchy) SetParent(child, parent Entity) { h.rel.Set(child, parent, ChildOf{}) }

// RemoveParent detaches child from its parent, making it a root; it does
// nothing for a root. Panics when child is not alive.
func (h *Hierarchy) RemoveParent(child Entity) { h.rel.RemoveTargets(child) }

// Parent returns e's parent and true, or the zero Entity and false for a
// root. Panics when e is not alive. O(1).
func (h *Hierarchy) Parent(e Entity) (Entity, bool) { return h.rel.Target(e) }

// Children returns e's children in the order they were attached, in a new
// slice. Panics when e is not alive. O(children).
func (h *Hierarchy) Children(e Entity) []Entity { return h.rel.Sources(e) }

// AppendChildren appends e's children to dst and returns it.
func (h *Hierarchy) AppendChildren(dst []Entity, e Entity) []Entity {
	return h.rel.AppendSources(dst, e)
}

// NumChildren returns the number of e's children. O(1).
func (h *Hierarchy) NumChildren(e Entity) int { return h.rel.NumSources(e) }

// Root returns the root of e's tree: e itself when it has no parent.
// Panics when e is not alive. O(depth).
func (h *Hierarchy) Root(e Entity) Entity {
	h.rel.r.w.checkSource(h.rel.r, "Root", e)
	h.rel.r.read(h.rel.r.out, false, "Root")
	start := e
	for n := 0; ; n++ {
		p, ok := h.parentOf(e)
		if !ok {
			return e
		}
		h.mustNotLoop(n, "Root", start)
		e = p
	}
}

// Depth returns the number of e's ancestors: 0 for a root. O(depth).
func (h *Hierarchy) Depth(e Entity) int {
	h.rel.r.w.checkSource(h.rel.r, "Depth", e)
	h.rel.r.read(h.rel.r.out, false, "Depth")
	start, n := e, 0
	for {
		p, ok := h.parentOf(e)
		if !ok {
			return n
		}
		h.mustNotLoop(n, "Depth", start)
		e, n = p, n+1
	}
}

// Ancestors yields e's parent, its parent's parent, and so on up to the
// root. Panics when e is not alive. O(depth).
func (h *Hierarchy) Ancestors(e Entity) iter.Seq[Entity] {
	h.rel.r.w.checkSource(h.rel.r, "Ancestors", e)
	h.rel.r.read(h.rel.r.out, false, "Ancestors")
	return func(yield func(Entity) bool) {
		x := e // each range over the sequence starts from e again
		for n := 0; ; n++ {
			p, ok := h.parentOf(x)
			if !ok || !yield(p) {
				return
			}
			h.mustNotLoop(n, "Ancestors", e)
			x = p
		}
	}
}

// Descendants yields every entity below e, depth first, each before its
// children and children in the order they were attached (pre-order). It
// walks with an explicit stack, so any depth works, and reads each
// node's children when it reaches it: changes to the tree during the walk
// are seen from then on. Panics when e is not alive. O(subtree).
func (h *Hierarchy) Descendants(e Entity) iter.Seq[Entity] {
	r := h.rel.r
	r.w.checkSource(r, "Descendants", e)
	r.read(r.in, false, "Descendants")
	return func(yield func(Entity) bool) {
		stack := pushReversed(nil, r.sources(e))
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !r.w.Alive(x) {
				continue // despawned by the loop's body
			}
			if !yield(x) {
				return
			}
			stack = pushReversed(stack, r.sources(x))
		}
	}
}

// pushReversed appends es to stack last first, so popping gives them in
// order.
func pushReversed(stack, es []Entity) []Entity {
	for i := len(es) - 1; i >= 0; i-- {
		stack = append(stack, es[i])
	}
	return stack
}

// parentOf returns e's parent without checks.
func (h *Hierarchy) parentOf(e Entity) (Entity, bool) {
	if ts := h.rel.r.targets(e); len(ts) > 0 {
		return ts[0], true
	}
	return Entity{}, false
}

// mustNotLoop panics when a walk up from e has taken more steps than the
// hierarchy has children: the parents form a cycle, which only a world
// changed behind the relation's back could hold.
func (h *Hierarchy) mustNotLoop(steps int, op string, e Entity) {
	if steps > len(h.rel.r.out.dense) {
		panic(fmt.Sprintf("ecs: Hierarchy.%s: the parents above %v form a cycle", op, e))
	}
}
