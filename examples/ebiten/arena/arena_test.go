package arena

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

func newTestGame(t *testing.T, workers int) *Game {
	t.Helper()
	g := New(Config{Seed: 7, Rocks: 400, Workers: workers, Debug: true})
	t.Cleanup(g.Close)
	return g
}

// TestPlays: the script hits and destroys rocks, the explosions spray
// sparks that are the explosions' children, and the arena keeps its rocks.
func TestPlays(t *testing.T) {
	g := newTestGame(t, 2)
	Run(g, 400)
	sc := g.Score()
	if sc.Hits == 0 || sc.Kills == 0 || sc.Tick != 400 {
		t.Fatalf("score %+v after 400 ticks", sc)
	}
	if n := ecs.NewQuery1[Rock](g.W).Count(); n < 350 || n > 400 {
		t.Errorf("%d rocks, want about 400", n)
	}
	sparks := 0
	for r := range ecs.NewQuery1[Particle](g.W).All() {
		parent, ok := g.H.Parent(r.Entity)
		if !ok || !ecs.NewMap[Emitter](g.W).Has(parent) {
			t.Fatalf("spark %v is not a child of an emitter", r.Entity)
		}
		sparks++
	}
	if sparks == 0 {
		t.Error("no sparks")
	}
}

// TestDeterministicAcrossWorkers: the same script gives the same world,
// checksum for checksum, on 1 and 2 workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	a, b := newTestGame(t, 1), newTestGame(t, 2)
	for tick := range 300 {
		in := Script(tick)
		a.Step(in)
		b.Step(in)
		if tick%50 == 49 && a.W.Checksum() != b.W.Checksum() {
			t.Fatalf("tick %d: checksums differ between 1 and 2 workers", tick)
		}
	}
}

// digest sums what the game shows and the ids it has handed out: every
// rock, bullet and spark's entity, parent, place, health and age, in
// iteration order, and the score: a second opinion, in the game's own
// terms, next to World.Checksum.
func digest(g *Game) uint64 {
	h := fnv.New64a()
	for r := range ecs.NewQuery2[Pos, Vel](g.W).All() {
		parent, _ := g.H.Parent(r.Entity)
		fmt.Fprint(h, r.Entity, parent, *r.A, *r.B)
	}
	for r := range ecs.NewQuery1[Health](g.W).All() {
		fmt.Fprint(h, r.Entity, *r.A)
	}
	for r := range ecs.NewQuery1[Particle](g.W).All() {
		fmt.Fprint(h, r.Entity, *r.A)
	}
	fmt.Fprint(h, g.Score(), *ecs.GetResource[Rng](g.W))
	return h.Sum64()
}

// TestSaveLoadContinues: a game saved and loaded plays on exactly as the
// original does, entity ids included.
func TestSaveLoadContinues(t *testing.T) {
	g := newTestGame(t, 2)
	Run(g, 150)
	var file bytes.Buffer
	if err := g.Save(&file); err != nil {
		t.Fatal(err)
	}
	back, err := Load(Config{Seed: 7, Rocks: 400, Workers: 1, Debug: true}, bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if digest(back) != digest(g) || back.W.Checksum() != g.W.Checksum() {
		t.Fatal("the loaded game differs from the saved one")
	}
	for range 150 {
		in := Script(int(g.Score().Tick))
		g.Step(in)
		back.Step(in)
		if digest(back) != digest(g) || back.Score() != g.Score() || back.W.Checksum() != g.W.Checksum() {
			t.Fatalf("tick %d after the load: the games differ (score %+v against %+v)", g.Score().Tick, back.Score(), g.Score())
		}
	}
}

// TestRewind: rewinding n ticks and replaying the same input gives the
// same world again; the ring runs out after RewindTicks.
func TestRewind(t *testing.T) {
	g := newTestGame(t, 2)
	Run(g, 100)
	want := g.W.Checksum()
	Run(g, 30)
	for range 30 {
		if !g.Rewind() {
			t.Fatal("rewind refused inside the ring")
		}
	}
	if g.Score().Tick != 100 || g.W.Checksum() != want {
		t.Fatalf("after 30 rewinds: tick %d, checksum equal %v", g.Score().Tick, g.W.Checksum() == want)
	}
	Run(g, 30)
	h := newTestGame(t, 1)
	Run(h, 130)
	if g.W.Checksum() != h.W.Checksum() {
		t.Fatal("replaying after a rewind gave another world")
	}
	n := 0
	for g.Rewind() {
		n++
	}
	if n != 129 { // back to tick 1, the oldest snapshot
		t.Errorf("rewound %d ticks, want 129", n)
	}
}
