package scenario

// Rand32 is a small seeded generator kept inside components (the game
// scenario's Data and Player): the 32-bit output permutation of a 64-bit
// linear congruential generator (O'Neill's PCG XSH RR). Eight bytes, no
// pointers, so it copies with its component.
type Rand32 struct{ State uint64 }

// NewRand32 seeds a generator.
func NewRand32(seed uint64) Rand32 {
	r := Rand32{State: seed + 0x853c49e6748fea9b}
	r.Next()
	return r
}

// Next returns the next 32 random bits.
func (r *Rand32) Next() uint32 {
	old := r.State
	r.State = old*6364136223846793005 + 1442695040888963407
	x := uint32((old>>18 ^ old) >> 27)
	rot := uint32(old >> 59)
	return x>>rot | x<<((-rot)&31)
}

// Range returns a number in [lo, hi], both included.
func (r *Rand32) Range(lo, hi int) int {
	return lo + int(uint64(r.Next())*uint64(hi-lo+1)>>32)
}
