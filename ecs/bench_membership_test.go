package ecs

import (
	"math/rand/v2"
	"testing"
)

// Membership of observed queries: the bitset by entity index that settle
// uses (the active set of the dissertation "optimisations for the Entity
// Component System pattern") against a Go map and a []bool, on the work
// settle does: test an index, then set or clear it. 100,000 entities,
// a random sequence of 4,096 touched indices.

const membershipEntities = 100_000

func membershipTouches() []uint32 {
	r := rand.New(rand.NewPCG(1, 2))
	t := make([]uint32, 4096)
	for i := range t {
		t[i] = uint32(r.IntN(membershipEntities))
	}
	return t
}

//go:noinline
func settleBitset(b bitset, touches []uint32) int {
	n := 0
	for i, x := range touches {
		id := componentID(x)
		if was := b.test(id); was != (i&1 == 0) {
			if was {
				b.unset(id)
			} else {
				b.set(id)
			}
			n++
		}
	}
	return n
}

//go:noinline
func settleMap(m map[uint32]struct{}, touches []uint32) int {
	n := 0
	for i, x := range touches {
		_, was := m[x]
		if was != (i&1 == 0) {
			if was {
				delete(m, x)
			} else {
				m[x] = struct{}{}
			}
			n++
		}
	}
	return n
}

//go:noinline
func settleBools(s []bool, touches []uint32) int {
	n := 0
	for i, x := range touches {
		if was := s[x]; was != (i&1 == 0) {
			s[x] = !was
			n++
		}
	}
	return n
}

func BenchmarkMembership(b *testing.B) {
	touches := membershipTouches()
	perTouch := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(touches)), "ns/touch")
	}
	b.Run("bitset", func(b *testing.B) {
		var bs bitset
		bs.set(membershipEntities)
		for b.Loop() {
			settleBitset(bs, touches)
		}
		perTouch(b)
	})
	b.Run("map", func(b *testing.B) {
		m := make(map[uint32]struct{})
		for b.Loop() {
			settleMap(m, touches)
		}
		perTouch(b)
	})
	b.Run("bools", func(b *testing.B) {
		s := make([]bool, membershipEntities+1)
		for b.Loop() {
			settleBools(s, touches)
		}
		perTouch(b)
	})
}
