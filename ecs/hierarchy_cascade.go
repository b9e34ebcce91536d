package ecs

import "iter"

// Cascade yields the entities q matches parents first: ordered by their
// depth in the hierarchy (roots, then their children, and so on), and
// within one depth in q's own iteration order, so the order is the same
// on every run and with any number of workers (flecs' cascade query
// modifier). Transform propagation reads each entity's parent's world
// transform, which the order has already computed. An entity whose parent
// q does not match keeps its own depth: its ancestors are counted whether
// q matches them or not.
//
// The order is worked out when the range begins, then the entities are
// yielded one by one, each checked alive first: the loop body may make any
// change, structural ones included, which take effect at once (the
// entities spawned by the body are not visited). Panics when q belongs to
// another world. Complexity: O(matched entities + their ancestors not
// matched), three allocations per range: the order, the depths and the
// depth counts.
func (h *Hierarchy) Cascade(q Matcher) iter.Seq[Entity] {
	r := h.rel.r
	w := r.w
	c := w.ownCache("Hierarchy.Cascade", q)
	return func(yield func(Entity) bool) {
		r.read(r.out, false, "Cascade")
		es := w.matchedEntities(c) // the world's buffer: read before any yield
		depth := make([]int32, len(es))
		deepest := int32(0)
		if h.stamp++; h.stamp == 0 { // wrapped: old stamps could match
			clear(h.memo)
			h.stamp = 1
		}
		for i, e := range es {
			depth[i] = h.depthOf(e)
			deepest = max(deepest, depth[i])
		}
		// A counting sort by depth keeps q's order within each depth.
		starts := make([]int, deepest+2)
		for _, d := range depth {
			starts[d+1]++
		}
		for d := 1; d < len(starts); d++ {
			starts[d] += starts[d-1]
		}
		order := make([]Entity, len(es))
		for i, e := range es {
			order[starts[depth[i]]] = e
			starts[depth[i]]++
		}
		for _, e := range order {
			if w.Alive(e) && !yield(e) {
				return
			}
		}
	}
}

// depthOf returns e's depth, remembering it, and that of each ancestor it
// walks through, under the current stamp: each entity's parent chain is
// walked once per Cascade range.
func (h *Hierarchy) depthOf(e Entity) int32 {
	path := h.path[:0]
	x := e
	var d int32
	for {
		if int(x.index) < len(h.memo) && h.memo[x.index].stamp == h.stamp {
			d = h.memo[x.index].depth
			break
		}
		path = append(path, x)
		p, ok := h.parentOf(x)
		if !ok {
			d = -1 // x is a root: depth 0, counted below
			break
		}
		h.mustNotLoop(len(path), "Cascade", e)
		x = p
	}
	for i := len(path) - 1; i >= 0; i-- {
		d++
		idx := path[i].index
		for int(idx) >= len(h.memo) {
			h.memo = append(h.memo, depthMemo{})
		}
		h.memo[idx] = depthMemo{h.stamp, d}
	}
	h.path = path
	return d
}

// depthMemo is a remembered depth, valid under its stamp.
type depthMemo struct {
	stamp uint32
	depth int32
}
