package scenario

import (
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// PreyGrid is the predator-prey scenario's spatial index, a resource: the
// prey bucketed by square cells of a torus, rebuilt each tick by the grid
// system with a counting sort (two passes, no per-cell allocation), and
// read by the hunt system to find the prey near a predator by looking at
// the 3x3 cells around it.
type PreyGrid struct {
	Side  float32 // the torus is Side x Side
	Cell  float32 // a cell is Cell x Cell, at least the hunt radius
	Cols  int     //tessera:nondeterministic-ok cells per row and per column: Side/Cell, far below 2^31
	start []int32 // per cell: where its prey begin in prey; one more entry at the end
	prey  []gridPrey
	cell  []int32 // scratch: the cell of each prey, in query order
}

type gridPrey struct {
	e    ecs.Entity
	x, y float32
}

func newPreyGrid(side, minCell float32) *PreyGrid {
	cols := max(1, int(side/minCell))
	return &PreyGrid{Side: side, Cell: side / float32(cols), Cols: cols, start: make([]int32, cols*cols+1)}
}

// rebuild fills the grid from the prey's positions, visited in query
// order; within a cell, prey keep that order. The slices and the cell size
// are held in locals: through g, every store to them would reload them.
func (g *PreyGrid) rebuild(prey *ecs.Query1[Position]) {
	n := prey.Count()
	start := g.start
	clear(start)
	cells := slices.Grow(g.cell[:0], n)[:n]
	out := slices.Grow(g.prey[:0], n)[:n]
	size, cols := g.Cell, g.Cols
	// The body of a range over Chunks is a closure: a variable of this
	// function that it changes lives in memory, so each chunk takes its
	// own slice of cells instead of advancing a shared index.
	i := 0
	for c := range prey.Chunks() {
		at := cells[i : i+len(c.A)]
		for j, p := range c.A {
			k := min(int(p.Y/size), cols-1)*cols + min(int(p.X/size), cols-1)
			at[j] = int32(k)
			start[k+1]++
		}
		i += len(c.A)
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	i = 0
	for c := range prey.Chunks() {
		at := cells[i : i+len(c.A)]
		for j, p := range c.A {
			k := at[j]
			out[start[k]] = gridPrey{c.Entities[j], p.X, p.Y}
			start[k]++
		}
		i += len(c.A)
	}
	// Each start was advanced to the next cell's beginning: shift back.
	copy(start[1:], start[:len(start)-1])
	start[0] = 0
	g.cell, g.prey = cells, out
}

// nearest returns the prey nearest to (x, y) within radius, and whether
// there is one. Ties go to the prey met first, so the answer depends only
// on the grid's contents.
func (g *PreyGrid) nearest(x, y, radius float32) (ecs.Entity, bool) {
	cx, cy := min(int(x/g.Cell), g.Cols-1), min(int(y/g.Cell), g.Cols-1)
	best, bestD := ecs.Entity{}, radius*radius
	found := false
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			k := wrapCell(cy+dy, g.Cols)*g.Cols + wrapCell(cx+dx, g.Cols)
			for _, p := range g.prey[g.start[k]:g.start[k+1]] {
				ddx, ddy := torusDelta(p.x-x, g.Side), torusDelta(p.y-y, g.Side)
				if d := distSq(ddx, ddy); d < bestD || d == bestD && !found {
					best, bestD, found = p.e, d, true
				}
			}
		}
	}
	return best, found
}

// Len returns the number of prey in the grid.
func (g *PreyGrid) Len() int { return len(g.prey) }

func wrapCell(c, n int) int {
	switch {
	case c < 0:
		return c + n
	case c >= n:
		return c - n
	}
	return c
}

// torusDelta folds a coordinate difference into [-side/2, side/2].
func torusDelta(d, side float32) float32 {
	switch {
	case d > side/2:
		return d - side
	case d < -side/2:
		return d + side
	}
	return d
}

// wrap folds a coordinate that left [0, side) by less than side back in.
func wrap(v, side float32) float32 {
	switch {
	case v < 0:
		v += side
	case v >= side:
		v -= side
	}
	return min(max(v, 0), side*(1-1e-6)) // rounding must not land on side
}

// distSq returns dx² + dy², each square rounded before the add: written as
// dx*dx + dy*dy, arm64 fuses one square into the add and rounds once.
func distSq(dx, dy float32) float32 { return float32(dx*dx) + float32(dy*dy) }

// Clone returns a copy of g that shares no memory with it, so that
// snapshots and rollbacks can hold the grid (ecs.Snapshot calls it).
func (g PreyGrid) Clone() PreyGrid {
	g.start = append([]int32(nil), g.start...)
	g.prey = append([]gridPrey(nil), g.prey...)
	g.cell = append([]int32(nil), g.cell...)
	return g
}
