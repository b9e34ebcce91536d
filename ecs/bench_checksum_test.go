package ecs_test

import (
	"hash/maphash"
	"testing"
	"unsafe"

	"github.com/tessera-ecs/tessera/ecs"
)

//go:noinline
func checksumOf(w *ecs.World) uint64 { return w.Checksum() }

// maphashFloor hashes the bytes a world of Position and Velocity holds (the
// two columns and the entity handles) with hash/maphash in one pass each:
// the floor of BenchmarkChecksum.
//
//go:noinline
func maphashFloor(seed maphash.Seed, ps []Position, vs []Velocity, es []ecs.Entity) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	// SAFETY (benchmark): the slices' elements are plain memory.
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ps))), len(ps)*int(unsafe.Sizeof(Position{}))))
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vs))), len(vs)*int(unsafe.Sizeof(Velocity{}))))
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(es))), len(es)*int(unsafe.Sizeof(ecs.Entity{}))))
	return h.Sum64()
}

// BenchmarkChecksum times World.Checksum of 100,000 entities with Position
// and Velocity against the maphash floor over the same bytes, in one run
// (benchstat -col .name gives the ratio).
func BenchmarkChecksum(b *testing.B) {
	const n = 100_000
	b.Run("name=floor", func(b *testing.B) {
		ps, vs := plainSlices(n)
		es := make([]ecs.Entity, n)
		seed := maphash.MakeSeed()
		for b.Loop() {
			maphashFloor(seed, ps, vs, es)
		}
		perEntity(b, n)
	})
	b.Run("name=checksum", func(b *testing.B) {
		w, _ := newPosVelWorld(n)
		for b.Loop() {
			checksumOf(w)
		}
		perEntity(b, n)
	})
}
