// Package pcg is the small seeded random number generator that Tessera's
// scenarios and examples keep inside components and resources: the 32-bit
// output permutation of a 64-bit linear congruential generator (O'Neill's
// PCG XSH RR). Its whole state is one uint64 with no pointers, so it is
// copied, snapshotted, checksummed and saved with the component or
// resource that holds it, and a rollback or a load brings back the numbers
// to come.
//
// The types that hold a state (internal/scenario's Rand32, the generated
// example's Rand32, the arena's Rng) keep their own declarations, which
// saves and checksums see, and call these functions on their State field.
// The sequences are part of the determinism contract (the demo's
// checksums depend on them): they must never change.
package pcg

// Seed returns the state a generator seeded with seed starts from: seed
// offset by a constant, advanced one step. Any seed, 0 included, is valid.
// O(1).
func Seed(seed uint64) uint64 {
	state := seed + 0x853c49e6748fea9b
	Next(&state)
	return state
}

// Next advances *state one step and returns the next 32 random bits. O(1),
// no allocation; any state is valid.
func Next(state *uint64) uint32 {
	old := *state
	*state = old*6364136223846793005 + 1442695040888963407
	x := uint32((old>>18 ^ old) >> 27)
	rot := uint32(old >> 59)
	return x>>rot | x<<((-rot)&31)
}

// Range advances *state one step and returns a number in [lo, hi], both
// included, by scaling the 32 bits of [Next] (a multiply and a shift, no
// division): each of the hi-lo+1 values comes up with nearly the same
// odds while hi-lo+1 is far below 2^32. lo <= hi and hi-lo < 2^32; it does
// not check. O(1).
func Range(state *uint64, lo, hi int) int {
	return lo + int(uint64(Next(state))*uint64(hi-lo+1)>>32)
}
