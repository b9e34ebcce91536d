package netcode

import (
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/internal/scenario"
)

// TestTwoClientsConvergeOnTheGame replicates the game scenario to two
// clients and checks that, once the server stops ticking, each client's
// world has the server's values.
func TestTwoClientsConvergeOnTheGame(t *testing.T) {
	g, err := scenario.NewGame(scenario.Config{N: 500, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	markAll(g.World())
	rules := gameRules(t)
	l := newLoopback(t, g.World(), rules, Options{ChecksumEvery: 1, TickRate: 100}, g.Tick)
	cs := []*testClient{dialTest(t, l.url, rules, ClientOptions{}, 5*time.Millisecond), dialTest(t, l.url, rules, ClientOptions{}, 5*time.Millisecond)}
	l.run(40, 100)
	ids := l.srv.Clients()
	if len(ids) != 2 {
		t.Fatalf("%d clients joined, want 2", len(ids))
	}
	if !l.quiet(ids, 5*time.Second) {
		for _, id := range ids {
			info, _ := l.srv.Client(id)
			t.Logf("server's view of client %d: %+v (tick %d)", id, info, l.srv.Tick())
		}
		stopAll(cs)
		for _, c := range cs {
			t.Logf("client %d: %+v, err %v", c.c.ID(), c.c.Stats(), c.c.Err())
		}
		t.Fatal("the clients did not catch up within 5 s")
	}
	stopAll(cs)
	for i, c := range cs {
		want, _ := l.srv.ViewChecksum(c.c.ID())
		if got := c.c.Checksum(); got != want {
			t.Errorf("client %d: world checksum %x, server's %x", i, got, want)
		}
		if c.w.Len() != 500 {
			t.Errorf("client %d holds %d entities, want 500", i, c.w.Len())
		}
		st := c.c.Stats()
		if st.Mismatches != 0 || st.Checked == 0 {
			t.Errorf("client %d: %d of %d checked States mismatched", i, st.Mismatches, st.Checked)
		}
	}
}
