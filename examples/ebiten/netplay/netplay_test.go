package netplay

import (
	"context"
	"errors"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/net/netcode"
)

const testToken = "arena-test-token"

// startStep is the heading every ship starts with (up).
const startAngle = -1.5708

// loopback is a Server on 127.0.0.1 whose game the test steps.
func loopback(t *testing.T, cfg ServerConfig) (*Server, string) {
	t.Helper()
	if cfg.Token == "" {
		cfg.Token = testToken
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Net())
	t.Cleanup(func() { s.Close(); hs.Close() })
	return s, "ws" + strings.TrimPrefix(hs.URL, "http") + netcode.Path
}

// bot is a Client playing input on a goroutine of its own until stopped.
type bot struct {
	c    *Client
	stop context.CancelFunc
	done chan error
}

func startBot(t *testing.T, ctx context.Context, url string, input func(uint64) arena.Input) *bot {
	t.Helper()
	c, err := Dial(ctx, url, ClientConfig{Token: testToken})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	pctx, stop := context.WithCancel(ctx)
	b := &bot{c: c, stop: stop, done: make(chan error, 1)}
	go func() { b.done <- c.Play(pctx, 5*time.Millisecond, input) }()
	t.Cleanup(func() { b.halt(); c.Close() })
	return b
}

// halt stops the bot's loop; its world is the test's to read after.
func (b *bot) halt() error {
	b.stop()
	err := <-b.done
	b.done <- err // a second halt gets the same
	return err
}

// run steps s n times at TickRate, or until ctx is done.
func run(ctx context.Context, s *Server, n int) {
	start := time.Now()
	for i := range n {
		if ctx.Err() != nil {
			return
		}
		s.Step()
		time.Sleep(time.Until(start.Add(time.Duration(i+1) * time.Second / TickRate)))
	}
}

// TestTwoPlayersOverLoopback: two clients join, each gets a ship and
// steers only its own: one turns left, thrusts and fires, the other only
// turns right. Once the server stops, both clients' worlds hold the
// server's view of the game, checksum for checksum.
func TestTwoPlayersOverLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, url := loopback(t, ServerConfig{Game: arena.Config{Seed: 3, Rocks: 150, Workers: 2}})
	a := startBot(t, ctx, url, func(uint64) arena.Input { return arena.Input{Left: true, Thrust: true, Fire: true} })
	// B connects once A has: bots started together may reach the server
	// in any order, and the test names the seats.
	steps := 0
	for len(s.Net().Clients()) < 1 && ctx.Err() == nil {
		run(ctx, s, 1)
		steps++
	}
	b := startBot(t, ctx, url, func(uint64) arena.Input { return arena.Input{Right: true} })
	run(ctx, s, max(0, 150-steps))

	if got, want := s.Players(), []netcode.ClientID{a.c.Net.ID(), b.c.Net.ID()}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Logf("server %+v; client A: %v, client B: %v", s.Net().Stats(), a.c.Net.Err(), b.c.Net.Err())
		t.Fatalf("players %v, want %v", got, want)
	}
	ships, pos := ecs.NewMap[arena.Ship](s.Game().W), ecs.NewMap[arena.Pos](s.Game().W)
	shipA, okA := s.Game().ShipOf(a.c.Player())
	shipB, okB := s.Game().ShipOf(b.c.Player())
	if !okA || !okB {
		t.Fatalf("ships: player %d's %v, player %d's %v", a.c.Player(), okA, b.c.Player(), okB)
	}
	// 150 ticks at 0.08 a tick is 12 radians: at least 1 of it is asked.
	if got := ships.Get(shipA).Angle; got > startAngle-1 {
		t.Errorf("player A turned left all along, but its ship heads %v", got)
	}
	if got := ships.Get(shipB).Angle; got < startAngle+1 {
		t.Errorf("player B turned right all along, but its ship heads %v", got)
	}
	if p := *pos.Get(shipA); p == seatAt[0] {
		t.Errorf("player A thrust all along, but its ship is still at %v", p)
	}
	if p := *pos.Get(shipB); p != seatAt[1] {
		t.Errorf("player B never thrust, but its ship moved to %v", p)
	}
	if sc := s.Game().Score(); sc.Tick != 150 {
		t.Errorf("the game ran %d ticks, want 150", sc.Tick)
	}

	st := s.Net().Stats()
	t.Logf("150 ticks: %d bytes of States to 2 clients (%.1f KB/s per client), %d late inputs", st.BytesSent, float64(st.BytesSent)/2/2.5/1000, st.LateInputs)
	if !s.Settle(ctx) {
		t.Fatal("the clients did not catch up with the stopped game")
	}
	for name, x := range map[string]*bot{"A": a, "B": b} {
		if err := x.halt(); err != nil {
			t.Fatalf("client %s: %v", name, err)
		}
		want, _ := s.Net().ViewChecksum(x.c.Net.ID())
		if got := x.c.Net.Checksum(); got != want {
			t.Errorf("client %s: world checksum %x, the server's view %x", name, got, want)
		}
		if _, ok := x.c.Ship(); !ok {
			t.Errorf("client %s does not see its own ship", name)
		}
		if sc, ok := x.c.Score(); !ok || sc != s.Game().Score() {
			t.Errorf("client %s: score %+v (%v), the server's %+v", name, sc, ok, s.Game().Score())
		}
		if st := x.c.Net.Stats(); st.Mismatches != 0 {
			t.Errorf("client %s: %d of %d checked States mismatched", name, st.Mismatches, st.Checked)
		}
	}
}

// TestThirdClientWatches: with both seats taken a third client gets no
// ship, and takes the seat of a player who leaves.
func TestThirdClientWatches(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, url := loopback(t, ServerConfig{Game: arena.Config{Seed: 3, Rocks: 20, Workers: 1}})
	idle := func(uint64) arena.Input { return arena.Input{} }
	// The third client connects once the first two have: bots started
	// together may reach the server in any order.
	a := startBot(t, ctx, url, idle)
	startBot(t, ctx, url, idle)
	for len(s.Net().Clients()) < 2 && ctx.Err() == nil {
		run(ctx, s, 1)
	}
	c := startBot(t, ctx, url, idle)
	for len(s.Net().Clients()) < 3 && ctx.Err() == nil {
		run(ctx, s, 1)
	}
	run(ctx, s, 2)
	if _, ok := s.Game().ShipOf(c.c.Player()); ok || len(s.Players()) != 2 {
		t.Fatalf("players %v with 3 clients; the third has a ship: %v", s.Players(), ok)
	}
	a.halt()
	a.c.Close()
	for ctx.Err() == nil {
		if _, ok := s.Game().ShipOf(c.c.Player()); ok {
			break
		}
		run(ctx, s, 1)
	}
	if _, ok := s.Game().ShipOf(a.c.Player()); ok {
		t.Error("the player who left still has a ship")
	}
	if _, ok := s.Game().ShipOf(c.c.Player()); !ok {
		t.Fatalf("the watching client got no ship when a seat came free: players %v", s.Players())
	}
}

// TestWrongTokenRefused: a client with another token is refused with
// netcode.CloseToken.
func TestWrongTokenRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, url := loopback(t, ServerConfig{Game: arena.Config{Rocks: 1, Workers: 1}})
	_, err := Dial(ctx, url, ClientConfig{Token: "not-it"})
	var ce *netcode.CloseError
	if !errors.As(err, &ce) || ce.Code != netcode.CloseToken {
		t.Fatalf("Dial with a wrong token: %v, want a close with %d", err, netcode.CloseToken)
	}
}

// TestListenHosts: a listen address names the host clients reach it by,
// unless it listens everywhere.
func TestListenHosts(t *testing.T) {
	for addr, want := range map[string]string{"192.0.2.7:7800": "192.0.2.7", "gamebox:7800": "gamebox", "0.0.0.0:7800": "", ":7800": "", "[::]:7800": "", "nonsense": ""} {
		got := strings.Join(ListenHosts(addr), ",")
		if got != want {
			t.Errorf("ListenHosts(%q) = %q, want %q", addr, got, want)
		}
	}
	if got := strings.Join(SplitList(" a, ,b,"), "|"); got != "a|b" {
		t.Errorf("SplitList = %q", got)
	}
}

// TestServeListens: Serve listens on a loopback port, tells the URL,
// ticks the game for a client that joins there and stops when its
// context is done.
func TestServeListens(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := NewServer(ServerConfig{Game: arena.Config{Seed: 1, Rocks: 10, Workers: 1}, Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	urls := make(chan string, 1)
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.Serve(sctx, "127.0.0.1:0", func(url string) { urls <- url }, t.Logf) }()
	var url string
	select {
	case url = <-urls:
	case err := <-served:
		t.Fatalf("Serve: %v", err)
	}
	c := startBot(t, ctx, url, func(uint64) arena.Input { return arena.Input{Thrust: true} })
	// Stats is safe from any goroutine: wait for 30 States sent to it.
	for st := s.Net().Stats(); st.Clients != 1 || st.StatesSent < 30; st = s.Net().Stats() {
		if ctx.Err() != nil {
			t.Fatalf("the client did not get 30 States in time: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve returned %v after its context ended", err)
	}
	c.halt() // the connection's end, if it came first, is no matter here
	if _, ok := c.c.Ship(); !ok {
		t.Error("the client does not see its ship")
	}
	if _, err := net.Listen("tcp", strings.TrimPrefix(strings.TrimSuffix(url, netcode.Path), "ws://")); err != nil {
		t.Errorf("Serve did not close its listener: %v", err)
	}
}
