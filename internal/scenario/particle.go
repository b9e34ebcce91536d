package scenario

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Components of the particle scenario.
type (
	Emitter struct {
		X, Y  float32
		Color uint8
	}
	Position struct{ X, Y float32 }
	Velocity struct{ X, Y float32 }
	Color    struct{ C uint8 }
	Lifetime struct{ Left float32 }
)

// Colors is the number of emitters, one per colour.
const Colors = 8

// maxLifetime is the longest a particle lives: 200 ticks, so that about 1%
// of a steady population dies per tick.
const maxLifetime = 200 * DT

// chunkRows is how many rows one data-parallel work item covers.
const chunkRows = 4096

// Particle is the particle system of the dissertation "optimisations for the
// Entity Component System pattern": Colors emitters keep a population
// of N particles. Per tick, in order: Emit (round-robin over the emitters,
// as many particles as died last tick), Gravity (v.Y -= 9.81 dt), Move
// (p += v dt), Age (Left -= dt; despawn when Left <= 0, deferred) and Stats
// (live particles per colour). All randomness comes from one generator
// seeded with Config.Seed, used by Emit alone, so a run is reproducible
// whatever the number of workers. With Storage "sparse", Color and Lifetime
// live in sparse sets.
type Particle struct {
	cfg   Config
	w     *ecs.World
	s     *sched.Scheduler
	rng   *rand.Rand
	emits []ecs.Entity

	emitters *ecs.Map[Emitter]
	pos      *ecs.Map[Position]
	vel      *ecs.Map[Velocity]
	col      *ecs.Map[Color]
	life     *ecs.Map[Lifetime]
	movers   *ecs.Query2[Position, Velocity]
	aging    *ecs.Query1[Lifetime]
	colored  *ecs.Query1[Color]

	died     int            // particles despawned in the last tick
	perColor [Colors]int    // live particles per colour, from Stats
	dead     [][]ecs.Entity // Age's finds, per chunk, in chunk order
	vchunks  []ecs.Chunk1[Velocity]
	mchunks  []ecs.Chunk2[Position, Velocity]
	lchunks  []ecs.Chunk1[Lifetime]
	idx      []int // 0, 1, 2, ...: chunk numbers for ForEach
}

// NewParticle builds the particle scenario with cfg.N particles, already
// spread over their lifetimes.
func NewParticle(cfg Config) (*Particle, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	w := ecs.NewWorld()
	if cfg.sparse() {
		ecs.Register[Color](w, ecs.Sparse(), ecs.CapacityHint(cfg.N))
		ecs.Register[Lifetime](w, ecs.Sparse(), ecs.CapacityHint(cfg.N))
	}
	p := &Particle{cfg: cfg, w: w, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9a27c1e5)),
		emitters: ecs.NewMap[Emitter](w), pos: ecs.NewMap[Position](w), vel: ecs.NewMap[Velocity](w),
		col: ecs.NewMap[Color](w), life: ecs.NewMap[Lifetime](w)}
	p.movers = ecs.NewQuery2[Position, Velocity](w)
	p.aging = ecs.NewQuery1[Lifetime](w)
	p.colored = ecs.NewQuery1[Color](w)
	for c := range Colors {
		x := float32(c)*40 + 20
		p.emits = append(p.emits, p.emitters.Spawn(Emitter{X: x, Y: 0, Color: uint8(c)}))
	}
	w.Reserve(cfg.N)
	for i := range cfg.N {
		e := w.Spawn()
		p.born(e, i%Colors, func(e ecs.Entity, pos Position, vel Velocity, c Color, l Lifetime) {
			p.pos.Add(e, pos)
			p.vel.Add(e, vel)
			p.col.Add(e, c)
			p.life.Add(e, l)
		})
	}
	p.s = sched.New(w, sched.Workers(cfg.Workers))
	p.addSystems()
	return p, nil
}

// born draws a new particle of emitter k and hands its components to put.
func (p *Particle) born(e ecs.Entity, k int, put func(ecs.Entity, Position, Velocity, Color, Lifetime)) {
	em := p.emitters.Get(p.emits[k])
	speed := 1 + 4*p.rng.Float32()
	angle := math.Pi * p.rng.Float64()          // the upper half plane
	left := maxLifetime * (1 - p.rng.Float32()) // in (0, maxLifetime]
	put(e, Position{em.X, em.Y},
		Velocity{speed * float32(math.Cos(angle)), speed * float32(math.Sin(angle))},
		Color{em.Color}, Lifetime{left})
}

func (p *Particle) addSystems() {
	s := p.s
	next := 0 // the emitter whose turn it is
	s.AddFunc("emit", func(ctx *sched.Context) {
		c := ctx.Commands()
		for range p.died {
			p.born(c.Spawn(), next, func(e ecs.Entity, pos Position, vel Velocity, col Color, l Lifetime) {
				p.pos.AddCmd(c, e, pos)
				p.vel.AddCmd(c, e, vel)
				p.col.AddCmd(c, e, col)
				p.life.AddCmd(c, e, l)
			})
			next = (next + 1) % Colors
		}
	}, sched.Structural(), sched.Reads[Emitter](),
		sched.Writes[Position](), sched.Writes[Velocity](), sched.Writes[Color](), sched.Writes[Lifetime]())

	gravityQ := ecs.NewQuery1[Velocity](p.w)
	s.AddFunc("gravity", func(ctx *sched.Context) {
		p.vchunks = gravityQ.AppendChunks(p.vchunks[:0], chunkRows)
		sched.ForEach(ctx, p.vchunks, func(c ecs.Chunk1[Velocity]) {
			for i := range c.A {
				c.A[i].Y -= 9.81 * DT
			}
		})
	}, sched.Writes[Velocity]())
	s.AddFunc("move", func(ctx *sched.Context) {
		p.mchunks = p.movers.AppendChunks(p.mchunks[:0], chunkRows)
		sched.ForEach(ctx, p.mchunks, func(c ecs.Chunk2[Position, Velocity]) {
			for i := range c.A {
				c.A[i].X += c.B[i].X * DT
				c.A[i].Y += c.B[i].Y * DT
			}
		})
	}, sched.Reads[Velocity](), sched.Writes[Position]())

	s.AddFunc("age", func(ctx *sched.Context) {
		p.lchunks = p.aging.AppendChunks(p.lchunks[:0], chunkRows)
		for len(p.dead) < len(p.lchunks) {
			p.dead = append(p.dead, nil)
		}
		for len(p.idx) < len(p.lchunks) {
			p.idx = append(p.idx, len(p.idx))
		}
		sched.ForEach(ctx, p.idx[:len(p.lchunks)], func(k int) {
			c := p.lchunks[k]
			dead := p.dead[k][:0]
			for i := range c.A {
				if c.A[i].Left -= DT; c.A[i].Left <= 0 {
					dead = append(dead, c.Entities[i])
				}
			}
			p.dead[k] = dead
		})
		cmds := ctx.Commands()
		p.died = 0
		for _, dead := range p.dead[:len(p.lchunks)] {
			for _, e := range dead {
				cmds.Despawn(e)
			}
			p.died += len(dead)
		}
	}, sched.Structural(), sched.Writes[Lifetime]())

	s.AddFunc("stats", func(ctx *sched.Context) {
		p.perColor = [Colors]int{}
		for ch := range p.colored.Chunks() {
			for _, c := range ch.A {
				p.perColor[c.C]++
			}
		}
	}, sched.Reads[Color]())
}

// Tick runs one tick.
func (p *Particle) Tick() { p.s.Run() }

// Alive returns the number of live entities: particles and emitters.
func (p *Particle) Alive() int { return p.w.Len() }

// Particles returns the number of live particles.
func (p *Particle) Particles() int { return p.w.Len() - Colors }

// PerColor returns the live particles per colour counted by the last Stats.
func (p *Particle) PerColor() [Colors]int { return p.perColor }

// Died returns the number of particles that died in the last tick.
func (p *Particle) Died() int { return p.died }

// Scheduler returns the scheduler running the systems.
func (p *Particle) Scheduler() *sched.Scheduler { return p.s }

// World returns the world.
func (p *Particle) World() *ecs.World { return p.w }

// Close stops the scheduler's workers.
func (p *Particle) Close() { p.s.Close() }

// Hash returns a hash of every particle (entity, position, velocity,
// colour, lifetime) in iteration order.
func (p *Particle) Hash() uint64 {
	h := newHasher()
	q := ecs.NewQuery4[Position, Velocity, Color, Lifetime](p.w)
	for r := range q.All() {
		h.entity(r.Entity)
		h.f32(r.A.X)
		h.f32(r.A.Y)
		h.f32(r.B.X)
		h.f32(r.B.Y)
		h.u64(uint64(r.C.C))
		h.f32(r.D.Left)
	}
	return h.sum()
}

// Check returns an error for a particle with a NaN or infinite value, or a
// lifetime out of range.
func (p *Particle) Check() error {
	q := ecs.NewQuery3[Position, Velocity, Lifetime](p.w)
	for r := range q.All() {
		if !finite(r.A.X) || !finite(r.A.Y) || !finite(r.B.X) || !finite(r.B.Y) || !finite(r.C.Left) {
			return fmt.Errorf("particle %v: non-finite state %v %v %v", r.Entity, *r.A, *r.B, *r.C)
		}
		if r.C.Left > maxLifetime {
			return fmt.Errorf("particle %v: lifetime %v above the maximum %v", r.Entity, r.C.Left, maxLifetime)
		}
	}
	return nil
}
