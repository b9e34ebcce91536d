package netcode

import (
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// soakSize is the soak's scale: the 32 clients and 10,000
// entities at 20 ticks a second, or a smaller run under -short.
func soakSize() (clients, entities, ticks int) {
	if testing.Short() {
		return 8, 2000, 60
	}
	return 32, 10000, 200
}

// gameFocus places client c's focus in the game's frame.
func gameFocus(c ClientID, _ *ecs.World) (x, y float32, ok bool) {
	return float32(int(c) * 37 % scenario.FrameWidth), float32(int(c) * 53 % scenario.FrameHeight), true
}

// halfAndHalf lets even clients see everything and odd ones what the grid
// puts near their focus.
func halfAndHalf(grid *Grid[scenario.GamePosition]) Relevancy {
	return mixedRelevancy{grid}
}

type mixedRelevancy struct{ grid *Grid[scenario.GamePosition] }

func (m mixedRelevancy) Prepare(w *ecs.World) { m.grid.Prepare(w) }
func (m mixedRelevancy) Forget(c ClientID)    { m.grid.Forget(c) }
func (m mixedRelevancy) Relevant(c ClientID, w *ecs.World, dst []ecs.Entity) []ecs.Entity {
	if c%2 == 0 {
		for ch := range ecs.NewQuery1[Replicated](w).Chunks() {
			dst = append(dst, ch.Entities...)
		}
		return dst
	}
	return m.grid.Relevant(c, w, dst)
}

// TestSoakClientsConverge is the loopback soak: one server running the
// game scenario at 20 ticks a second, many clients (half with a spatial
// relevancy), then a quiet period after which every client's world holds
// exactly the server's values for its view.
func TestSoakClientsConverge(t *testing.T) {
	nClients, n, ticks := soakSize()
	g, err := scenario.NewGame(scenario.Config{N: n, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	markAll(g.World())
	rules := gameRules(t)
	grid := NewGrid(16, func(p *scenario.GamePosition) (float32, float32) { return p.X, p.Y }).Around(gameFocus, 60, 8)
	l := newLoopback(t, g.World(), rules, Options{Relevancy: halfAndHalf(grid)}, g.Tick)
	var cs []*testClient
	for range nClients {
		cs = append(cs, dialTest(t, l.url, rules, ClientOptions{}, 10*time.Millisecond))
	}
	start := time.Now()
	l.run(ticks, 20)
	elapsed := time.Since(start)
	ids := l.srv.Clients()
	if len(ids) != nClients {
		t.Fatalf("%d clients joined, want %d", len(ids), nClients)
	}
	if !l.quiet(ids, 10*time.Second) {
		t.Fatal("the clients did not catch up within 10 s of quiet")
	}
	stopAll(cs)
	st := l.srv.Stats()
	for i, c := range cs {
		want, _ := l.srv.ViewChecksum(c.c.ID())
		if got := c.c.Checksum(); got != want {
			t.Errorf("client %d: world checksum %x, server's %x", i, got, want)
		}
		if cst := c.c.Stats(); cst.Mismatches != 0 {
			t.Errorf("client %d: %d of %d checked States mismatched", i, cst.Mismatches, cst.Checked)
		}
		if c.err != nil {
			t.Errorf("client %d: %v", i, c.err)
		}
	}
	if all := cs[1].w.Len(); all != n { // client 2 (even) sees everything
		t.Errorf("an all-seeing client holds %d entities, want %d", all, n)
	}
	ups := make([]float64, len(l.updates))
	for i, d := range l.updates {
		ups[i] = float64(d.Microseconds())
	}
	t.Logf("%d clients, %d entities, %d ticks in %v: %d States, %d skipped, %d bytes (%.0f per client per tick); Server.Update median %.0f µs, p99 %.0f µs",
		nClients, n, ticks, elapsed.Round(time.Millisecond), st.StatesSent, st.StatesSkipped, st.BytesSent,
		float64(st.BytesSent)/float64(st.StatesSent), quantile(ups, 0.5), quantile(ups, 0.99))
}
