package netcode

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/net/netcode/internal/lagproxy"
)

// TestReconnectedClientResyncs drops a client mid-run and dials again:
// the server forgets the first connection, and the new one starts from a
// reset and converges.
func TestReconnectedClientResyncs(t *testing.T) {
	l, rules, good := gameLoopback(t, Options{TickRate: 100})
	c := dialTest(t, l.url, rules, ClientOptions{}, 5*time.Millisecond)
	l.run(30, 100)
	if n := len(l.srv.Clients()); n != 2 {
		t.Fatalf("%d clients joined, want 2", n)
	}
	c.stop()
	c.c.Close()
	l.run(10, 100)
	if n := len(l.srv.Clients()); n != 1 {
		t.Fatalf("%d clients after one left, want 1", n)
	}
	again := l.rejoin(t, l.url, rules, good, "reconnected")
	if st := again.c.Stats(); st.Resets != 1 || again.w.Len() != 300 {
		t.Fatalf("the reconnected client saw %d resets and holds %d entities; want 1 and 300", st.Resets, again.w.Len())
	}
	if again.c.ID() == c.c.ID() {
		t.Fatal("the new connection got the old one's id")
	}
	l.converged(t, good)
}

// TestSlowClientDoesNotStallOthers gives one client a game loop that
// stalls: the server keeps its tick rate, keeps at most MaxInFlight ticks
// in flight to it, and everyone converges once it recovers; a client
// that stops acknowledging is closed after StallTimeout.
func TestSlowClientDoesNotStallOthers(t *testing.T) {
	l, rules, good := gameLoopback(t, Options{TickRate: 100, MaxInFlight: 5, StallTimeout: time.Second, ChecksumEvery: 1})
	var slow atomic.Bool
	slow.Store(true)
	sc := dialTestWith(t, l.url, rules, ClientOptions{}, 5*time.Millisecond, func(*Client) {
		if slow.Load() {
			time.Sleep(150 * time.Millisecond)
		}
	})
	start := time.Now()
	worst := 0
	for range 100 {
		l.run(1, 0)
		if info, ok := l.srv.Client(sc.c.ID()); ok {
			worst = max(worst, info.InFlight)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("100 ticks took %v with a slow client", d)
	}
	if worst > 5 {
		t.Errorf("%d States were in flight to the slow client, more than MaxInFlight 5", worst)
	}
	if st := l.srv.Stats(); st.StatesSkipped == 0 {
		t.Error("the server never skipped the slow client")
	}
	slow.Store(false)
	l.run(10, 100)
	if !l.quiet([]ClientID{good.c.ID(), sc.c.ID()}, 5*time.Second) {
		t.Fatal("the clients did not catch up once the slow one recovered")
	}
	sc.stop()
	want, _ := l.srv.ViewChecksum(sc.c.ID())
	if got := sc.c.Checksum(); got != want {
		info, _ := l.srv.Client(sc.c.ID())
		t.Fatalf("the recovered client's checksum is %x, the server's %x (client %+v, err %v; server's view %+v)", got, want, sc.c.Stats(), sc.err, info)
	}

	// A client that never acknowledges.
	mute := rawDial(t, l.url, nil)
	send := helloBytes(rules, testToken)
	ctxWrite(t, mute, send)
	l.run(150, 100) // 1.5 s
	if code, _ := closeCode(t, mute); code != CloseStalled {
		t.Fatalf("a client that never acks was closed with %d, want %d", code, CloseStalled)
	}
	l.converged(t, good)
}

func ctxWrite(t *testing.T, ws *websocket.Conn, msg []byte) {
	t.Helper()
	if err := ws.Write(t.Context(), websocket.MessageBinary, msg); err != nil {
		t.Fatal(err)
	}
}

// TestLagChangesOnlyTiming runs clients through a relay with latency and
// jitter next to direct ones, all sending an input a frame: they converge
// to the same state, and the inputs arrive in time.
func TestLagChangesOnlyTiming(t *testing.T) {
	g, err := scenario.NewGame(scenario.Config{N: 1000, Seed: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	markAll(g.World())
	rules := gameRules(t)
	if err := UseInput[uint32](rules); err != nil {
		t.Fatal(err)
	}
	w := g.World()
	inputs := ecs.EventsOf[Input[uint32]](w).NewReader()
	var got, repeated int
	step := func() {
		g.Tick()
		for _, in := range inputs.Read() {
			got++
			if in.Repeated {
				repeated++
			}
		}
	}
	l := newLoopback(t, w, rules, Options{ChecksumEvery: 1}, step)
	proxy := lagproxy.New(l.url, lagproxy.Config{Delay: 50 * time.Millisecond, Jitter: 20 * time.Millisecond, Seed: 9})
	ps := newHTTPTest(t, proxy)
	lagged := "ws" + strings.TrimPrefix(ps.URL, "http") + Path
	lead := uint64(6)
	if raceEnabled {
		lead = 20 // clients apply States several times slower
	}
	sendInput := func(c *Client) {
		if c.Tick() > 0 {
			SendInput(c, c.Tick()+lead, uint32(c.ID()))
		}
	}
	var cs []*testClient
	for i := range 6 {
		url := l.url
		if i%2 == 1 {
			url = lagged
		}
		cs = append(cs, dialTestWith(t, url, rules, ClientOptions{}, 20*time.Millisecond, sendInput))
	}
	l.run(60, 20)
	// Inputs are counted as the game ran, before the quiet ticks (which
	// run faster than the clients' lead allows for).
	during := l.srv.Stats()
	delivered := got
	ids := l.srv.Clients()
	if len(ids) != len(cs) {
		t.Fatalf("%d of %d clients are joined", len(ids), len(cs))
	}
	if !l.quiet(ids, 5*time.Second) {
		t.Fatal("the clients did not catch up")
	}
	stopAll(cs)
	for i, c := range cs {
		want, found := l.srv.ViewChecksum(c.c.ID())
		if sum := c.c.Checksum(); sum != want || !found {
			info, _ := l.srv.Client(c.c.ID())
			t.Errorf("client %d (lagged %v): checksum %x, server's %x (%v; %+v; %+v, %v; ids %v)", i, i%2 == 1, sum, want, found, info, c.c.Stats(), c.err, ids)
		}
	}
	t.Logf("while the game ran: %d input events, %d repeated; %d late, %d early", delivered, repeated, during.LateInputs, during.EarlyInputs)
	if delivered == 0 || during.EarlyInputs != 0 {
		t.Fatalf("%d input events delivered, %d early inputs", delivered, during.EarlyInputs)
	}
	if float64(during.LateInputs) > 0.01*float64(delivered) {
		t.Errorf("%d of %d inputs were late", during.LateInputs, delivered)
	}
}

// TestDroppedConnectionResyncs cuts a client's connection in the network
// (no close handshake) and dials again: the server drops the dead
// connection, the client sees an error, and the new connection converges.
func TestDroppedConnectionResyncs(t *testing.T) {
	l, rules, good := gameLoopback(t, Options{TickRate: 100})
	proxy := lagproxy.New(l.url, lagproxy.Config{Delay: 5 * time.Millisecond, Seed: 3})
	ps := newHTTPTest(t, proxy)
	viaProxy := "ws" + strings.TrimPrefix(ps.URL, "http") + Path
	c := dialTest(t, viaProxy, rules, ClientOptions{}, 5*time.Millisecond)
	l.run(30, 100)
	if n := proxy.Drop(); n != 1 {
		t.Fatalf("the relay cut %d connections, want 1", n)
	}
	l.run(30, 100)
	<-c.done // the client's loop ends on the error
	if c.err == nil {
		t.Fatal("the client saw no error when its connection was cut")
	}
	if n := len(l.srv.Clients()); n != 1 {
		t.Fatalf("%d clients after the cut, want 1", n)
	}
	l.rejoin(t, viaProxy, rules, good, "redialled")
	l.converged(t, good)
}

// rejoin dials url as a new client beside good, runs the server until both
// have caught up, stops the new client and checks that its world's
// checksum is the server's view of it. what names the client in failures.
func (l *loopback) rejoin(t *testing.T, url string, rules *Rules, good *testClient, what string) *testClient {
	t.Helper()
	again := dialTest(t, url, rules, ClientOptions{}, 5*time.Millisecond)
	l.run(20, 100)
	if !l.quiet([]ClientID{good.c.ID(), again.c.ID()}, 5*time.Second) {
		t.Fatal("the clients did not catch up")
	}
	again.stop()
	want, _ := l.srv.ViewChecksum(again.c.ID())
	if got := again.c.Checksum(); got != want {
		t.Fatalf("the %s client's checksum is %x, the server's %x", what, got, want)
	}
	return again
}
