package windowtest

import (
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
)

// TestWindowUnderXvfb builds the game, runs it in a virtual X display
// (xvfb-run) with the scripted input for 300 ticks, and checks that the
// last frame is a picture, not a blank screen, and that the world's
// checksum is the one a headless run of the same script gives. Under CI
// (CI set) it must run; elsewhere it is skipped when xvfb-run is missing.
func TestWindowUnderXvfb(t *testing.T) {
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
	dir := t.TempDir()
	bin := filepath.Join(dir, "arena")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const ticks, seed, rocks = 300, 3, 800
	shot := filepath.Join(dir, "frame.png")
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1024x768x24", bin, "-script", "-ticks", fmt.Sprint(ticks),
		"-seed", fmt.Sprint(seed), "-rocks", fmt.Sprint(rocks), "-workers", "2", "-screenshot", shot, "-checksum")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the game under Xvfb: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`tick (\d+) checksum ([0-9a-f]{16})`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no checksum in the output:\n%s", out)
	}

	g := arena.New(arena.Config{Seed: seed, Rocks: rocks, Workers: 1})
	defer g.Close()
	arena.Run(g, ticks)
	if want := fmt.Sprintf("%016x", g.W.Checksum()); string(m[1]) != fmt.Sprint(ticks) || string(m[2]) != want {
		t.Errorf("the window ran to tick %s with checksum %s; the headless run of the script gives tick %d, %s", m[1], m[2], ticks, want)
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
