package scenario

import (
	"hash/fnv"
	"math"

	"github.com/tessera-ecs/tessera/ecs"
)

// hasher accumulates a 64-bit FNV-1a hash of words.
type hasher struct {
	h   interface{ Write([]byte) (int, error) }
	sum func() uint64
	buf [8]byte
}

func newHasher() *hasher {
	f := fnv.New64a()
	return &hasher{h: f, sum: f.Sum64}
}

func (h *hasher) u64(x uint64) {
	for i := range h.buf {
		h.buf[i] = byte(x >> (8 * i))
	}
	h.h.Write(h.buf[:])
}

func (h *hasher) f32(x float32) { h.u64(uint64(math.Float32bits(x))) }

func (h *hasher) entity(e ecs.Entity) { h.u64(uint64(e.Index())<<32 | uint64(e.Generation())) }

func finite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }
