package windowtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
)

// TestWindowUnderXvfb builds the game, runs it in a virtual X display
// (xvfb-run) with the scripted input for 300 frames, saving (F5), rewinding
// (R) and loading (F9) on the way, and checks that the last frame is a
// picture, not a blank screen, and that the world's tick and checksum are
// the ones a headless replay of the same script and plan gives. Under CI
// (CI set) it must run; elsewhere it is skipped when xvfb-run is missing.
func TestWindowUnderXvfb(t *testing.T) {
	xvfb, bin := buildGame(t)
	dir := t.TempDir()
	const frames, seed, rocks, plan = 300, 3, 800, "100:save,180:rewind=50,230:load"
	shot := filepath.Join(dir, "frame.png")
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1024x768x24", bin, "-script", "-ticks", fmt.Sprint(frames),
		"-plan", plan, "-save", filepath.Join(dir, "arena.sav"),
		"-seed", fmt.Sprint(seed), "-rocks", fmt.Sprint(rocks), "-workers", "2", "-screenshot", shot, "-checksum")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the game under Xvfb: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`tick (\d+) checksum ([0-9a-f]{16})`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no checksum in the output:\n%s", out)
	}

	acts, err := arena.ParsePlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	g, err := arena.Replay(arena.Config{Seed: seed, Rocks: rocks, Workers: 1}, frames, acts)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// 100 ticks, save; 80 more, back 50 to 130; 50 more; load tick 100; 70 more.
	if g.Score().Tick != 170 {
		t.Fatalf("the headless replay ended at tick %d, want 170", g.Score().Tick)
	}
	if want := fmt.Sprintf("%016x", g.W.Checksum()); string(m[1]) != "170" || string(m[2]) != want {
		t.Errorf("the window ran to tick %s with checksum %s; the headless replay of the script and plan gives tick 170, %s", m[1], m[2], want)
	}

	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	colours := map[[3]uint32]bool{}
	lit := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			if r>>8+g>>8+b>>8 > 120 {
				lit++
			}
		}
	}
	if b.Dx() != arena.Width || b.Dy() != arena.Height || len(colours) < 8 || lit < 2000 {
		t.Errorf("the frame is %dx%d with %d colours and %d lit pixels: blank, or not the arena", b.Dx(), b.Dy(), len(colours), lit)
	}
	if os.Getenv("ARENA_SCREENSHOT") != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(os.Getenv("ARENA_SCREENSHOT"), data, 0o644)
	}
}

// buildGame finds xvfb-run and builds the game into a temporary directory,
// or skips the test (fails it under CI) when xvfb-run is missing.
func buildGame(t *testing.T) (xvfb, bin string) {
	t.Helper()
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xvfb-run is not installed (Debian's xvfb); CI must run this test")
		}
		t.Skip("xvfb-run is not installed (Debian's xvfb); skipping the window test")
	}
	if testing.Short() {
		t.Skip("builds and runs the game in a window: not in -short")
	}
	bin = filepath.Join(t.TempDir(), "arena")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return xvfb, bin
}

// TestInspectFlag: with -inspect the game serves the inspector, whose
// world summary counts the game's entities while it plays.
func TestInspectFlag(t *testing.T) {
	xvfb, bin := buildGame(t)
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1024x768x24", bin, "-script", "-ticks", "1200", "-rocks", "300",
		"-inspect", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url := ""
	lines := bufio.NewScanner(stderr)
	for url == "" && lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), "inspector at "); ok {
			url = strings.TrimSpace(after)
		}
	}
	if url == "" {
		t.Fatal("the game did not print the inspector's address")
	}
	go func() {
		for lines.Scan() { // keep the pipe drained
		}
	}()
	// The rocks arrive 50 a tick: ask until the inspector sees them all.
	var world struct {
		Entities int    `json:"entities"`
		Tick     uint64 `json:"tick"`
	}
	for deadline := time.Now().Add(20 * time.Second); world.Entities < 300 && time.Now().Before(deadline); {
		resp, err := http.Get(url + "api/world")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&world)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/world: %d, %v", resp.StatusCode, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if world.Entities < 300 || world.Tick == 0 {
		t.Errorf("the inspector sees %d entities at tick %d, want the 300 rocks and more", world.Entities, world.Tick)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the game with the inspector: %v", err)
	}
}

// TestPlanMistakes: a plan the game cannot read, a plan without -script,
// a load before any save, an act past the last frame, a save with no
// -save file named, and a save file that cannot be written stop the game
// with an error that says what is wrong, rather than playing on.
func TestPlanMistakes(t *testing.T) {
	xvfb, bin := buildGame(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-script", "-plan", "10:jump"}, "the action is save, load or rewind=N"},
		{[]string{"-plan", "10:save"}, "-plan needs -script"},
		{[]string{"-script", "-plan", "5:load"}, "a load before any save"},
		{[]string{"-script", "-plan", "20:rewind=3"}, "rewind at frame 20, but the run has 20 frames"},
		{[]string{"-script", "-plan", "5:save"}, "-plan needs -save FILE"},
		{[]string{"-script", "-plan", "5:save", "-save", filepath.Join(dir, "no", "such", "dir.sav")}, "-plan at frame 5"},
	} {
		args := append([]string{"-a", "-s", "-screen 0 1024x768x24", bin, "-ticks", "20", "-rocks", "50"}, c.args...)
		out, err := exec.Command(xvfb, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.says) {
			t.Errorf("%v: %v, output\n%s\nwant a failure saying %q", c.args, err, out, c.says)
		}
	}
}
