package scenario

import (
	"errors"
	"fmt"
	"math"

	"github.com/tessera-ecs/tessera/detmath"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Components of the predator-prey scenario. Position and Velocity are the
// particle scenario's.
type (
	// Energy is what an animal has left: it starves at 0 or below, and
	// splits in two at its species' threshold.
	Energy float32
	// Species holds what does not change in an animal's life.
	Species struct {
		Speed  float32 // units per second
		Upkeep float32 // energy per tick: grazing (prey, > 0) or hunger (predators, < 0)
		Split  float32 // the energy at which it reproduces
	}
	// Wander is a random walk: a heading kept for Left more ticks.
	Wander struct {
		Rng     Rand32
		Heading float32 // radians
		Left    int32
	}
	// Hunting is a predator's chase: short-lived, so it lives in a sparse
	// set.
	Hunting struct{ Target ecs.Entity }
	// Prey and Predator tell the two kinds of animal apart.
	Prey     struct{}
	Predator struct{}
)

// Census is a resource: the population counted at the end of each tick.
type Census struct {
	Prey, Predators int     //tessera:nondeterministic-ok populations, bounded by PredatorState's caps
	Energy          float64 // summed over every animal
}

// PredatorState is the predator-prey scenario's state outside its
// entities, a world resource so that snapshots, rollbacks and save files
// cover it: life's random source, the torus and the population bounds
// (fixed by Config.N at the start, and so carried by a save, which is
// loaded without N), and the counters the systems and observers keep. It
// holds no pointers: snapshots copy it as memory.
type PredatorState struct {
	Rng  Rand32  // life's, used by life alone
	Side float32 // the torus is Side x Side units

	//tessera:nondeterministic-ok bounds fixed from Config.N at the start, far below 2^31
	CapPrey, CapPredators, MinPrey, MinPredators int

	// Counters kept by the systems (Born, PreyBorn, Starved, Eaten) and
	// the observers (Chases: Hunting added; PreyGone: prey that left the
	// world). They grow for as long as the run lasts: 64 bits on every
	// machine, so a 32-bit one wraps no sooner.
	Born, PreyBorn, Starved, Eaten, Chases, PreyGone int64
}

// Parameters of the predator-prey world. Distances are in units, times in
// ticks of DT.
const (
	predatorArea     = 64 // square units per animal at the start: sets the torus size
	huntRadius       = 24 // how far a predator sees prey
	keepRadius       = 36 // a chase goes on while the prey stays this close
	catchRadius      = 2  // how close a predator must come to eat
	predatorMeal     = 70 // energy a predator gains from a prey
	predatorChunk    = 1024
	predatorFraction = 10 // one animal in this many starts as a predator
)

var (
	preySpecies     = Species{Speed: 18, Upkeep: 0.6, Split: 100}
	predatorSpecies = Species{Speed: 24, Upkeep: -0.3, Split: 180}
)

// PredatorPrey is a predator-prey simulation on a torus, the shape of game
// code that made a scheduler go serial before structural changes could be
// declared by what they touch: eight systems over 20,000 to 33,000
// animals (with N = 25,000) that are born, eaten and starve every tick, a
// sparse component (Hunting), observers, resources (PreyGrid, Census) and
// per-entity outputs (Energy, summed). In the order of record:
//
//   - grid: buckets the prey by cell (writes the PreyGrid resource);
//   - life: splits animals over their species' threshold and despawns the
//     starved, from the energy of the previous tick (spawns and despawns
//     applied at the end of the tick; the parent's half is an output);
//   - hunt: each predator keeps its chase or picks the nearest prey from
//     the grid (adds or removes Hunting), data-parallel over chunks;
//   - steer: hunters head for their prey, the others wander (writes
//     Velocity and Wander), data-parallel;
//   - eat: a hunter close enough eats its prey (an Energy output; the prey
//     is despawned at the end of the tick);
//   - metabolism: every animal's upkeep, an Energy output per entity,
//     emitted per chunk with ForEachEmit;
//   - move: positions advance and wrap around the torus, data-parallel;
//   - census: counts the animals (writes the Census resource).
//
// The declarations put them in four stages: grid and life; hunt; steer,
// eat and metabolism; move and census. All randomness comes from
// Config.Seed: life's own generator and a generator in each animal's
// Wander, so a run gives the same world on any number of workers. With
// Storage "sparse", Energy lives in a sparse set too.
type PredatorPrey struct {
	cfg   Config
	w     *ecs.World
	s     *sched.Scheduler
	state *ecs.Resource[PredatorState]
	side  float32 // the torus, as the state holds it: read in hot loops

	pos     *ecs.Map[Position]
	hunting *ecs.Map[Hunting]
	prey    *ecs.Map[Prey]
	pred    *ecs.Map[Predator]
	fed     *sched.Output[Energy]
	grid    *ecs.Resource[PreyGrid]
	census  *ecs.Resource[Census]

	// Spawn handles: an animal is born straight into its table.
	newPrey     *ecs.Map6[Position, Velocity, Energy, Species, Wander, Prey]
	newPredator *ecs.Map6[Position, Velocity, Energy, Species, Wander, Predator]

	preyAt, predatorsAt *ecs.Query1[Position]
	preyLife, predLife  *ecs.Query3[Energy, Position, Species]
	steering            *ecs.Query4[Position, Velocity, Species, Wander]
	moving              *ecs.Query2[Position, Velocity]
	hunters             *ecs.Query2[Position, Hunting]
	upkeep              *ecs.Query1[Species]
	energies            *ecs.Query1[Energy]
	preyCount           *ecs.Query1[Prey]
	predatorCount       *ecs.Query1[Predator]

	// Per-system scratch, reused every tick.
	huntChunks   []ecs.Chunk1[Position]
	huntChanges  [][]chaseChange // per hunt chunk
	steerChunks  []ecs.Chunk4[Position, Velocity, Species, Wander]
	moveChunks   []ecs.Chunk2[Position, Velocity]
	upkeepChunks []ecs.Chunk1[Species]
	idx          []int
	eaten        map[ecs.Entity]bool
	meals        []meal
	mealRanges   [][2]int
}

// NewPredatorPrey builds the predator-prey scenario with cfg.N animals,
// one in ten a predator, spread at random over a torus sized for them.
func NewPredatorPrey(cfg Config) (*PredatorPrey, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	w := ecs.NewWorld()
	ecs.Register[Hunting](w, ecs.Sparse(), ecs.CapacityHint(cfg.N/predatorFraction))
	if cfg.sparse() {
		ecs.Register[Energy](w, ecs.Sparse(), ecs.CapacityHint(cfg.N))
	}
	p := &PredatorPrey{cfg: cfg, w: w, state: ecs.NewResource[PredatorState](w),
		pos: ecs.NewMap[Position](w), hunting: ecs.NewMap[Hunting](w),
		prey: ecs.NewMap[Prey](w), pred: ecs.NewMap[Predator](w), eaten: map[ecs.Entity]bool{},
		grid: ecs.NewResource[PreyGrid](w), census: ecs.NewResource[Census](w),
		newPrey:     ecs.NewMap6[Position, Velocity, Energy, Species, Wander, Prey](w),
		newPredator: ecs.NewMap6[Position, Velocity, Energy, Species, Wander, Predator](w)}
	isPrey, isPredator := ecs.With(ecs.C[Prey]()), ecs.With(ecs.C[Predator]())
	p.preyAt = ecs.NewQuery1[Position](w, isPrey)
	p.predatorsAt = ecs.NewQuery1[Position](w, isPredator)
	p.preyLife = ecs.NewQuery3[Energy, Position, Species](w, isPrey)
	p.predLife = ecs.NewQuery3[Energy, Position, Species](w, isPredator)
	p.steering = ecs.NewQuery4[Position, Velocity, Species, Wander](w)
	p.moving = ecs.NewQuery2[Position, Velocity](w)
	p.hunters = ecs.NewQuery2[Position, Hunting](w)
	p.upkeep = ecs.NewQuery1[Species](w)
	p.energies = ecs.NewQuery1[Energy](w)
	p.preyCount, p.predatorCount = ecs.NewQuery1[Prey](w), ecs.NewQuery1[Predator](w)

	// Observers: a chase starting, and a prey leaving the world.
	ecs.OnAdd(w, func(ecs.Entity, *Hunting) { p.state.Get().Chases++ })
	p.preyAt.OnLeave(func(ecs.Entity) { p.state.Get().PreyGone++ })

	if cfg.Load != nil {
		if err := w.Load(cfg.Load); err != nil {
			return nil, fmt.Errorf("scenario: predator: %w", err)
		}
		st, ok := p.state.TryGet()
		if !ok || !(st.Side > 0) || p.census.Get() == nil {
			return nil, errors.New("scenario: predator: the save holds no predator-prey state; is it a predator world?")
		}
		p.side = st.Side
	} else {
		n := max(cfg.N, 1)
		side := float32(math.Sqrt(float64(n * predatorArea)))
		p.state.Set(&PredatorState{Rng: NewRand32(cfg.Seed), Side: side,
			CapPrey: n - n/predatorFraction, CapPredators: n / 8, MinPrey: n / 4, MinPredators: max(1, n/100)})
		p.side = side
		w.Reserve(cfg.N + cfg.N/3)
		for i := range cfg.N {
			predator := i%predatorFraction == 0
			x, y := p.side*p.unit(), p.side*p.unit()
			p.spawn(predator, x, y, p.startEnergy(predator), nil)
		}
		p.census.Set(&Census{Prey: p.preyAt.Count(), Predators: p.predatorsAt.Count()})
	}
	// The grid is rebuilt from the prey's positions at the start of every
	// tick: a load or a rollback needs only its shape.
	p.grid.Set(newPreyGrid(p.side, huntRadius))

	p.s = sched.New(w, cfg.schedOptions()...)
	p.fed = sched.NewOutput(p.s, sched.Sum[Energy])
	p.addSystems()
	return p, nil
}

// unit draws from life's generator: a float32 in [0, 1).
func (p *PredatorPrey) unit() float32 {
	return float32(p.state.Get().Rng.Next()>>8) / (1 << 24)
}

// startEnergy draws the energy of an animal of the first generation or a
// newcomer: predators arrive hungry, and those that find no prey soon
// starve.
func (p *PredatorPrey) startEnergy(predator bool) Energy {
	if predator {
		return Energy(predatorSpecies.Split * (0.05 + float32(0.5*p.unit())))
	}
	return Energy(preySpecies.Split * (0.3 + float32(0.6*p.unit())))
}

// spawn makes an animal, at once when c is nil, or through c (its births
// are applied with the buffer).
func (p *PredatorPrey) spawn(predator bool, x, y float32, en Energy, c *ecs.Commands) {
	sp := preySpecies
	if predator {
		sp = predatorSpecies
	}
	rng := &p.state.Get().Rng
	wd := Wander{Rng: NewRand32(uint64(rng.Next())<<32 | uint64(rng.Next()))}
	wd.Heading = 2 * math.Pi * float32(wd.Rng.Next()>>8) / (1 << 24)
	wd.Left = int32(wd.Rng.Range(30, 120))
	v := Velocity{sp.Speed * float32(detmath.Cos(float64(wd.Heading))), sp.Speed * float32(detmath.Sin(float64(wd.Heading)))}
	at := Position{x, y}
	switch {
	case predator && c == nil:
		p.newPredator.Spawn(at, v, en, sp, wd, Predator{})
	case predator:
		p.newPredator.SpawnCmd(c, at, v, en, sp, wd, Predator{})
	case c == nil:
		p.newPrey.Spawn(at, v, en, sp, wd, Prey{})
	default:
		p.newPrey.SpawnCmd(c, at, v, en, sp, wd, Prey{})
	}
}

// despawnsAnimals declares every component type an animal can have, for a
// system that despawns any kind of animal.
func despawnsAnimals() []sched.Option {
	return []sched.Option{sched.Despawns[Position](), sched.Despawns[Velocity](), sched.Despawns[Energy](),
		sched.Despawns[Species](), sched.Despawns[Wander](), sched.Despawns[Prey](), sched.Despawns[Predator](),
		sched.Despawns[Hunting]()}
}

func (p *PredatorPrey) addSystems() {
	s := p.s
	s.AddFunc("grid", func(ctx *sched.Context) {
		p.grid.Get().rebuild(p.preyAt)
	}, sched.Reads[Position](), sched.Reads[Prey](), sched.WritesResource[PreyGrid]())

	s.AddFunc("life", p.life, append(despawnsAnimals(),
		sched.Reads[Energy](), sched.Reads[Position](), sched.Reads[Species](), sched.Reads[Prey](), sched.Reads[Predator](),
		sched.ReadsResource[Census](), sched.WritesResource[PredatorState](), sched.Emits[Energy](),
		sched.Spawns(), sched.Adds[Position](), sched.Adds[Velocity](), sched.Adds[Energy](), sched.Adds[Species](),
		sched.Adds[Wander](), sched.Adds[Prey](), sched.Adds[Predator](), sched.ApplyAtTickEnd())...)

	s.AddFunc("hunt", p.hunt, sched.Reads[Position](), sched.Reads[Predator](), sched.Reads[Hunting](),
		sched.ReadsResource[PreyGrid](), sched.Adds[Hunting](), sched.Removes[Hunting]())

	s.AddFunc("steer", p.steer, sched.Reads[Position](), sched.Reads[Species](), sched.Reads[Hunting](),
		sched.Writes[Velocity](), sched.Writes[Wander]())

	s.AddFunc("eat", p.eat, sched.Reads[Position](), sched.Reads[Hunting](), sched.Emits[Energy](), sched.WritesResource[PredatorState](),
		sched.Despawns[Position](), sched.Despawns[Velocity](), sched.Despawns[Energy](), sched.Despawns[Species](),
		sched.Despawns[Wander](), sched.Despawns[Prey](), sched.ApplyAtTickEnd())

	s.AddFunc("metabolism", func(ctx *sched.Context) {
		// Per-item emitters: the values reach the Sync in row order, as
		// from one goroutine, on any number of workers.
		p.upkeepChunks = p.upkeep.AppendChunks(p.upkeepChunks[:0], predatorChunk)
		sched.ForEachEmit(ctx, p.fed, p.upkeepChunks, func(c ecs.Chunk1[Species], out *sched.Emitter[Energy]) {
			for i := range c.A {
				out.Emit(c.Entities[i], Energy(c.A[i].Upkeep))
			}
		})
	}, sched.Reads[Species](), sched.Emits[Energy]())

	s.AddFunc("move", func(ctx *sched.Context) {
		p.moveChunks = p.moving.AppendChunks(p.moveChunks[:0], predatorChunk)
		sched.ForEach(ctx, p.moveChunks, func(c ecs.Chunk2[Position, Velocity]) {
			for i := range c.A {
				c.A[i].X = wrap(c.A[i].X+float32(c.B[i].X*DT), p.side)
				c.A[i].Y = wrap(c.A[i].Y+float32(c.B[i].Y*DT), p.side)
			}
		})
	}, sched.Reads[Velocity](), sched.Writes[Position]())

	s.AddFunc("census", func(ctx *sched.Context) {
		c := p.census.Get()
		c.Prey, c.Predators = p.preyCount.Count(), p.predatorCount.Count()
		// The loop body of a range over Chunks is a closure, and a variable
		// it adds to lives in memory: s keeps the running sum in a
		// register for a chunk (the adds, in order, are the same).
		sum := 0.0
		for ch := range p.energies.Chunks() {
			s := sum
			for _, e := range ch.A {
				s += float64(e)
			}
			sum = s
		}
		c.Energy = sum
	}, sched.Reads[Prey](), sched.Reads[Predator](), sched.Reads[Energy](), sched.WritesResource[Census]())
}

// life splits the animals over their threshold (while their kind is below
// its cap) and despawns the starved, from the energy the last tick left;
// below a floor, newcomers arrive at random places, so neither kind dies
// out. Births and deaths are applied at the end of the tick.
func (p *PredatorPrey) life(ctx *sched.Context) {
	census, st := p.census.Get(), p.state.Get()
	c := ctx.Commands()
	kinds := []struct {
		q         *ecs.Query3[Energy, Position, Species]
		count     int
		cap, min  int
		predators bool
	}{{p.preyLife, census.Prey, st.CapPrey, st.MinPrey, false}, {p.predLife, census.Predators, st.CapPredators, st.MinPredators, true}}
	for _, k := range kinds {
		n := k.count
		for ch := range k.q.Chunks() {
			for i, en := range ch.A {
				switch {
				case en <= 0:
					c.Despawn(ch.Entities[i])
					st.Starved++
				case float32(en) >= ch.C[i].Split && n < k.cap:
					half := en / 2
					p.fed.Emit(ctx, ch.Entities[i], -half)
					dx, dy := float32(2*p.unit())-1, float32(2*p.unit())-1
					at := ch.B[i]
					p.spawn(k.predators, wrap(at.X+dx, p.side), wrap(at.Y+dy, p.side), half, c)
					p.born(k.predators)
					n++
				}
			}
		}
		for ; n < k.min; n++ {
			p.spawn(k.predators, p.side*p.unit(), p.side*p.unit(), p.startEnergy(k.predators), c)
			p.born(k.predators)
		}
	}
}

func (p *PredatorPrey) born(predator bool) {
	st := p.state.Get()
	st.Born++
	if !predator {
		st.PreyBorn++
	}
}

// hunt keeps each predator's chase while its prey is alive and near, or
// gives it the nearest prey in sight, or ends the chase. The search, and
// the comparison with the chase a predator has, run on every worker, a
// chunk of predators each; only the chases that change are recorded after
// it, in chunk order, as commands.
func (p *PredatorPrey) hunt(ctx *sched.Context) {
	grid := p.grid.Get()
	p.huntChunks = p.predatorsAt.AppendChunks(p.huntChunks[:0], predatorChunk)
	for len(p.huntChanges) < len(p.huntChunks) {
		p.huntChanges = append(p.huntChanges, nil)
	}
	for len(p.idx) < len(p.huntChunks) {
		p.idx = append(p.idx, len(p.idx))
	}
	sched.ForEach(ctx, p.idx[:len(p.huntChunks)], func(k int) {
		ch := p.huntChunks[k]
		changes := p.huntChanges[k][:0]
		for i, at := range ch.A {
			e := ch.Entities[i]
			h, had := p.hunting.TryGet(e)
			if had {
				if tp, ok := p.pos.TryGet(h.Target); ok {
					dx, dy := torusDelta(tp.X-at.X, p.side), torusDelta(tp.Y-at.Y, p.side)
					if distSq(dx, dy) <= keepRadius*keepRadius {
						continue // the chase goes on
					}
				}
			}
			target, _ := grid.nearest(at.X, at.Y, huntRadius)
			if target.IsZero() && had || !target.IsZero() && (!had || h.Target != target) {
				changes = append(changes, chaseChange{e, target})
			}
		}
		p.huntChanges[k] = changes
	})
	c := ctx.Commands()
	for _, changes := range p.huntChanges[:len(p.huntChunks)] {
		for _, ch := range changes {
			if ch.target.IsZero() {
				p.hunting.RemoveCmd(c, ch.predator)
			} else {
				p.hunting.SetCmd(c, ch.predator, Hunting{ch.target})
			}
		}
	}
}

// chaseChange is a predator whose chase hunt changes: to target, or, when
// target is zero, to none.
type chaseChange struct {
	predator, target ecs.Entity
}

// steer points hunters at their prey and lets the others wander.
func (p *PredatorPrey) steer(ctx *sched.Context) {
	p.steerChunks = p.steering.AppendChunks(p.steerChunks[:0], predatorChunk)
	sched.ForEach(ctx, p.steerChunks, func(c ecs.Chunk4[Position, Velocity, Species, Wander]) {
		for i := range c.A {
			if h, ok := p.hunting.TryGet(c.Entities[i]); ok {
				if tp, ok := p.pos.TryGet(h.Target); ok {
					dx, dy := torusDelta(tp.X-c.A[i].X, p.side), torusDelta(tp.Y-c.A[i].Y, p.side)
					if d := float32(math.Sqrt(float64(distSq(dx, dy)))); d > 0 {
						s := c.C[i].Speed / d
						c.B[i] = Velocity{dx * s, dy * s}
						continue
					}
				}
			}
			wd := &c.D[i]
			if wd.Left--; wd.Left > 0 {
				continue
			}
			wd.Heading = 2 * math.Pi * float32(wd.Rng.Next()>>8) / (1 << 24)
			wd.Left = int32(wd.Rng.Range(30, 120))
			sp := c.C[i].Speed
			c.B[i] = Velocity{sp * float32(detmath.Cos(float64(wd.Heading))), sp * float32(detmath.Sin(float64(wd.Heading)))}
		}
	})
}

// eat lets each hunter within reach of its prey eat it, first come first
// served in iteration order. The hunters are listed in that order, the
// distances to their prey measured on every worker, and the meals taken
// in order after that.
func (p *PredatorPrey) eat(ctx *sched.Context) {
	meals := p.meals[:0]
	for r := range p.hunters.All() {
		meals = append(meals, meal{hunter: r.Entity, at: *r.A, prey: r.B.Target})
	}
	p.meals = meals
	p.mealRanges = p.mealRanges[:0]
	for lo := 0; lo < len(meals); lo += predatorChunk {
		p.mealRanges = append(p.mealRanges, [2]int{lo, min(lo+predatorChunk, len(meals))})
	}
	sched.ForEach(ctx, p.mealRanges, func(r [2]int) {
		for i := r[0]; i < r[1]; i++ {
			m := &meals[i]
			m.inReach = false
			if tp, ok := p.pos.TryGet(m.prey); ok {
				dx, dy := torusDelta(tp.X-m.at.X, p.side), torusDelta(tp.Y-m.at.Y, p.side)
				m.inReach = distSq(dx, dy) <= catchRadius*catchRadius
			}
		}
	})
	clear(p.eaten)
	c := ctx.Commands()
	for _, m := range meals {
		if !m.inReach || p.eaten[m.prey] {
			continue
		}
		p.eaten[m.prey] = true
		p.fed.Emit(ctx, m.hunter, predatorMeal)
		c.Despawn(m.prey)
		p.state.Get().Eaten++
	}
}

// meal is a hunter, where it is, and its prey: whether the prey is within
// reach is measured by eat on every worker.
type meal struct {
	hunter, prey ecs.Entity
	at           Position
	inReach      bool
}

// Tick runs one tick.
func (p *PredatorPrey) Tick() { p.s.Run() }

// Alive returns the number of live animals.
func (p *PredatorPrey) Alive() int { return p.w.Len() }

// State returns the scenario's state: its torus, bounds and counters.
func (p *PredatorPrey) State() PredatorState { return *p.state.Get() }

// Census returns the population counted at the end of the last tick.
func (p *PredatorPrey) Census() Census { return *p.census.Get() }

// Scheduler returns the scheduler running the systems.
func (p *PredatorPrey) Scheduler() *sched.Scheduler { return p.s }

// World returns the world.
func (p *PredatorPrey) World() *ecs.World { return p.w }

// Close stops the scheduler's workers.
func (p *PredatorPrey) Close() { p.s.Close() }

// Hash returns a hash of every entity and component value, one type after
// another in iteration order, and of the census.
func (p *PredatorPrey) Hash() uint64 {
	h := newHasher()
	hashAll(h, p.w, func(h *hasher, v *Position) { h.f32(v.X); h.f32(v.Y) })
	hashAll(h, p.w, func(h *hasher, v *Velocity) { h.f32(v.X); h.f32(v.Y) })
	hashAll(h, p.w, func(h *hasher, v *Energy) { h.f32(float32(*v)) })
	hashAll(h, p.w, func(h *hasher, v *Species) { h.f32(v.Speed); h.f32(v.Upkeep); h.f32(v.Split) })
	hashAll(h, p.w, func(h *hasher, v *Wander) { h.u64(v.Rng.State); h.f32(v.Heading); h.u64(uint64(v.Left)) })
	hashAll(h, p.w, func(h *hasher, v *Hunting) { h.entity(v.Target) })
	hashAll(h, p.w, func(*hasher, *Prey) {})
	hashAll(h, p.w, func(*hasher, *Predator) {})
	c := p.Census()
	h.u64(uint64(c.Prey)<<32 | uint64(c.Predators))
	h.u64(math.Float64bits(c.Energy))
	return h.sum()
}

// Check returns an error for a position off the torus, a non-finite value,
// an animal that is neither or both kinds, or a census that disagrees with
// the world.
func (p *PredatorPrey) Check() error {
	for r := range p.moving.All() {
		if !finite(r.A.X) || !finite(r.A.Y) || r.A.X < 0 || r.A.Y < 0 || r.A.X >= p.side || r.A.Y >= p.side {
			return fmt.Errorf("entity %v: position %v off the %gx%g torus", r.Entity, *r.A, p.side, p.side)
		}
		if !finite(r.B.X) || !finite(r.B.Y) {
			return fmt.Errorf("entity %v: non-finite velocity %v", r.Entity, *r.B)
		}
	}
	for r := range p.energies.All() {
		if !finite(float32(*r.A)) {
			return fmt.Errorf("entity %v: non-finite energy %v", r.Entity, *r.A)
		}
		if p.prey.Has(r.Entity) == p.pred.Has(r.Entity) {
			return fmt.Errorf("entity %v: prey %v, predator %v", r.Entity, p.prey.Has(r.Entity), p.pred.Has(r.Entity))
		}
	}
	c := p.Census()
	if prey, preds := p.preyAt.Count(), p.predatorsAt.Count(); c.Prey+c.Predators > 0 && prey+preds != p.w.Len() {
		return fmt.Errorf("%d prey and %d predators, but %d entities", prey, preds, p.w.Len())
	}
	return nil
}
