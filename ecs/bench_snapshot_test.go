package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// particleWorld builds the demo's particle scenario with n particles (on
// one worker; the benchmark never ticks it).
func particleWorld(b *testing.B, n int) (*ecs.World, func()) {
	p, err := scenario.NewParticle(scenario.Config{N: n, Seed: 1, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	return p.World(), p.Close
}

// particleColumns is what a hand-written snapshot of the particle world
// copies: the four columns and the entity handles of the particle table,
// and 12 bytes of entity index per entity.
type particleColumns struct {
	pos   []scenario.Position
	vel   []scenario.Velocity
	col   []scenario.Color
	life  []scenario.Lifetime
	ents  []ecs.Entity
	index []byte
}

func newParticleColumns(n int) *particleColumns {
	return &particleColumns{pos: make([]scenario.Position, n), vel: make([]scenario.Velocity, n),
		col: make([]scenario.Color, n), life: make([]scenario.Lifetime, n), ents: make([]ecs.Entity, n), index: make([]byte, 12*n)}
}

// copyFloor copies src into dst with copy(): the floor of
// BenchmarkSnapshot, the same bytes as a snapshot of the particle world
// moves, into preallocated slices.
//
//go:noinline
func copyFloor(dst, src *particleColumns) {
	copy(dst.pos, src.pos)
	copy(dst.vel, src.vel)
	copy(dst.col, src.col)
	copy(dst.life, src.life)
	copy(dst.ents, src.ents)
	copy(dst.index, src.index)
}

//go:noinline
func snapshotOf(w *ecs.World, s *ecs.Snapshot) { w.Snapshot(s) }

//go:noinline
func restoreOf(w *ecs.World, s *ecs.Snapshot) { w.Restore(s) }

// BenchmarkSnapshot times World.Snapshot and World.Restore of the demo's
// 100,000-particle world, warm (no allocation), against copy() of the same
// bytes into preallocated slices, in one run (benchstat -col .name gives
// the ratios). Rollback netcode saves once per tick and restores once per
// misprediction, inside a 16.7 ms frame.
func BenchmarkSnapshot(b *testing.B) {
	const n = 100_000
	b.Run("name=floor", func(b *testing.B) {
		src, dst := newParticleColumns(n), newParticleColumns(n)
		for b.Loop() {
			copyFloor(dst, src)
		}
		perEntity(b, n)
	})
	b.Run("name=snapshot", func(b *testing.B) { benchSnapshotOp(b, n, snapshotOf) })
	b.Run("name=restore", func(b *testing.B) { benchSnapshotOp(b, n, restoreOf) })
}

// benchSnapshotOp times op (snapshotOf or restoreOf) on the particle world
// of n particles with a warm snapshot.
func benchSnapshotOp(b *testing.B, n int, op func(*ecs.World, *ecs.Snapshot)) {
	w, done := particleWorld(b, n)
	defer done()
	var s ecs.Snapshot
	w.Snapshot(&s)
	b.ReportAllocs()
	for b.Loop() {
		op(w, &s)
	}
	perEntity(b, n)
}
