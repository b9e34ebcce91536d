package scenario

import "github.com/tessera-ecs/tessera/internal/pcg"

// Rand32 is a small seeded generator kept inside components (the game
// scenario's Data and Player): the 32-bit output permutation of a 64-bit
// linear congruential generator (O'Neill's PCG XSH RR, package pcg).
// Eight bytes, no pointers, so it copies with its component.
type Rand32 struct{ State uint64 }

// NewRand32 seeds a generator.
func NewRand32(seed uint64) Rand32 { return Rand32{State: pcg.Seed(seed)} }

// Next returns the next 32 random bits.
func (r *Rand32) Next() uint32 { return pcg.Next(&r.State) }

// Range returns a number in [lo, hi], both included.
func (r *Rand32) Range(lo, hi int) int { return pcg.Range(&r.State, lo, hi) }
