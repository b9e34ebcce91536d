package main

// Methods of the generated Rand32 live beside it, in the same package: a
// generated type is an ordinary Go type.

// NewRand32 seeds a generator.
func NewRand32(seed uint64) Rand32 {
	r := Rand32{State: seed + 0x853c49e6748fea9b}
	r.Next()
	return r
}

// Next returns the next 32 random bits: the output permutation of a 64-bit
// linear congruential generator (O'Neill's PCG XSH RR).
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
