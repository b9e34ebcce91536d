package windowtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/examples/ebiten/netplay"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// TestTwoPlayersOnline runs a server in the test (netplay.Server on
// 127.0.0.1), the game in a window under Xvfb as one player (-connect,
// -script: it turns, thrusts and fires) and a client without a window as
// the other (it only turns right), for 3 s of play. Each ship must have
// followed its own player's input on the server; once the server stops
// and the clients have caught up, the window client's world (the checksum
// it prints) and the other client's must be the server's view of them,
// and the window's last frame must show both ships.
func TestTwoPlayersOnline(t *testing.T) {
	xvfb, bin := buildGame(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const token = "window-test-token"
	s, err := netplay.NewServer(netplay.ServerConfig{Game: arena.Config{Seed: 5, Rocks: 300, Workers: 2}, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Net())
	defer func() { s.Close(); hs.Close() }()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + netcode.Path

	shot := filepath.Join(t.TempDir(), "online.png")
	win := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1024x768x24", bin,
		"-connect", url, "-script", "-checksum", "-screenshot", shot)
	win.Env = append(os.Environ(), "TESSERA_NET_TOKEN="+token)
	killGroup(win)
	var stdout bytes.Buffer
	win.Stdout = &stdout
	logs := &lockedBuffer{}
	stderr, err := win.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := win.Start(); err != nil {
		t.Fatal(err)
	}
	joined := make(chan uint32, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			logs.WriteString(lines.Text() + "\n")
			if m := regexp.MustCompile(`as player (\d+)`).FindStringSubmatch(lines.Text()); m != nil {
				n, _ := strconv.ParseUint(m[1], 10, 32)
				joined <- uint32(n)
			}
		}
	}()
	exited := make(chan error, 1)
	go func() {
		<-scanned // Wait closes the pipe: read it to the end first
		exited <- win.Wait()
	}()

	// Tick at 60 a second until the window has joined and been seated.
	tick := time.NewTicker(time.Second / netplay.TickRate)
	defer tick.Stop()
	var a uint32
	for a == 0 {
		select {
		case a = <-joined:
		case err := <-exited:
			t.Fatalf("the window client quit before joining: %v\n%s", err, logs.String())
		case <-ctx.Done():
			t.Fatalf("the window client did not join in time:\n%s", logs.String())
		case <-tick.C:
			s.Step()
		}
	}
	bot, err := netplay.Dial(ctx, url, netplay.ClientConfig{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer bot.Close()
	b := bot.Player()
	botCtx, stopBot := context.WithCancel(ctx)
	botDone := make(chan error, 1)
	go func() {
		botDone <- bot.Play(botCtx, 5*time.Millisecond, func(uint64) arena.Input { return arena.Input{Right: true} })
	}()
	for len(s.Players()) < 2 && ctx.Err() == nil {
		<-tick.C
		s.Step()
	}
	g := s.Game()
	ships, pos := ecs.NewMap[arena.Ship](g.W), ecs.NewMap[arena.Pos](g.W)
	shipA, okA := g.ShipOf(a)
	shipB, okB := g.ShipOf(b)
	if !okA || !okB {
		t.Fatalf("players %v: the window's (%d) ship %v, the bot's (%d) %v", s.Players(), a, okA, b, okB)
	}
	fromA, fromB, angleB := *pos.Get(shipA), *pos.Get(shipB), ships.Get(shipB).Angle

	for range 3 * netplay.TickRate {
		<-tick.C
		s.Step()
	}
	if ctx.Err() != nil {
		t.Fatal("out of time while playing")
	}
	if p := *pos.Get(shipA); distance(p, fromA) < 20 {
		t.Errorf("the window's player thrust on the script, but its ship went only from %v to %v", fromA, p)
	}
	if p := *pos.Get(shipB); p != fromB {
		t.Errorf("the bot never thrust, but its ship moved from %v to %v", fromB, p)
	}
	if got := ships.Get(shipB).Angle; got < angleB+1 {
		t.Errorf("the bot turned right for 3 s, but its ship's heading went only from %v to %v", angleB, got)
	}
	st := s.Net().Stats()
	t.Logf("%d ticks, %d clients: %d bytes of States (%.1f KB/s a client), %d late inputs", st.Tick, st.Clients,
		st.BytesSent, float64(st.BytesSent)/float64(st.Tick)*netplay.TickRate/2/1000, st.LateInputs)

	if !s.Settle(ctx) {
		t.Fatalf("the clients did not catch up with the stopped game:\n%s", logs.String())
	}
	wantA, _ := s.Net().ViewChecksum(netcode.ClientID(a))
	wantB, _ := s.Net().ViewChecksum(netcode.ClientID(b))
	stopBot()
	if err := <-botDone; err != nil {
		t.Fatalf("the bot: %v", err)
	}
	if got := bot.Net.Checksum(); got != wantB {
		t.Errorf("the bot's world checksum is %016x, the server's view of it %016x", got, wantB)
	}
	s.Net().Close() // the window client quits when the server goes
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the window client: %v\n%s", err, logs.String())
		}
	case <-ctx.Done():
		t.Fatalf("the window client did not quit when the server closed:\n%s", logs.String())
	}
	m := regexp.MustCompile(`player (\d+) tick \d+ checksum ([0-9a-f]{16})`).FindStringSubmatch(stdout.String())
	if m == nil || m[1] != fmt.Sprint(a) {
		t.Fatalf("no checksum of player %d in the window client's output:\n%s\n%s", a, stdout.String(), logs.String())
	}
	if want := fmt.Sprintf("%016x", wantA); m[2] != want {
		t.Errorf("the window client's world checksum is %s, the server's view of it %s", m[2], want)
	}
	checkShips(t, shot)
	if path := os.Getenv("ARENA_SCREENSHOT_ONLINE"); path != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(path, data, 0o644)
	}
}

// checkShips checks that the frame at path shows the player's own ship
// (white) and the other's (orange).
func checkShips(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	near := func(want [3]int) int {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y + 24; y < b.Max.Y; y++ { // below the text
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if abs(int(r>>8)-want[0])+abs(int(g>>8)-want[1])+abs(int(bl>>8)-want[2]) < 30 {
					n++
				}
			}
		}
		return n
	}
	if b := img.Bounds(); b != image.Rect(0, 0, arena.Width, arena.Height) {
		t.Fatalf("the frame is %v, not the arena", b)
	}
	if mine, theirs := near([3]int{230, 240, 255}), near([3]int{255, 150, 60}); mine < 10 || theirs < 10 {
		t.Errorf("the last frame has %d pixels of the player's ship colour and %d of the other's: want both ships", mine, theirs)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// distance is how far apart a and b are, across the arena's wrapping
// edges taken the short way, in pixels (Manhattan).
func distance(a, b arena.Pos) float32 {
	d := func(x, y, size float32) float32 {
		v := x - y
		if v < 0 {
			v = -v
		}
		return min(v, size-v)
	}
	return d(a.X, b.X, arena.Width) + d(a.Y, b.Y, arena.Height)
}

// lockedBuffer is a strings.Builder safe for a writer and a reader on two
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
