package seeds

import (
	"math"
	"math/rand/v2"
)

// naiveParticles is the particle system of the dissertation "optimisations
// for the Entity Component System pattern" on the naive baseline: one Go
// map per component type, systems walking one map and looking the others
// up, with the same rules as internal/scenario's Particle (eight emitters,
// speed 1..5 in the upper half plane, lifetime up to 200 ticks, gravity,
// movement, ageing with despawn, counts per colour).
type naiveParticles struct {
	next     uint32
	pos, vel map[uint32]Position
	color    map[uint32]uint8
	life     map[uint32]float32
	rng      *rand.Rand
	died     int
	emitter  int
	perColor [8]int
}

const naiveDT = float32(1.0 / 60)

func newNaiveParticles(n int) *naiveParticles {
	p := &naiveParticles{pos: map[uint32]Position{}, vel: map[uint32]Position{}, color: map[uint32]uint8{},
		life: map[uint32]float32{}, rng: rand.New(rand.NewPCG(1, 0x9a27c1e5))}
	for i := range n {
		p.spawn(i % 8)
	}
	return p
}

func (p *naiveParticles) spawn(k int) {
	p.next++
	e := p.next
	speed := 1 + float32(4*p.rng.Float32())
	angle := math.Pi * p.rng.Float64()
	p.pos[e] = Position{float32(float32(k)*40) + 20, 0}
	p.vel[e] = Position{speed * float32(math.Cos(angle)), speed * float32(math.Sin(angle))} //tessera:nondeterministic-ok the naive baseline, timed, never compared across machines
	p.color[e] = uint8(k)
	p.life[e] = 200 * naiveDT * (1 - p.rng.Float32())
}

//go:noinline
func (p *naiveParticles) tick() {
	for range p.died { // Emit
		p.spawn(p.emitter)
		p.emitter = (p.emitter + 1) % 8
	}
	//tessera:nondeterministic-ok the naive baseline's Go-map store is what it measures
	for e, v := range p.vel { // Gravity
		v.Y -= 9.81 * naiveDT
		p.vel[e] = v
	}
	//tessera:nondeterministic-ok the naive baseline's Go-map store is what it measures
	for e, v := range p.vel { // Move
		if q, ok := p.pos[e]; ok {
			q.X += float32(v.X * naiveDT)
			q.Y += float32(v.Y * naiveDT)
			p.pos[e] = q
		}
	}
	var dead []uint32          // Age, then the deferred despawns
	for e, l := range p.life { //tessera:nondeterministic-ok the naive baseline's Go-map store is what it measures
		if l -= naiveDT; l <= 0 {
			dead = append(dead, e)
		}
		p.life[e] = l
	}
	for _, e := range dead {
		delete(p.pos, e)
		delete(p.vel, e)
		delete(p.color, e)
		delete(p.life, e)
	}
	p.died = len(dead)
	p.perColor = [8]int{} // Stats
	for _, c := range p.color {
		p.perColor[c]++
	}
}
