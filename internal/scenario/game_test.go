package scenario

import (
	"bytes"
	"testing"
)

func runGame(t *testing.T, cfg Config, ticks int) *Game {
	t.Helper()
	g, err := NewGame(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	for range ticks {
		g.Tick()
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestGameRunsAndDraws(t *testing.T) {
	for _, cfg := range []Config{{N: 5000, Seed: 3}, {N: 5000, Seed: 3, Mixed: true, Storage: "sparse"}} {
		g := runGame(t, cfg, 100)
		if g.Alive() != cfg.N {
			t.Fatalf("%+v: %d entities alive", cfg, g.Alive())
		}
		f := g.Frame()
		drawn := 0
		for y := range f {
			drawn += FrameWidth - bytes.Count(f[y][:], []byte{' '})
		}
		if drawn == 0 {
			t.Fatalf("%+v: the frame is empty", cfg)
		}
		// Heroes, monsters and NPCs that are alive show as '@', 'k', 'h'.
		all := bytes.Join(func() [][]byte {
			var rows [][]byte
			for y := range f {
				rows = append(rows, f[y][:])
			}
			return rows
		}(), nil)
		for _, c := range []byte("@k") {
			if !bytes.Contains(all, []byte{c}) {
				t.Errorf("%+v: no %q in the frame", cfg, c)
			}
		}
	}
}

func TestGameIsReproducible(t *testing.T) {
	cfg := Config{N: 4000, Seed: 11, Workers: 1, Mixed: true}
	base := runGame(t, cfg, 60).Hash()
	if again := runGame(t, cfg, 60).Hash(); again != base {
		t.Fatalf("same seed: %x and %x", base, again)
	}
	for _, workers := range []int{2, 4} {
		cfg.Workers = workers
		if got := runGame(t, cfg, 60).Hash(); got != base {
			t.Fatalf("%d workers: %x, one worker %x", workers, got, base)
		}
	}
}
