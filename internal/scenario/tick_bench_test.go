package scenario

import (
	"strconv"
	"testing"
)

// BenchmarkParticleTick and BenchmarkGameTick time one tick of the
// particle and game scenarios with 100,000 entities on one worker and on
// two, in the same run: the ratio is the scheduler's parallel speed-up on
// the whole tick, serial parts (spawning, structural changes, the game's
// Render) included.
func BenchmarkParticleTick(b *testing.B) {
	benchTicks(b, func(workers int) (ticker, error) {
		return NewParticle(Config{N: 100_000, Seed: 1, Workers: workers})
	})
}

func BenchmarkGameTick(b *testing.B) {
	benchTicks(b, func(workers int) (ticker, error) {
		return NewGame(Config{N: 100_000, Seed: 1, Workers: workers})
	})
}

type ticker interface {
	Tick()
	Close()
}

func benchTicks(b *testing.B, build func(workers int) (ticker, error)) {
	for _, workers := range []int{1, 2} {
		b.Run("n=100000/workers="+strconv.Itoa(workers), func(b *testing.B) {
			s, err := build(workers)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for range 50 { // past the first ticks' growth
				s.Tick()
			}
			for b.Loop() {
				s.Tick()
			}
		})
	}
}
