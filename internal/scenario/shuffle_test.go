package scenario

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/sched"
)

// shuffleCase is one scenario of TestShuffledScenarios: how to build it,
// and its size, chosen so that its data-parallel systems cut their tables
// into several ForEach items.
type shuffleCase struct {
	name  string
	cfg   Config
	ticks int
	build func(Config) (Scenario, error)
}

func shuffleCases() []shuffleCase {
	particle := func(c Config) (Scenario, error) { return NewParticle(c) }
	game := func(c Config) (Scenario, error) { return NewGame(c) }
	predator := func(c Config) (Scenario, error) { return NewPredatorPrey(c) }
	return []shuffleCase{
		{"particle/table", Config{N: 3*chunkRows + 500, Seed: 5}, 150, particle},
		{"particle/sparse", Config{N: 3*chunkRows + 500, Seed: 5, Storage: "sparse"}, 150, particle},
		{"game/table", Config{N: 2*chunkRows + 500, Seed: 5}, 100, game},
		{"game/sparse-mixed", Config{N: 2*chunkRows + 500, Seed: 5, Storage: "sparse", Mixed: true}, 100, game},
		{"predator/table", Config{N: 3 * predatorChunk, Seed: 5}, 200, predator},
		{"predator/sparse", Config{N: 3 * predatorChunk, Seed: 5, Storage: "sparse"}, 200, predator},
	}
}

// runShuffleCase runs c for its ticks with the given workers and scheduler
// options and returns the world's checksum and the scenario's hash after
// the last tick, and with perTick, the world's checksum after every tick.
func runShuffleCase(t *testing.T, c shuffleCase, workers int, perTick bool, opts ...sched.SchedulerOption) (sum, hash uint64, ticks []uint64) {
	t.Helper()
	cfg := c.cfg
	cfg.Workers, cfg.SchedOptions = workers, opts
	s, err := c.build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range c.ticks {
		s.Tick()
		if perTick {
			ticks = append(ticks, s.World().Checksum())
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s.World().Checksum(), s.Hash(), ticks
}

// TestShuffledScenarios runs every scenario, in both storages, under
// sched.Shuffle with 20 seeds on one worker and on two: the order in which
// a stage's systems start and the split of every ForEach change, and the
// world after the last tick must be the one of a run without Shuffle. A
// different checksum is a determinism bug of the scenario or of sched;
// the failure names the first tick whose world differs.
func TestShuffledScenarios(t *testing.T) {
	seeds := uint64(20)
	if testing.Short() {
		seeds = 4
	}
	for _, c := range shuffleCases() {
		t.Run(c.name, func(t *testing.T) {
			want, wantHash, _ := runShuffleCase(t, c, 1, false)
			for seed := range seeds {
				for _, workers := range []int{1, 2} {
					sum, hash, _ := runShuffleCase(t, c, workers, false, sched.Shuffle(seed))
					if sum == want && hash == wantHash {
						continue
					}
					_, _, plain := runShuffleCase(t, c, 1, true)
					_, _, shuffled := runShuffleCase(t, c, workers, true, sched.Shuffle(seed))
					first := "none (the difference is outside the world)"
					for tick := range plain {
						if plain[tick] != shuffled[tick] {
							first = fmt.Sprintf("%d", tick+1)
							break
						}
					}
					t.Fatalf("Shuffle(%d) on %d workers: checksum %016x hash %016x, without Shuffle %016x and %016x; first tick that differs: %s",
						seed, workers, sum, hash, want, wantHash, first)
				}
			}
		})
	}
}
