package netcode

import (
	"math/rand/v2"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type tPos struct{ X, Y float32 }
type tHealth struct {
	HP     int32
	Status uint8
}
type tName struct{ S string }
type tLink struct{ To ecs.Entity }

func testRules(t testing.TB) *Rules {
	r := NewRules()
	for _, err := range []error{Replicate[tPos](r), Replicate[tHealth](r), Replicate[tName](r), Replicate[tLink](r), ReplicateRelation[ecs.ChildOf](r)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// serverSide is a world with a view of it, encoded as a server would.
type serverSide struct {
	w     *ecs.World
	rules *Rules
	bound []boundRule
	marks *ecs.Query1[Replicated]
	img   image
	tick  uint64
}

func newServerSide(rules *Rules) *serverSide { return serverSideOf(ecs.NewWorld(), rules) }

// serverSideOf is a server side of world w.
func serverSideOf(w *ecs.World, rules *Rules) *serverSide {
	s := &serverSide{w: w, rules: rules}
	for _, r := range rules.rules {
		s.bound = append(s.bound, r.bind(s.w))
		s.img.rules = append(s.img.rules, ruleImage{size: r.fixedSize()})
	}
	s.marks = ecs.NewQuery1[Replicated](s.w)
	return s
}

func (s *serverSide) capture() {
	s.tick++
	s.img.capture(s.w, s.marks, s.bound, s.tick)
}

// churn makes n random changes to the server's world.
func churn(w *ecs.World, rng *rand.Rand, n int) {
	pos, hp, name, link := ecs.NewMap[tPos](w), ecs.NewMap[tHealth](w), ecs.NewMap[tName](w), ecs.NewMap[tLink](w)
	marks := ecs.NewMap[Replicated](w)
	var alive []ecs.Entity
	for ch := range ecs.NewQuery1[Replicated](w).Chunks() {
		alive = append(alive, ch.Entities...)
	}
	pick := func() (ecs.Entity, bool) {
		if len(alive) == 0 {
			return ecs.Entity{}, false
		}
		e := alive[rng.IntN(len(alive))]
		return e, w.Alive(e)
	}
	childOf := ecs.NewRelation[ecs.ChildOf](w)
	for range n {
		switch op := rng.IntN(12); op {
		case 10:
			if e, ok := pick(); ok {
				if p, ok2 := pick(); ok2 && !ancestorOf(childOf, e, p) {
					childOf.Set(e, p, ecs.ChildOf{})
				}
			}
		case 11:
			if e, ok := pick(); ok {
				childOf.RemoveTargets(e)
			}
		case 0, 1:
			e := w.Spawn()
			marks.Add(e, Replicated{})
			pos.Add(e, tPos{rng.Float32() * 100, rng.Float32() * 100})
			if rng.IntN(2) == 0 {
				hp.Add(e, tHealth{HP: rng.Int32N(100), Status: uint8(rng.IntN(3))})
			}
			if rng.IntN(4) == 0 {
				name.Add(e, tName{string(rune('a' + rng.IntN(26)))})
			}
			if e2, ok := pick(); ok && rng.IntN(3) == 0 {
				link.Add(e, tLink{e2})
			}
			alive = append(alive, e)
		case 2:
			if e, ok := pick(); ok {
				w.Despawn(e)
			}
		case 3, 4, 5:
			if e, ok := pick(); ok && pos.Has(e) {
				p := pos.Get(e)
				p.X += 1.5
				p.Y -= 0.25
			}
		case 6:
			if e, ok := pick(); ok {
				if hp.Has(e) && rng.IntN(2) == 0 {
					hp.Remove(e)
				} else {
					hp.Set(e, tHealth{HP: rng.Int32N(100)})
				}
			}
		case 7:
			if e, ok := pick(); ok {
				name.Set(e, tName{string(rune('a'+rng.IntN(26))) + "x"})
			}
		case 8:
			if e, ok := pick(); ok && marks.Has(e) && rng.IntN(4) == 0 {
				marks.Remove(e)
			}
		case 9:
			if e, ok := pick(); ok {
				if e2, ok2 := pick(); ok2 {
					link.Set(e, tLink{e2})
				}
			}
		}
	}
}

func TestMirrorFollowsRandomWorlds(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		rules := testRules(t)
		s := newServerSide(rules)
		v := newView(rules.rules)
		cw := ecs.NewWorld()
		m := newMirror(cw, rules.rules, 1<<20)
		budget := 0
		if seed%2 == 1 {
			budget = 200 + rng.IntN(400)
		}
		var prev uint64
		for tick := range 120 {
			if tick < 80 {
				churn(s.w, rng, 1+rng.IntN(40))
			}
			s.capture()
			v.grow(len(s.img.gens))
			copy(v.want, s.img.gens)
			clear(v.want[len(s.img.gens):])
			if seed%3 == 2 { // a relevancy that hides odd indices
				for i := range v.want {
					if i%2 == 1 {
						v.want[i] = 0
					}
				}
			}
			reset := tick == 50 && seed%4 == 0
			msg := v.encodeState(nil, &s.img, prev, budget, reset, true)
			prev = s.tick
			checked, ok, err := m.applyState(msg)
			if err != nil {
				t.Fatalf("seed %d tick %d: applyState: %v", seed, tick, err)
			}
			if checked && !ok {
				t.Fatalf("seed %d tick %d: the client's view checksum differs from the server's", seed, tick)
			}
			if checked {
				if got, want := m.worldSum(rules.rules), v.checksum(&s.img); got != want {
					t.Fatalf("seed %d tick %d: the client world's checksum %x differs from the server's %x", seed, tick, got, want)
				}
			}
		}
		if v.pending != 0 {
			t.Fatalf("seed %d: %d entities still wait after 40 quiet ticks", seed, v.pending)
		}
		if got, want := m.worldSum(rules.rules), v.checksum(&s.img); got != want {
			t.Fatalf("seed %d: after the quiet ticks the client's checksum %x differs from the server's %x", seed, got, want)
		}
		// Relation pairs: every pair the server has between two entities the
		// client holds, the client has between their client entities.
		sRel, cRel := ecs.NewRelation[ecs.ChildOf](s.w), ecs.NewRelation[ecs.ChildOf](cw)
		pairs := 0
		for idx, g := range m.gens {
			if g == 0 {
				continue
			}
			se := serverEntity(s.w, uint32(idx))
			if tgt, ok := sRel.Target(se); ok && int(tgt.Index()) < len(m.gens) && m.gens[tgt.Index()] == tgt.Generation()+1 {
				pairs++
				if !cRel.Has(m.ents[idx], m.ents[tgt.Index()]) {
					t.Fatalf("seed %d: the server's pair %v -> %v is missing on the client", seed, se, tgt)
				}
			}
			if ct, ok := cRel.Target(m.ents[idx]); ok && !sRel.Has(se, serverEntity(s.w, indexOf(m, ct))) {
				t.Fatalf("seed %d: the client has a pair the server does not", seed)
			}
		}
		if seed == 0 && pairs == 0 {
			t.Fatal("the random world made no relation pair to check")
		}
		held := 0
		for _, g := range m.gens {
			if g != 0 {
				held++
			}
		}
		if held != cw.Len() {
			t.Fatalf("seed %d: the client world has %d entities for %d held", seed, cw.Len(), held)
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

// ancestorOf reports whether a is p or one of p's ancestors.
func ancestorOf(r *ecs.Relation[ecs.ChildOf], a, p ecs.Entity) bool {
	for x := p; ; {
		if x == a {
			return true
		}
		next, ok := r.Target(x)
		if !ok {
			return false
		}
		x = next
	}
}

// serverEntity returns the live entity of w at index idx.
func serverEntity(w *ecs.World, idx uint32) ecs.Entity {
	for ch := range ecs.NewQuery1[Replicated](w).Chunks() {
		for _, e := range ch.Entities {
			if e.Index() == idx {
				return e
			}
		}
	}
	return ecs.Entity{}
}

// indexOf returns the server index the mirror maps to client entity e.
func indexOf(m *mirror, e ecs.Entity) uint32 {
	for idx, ce := range m.ents {
		if m.gens[idx] != 0 && ce == e {
			return uint32(idx)
		}
	}
	return 1 << 31
}
