package arena

import (
	"fmt"
	"testing"
)

//go:noinline
func step(g *Game, in Input) { g.Step(in) }

// BenchmarkStep times one tick of the arena with the game's default 2,000
// rocks, firing and turning, the snapshot for the rewind ring included,
// on 1 and 2 workers, after 200 ticks of warm-up. At 60 ticks a second a
// tick has 16.7 ms.
func BenchmarkStep(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			g := New(Config{Seed: 1, Rocks: 2000, Workers: workers})
			defer g.Close()
			Run(g, 200)
			b.ReportAllocs()
			for b.Loop() {
				step(g, Script(int(g.Score().Tick)))
			}
			b.ReportMetric(float64(g.W.Len()), "entities")
		})
	}
}
