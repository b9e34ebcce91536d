package scenario

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// serialFrame draws the frame as one loop over the query would: each cell
// holds the character of the last entity, in iteration order, in it.
func serialFrame(w *ecs.World) *Frame {
	f := new(Frame)
	for y := range f {
		for x := range f[y] {
			f[y][x] = ' '
		}
	}
	for r := range ecs.NewQuery2[GamePosition, Sprite](w).All() {
		x, y := int(r.A.X), int(r.A.Y)
		if r.A.X >= 0 && r.A.Y >= 0 && x < FrameWidth && y < FrameHeight {
			f[y][x] = r.B.Char
		}
	}
	return f
}

// TestParallelRenderMatchesSerial checks that the two-pass render draws,
// over many chunks, on 1 and 2 workers and with shuffled item orders, the
// frame of the serial loop, in which many entities share a cell and the
// last one wins.
func TestParallelRenderMatchesSerial(t *testing.T) {
	for _, tc := range []struct {
		workers int
		opts    []sched.SchedulerOption
	}{{1, nil}, {2, nil}, {2, []sched.SchedulerOption{sched.Shuffle(3)}}, {1, []sched.SchedulerOption{sched.Shuffle(9)}}} {
		g := runGame(t, Config{N: 40_000, Seed: 5, Workers: tc.workers, SchedOptions: tc.opts}, 0)
		for tick := range 30 {
			g.Tick()
			want := serialFrame(g.World())
			if *g.Frame() != *want {
				t.Fatalf("workers %d, options %d, tick %d: the parallel render's frame differs from the serial loop's", tc.workers, len(tc.opts), tick)
			}
		}
		drawn, inFrame := 0, 0
		for y := range g.Frame() {
			for _, c := range g.Frame()[y] {
				if c != ' ' {
					drawn++
				}
			}
		}
		for r := range ecs.NewQuery2[GamePosition, Sprite](g.World()).All() {
			if r.A.X >= 0 && r.A.Y >= 0 && r.A.X < FrameWidth && r.A.Y < FrameHeight {
				inFrame++
			}
		}
		if inFrame-drawn < 1000 {
			t.Fatalf("%d entities in the frame over %d cells: too few share a cell for the test to see a wrong order", inFrame, drawn)
		}
	}
}
