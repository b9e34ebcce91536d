package scenario

import (
	"fmt"
	"math"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Components of the game scenario (the "complex systems" workload of the
// public ecs_benchmark project, github.com/abeimler/ecs_benchmark). The game has
// its own Position and Velocity: float32 pairs like the particles'.
type (
	GamePosition struct{ X, Y float32 }
	GameVelocity struct{ X, Y float32 }
	Data         struct {
		Thingy int32
		Dingy  float64
		Mingy  bool
		Seed   uint32
		Rng    Rand32
		Numgy  uint32
	}
	Player struct {
		Rng  Rand32
		Type PlayerType
	}
	Health struct {
		HP, MaxHP int32
		Status    Status
	}
	Damage struct{ Atk, Def int32 }
	Sprite struct{ Char byte }
)

// PlayerType is NPC, Monster or Hero.
type PlayerType uint8

const (
	NPC     PlayerType = iota // 'h' when alive; no attack
	Monster                   // 'k' when alive
	Hero                      // '@' when alive
)

// Status is a Health state.
type Status uint8

const (
	Spawn Status = iota // respawned this tick, drawn '_'
	Dead                // HP reached 0, drawn '|'
	Alive               // drawn by player type
)

// FrameWidth and FrameHeight are the size of the character frame the Render
// system draws into.
const (
	FrameWidth  = 320
	FrameHeight = 240
)

// Frame is the character buffer, a row of FrameWidth bytes per line.
type Frame [FrameHeight][FrameWidth]byte

// Game is the game-like scenario: per tick, Movement, Data, MoreComplex,
// Health, Damage, Sprite and Render, declared so that the scheduler runs
// the independent ones side by side. With Storage "sparse", Damage and
// Sprite live in sparse sets.
type Game struct {
	cfg   Config
	w     *ecs.World
	s     *sched.Scheduler
	frame *Frame
}

// NewGame builds the game scenario with cfg.N entities.
func NewGame(cfg Config) (*Game, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	w := ecs.NewWorld()
	if cfg.sparse() {
		ecs.Register[Damage](w, ecs.Sparse(), ecs.CapacityHint(cfg.N))
		ecs.Register[Sprite](w, ecs.Sparse(), ecs.CapacityHint(cfg.N))
	}
	g := &Game{cfg: cfg, w: w, frame: new(Frame)}
	ecs.AddResource(w, g.frame)
	if cfg.Load != nil {
		ecs.NewMap3[GamePosition, GameVelocity, Data](w)
		ecs.NewMap4[Player, Health, Damage, Sprite](w)
		if err := w.Load(cfg.Load); err != nil {
			return nil, fmt.Errorf("scenario: game: %w", err)
		}
	} else {
		g.spawn()
	}
	g.s = sched.New(w, cfg.workerOptions()...)
	g.addSystems()
	return g, nil
}

// spawn makes the game's cfg.N entities.
func (g *Game) spawn() {
	w, cfg := g.w, g.cfg
	rng := NewRand32(cfg.Seed)
	base := ecs.NewMap3[GamePosition, GameVelocity, Data](w)
	group := ecs.NewMap4[Player, Health, Damage, Sprite](w)
	pos, vel, data := ecs.NewMap[GamePosition](w), ecs.NewMap[GameVelocity](w), ecs.NewMap[Data](w)
	w.Reserve(cfg.N)
	for i := range cfg.N {
		e := base.Spawn(GamePosition{float32(rng.Range(0, 420) - 100), float32(rng.Range(0, 340) - 100)},
			GameVelocity{1, 1},
			Data{Seed: rng.Next(), Rng: NewRand32(uint64(rng.Next()))})
		if cfg.Mixed && i >= cfg.N/2 && i <= 3*cfg.N/4 && i%10 == 0 {
			if i%7 == 0 {
				pos.Remove(e)
			}
			if i%11 == 0 {
				vel.Remove(e)
			}
			if i%13 == 0 {
				data.Remove(e)
			}
		}
		if cfg.Mixed && i%2 != 0 {
			continue
		}
		p := Player{Rng: NewRand32(uint64(rng.Next()))}
		var h Health
		var d Damage
		switch r := rng.Range(1, 100); {
		case r <= 3:
			p.Type = NPC
			h.MaxHP = int32(rng.Range(6, 12))
			d = Damage{Atk: 0, Def: int32(rng.Range(3, 8))}
		case r <= 30:
			p.Type = Hero
			h.MaxHP = int32(rng.Range(5, 15))
			d = Damage{Def: int32(rng.Range(2, 6)), Atk: int32(rng.Range(4, 10))}
		default:
			p.Type = Monster
			h.MaxHP = int32(rng.Range(4, 12))
			d = Damage{Def: int32(rng.Range(2, 8)), Atk: int32(rng.Range(3, 9))}
		}
		h.HP = h.MaxHP
		group.Add(e, p, h, d, Sprite{'_'})
	}
}

func (g *Game) addSystems() {
	w, s := g.w, g.s
	moving := ecs.NewQuery2[GamePosition, GameVelocity](w)
	var mchunks []ecs.Chunk2[GamePosition, GameVelocity]
	s.AddFunc("movement", func(ctx *sched.Context) {
		mchunks = moving.AppendChunks(mchunks[:0], chunkRows)
		sched.ForEach(ctx, mchunks, func(c ecs.Chunk2[GamePosition, GameVelocity]) { moveGame(c.A, c.B) })
	}, sched.Writes[GamePosition](), sched.Reads[GameVelocity]())

	datas := ecs.NewQuery1[Data](w)
	var dchunks []ecs.Chunk1[Data]
	s.AddFunc("data", func(ctx *sched.Context) {
		dchunks = datas.AppendChunks(dchunks[:0], chunkRows)
		sched.ForEach(ctx, dchunks, func(c ecs.Chunk1[Data]) { updateData(c.A) })
	}, sched.Writes[Data]())

	complexQ := ecs.NewQuery3[GamePosition, GameVelocity, Data](w)
	var xchunks []ecs.Chunk3[GamePosition, GameVelocity, Data]
	s.AddFunc("more-complex", func(ctx *sched.Context) {
		xchunks = complexQ.AppendChunks(xchunks[:0], chunkRows)
		sched.ForEach(ctx, xchunks, func(c ecs.Chunk3[GamePosition, GameVelocity, Data]) { moreComplex(c.A, c.B, c.C) })
		// Data's generator advances: a write of Data.
	}, sched.Reads[GamePosition](), sched.Writes[GameVelocity](), sched.Writes[Data]())

	healths := ecs.NewQuery1[Health](w)
	var hchunks []ecs.Chunk1[Health]
	s.AddFunc("health", func(ctx *sched.Context) {
		hchunks = healths.AppendChunks(hchunks[:0], chunkRows)
		sched.ForEach(ctx, hchunks, func(c ecs.Chunk1[Health]) { updateHealth(c.A) })
	}, sched.Writes[Health]())

	damages := ecs.NewQuery2[Health, Damage](w)
	var achunks []ecs.Chunk2[Health, Damage]
	s.AddFunc("damage", func(ctx *sched.Context) {
		if g.cfg.sparse() { // one-entity chunks: not worth a parallel loop
			for r := range damages.All() {
				if d := r.B.Atk - r.B.Def; r.A.HP > 0 && d > 0 {
					r.A.HP = max(r.A.HP-d, 0)
				}
			}
			return
		}
		achunks = damages.AppendChunks(achunks[:0], chunkRows)
		sched.ForEach(ctx, achunks, func(c ecs.Chunk2[Health, Damage]) { applyDamage(c.A, c.B) })
	}, sched.Writes[Health](), sched.Reads[Damage]())

	sprites := ecs.NewQuery3[Sprite, Player, Health](w)
	var schunks []ecs.Chunk3[Sprite, Player, Health]
	s.AddFunc("sprite", func(ctx *sched.Context) {
		if g.cfg.sparse() {
			for r := range sprites.All() {
				r.A.Char = spriteChar(r.A.Char, r.B.Type, r.C.Status)
			}
			return
		}
		schunks = sprites.AppendChunks(schunks[:0], chunkRows)
		sched.ForEach(ctx, schunks, func(c ecs.Chunk3[Sprite, Player, Health]) { pickSprite(c.A, c.B, c.C) })
	}, sched.Writes[Sprite](), sched.Reads[Player](), sched.Reads[Health]())

	drawn := ecs.NewQuery2[GamePosition, Sprite](w)
	var draw renderer
	s.AddFunc("render", func(ctx *sched.Context) {
		f := g.frame
		if !g.cfg.sparse() {
			draw.draw(ctx, drawn, f)
			return
		}
		for y := range f { // one-entity chunks: not worth a parallel loop
			for x := range f[y] {
				f[y][x] = ' '
			}
		}
		for r := range drawn.All() {
			x, y := int(r.A.X), int(r.A.Y)
			if r.A.X >= 0 && r.A.Y >= 0 && x < FrameWidth && y < FrameHeight {
				f[y][x] = r.B.Char
			}
		}
	}, sched.Reads[GamePosition](), sched.Reads[Sprite](), sched.WritesResource[Frame]())
}

// moveGame advances every position of p by its velocity in v.
func moveGame(p []GamePosition, v []GameVelocity) {
	v = v[:len(p)] // one bounds check for the loop
	for i := range p {
		p[i].X += float32(v[i].X * DT) // rounded before the add: never fused
		p[i].Y += float32(v[i].Y * DT)
	}
}

// updateData steps every Data of ds.
func updateData(ds []Data) {
	for i := range ds {
		d := &ds[i]
		d.Thingy = (d.Thingy + 1) % 1000000
		d.Dingy += 0.0001 * float64(DT)
		d.Mingy = !d.Mingy
		d.Numgy = d.Rng.Next()
	}
}

// moreComplex gives every tenth Thingy a new random velocity, row for row
// over p, v and ds.
func moreComplex(p []GamePosition, v []GameVelocity, ds []Data) {
	v, ds = v[:len(p)], ds[:len(p)]
	for i := range p {
		d := &ds[i]
		if d.Thingy%10 != 0 {
			continue
		}
		a, b := float32(d.Rng.Range(3, 19)-10), float32(d.Rng.Range(0, 5))
		if p[i].X > p[i].Y {
			v[i].X, v[i].Y = a, b
		} else {
			v[i].X, v[i].Y = b, a
		}
	}
}

// updateHealth moves every Health of hs through its states.
func updateHealth(hs []Health) {
	for i := range hs {
		h := &hs[i]
		switch {
		case h.HP <= 0 && h.Status != Dead:
			h.HP, h.Status = 0, Dead
		case h.Status == Dead && h.HP == 0:
			h.HP, h.Status = h.MaxHP, Spawn
		case h.HP >= h.MaxHP && h.Status != Alive:
			h.HP, h.Status = h.MaxHP, Alive
		default:
			h.Status = Alive
		}
	}
}

// applyDamage takes each row's attack minus defence (ds) off its health (hs).
func applyDamage(hs []Health, ds []Damage) {
	ds = ds[:len(hs)]
	for i := range hs {
		if d := ds[i].Atk - ds[i].Def; hs[i].HP > 0 && d > 0 {
			hs[i].HP = max(hs[i].HP-d, 0)
		}
	}
}

// pickSprite draws each row's character from its player type and health.
func pickSprite(ss []Sprite, ps []Player, hs []Health) {
	ps, hs = ps[:len(ss)], hs[:len(ss)]
	for i := range ss {
		ss[i].Char = spriteChar(ss[i].Char, ps[i].Type, hs[i].Status)
	}
}

// spriteChar returns the character of a player of type t in state st; old
// for a state with none.
func spriteChar(old byte, t PlayerType, st Status) byte {
	switch st {
	case Alive:
		return [...]byte{NPC: 'h', Monster: 'k', Hero: '@'}[t]
	case Dead:
		return '|'
	case Spawn:
		return '_'
	}
	return old
}

// Tick runs one tick.
func (g *Game) Tick() { g.s.Run() }

// Alive returns the number of live entities.
func (g *Game) Alive() int { return g.w.Len() }

// Frame returns the character frame the last Render drew.
func (g *Game) Frame() *Frame { return g.frame }

// Scheduler returns the scheduler running the systems.
func (g *Game) Scheduler() *sched.Scheduler { return g.s }

// World returns the world.
func (g *Game) World() *ecs.World { return g.w }

// Close stops the scheduler's workers.
func (g *Game) Close() { g.s.Close() }

// Hash returns a hash of every entity and component (one component type
// after another, each in iteration order), and of the frame.
func (g *Game) Hash() uint64 {
	h := newHasher()
	hashAll(h, g.w, func(h *hasher, v *GamePosition) { h.f32(v.X); h.f32(v.Y) })
	hashAll(h, g.w, func(h *hasher, v *GameVelocity) { h.f32(v.X); h.f32(v.Y) })
	hashAll(h, g.w, func(h *hasher, v *Data) {
		h.u64(uint64(v.Thingy))
		h.u64(math.Float64bits(v.Dingy))
		h.u64(uint64(v.Numgy) | uint64(v.Seed)<<32)
		h.u64(v.Rng.State)
		if v.Mingy {
			h.u64(1)
		}
	})
	hashAll(h, g.w, func(h *hasher, v *Player) { h.u64(v.Rng.State); h.u64(uint64(v.Type)) })
	hashAll(h, g.w, func(h *hasher, v *Health) { h.u64(uint64(v.HP) | uint64(v.MaxHP)<<32); h.u64(uint64(v.Status)) })
	hashAll(h, g.w, func(h *hasher, v *Damage) { h.u64(uint64(v.Atk) | uint64(v.Def)<<32) })
	hashAll(h, g.w, func(h *hasher, v *Sprite) { h.u64(uint64(v.Char)) })
	for y := range g.frame {
		h.h.Write(g.frame[y][:])
	}
	return h.sum()
}

// hashAll adds every entity with a T, and its value, to h.
func hashAll[T any](h *hasher, w *ecs.World, value func(*hasher, *T)) {
	for r := range ecs.NewQuery1[T](w).All() {
		h.entity(r.Entity)
		value(h, r.A)
	}
}

// Check returns an error for a non-finite position or velocity, or a
// health out of range.
func (g *Game) Check() error {
	for r := range ecs.NewQuery2[GamePosition, GameVelocity](g.w).All() {
		if !finite(r.A.X) || !finite(r.A.Y) || !finite(r.B.X) || !finite(r.B.Y) {
			return fmt.Errorf("entity %v: non-finite state %v %v", r.Entity, *r.A, *r.B)
		}
	}
	for r := range ecs.NewQuery1[Health](g.w).All() {
		if r.A.HP < 0 || r.A.HP > r.A.MaxHP {
			return fmt.Errorf("entity %v: health %+v out of range", r.Entity, *r.A)
		}
	}
	return nil
}
