package inspect_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// BenchmarkParticleTick measures what an idle inspector costs a tick: the
// 100,000-particle demo's tick called directly (plain) and through
// Inspector.Tick with no request waiting (inspected), which adds the check
// of the request queue, the tick's timing and its sample for the charts.
// Compare the two with benchstat; the claim is under 1%.
func BenchmarkParticleTick(b *testing.B) {
	for _, mode := range []string{"plain", "inspected"} {
		b.Run(mode, func(b *testing.B) {
			sc, err := scenario.NewParticle(scenario.Config{N: 100_000, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			defer sc.Close()
			in := inspect.New(sc.World(), inspect.Scheduler(sc.Scheduler()))
			for range 50 { // past the start-up growth of the tables
				sc.Tick()
			}
			b.ResetTimer()
			if mode == "plain" {
				for b.Loop() {
					plainTick(sc)
				}
			} else {
				for b.Loop() {
					inspectedTick(in, sc)
				}
			}
		})
	}
}

func plainTick(sc scenario.Scenario) { sc.Tick() }

func inspectedTick(in *inspect.Inspector, sc scenario.Scenario) { in.Tick(sc.Tick) }

// BenchmarkIdleOverhead measures the inspector's own part of a tick, with
// no request waiting: Inspector.Tick around a step that does nothing, on
// the particle scenario's world and scheduler (five systems to sample).
// Divided by the plain tick of BenchmarkParticleTick, it is the overhead
// an idle inspector adds, without the noise of two whole-tick timings.
func BenchmarkIdleOverhead(b *testing.B) {
	sc, err := scenario.NewParticle(scenario.Config{N: 100_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Close()
	sc.Tick()
	in := inspect.New(sc.World(), inspect.Scheduler(sc.Scheduler()))
	b.ReportAllocs()
	for b.Loop() {
		inspectedTick(in, noTick{})
	}
}

// noTick is a scenario whose tick does nothing.
type noTick struct{ scenario.Scenario }

func (noTick) Tick() {}
