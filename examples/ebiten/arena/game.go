package arena

import (
	"io"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// The arena's size in pixels, and the game's constants.
const (
	Width, Height = 640, 480
	BulletTicks   = 70 // a bullet flies 70 ticks
	FireEvery     = 6  // a turret fires at most every 6 ticks
	RockHP        = 3
	RewindTicks   = 600 // the rewind key goes back up to 10 s at 60 ticks a second
)

// Config sets up a game.
type Config struct {
	Seed    uint64 // of the rocks' places and the sparks
	Rocks   int    // how many rocks the arena keeps
	Workers int    // the scheduler's workers (0: one per CPU)
	Debug   bool   // the scheduler checks every declared access
}

// Game is the arena: a world, its systems on a scheduler, the hierarchy
// that holds turrets and sparks to their parents, the prefabs rocks and
// bullets are spawned from, and a ring of snapshots for the rewind key.
type Game struct {
	cfg    Config
	W      *ecs.World        // the world: entities, components, resources
	S      *sched.Scheduler  // the game's systems; Step runs it once a tick
	H      *ecs.Hierarchy    // turrets and the engine under the ship, sparks under emitters
	Ring   *ecs.SnapshotRing // one snapshot a tick, RewindTicks deep, for Rewind
	rock   *ecs.Prefab
	bullet *ecs.Prefab
	input  *Input
	score  *Score
}

// New builds a game: the ship with two turrets and an engine, and
// cfg.Rocks rocks.
func New(cfg Config) *Game {
	g := attach(cfg, newWorld(Rng{State: cfg.Seed*0x9E3779B97F4A7C15 + 1}))
	spawnShip(g)
	return g
}

// Load reads a game saved with Save into a new world and attaches the
// game's systems to it.
func Load(cfg Config, r io.Reader) (*Game, error) {
	w := newWorld(Rng{})
	if err := w.Load(r); err != nil {
		return nil, err
	}
	return attach(cfg, w), nil
}

// Save writes the game's world to out.
func (g *Game) Save(out io.Writer) error { return g.W.Save(out) }

// newWorld makes a world with the game's types registered and its
// resources, the generator at rng: the same for a new game and a loading
// one, which then makes the same tables.
func newWorld(rng Rng) *ecs.World {
	w := ecs.NewWorld()
	register(w)
	ecs.AddResource(w, &Input{})
	ecs.AddResource(w, &Score{})
	ecs.AddResource(w, &rng)
	return w
}

// register names the component types and their storage before anything
// else, so that a new world and a loading one make the same tables.
func register(w *ecs.World) {
	ecs.Register[Pos](w)
	ecs.Register[Vel](w)
	ecs.Register[Offset](w)
	ecs.Register[Ship](w)
	ecs.Register[Turret](w)
	ecs.Register[Rock](w)
	ecs.Register[Health](w)
	ecs.Register[Bullet](w)
	ecs.Register[Particle](w)
	ecs.Register[Emitter](w)
	ecs.Register[Flash](w, ecs.Sparse())
	ecs.NewHierarchy(w)
}

// attach builds what the game keeps beside its world: the prefabs, the
// observer that explodes rocks, the systems and the snapshot ring.
//
// The prefabs are copied from template entities that live only between a
// snapshot and its restore, which puts the world's ids, generations and
// free list back as they were: a loaded game then hands out the same ids
// as the game it was saved from. The restore hands the template ids out
// again, to the ship and its turrets, while a prefab still knows its
// nodes by them and rewrites entity values that name a node: that is
// safe here only because no rock or bullet component holds an entity.
func attach(cfg Config, w *ecs.World) *Game {
	g := &Game{cfg: cfg, W: w, H: ecs.NewHierarchy(w), Ring: ecs.NewSnapshotRing(RewindTicks)}
	g.input = ecs.GetResource[Input](w)
	g.score = ecs.GetResource[Score](w)

	var before ecs.Snapshot
	w.Snapshot(&before)
	rock := ecs.NewMap3[Rock, Health, Vel](w).Spawn(Rock{R: 4}, Health{HP: RockHP}, Vel{})
	ecs.NewMap[Pos](w).Add(rock, Pos{})
	g.rock = ecs.NewPrefab(w, rock)
	bullet := ecs.NewMap3[Pos, Vel, Bullet](w).Spawn(Pos{}, Vel{}, Bullet{Ticks: BulletTicks})
	g.bullet = ecs.NewPrefab(w, bullet)
	w.Restore(&before)

	ecs.OnSet(w, g.explode)
	opts := []sched.SchedulerOption{sched.Workers(cfg.Workers)}
	if cfg.Debug {
		opts = append(opts, sched.Debug())
	}
	g.S = sched.New(w, opts...)
	g.addSystems()
	return g
}

// explode is the observer on Health: a rock whose health reaches 0 becomes
// an explosion, an emitter that sprays sparks for 20 ticks, and scores a
// kill. It runs when the damage system's commands are applied.
func (g *Game) explode(e ecs.Entity, h *Health) {
	if h.HP > 0 {
		return
	}
	w := g.W
	p := *ecs.NewMap[Pos](w).Get(e)
	ecs.NewMap2[Pos, Emitter](w).Spawn(p, Emitter{Every: 2, Count: 6, Ticks: 20, Speed: 2.5, Color: 1})
	w.Despawn(e)
	g.score.Kills++
}

// spawnShip spawns the ship in the middle with two turrets and an engine
// as its children.
func spawnShip(g *Game) ecs.Entity {
	w := g.W
	ship := ecs.NewMap3[Pos, Vel, Ship](w).Spawn(Pos{Width / 2, Height / 2}, Vel{}, Ship{Angle: -1.5708})
	turrets := ecs.NewMap3[Pos, Offset, Turret](w)
	for i, side := range []float32{-9, 9} {
		t := turrets.Spawn(Pos{}, Offset{X: 2, Y: side}, Turret{Angle: float32(float32(i)*0.6) - 0.3})
		g.H.SetParent(t, ship)
	}
	engine := ecs.NewMap3[Pos, Offset, Emitter](w).Spawn(Pos{}, Offset{X: -12}, Emitter{Every: 3, Count: 2, Speed: 1.2, Color: 2})
	g.H.SetParent(engine, ship)
	return ship
}

// Step runs one tick with the given controls, then keeps a snapshot of the
// world for the rewind key.
func (g *Game) Step(in Input) {
	*g.input = in
	g.S.Run()
	g.score.Tick++
	g.Ring.Save(g.W, g.score.Tick)
}

// Rewind puts the world back one tick, as the snapshot ring holds it, and
// reports false when the ring holds nothing older.
func (g *Game) Rewind() bool {
	t := g.score.Tick
	if oldest, ok := g.Ring.Oldest(); !ok || t <= oldest {
		return false
	}
	if err := g.Ring.Rollback(g.W, t-1); err != nil {
		return false
	}
	return true
}

// Score returns the score so far.
func (g *Game) Score() Score { return *g.score }

// Close stops the scheduler's workers.
func (g *Game) Close() { g.S.Close() }
