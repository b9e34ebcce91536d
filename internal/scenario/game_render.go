package scenario

import (
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// frameBands is the number of horizontal bands the parallel render cuts
// the frame into: a band is the unit of the second pass.
const frameBands = 16

// bandRows is the number of frame lines in a band.
const bandRows = (FrameHeight + frameBands - 1) / frameBands

// renderer draws the game's frame on every worker, with the frame the
// serial loop would draw: every cell holds the character of the last
// entity, in iteration order, whose position falls in it (so a run gives
// the same frame, and checksum, with any number of workers). It works in
// two passes, both data-parallel:
//
//  1. per chunk of the query, in any order: each row that falls in the
//     frame becomes a mark (its line, column and character), appended to
//     the chunk's list for its band, in row order;
//  2. per band, in any order: the band's lines are cleared, then the
//     chunks' marks for the band are written in chunk order.
//
// A cell lies in one band, and its band replays the marks in iteration
// order, so the last writer of each cell is the serial loop's. This is
// the binning step of a tiled rasteriser (sort by screen tile, then draw
// each tile alone), with entities for triangles.
type renderer struct {
	chunks []ecs.Chunk2[GamePosition, Sprite]
	marks  [][frameBands][]uint32 // per chunk and band: line<<17 | column<<8 | character
	items  []int                  // 0, 1, 2, ...: the items of both passes
}

// draw renders q's rows into f.
func (r *renderer) draw(ctx *sched.Context, q *ecs.Query2[GamePosition, Sprite], f *Frame) {
	r.chunks = q.AppendChunks(r.chunks[:0], chunkRows)
	for len(r.marks) < len(r.chunks) {
		r.marks = append(r.marks, [frameBands][]uint32{})
	}
	for len(r.items) < max(len(r.chunks), frameBands) {
		r.items = append(r.items, len(r.items))
	}
	sched.ForEach(ctx, r.items[:len(r.chunks)], r.bin)
	sched.ForEach(ctx, r.items[:frameBands], func(b int) { r.paint(f, b) })
}

// bin is the first pass for chunk k: it sorts the chunk's rows that fall
// in the frame into their bands.
func (r *renderer) bin(k int) {
	c, bands := r.chunks[k], &r.marks[k]
	for b := range bands {
		bands[b] = bands[b][:0]
	}
	ss := c.B[:len(c.A)]
	for i, p := range c.A {
		x, y := int(p.X), int(p.Y)
		if p.X >= 0 && p.Y >= 0 && x < FrameWidth && y < FrameHeight {
			b := y / bandRows
			bands[b] = append(bands[b], uint32(y)<<17|uint32(x)<<8|uint32(ss[i].Char))
		}
	}
}

// paint is the second pass for band b: it clears the band's lines and
// writes every chunk's marks for the band, in chunk order.
func (r *renderer) paint(f *Frame, b int) {
	lines := f[b*bandRows : min((b+1)*bandRows, FrameHeight)]
	for y := range lines {
		for x := range lines[y] {
			lines[y][x] = ' '
		}
	}
	for k := range r.chunks {
		for _, m := range r.marks[k][b] {
			f[m>>17][m>>8&0x1ff] = byte(m)
		}
	}
}
