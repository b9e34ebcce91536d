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
	// NoRewind keeps no snapshots: Rewind reports false. For a server,
	// which never rewinds and need not copy its world every tick.
	NoRewind bool
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
	inputs *ecs.Events[PlayerInput]
	local  [1]PlayerInput // Step's input, kept so it is not allocated every tick
	score  *Score
	owners *ecs.Query2[Owner, Ship]
}

// New builds a game on one machine: LocalPlayer's ship in the middle, with
// two turrets and an engine, and cfg.Rocks rocks (which arrive over the
// first ticks).
func New(cfg Config) *Game {
	g := NewEmpty(cfg)
	g.SpawnShip(LocalPlayer, Pos{Width / 2, Height / 2})
	return g
}

// NewEmpty builds a game with no ship: the rocks alone, for a server whose
// players' ships come and go with them (SpawnShip, RemoveShip).
func NewEmpty(cfg Config) *Game {
	return attach(cfg, newWorld(Rng{State: cfg.Seed*0x9E3779B97F4A7C15 + 1}))
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

// newWorld makes a world with the game's types registered, its resources
// (the generator at rng) and its input queue: the same for a new game and
// a loading one, which then makes the same tables.
func newWorld(rng Rng) *ecs.World {
	w := ecs.NewWorld()
	Register(w)
	ecs.AddResource(w, &Score{})
	ecs.AddResource(w, &rng)
	ecs.EventsOf[PlayerInput](w)
	return w
}

// Register names the game's component types and their storage (Flash in
// a sparse set) in w, and makes its hierarchy: before anything else, so
// that a new world and a loading one make the same tables. A world that
// only shows the game (a network client's) registers them too, to store
// them as the game does.
func Register(w *ecs.World) {
	ecs.Register[Pos](w)
	ecs.Register[Vel](w)
	ecs.Register[Offset](w)
	ecs.Register[Ship](w)
	ecs.Register[Owner](w)
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
	g.inputs = ecs.EventsOf[PlayerInput](w)
	g.score = ecs.GetResource[Score](w)
	g.owners = ecs.NewQuery2[Owner, Ship](w)

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

// SpawnShip spawns player's ship at p, heading up, with two turrets and
// an engine as its children, and returns it. Call it between ticks. A
// player may own several ships; each follows the player's input.
func (g *Game) SpawnShip(player uint32, p Pos) ecs.Entity {
	w := g.W
	ship := ecs.NewMap4[Pos, Vel, Ship, Owner](w).Spawn(p, Vel{}, Ship{Angle: -1.5708}, Owner{Player: player})
	turrets := ecs.NewMap3[Pos, Offset, Turret](w)
	for i, side := range []float32{-9, 9} {
		t := turrets.Spawn(Pos{}, Offset{X: 2, Y: side}, Turret{Angle: float32(float32(i)*0.6) - 0.3})
		g.H.SetParent(t, ship)
	}
	engine := ecs.NewMap3[Pos, Offset, Emitter](w).Spawn(Pos{}, Offset{X: -12}, Emitter{Every: 3, Count: 2, Speed: 1.2, Color: 2})
	g.H.SetParent(engine, ship)
	return ship
}

// ShipOf returns player's ship (the first one spawned, of several), or
// false when the player has none. O(ships).
func (g *Game) ShipOf(player uint32) (ecs.Entity, bool) {
	for r := range g.owners.All() {
		if r.A.Player == player {
			return r.Entity, true
		}
	}
	return ecs.Entity{}, false
}

// RemoveShip despawns player's ships, their turrets and engine and the
// engine's sparks with them, and reports whether it had any. Call it
// between ticks. O(ships).
func (g *Game) RemoveShip(player uint32) bool {
	var gone []ecs.Entity
	for r := range g.owners.All() {
		if r.A.Player == player {
			gone = append(gone, r.Entity)
		}
	}
	for _, e := range gone {
		g.W.Despawn(e)
	}
	return len(gone) > 0
}

// Step runs one tick with LocalPlayer's controls, as StepPlayers does.
func (g *Game) Step(in Input) {
	g.local[0] = PlayerInput{Player: LocalPlayer, Input: in}
	g.StepPlayers(g.local[:]...)
}

// StepPlayers sends the players' controls for this tick as PlayerInput
// events, runs one tick, then keeps a snapshot of the world for the
// rewind key (unless Config.NoRewind). A player with no input here
// coasts for the tick.
func (g *Game) StepPlayers(ins ...PlayerInput) {
	g.tick(ins)
	if !g.cfg.NoRewind {
		g.Ring.Save(g.W, g.score.Tick)
	}
}

// tick sends ins and runs the systems once.
func (g *Game) tick(ins []PlayerInput) {
	g.inputs.SendAll(ins)
	g.S.Run()
	g.score.Tick++
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
