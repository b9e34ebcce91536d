package scenario

import (
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/sched"
)

// BenchmarkParticleTick, BenchmarkGameTick and BenchmarkPredatorTick time
// one tick of the particle, game and predator-prey scenarios with 100,000
// entities on one worker and on two, in the same run: the ratio is the
// scheduler's parallel speed-up on the whole tick, serial parts (spawning,
// structural changes, output merges, the systems that run on one
// goroutine) included.
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
	Scheduler() *sched.Scheduler
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
			b.ReportMetric(100*sched.SyncShare(s.Scheduler().StageStats()), "sync-%")
		})
	}
}

// BenchmarkPredatorTick starts from 100,000 animals, which the births and
// deaths then keep between about 70,000 and 100,000.
func BenchmarkPredatorTick(b *testing.B) {
	benchTicks(b, func(workers int) (ticker, error) {
		return NewPredatorPrey(Config{N: 100_000, Seed: 1, Workers: workers})
	})
}
