package scenario

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/tessera-ecs/tessera/detmath"
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

// ParticleState is the particle scenario's state outside its entities, a
// world resource so that a snapshot, and so a rollback, covers it: the
// emitters' random source, whose turn it is to emit, and how many particles
// died last tick (as many are born this tick). It holds no pointers, so
// snapshots copy it as memory.
type ParticleState struct {
	RNG  rand.PCG
	Next int //tessera:nondeterministic-ok the emitter whose turn it is: an index below Colors
	Died int //tessera:nondeterministic-ok particles despawned in the last tick: at most the particle count
}

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
	state *ParticleState // a resource of w
	rng   *rand.Rand     // draws from state.RNG
	emits []ecs.Entity

	emitters *ecs.Map[Emitter]
	particle *ecs.Map4[Position, Velocity, Color, Lifetime]
	movers   *ecs.Query2[Position, Velocity]
	aging    *ecs.Query1[Lifetime]
	colored  *ecs.Query1[Color]

	perColor [Colors]int    // live particles per colour, from Stats
	dead     [][]ecs.Entity // Age's finds, per chunk, in chunk order
	counts   [][Colors]int  // Stats' counts, per chunk
	vchunks  []ecs.Chunk1[Velocity]
	mchunks  []ecs.Chunk2[Position, Velocity]
	lchunks  []ecs.Chunk1[Lifetime]
	cchunks  []ecs.Chunk1[Color]
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
	p := &Particle{cfg: cfg, w: w, state: &ParticleState{RNG: *rand.NewPCG(cfg.Seed, 0x9a27c1e5)},
		emitters: ecs.NewMap[Emitter](w), particle: ecs.NewMap4[Position, Velocity, Color, Lifetime](w)}
	p.rng = rand.New(&p.state.RNG)
	ecs.AddResource(w, p.state)
	p.movers = ecs.NewQuery2[Position, Velocity](w)
	p.aging = ecs.NewQuery1[Lifetime](w)
	p.colored = ecs.NewQuery1[Color](w)
	if cfg.Load != nil {
		if err := p.load(cfg.Load); err != nil {
			return nil, err
		}
	} else {
		for c := range Colors {
			x := float32(float32(c)*40) + 20
			p.emits = append(p.emits, p.emitters.Spawn(Emitter{X: x, Y: 0, Color: uint8(c)}))
		}
		w.Reserve(cfg.N)
		for i := range cfg.N {
			p.particle.Spawn(p.born(i % Colors))
		}
	}
	p.s = sched.New(w, cfg.workerOptions()...)
	p.addSystems()
	return p, nil
}

// load reads the world from a save and finds the emitters, one per colour.
func (p *Particle) load(r io.Reader) error {
	if err := p.w.Load(r); err != nil {
		return fmt.Errorf("scenario: particle: %w", err)
	}
	p.emits = make([]ecs.Entity, Colors)
	found := 0
	for row := range ecs.NewQuery1[Emitter](p.w).All() {
		if c := int(row.A.Color); c < Colors && p.emits[c] == (ecs.Entity{}) {
			p.emits[c] = row.Entity
			found++
		}
	}
	if found != Colors {
		return fmt.Errorf("scenario: particle: the save holds %d of the %d emitters; is it a particle world?", found, Colors)
	}
	return nil
}

// born draws the components of a new particle of emitter k.
func (p *Particle) born(k int) (Position, Velocity, Color, Lifetime) {
	em := p.emitters.Get(p.emits[k])
	speed := 1 + float32(4*p.rng.Float32())
	angle := math.Pi * p.rng.Float64()          // the upper half plane
	left := maxLifetime * (1 - p.rng.Float32()) // in (0, maxLifetime]
	sin, cos := detmath.Sincos(angle)           // math.Sincos differs on arm64
	return Position{em.X, em.Y}, Velocity{speed * float32(cos), speed * float32(sin)},
		Color{em.Color}, Lifetime{left}
}

func (p *Particle) addSystems() {
	s, st := p.s, p.state
	s.AddFunc("emit", func(ctx *sched.Context) {
		c := ctx.Commands()
		for range st.Died {
			pos, vel, col, life := p.born(st.Next)
			p.particle.SpawnCmd(c, pos, vel, col, life) // made in its table, with no move
			st.Next = (st.Next + 1) % Colors
		}
	}, sched.Structural(), sched.Reads[Emitter](), sched.WritesResource[ParticleState](),
		sched.Writes[Position](), sched.Writes[Velocity](), sched.Writes[Color](), sched.Writes[Lifetime]())

	gravityQ := ecs.NewQuery1[Velocity](p.w)
	s.AddFunc("gravity", func(ctx *sched.Context) {
		p.vchunks = gravityQ.AppendChunks(p.vchunks[:0], chunkRows)
		sched.ForEach(ctx, p.vchunks, func(c ecs.Chunk1[Velocity]) { gravity(c.A) })
	}, sched.Writes[Velocity]())
	s.AddFunc("move", func(ctx *sched.Context) {
		p.mchunks = p.movers.AppendChunks(p.mchunks[:0], chunkRows)
		sched.ForEach(ctx, p.mchunks, func(c ecs.Chunk2[Position, Velocity]) { move(c.A, c.B) })
	}, sched.Reads[Velocity](), sched.Writes[Position]())

	s.AddFunc("age", func(ctx *sched.Context) {
		p.lchunks = p.aging.AppendChunks(p.lchunks[:0], chunkRows)
		for len(p.dead) < len(p.lchunks) {
			p.dead = append(p.dead, nil)
		}
		p.idx = chunkNumbers(p.idx, len(p.lchunks))
		sched.ForEach(ctx, p.idx[:len(p.lchunks)], func(k int) {
			c := p.lchunks[k]
			p.dead[k] = age(c.A, c.Entities, p.dead[k][:0])
		})
		cmds := ctx.Commands()
		st.Died = 0
		for _, dead := range p.dead[:len(p.lchunks)] {
			for _, e := range dead {
				cmds.Despawn(e)
			}
			st.Died += len(dead)
		}
	}, sched.Structural(), sched.Writes[Lifetime](), sched.WritesResource[ParticleState]())

	s.AddFunc("stats", func(ctx *sched.Context) {
		p.cchunks = p.colored.AppendChunks(p.cchunks[:0], chunkRows)
		p.idx = chunkNumbers(p.idx, len(p.cchunks))
		for len(p.counts) < len(p.cchunks) {
			p.counts = append(p.counts, [Colors]int{})
		}
		sched.ForEach(ctx, p.idx[:len(p.cchunks)], func(k int) {
			var n [Colors]int
			for _, c := range p.cchunks[k].A {
				n[c.C%Colors]++
			}
			p.counts[k] = n
		})
		p.perColor = [Colors]int{}
		for _, n := range p.counts[:len(p.cchunks)] {
			for c := range n {
				p.perColor[c] += n[c]
			}
		}
	}, sched.Reads[Color]())
}

// gravity accelerates every velocity of v downwards for one tick.
func gravity(v []Velocity) {
	for i := range v {
		v[i].Y -= 9.81 * DT
	}
}

// move advances every position of p by its velocity in v for one tick.
func move(p []Position, v []Velocity) {
	v = v[:len(p)] // one bounds check for the loop
	for i := range p {
		// Each product is rounded before the add: a fused multiply-add
		// (arm64) would round once and give other bits.
		p[i].X += float32(v[i].X * DT)
		p[i].Y += float32(v[i].Y * DT)
	}
}

// age shortens every lifetime of l by one tick and appends to dead the
// entities (of es, row for row) whose lifetime ran out.
func age(l []Lifetime, es []ecs.Entity, dead []ecs.Entity) []ecs.Entity {
	es = es[:len(l)] // one bounds check for the loop
	for i := range l {
		left := l[i].Left - DT
		l[i].Left = left
		if left <= 0 {
			dead = append(dead, es[i])
		}
	}
	return dead
}

// chunkNumbers returns idx grown to hold at least 0, 1, ..., n-1: the item
// numbers of a ForEach whose items are chunks.
func chunkNumbers(idx []int, n int) []int {
	for len(idx) < n {
		idx = append(idx, len(idx))
	}
	return idx
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
func (p *Particle) Died() int { return p.state.Died }

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
