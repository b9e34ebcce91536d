package main

import "github.com/tessera-ecs/tessera/internal/pcg"

// Methods of the generated Rand32 live beside it, in the same package: a
// generated type is an ordinary Go type.

// NewRand32 seeds a generator.
func NewRand32(seed uint64) Rand32 { return Rand32{State: pcg.Seed(seed)} }

// Next returns the next 32 random bits: the output permutation of a 64-bit
// linear congruential generator (O'Neill's PCG XSH RR, package pcg).
func (r *Rand32) Next() uint32 { return pcg.Next(&r.State) }

// Range returns a number in [lo, hi], both included.
func (r *Rand32) Range(lo, hi int) int { return pcg.Range(&r.State, lo, hi) }
