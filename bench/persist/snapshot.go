package persist

import (
	"github.com/tessera-ecs/tessera/ecs"
)

// snapshotOf takes w's state into s: the Tessera side of the snapshot
// comparison.
//
//go:noinline
func snapshotOf(w *ecs.World, s *ecs.Snapshot) { w.Snapshot(s) }

// restoreOf puts s's state back into w.
//
//go:noinline
func restoreOf(w *ecs.World, s *ecs.Snapshot) { w.Restore(s) }

// copyColumns copies src into dst, which has src's lengths, with copy():
// the floor of the snapshot comparison, for a save (world to snapshot) and
// a restore (snapshot to world) alike.
//
//go:noinline
func copyColumns(dst, src *Columns) {
	copy(dst.Pos, src.Pos)
	copy(dst.Vel, src.Vel)
	copy(dst.Col, src.Col)
	copy(dst.Life, src.Life)
	copy(dst.Ents, src.Ents)
	copy(dst.Emit, src.Emit)
	copy(dst.EmitEnts, src.EmitEnts)
	copy(dst.Index, src.Index)
}

// snapshotComparison times Snapshot and Restore of the particle world with
// a warm snapshot (its buffers grown by one Snapshot before timing)
// against the copy floor.
func snapshotComparison(pw *particleWorld) *Comparison {
	src, dst := pw.cols, newColumnsLike(pw.cols)
	var s ecs.Snapshot
	pw.w.Snapshot(&s) // warm: the timed calls reuse these buffers
	size := src.Size()
	return &Comparison{
		Name: "snapshot",
		Doc: "World.Snapshot copies the world's whole state (entity index, free list, every table's entity handles and " +
			"columns, the sparse sets, the resources) into a Snapshot that already holds buffers of the right size; " +
			"World.Restore copies it back. Rollback netcode (GGPO, GGRS) saves once per tick and restores once per " +
			"misprediction, inside a 16.7 ms frame at 60 Hz. The floor copies the same data, held as plain slices " +
			"(the particle and emitter columns and handles, 12 bytes of index per entity), with copy() into " +
			"preallocated slices.",
		Entities: len(src.Ents) + len(src.Emit),
		Goal:     "within 1.5x of the floor and under 0.8 ms per save at 100,000 particles",
		Rows: []Row{
			{Name: "copy()", Kind: Floor, Bytes: size, What: "copy() of every column, handle and index slice into preallocated twins",
				Run: func() { copyColumns(dst, src) }},
			{Name: "World.Snapshot", Kind: Tessera, Bytes: size, What: "w.Snapshot(&s), s warm",
				Run: func() { snapshotOf(pw.w, &s) }},
			{Name: "World.Restore", Kind: Tessera, Bytes: size, What: "w.Restore(&s), s taken from w",
				Run: func() { restoreOf(pw.w, &s) }},
		},
	}
}
