package scenario

import (
	"math"
	"testing"
)

func runParticle(t *testing.T, cfg Config, ticks int) *Particle {
	t.Helper()
	p, err := NewParticle(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	for range ticks {
		p.Tick()
	}
	return p
}

func TestParticlePopulationAndInvariants(t *testing.T) {
	for _, storage := range []string{"table", "sparse"} {
		t.Run(storage, func(t *testing.T) {
			const n = 10_000
			p, err := NewParticle(Config{N: n, Seed: 1, Storage: storage})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			totalDied := 0
			for tick := range 300 {
				p.Tick()
				totalDied += p.Died()
				if got := p.Particles(); math.Abs(float64(got-n)) > 0.02*n {
					t.Fatalf("tick %d: %d particles, want within 2%% of %d", tick, got, n)
				}
				if err := p.Check(); err != nil {
					t.Fatalf("tick %d: %v", tick, err)
				}
			}
			// Lifetimes are uniform up to 200 ticks, a mean of 100: about 1%
			// of the population dies per tick.
			if perTick := float64(totalDied) / 300 / n; perTick < 0.007 || perTick > 0.013 {
				t.Fatalf("%d deaths in 300 ticks: %.2f%% per tick, want about 1%%", totalDied, 100*perTick)
			}
			sum := 0
			for c, k := range p.PerColor() {
				if k < n/Colors/2 {
					t.Errorf("colour %d has %d particles", c, k)
				}
				sum += k
			}
			if sum != p.Particles()-p.Died() && sum != p.Particles() {
				t.Errorf("stats count %d, world %d", sum, p.Particles())
			}
		})
	}
}

func TestParticleIsReproducible(t *testing.T) {
	base := runParticle(t, Config{N: 3000, Seed: 7, Workers: 1}, 120).Hash()
	if again := runParticle(t, Config{N: 3000, Seed: 7, Workers: 1}, 120).Hash(); again != base {
		t.Fatalf("same seed, hashes %x and %x", base, again)
	}
	for _, workers := range []int{2, 4} {
		if got := runParticle(t, Config{N: 3000, Seed: 7, Workers: workers}, 120).Hash(); got != base {
			t.Fatalf("%d workers: hash %x, one worker %x", workers, got, base)
		}
	}
	if other := runParticle(t, Config{N: 3000, Seed: 8, Workers: 1}, 120).Hash(); other == base {
		t.Fatal("a different seed gave the same hash")
	}
}

func TestConfigValidation(t *testing.T) {
	for _, cfg := range []Config{{N: -1}, {Workers: -2}, {Storage: "disk"}} {
		if _, err := NewParticle(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
