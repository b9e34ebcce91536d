package scenario

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSaveLoadContinuesTickForTick: a scenario run for some ticks, saved,
// and loaded into a new scenario of the same kind and storage runs on with
// the world checksums, tick for tick, of the run that never saved, and
// ends with its hash: what `tessera demo -save` and `-load` promise.
// Neither scenario sends events (ecs.EventsOf); package ecs's
// TestSaveLoadContinuesWithEvents covers a program that does.
func TestSaveLoadContinuesTickForTick(t *testing.T) {
	const before, after = 30, 30
	build := map[string]func(Config) (Scenario, error){
		"particle": func(c Config) (Scenario, error) { return NewParticle(c) },
		"game":     func(c Config) (Scenario, error) { return NewGame(c) },
	}
	for _, name := range []string{"particle", "game"} {
		for _, v := range []struct {
			storage string
			mixed   bool
		}{{"table", false}, {"sparse", false}, {"table", true}} {
			if v.mixed && name != "game" {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s/mixed=%v", name, v.storage, v.mixed), func(t *testing.T) {
				cfg := Config{N: 3000, Seed: 5, Workers: 2, Storage: v.storage, Mixed: v.mixed}
				start := func(cfg Config) Scenario {
					t.Helper()
					sc, err := build[name](cfg)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(sc.Close)
					return sc
				}
				straight := start(cfg)
				var want []uint64
				for range before + after {
					straight.Tick()
					want = append(want, straight.World().Checksum())
				}

				first := start(cfg)
				for range before {
					first.Tick()
				}
				var file bytes.Buffer
				if err := first.World().Save(&file); err != nil {
					t.Fatal(err)
				}
				cfg.Load = &file
				back := start(cfg)
				if got := back.World().Checksum(); got != want[before-1] || got != first.World().Checksum() {
					t.Fatalf("after the load: checksum %x, the saved world's %x", got, want[before-1])
				}
				for i := before; i < before+after; i++ {
					back.Tick()
					if got := back.World().Checksum(); got != want[i] {
						t.Fatalf("tick %d, %d after the load: checksum %x, the straight run's %x", i+1, i+1-before, got, want[i])
					}
				}
				if err := back.Check(); err != nil {
					t.Fatal(err)
				}
				if back.Hash() != straight.Hash() || back.Alive() != straight.Alive() {
					t.Fatalf("after %d ticks: hash %x with %d alive, the straight run's %x with %d", before+after, back.Hash(), back.Alive(), straight.Hash(), straight.Alive())
				}
			})
		}
	}
}
