package scenario

import (
	"strconv"
	"testing"
)

// BenchmarkParticleTick times one tick of the particle scenario with
// 100,000 particles on one worker and on two, in the same run: the ratio
// is the scheduler's parallel speed-up on the whole tick, serial parts
// (spawning, structural changes) included.
func BenchmarkParticleTick(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run("n=100000/workers="+strconv.Itoa(workers), func(b *testing.B) {
			p, err := NewParticle(Config{N: 100_000, Seed: 1, Workers: workers})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			for range 50 { // past the first ticks' growth
				p.Tick()
			}
			for b.Loop() {
				p.Tick()
			}
		})
	}
}
