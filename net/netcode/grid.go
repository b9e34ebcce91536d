package netcode

import (
	"math"

	"github.com/tessera-ecs/tessera/ecs"
)

// Grid is a uniform spatial grid over the replicated entities with a
// position component P, rebuilt once a tick, and the relevancy "the
// entities near each client's focus" on top of it (the interest
// management of MMO servers; Unity's Netcode for Entities GhostRelevancy
// with a spatial query). Cells are square, of side cell, in P's units.
type Grid[P any] struct {
	cell   float32
	xy     func(*P) (x, y float32)
	q      *ecs.Query1[P]
	pos    *ecs.Map[P]
	cells  map[[2]int32][]ecs.Entity
	seen   map[ClientID][]uint64 // per client: the indices relevant last tick
	focus  func(c ClientID, w *ecs.World) (x, y float32, ok bool)
	radius float32
	margin float32
}

// NewGrid returns a grid of cell-sized squares over the entities with P
// and Replicated, placed by xy. Panics if cell is not positive.
func NewGrid[P any](cell float32, xy func(*P) (x, y float32)) *Grid[P] {
	if !(cell > 0) {
		panic("netcode: NewGrid: the cell size must be positive")
	}
	return &Grid[P]{cell: cell, xy: xy, cells: map[[2]int32][]ecs.Entity{}, seen: map[ClientID][]uint64{}}
}

// Around makes the grid a Relevancy: each client sees the entities within
// radius of its focus (a function of the client and the world, such as
// the position of the ship it owns; a client without a focus sees
// nothing), and keeps seeing one until it is farther than radius+margin,
// so an entity on the border does not enter and leave every tick. Returns
// g.
func (g *Grid[P]) Around(focus func(c ClientID, w *ecs.World) (x, y float32, ok bool), radius, margin float32) *Grid[P] {
	g.focus, g.radius, g.margin = focus, radius, max(margin, 0)
	return g
}

func (g *Grid[P]) key(x, y float32) [2]int32 {
	clamp := func(v float32) int32 {
		f := math.Floor(float64(v / g.cell))
		return int32(max(min(f, math.MaxInt32), math.MinInt32))
	}
	return [2]int32{clamp(x), clamp(y)}
}

// Prepare rebuilds the grid from w: O(entities with P). The server calls
// it once per Update, before asking any client's relevancy.
func (g *Grid[P]) Prepare(w *ecs.World) {
	if g.q == nil {
		g.q = ecs.NewQuery1[P](w, ecs.With(ecs.C[Replicated]()))
		g.pos = ecs.NewMap[P](w)
	}
	for k, es := range g.cells {
		g.cells[k] = es[:0]
	}
	for ch := range g.q.Chunks() {
		for i := range ch.A {
			x, y := g.xy(&ch.A[i])
			k := g.key(x, y)
			g.cells[k] = append(g.cells[k], ch.Entities[i])
		}
	}
}

// Near appends to dst the entities of the cells within r of (x, y) for
// which within, given the entity and its squared distance, is true; the
// grid as of the last Prepare. O(cells covered + entities in them).
func (g *Grid[P]) Near(x, y, r float32, dst []ecs.Entity, within func(e ecs.Entity, d2 float32) bool) []ecs.Entity {
	if g.pos == nil {
		return dst
	}
	lo, hi := g.key(x-r, y-r), g.key(x+r, y+r)
	pos := g.pos
	for cx := lo[0]; cx <= hi[0]; cx++ {
		for cy := lo[1]; cy <= hi[1]; cy++ {
			for _, e := range g.cells[[2]int32{cx, cy}] {
				p, ok := pos.TryGet(e)
				if !ok {
					continue
				}
				ex, ey := g.xy(p)
				dx, dy := ex-x, ey-y
				if d2 := float32(dx*dx) + float32(dy*dy); within(e, d2) {
					dst = append(dst, e)
				}
			}
			if cy == math.MaxInt32 {
				break
			}
		}
		if cx == math.MaxInt32 {
			break
		}
	}
	return dst
}

// Relevant implements Relevancy (see Around).
func (g *Grid[P]) Relevant(c ClientID, w *ecs.World, dst []ecs.Entity) []ecs.Entity {
	if g.focus == nil {
		return dst
	}
	x, y, ok := g.focus(c, w)
	prev := g.seen[c]
	if !ok {
		clear(prev)
		return dst
	}
	dst, g.seen[c] = g.Sees(x, y, g.radius, g.margin, prev, dst)
	return dst
}

// Sees appends to dst the entities within radius of (x, y), and those
// within radius+margin that seen (a bitset by entity index: what the
// caller saw last time) holds, so that an entity on the border does not
// enter and leave every tick; it returns dst and seen rewritten to what it
// appended. Around's clients go through it; a Relevancy whose clients each
// pick their own focus and radius can call it with a seen per client.
// The grid as of the last Prepare. O(cells covered + entities in them).
func (g *Grid[P]) Sees(x, y, radius, margin float32, seen []uint64, dst []ecs.Entity) ([]ecs.Entity, []uint64) {
	outer := radius + max(margin, 0)
	r2, o2 := radius*radius, outer*outer
	start := len(dst)
	dst = g.Near(x, y, outer, dst, func(e ecs.Entity, d2 float32) bool {
		if d2 <= r2 {
			return true
		}
		idx := int(e.Index())
		return d2 <= o2 && idx>>6 < len(seen) && seen[idx>>6]&(1<<(idx&63)) != 0
	})
	clear(seen)
	for _, e := range dst[start:] {
		idx := int(e.Index())
		if w := idx>>6 + 1; w > len(seen) {
			seen = append(seen, make([]uint64, w-len(seen))...)
		}
		seen[idx>>6] |= 1 << (idx & 63)
	}
	return dst, seen
}

// Forget drops what the grid remembers of client c (call it when c
// leaves, or let the server do it through Relevancy).
func (g *Grid[P]) Forget(c ClientID) { delete(g.seen, c) }
