package netcode

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// serverTick is the server's work for one tick and k clients that see the
// whole world: the capture, then each client's State.
func serverTick(s *serverSide, views []*view, bufs [][]byte, prev uint64, seen int) {
	s.capture()
	for i, v := range views {
		v.grow(len(s.img.gens))
		copy(v.want, s.img.gens)
		clear(v.want[seen:]) // a view of the first seen indices
		bufs[i] = v.encodeState(bufs[i][:0], &s.img, prev, -1, false, false)
	}
}

// BenchmarkServerUpdate measures the server's CPU per tick for the game
// scenario with 10,000 entities and 1, 8 or 32 clients that see all of
// it (or 8 that see a tenth), excluding the game's own systems and the
// sockets: ns/client/tick is the cost each client adds.
//
//	cd net && go test -run X -bench ServerUpdate -count 5 ./netcode
func BenchmarkServerUpdate(b *testing.B) {
	type size struct{ clients, seen int }
	for _, sz := range []size{{1, 10000}, {8, 10000}, {32, 10000}, {8, 1000}} {
		k := sz.clients
		b.Run(fmt.Sprintf("clients=%d/seen=%d", k, sz.seen), func(b *testing.B) {
			g, s, rules := gameServerSide(b, 10000, 1)
			views := make([]*view, k)
			for i := range views {
				views[i] = newView(rules.rules)
			}
			bufs := make([][]byte, k)
			g.Tick()
			serverTick(s, views, bufs, 0, sz.seen) // every client joins
			var bytes int
			for b.Loop() {
				b.StopTimer()
				g.Tick()
				b.StartTimer()
				serverTick(s, views, bufs, s.tick, sz.seen)
				bytes += len(bufs[0])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(k), "ns/client/tick")
			b.ReportMetric(float64(bytes)/float64(b.N), "B/state")
		})
	}
}

// captureOnly is the image capture alone.
func captureOnly(s *serverSide) { s.capture() }

func BenchmarkServerCapture(b *testing.B) {
	_, s, _ := gameServerSide(b, 10000, 1)
	for b.Loop() {
		captureOnly(s)
	}
}

// gameTickOnly is one tick of the game's systems, the yardstick.
func gameTickOnly(g *scenario.Game) { g.Tick() }

func BenchmarkGameTick(b *testing.B) {
	g, err := scenario.NewGame(scenario.Config{N: 10000, Seed: 1, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	for b.Loop() {
		gameTickOnly(g)
	}
}

// BenchmarkClientApply measures a client applying one tick's State of
// the game scenario (10,000 entities, all in view): decoding, the world's
// writes and the baselines.
//
//	cd net && go test -run X -bench ClientApply -count 5 ./netcode
func BenchmarkClientApply(b *testing.B) {
	g, s, rules := gameServerSide(b, 10000, 1)
	v := newView(rules.rules)
	// Record 64 ticks of States, then apply them over and over to fresh
	// mirrors: the first joins, the rest are deltas.
	var states [][]byte
	var prev uint64
	for i := range 64 {
		g.Tick()
		s.capture()
		v.grow(len(s.img.gens))
		copy(v.want, s.img.gens)
		states = append(states, v.encodeState(nil, &s.img, prev, -1, i == 0, false))
		prev = s.tick
	}
	var m *mirror
	k := len(states)
	for b.Loop() {
		if k == len(states) {
			b.StopTimer()
			m = newMirror(ecs.NewWorld(), rules.rules, 1<<20)
			applyOne(b, m, states[0])
			k = 1
			b.StartTimer()
		}
		applyOne(b, m, states[k])
		k++
	}
}

func applyOne(b *testing.B, m *mirror, msg []byte) {
	if _, _, err := m.applyState(msg); err != nil {
		b.Fatal(err)
	}
}

// gameServerSide is the game scenario with n entities, all replicated, and
// a server side of its world with the game's rules; the game closes with
// tb.
func gameServerSide(tb testing.TB, n int, seed uint64) (*scenario.Game, *serverSide, *Rules) {
	g, err := scenario.NewGame(scenario.Config{N: n, Seed: seed, Workers: 1})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(g.Close)
	markAll(g.World())
	rules := gameRules(tb)
	return g, serverSideOf(g.World(), rules), rules
}
