package scenario

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// BenchmarkChecksumShare times, on the particle and game worlds of 100,000
// entities after 50 ticks, one tick on one worker, the world checksum and
// the per-part checksums (World.Checksums, what tessera demo -checksums
// and a sync test take every tick), in one run: the ratios are each
// checksum's share of a tick.
func BenchmarkChecksumShare(b *testing.B) {
	builds := map[string]func() (Scenario, error){
		"particle": func() (Scenario, error) { return NewParticle(Config{N: 100_000, Seed: 1, Workers: 1}) },
		"game":     func() (Scenario, error) { return NewGame(Config{N: 100_000, Seed: 1, Workers: 1}) },
	}
	for _, name := range []string{"particle", "game"} {
		sc, err := builds[name]()
		if err != nil {
			b.Fatal(err)
		}
		for range 50 {
			sc.Tick()
		}
		w := sc.World()
		var parts []ecs.PartChecksum
		b.Run(name+"/tick", func(b *testing.B) {
			for b.Loop() {
				sc.Tick()
			}
		})
		b.Run(name+"/Checksum", func(b *testing.B) {
			for b.Loop() {
				worldSum(w)
			}
		})
		b.Run(name+"/Checksums", func(b *testing.B) {
			for b.Loop() {
				parts = partSums(w, parts[:0])
			}
		})
		sc.Close()
	}
}

func worldSum(w *ecs.World) uint64 { return w.Checksum() }

func partSums(w *ecs.World, dst []ecs.PartChecksum) []ecs.PartChecksum { return w.Checksums(dst) }
