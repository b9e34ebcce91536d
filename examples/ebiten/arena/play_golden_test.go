package arena

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// playDigest hashes what the game plays out, in its own terms and apart
// from how the world stores it: for every entity with a place, its index,
// generation and parent, its place and velocity, and what it is (ship
// heading, turret, rock, health, bullet, spark, flash); and the score and
// the generator. The entities' hashes are added, so neither iteration
// order nor table layout nor component types the game does not play with
// count: a change of storage or of bookkeeping (a resource, a marker
// component) leaves it as it is, a change of what happens does not.
func playDigest(g *Game) uint64 {
	w := g.W
	ships, turrets := ecs.NewMap[Ship](w), ecs.NewMap[Turret](w)
	rocks, health := ecs.NewMap[Rock](w), ecs.NewMap[Health](w)
	bullets, sparks, flash := ecs.NewMap[Bullet](w), ecs.NewMap[Particle](w), ecs.NewMap[Flash](w)
	vel := ecs.NewMap[Vel](w)
	var sum uint64
	for r := range ecs.NewQuery1[Pos](w).All() {
		e := r.Entity
		var b []byte
		word := func(v uint64) { b = binary.LittleEndian.AppendUint64(b, v) }
		f32 := func(v float32) { word(uint64(math.Float32bits(v))) }
		word(uint64(e.Index()))
		word(uint64(e.Generation()))
		if p, ok := g.H.Parent(e); ok {
			word(uint64(p.Index()))
		}
		f32(r.A.X)
		f32(r.A.Y)
		if v, ok := vel.TryGet(e); ok {
			f32(v.X)
			f32(v.Y)
		}
		if s, ok := ships.TryGet(e); ok {
			word('s')
			f32(s.Angle)
		}
		if t, ok := turrets.TryGet(e); ok {
			word('t')
			f32(t.Angle)
			word(uint64(t.Cooldown))
		}
		if k, ok := rocks.TryGet(e); ok {
			word('r')
			f32(k.R)
		}
		if h, ok := health.TryGet(e); ok {
			word('h')
			word(uint64(h.HP))
		}
		if x, ok := bullets.TryGet(e); ok {
			word('b')
			word(uint64(x.Ticks))
		}
		if x, ok := sparks.TryGet(e); ok {
			word('p')
			word(uint64(x.Ticks))
			word(uint64(x.Color))
		}
		if x, ok := flash.TryGet(e); ok {
			word('f')
			word(uint64(x.Ticks))
		}
		h := fnv.New64a()
		h.Write(b)
		sum += h.Sum64()
	}
	h := fnv.New64a()
	sc := g.Score()
	h.Write(binary.LittleEndian.AppendUint64(nil, sum))
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(sc.Hits)<<32|uint64(uint32(sc.Kills))))
	h.Write(binary.LittleEndian.AppendUint64(nil, sc.Tick))
	h.Write(binary.LittleEndian.AppendUint64(nil, ecs.GetResource[Rng](w).State))
	return h.Sum64()
}

// TestScriptedPlayGolden pins the play of the scripted replay with
// replayPlan (saves, a rewind, loads), frame by frame: the digest of every
// frame (playDigest), chained. It holds however the world stores the game
// and whatever bookkeeping it keeps beside it, so a refactor of how the
// systems get their input or of what the world holds must leave it as it
// is; a change of the game's rules changes it, and then the new value goes
// here with the reason in the commit.
func TestScriptedPlayGolden(t *testing.T) {
	const want uint64 = 0x3ddc3e263ff332e7
	plan, err := ParsePlan(replayPlan)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seed: 11, Rocks: 300, Workers: 2, Debug: true}
	r := &replayer{cfg: cfg, g: New(cfg)}
	defer func() { r.g.Close() }()
	chain := fnv.New64a()
	for f := range 320 {
		for ; len(plan) > 0 && plan[0].Frame == f; plan = plan[1:] {
			if err := plan[0].Apply(r); err != nil {
				t.Fatalf("frame %d: %v", f, err)
			}
		}
		r.g.Step(Script(int(r.g.Score().Tick)))
		chain.Write(binary.LittleEndian.AppendUint64(nil, playDigest(r.g)))
	}
	if got := chain.Sum64(); got != want {
		t.Errorf("the scripted replay plays out as %#016x, want %#016x", got, want)
	}
}
