package arena

import (
	"math"

	"github.com/tessera-ecs/tessera/detmath"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// addSystems declares the game's systems, in the order of a tick: the
// scheduler runs those that do not conflict side by side.
func (g *Game) addSystems() {
	w, s := g.W, g.S
	hits := sched.NewEventSender[Hit](s)
	hitReader := hits.NewReader()
	pos, vel := ecs.NewMap[Pos](w), ecs.NewMap[Vel](w)

	// The steer and fire systems each read the tick's PlayerInput events
	// with a reader of their own.
	steerInputs, fireInputs := g.inputs.NewReader(), g.inputs.NewReader()
	ships := ecs.NewQuery3[Ship, Vel, Owner](w)
	s.AddFunc("steer", func(*sched.Context) {
		ins := steerInputs.Read()
		for r := range ships.All() {
			in := inputOf(ins, r.C.Player)
			if in.Left {
				r.A.Angle -= 0.08
			}
			if in.Right {
				r.A.Angle += 0.08
			}
			if in.Thrust {
				// detmath, not math: the replay must give the same bits on
				// every machine; products rounded before the add (no FMA).
				sin, cos := detmath.Sincos(float64(r.A.Angle))
				r.B.X += float32(0.15 * float32(cos))
				r.B.Y += float32(0.15 * float32(sin))
			}
			r.B.X *= 0.99
			r.B.Y *= 0.99
		}
	}, sched.ReadsEvents[PlayerInput](), sched.Reads[Owner](), sched.Writes[Ship](), sched.Writes[Vel]())

	movers := ecs.NewQuery2[Pos, Vel](w)
	var chunks []ecs.Chunk2[Pos, Vel]
	s.AddFunc("move", func(ctx *sched.Context) {
		chunks = movers.AppendChunks(chunks[:0], 1024)
		sched.ForEach(ctx, chunks, func(c ecs.Chunk2[Pos, Vel]) { move(c.A, c.B) })
	}, sched.Writes[Pos](), sched.Reads[Vel](), sched.After("steer"))

	// attach places children: turrets and the engine follow the ship,
	// turned by its heading (parents first, through Cascade).
	attached := ecs.NewQuery2[Pos, Offset](w)
	shipOf, offsets := ecs.NewMap[Ship](w), ecs.NewMap[Offset](w)
	s.AddFunc("attach", func(*sched.Context) {
		for e := range g.H.Cascade(attached) {
			parent, ok := g.H.Parent(e)
			if !ok {
				continue
			}
			angle := 0.0
			if sh, ok := shipOf.TryGet(parent); ok {
				angle = float64(sh.Angle)
			}
			o, pp := offsets.Get(e), pos.Get(parent)
			sin, cos := detmath.Sincos(angle)
			p := pos.Get(e)
			p.X = pp.X + float32(o.X*float32(cos)) - float32(o.Y*float32(sin))
			p.Y = pp.Y + float32(o.X*float32(sin)) + float32(o.Y*float32(cos))
		}
	}, sched.Writes[Pos](), sched.Reads[Offset](), sched.Reads[Ship](), sched.ReadsRelation(g.H.Relation()), sched.After("move"))

	turrets := ecs.NewQuery3[Turret, Pos, Offset](w)
	ownerOf := ecs.NewMap[Owner](w)
	s.AddFunc("fire", func(ctx *sched.Context) {
		c := ctx.Commands()
		ins := fireInputs.Read()
		for r := range turrets.All() {
			r.A.Angle += 0.05 // the turrets sweep on their own
			if r.A.Cooldown > 0 {
				r.A.Cooldown--
				continue
			}
			parent, ok := g.H.Parent(r.Entity)
			if !ok || !firing(ins, ownerOf, parent) {
				continue
			}
			r.A.Cooldown = FireEvery
			a := float64(r.A.Angle)
			if sh, ok := shipOf.TryGet(parent); ok {
				a += float64(sh.Angle)
			}
			sin, cos := detmath.Sincos(a)
			b := g.bullet.SpawnCmd(c)
			pos.SetCmd(c, b, *r.B)
			vel.SetCmd(c, b, Vel{6 * float32(cos), 6 * float32(sin)})
		}
	}, sched.ReadsEvents[PlayerInput](), sched.Reads[Owner](), sched.Writes[Turret](), sched.Reads[Offset](), sched.Reads[Ship](),
		sched.Structural(), sched.Writes[Pos](), sched.Writes[Vel](), sched.Writes[Bullet](),
		sched.ReadsRelation(g.H.Relation()), sched.After("attach"))

	bullets := ecs.NewQuery2[Bullet, Pos](w)
	rocks := ecs.NewQuery2[Rock, Pos](w)
	s.AddFunc("collide", func(ctx *sched.Context) {
		c := ctx.Commands()
		for b := range bullets.All() {
			for r := range rocks.All() {
				dx, dy := b.B.X-r.B.X, b.B.Y-r.B.Y
				if float32(dx*dx)+float32(dy*dy) < r.A.R*r.A.R {
					hits.Send(ctx, Hit{Rock: r.Entity, Damage: 1})
					c.Despawn(b.Entity)
					break
				}
			}
		}
	}, sched.Reads[Bullet](), sched.Reads[Rock](), sched.Reads[Pos](), sched.SendsEvents[Hit](), sched.Structural(), sched.Writes[Bullet](), sched.Writes[Pos](), sched.Writes[Vel](),
		sched.After("move"))

	health, flash := ecs.NewMap[Health](w), ecs.NewMap[Flash](w)
	var left map[ecs.Entity]int32
	s.AddFunc("damage", func(ctx *sched.Context) {
		c := ctx.Commands()
		clear(left)
		if left == nil {
			left = map[ecs.Entity]int32{}
		}
		var order []ecs.Entity
		for _, h := range hitReader.Read() {
			hp, seen := left[h.Rock]
			if !seen {
				got, ok := health.TryGet(h.Rock)
				if !ok {
					continue
				}
				hp = got.HP
				order = append(order, h.Rock)
			}
			left[h.Rock] = hp - h.Damage
			g.score.Hits++
		}
		for _, e := range order { // the order of the hits: the same with any number of workers
			health.SetCmd(c, e, Health{HP: left[e]}) // OnSet fires: explode at 0
			flash.SetCmd(c, e, Flash{Ticks: 8})
		}
	}, sched.ReadsEvents[Hit](), sched.Writes[Health](), sched.Writes[Flash](), sched.WritesResource[Score](),
		sched.Structural(), sched.After("collide"))

	emitters := ecs.NewQuery2[Emitter, Pos](w)
	particle := ecs.NewMap3[Pos, Vel, Particle](w)
	rng := ecs.GetResource[Rng](w)
	s.AddFunc("emit", func(ctx *sched.Context) {
		c := ctx.Commands()
		tick := int32(g.score.Tick)
		for r := range emitters.All() {
			em := r.A
			if em.Ticks > 0 {
				em.Ticks--
				if em.Ticks == 0 {
					c.Despawn(r.Entity) // its sparks, its children, go with it
					continue
				}
			}
			if tick%em.Every != 0 {
				continue
			}
			for range em.Count {
				a := rng.Float(0, 2*math.Pi)
				sp := em.Speed * rng.Float(0.3, 1)
				sin, cos := detmath.Sincos(float64(a))
				spark := particle.SpawnCmd(c, *r.B, Vel{sp * float32(cos), sp * float32(sin)}, Particle{Ticks: 30, Color: em.Color})
				g.H.Relation().AddCmd(c, spark, r.Entity)
			}
		}
	}, sched.Writes[Emitter](), sched.Writes[Pos](), sched.Writes[Vel](), sched.Writes[Particle](),
		sched.WritesRelation(g.H.Relation()), sched.WritesResource[Rng](), sched.ReadsResource[Score](),
		sched.Structural(), sched.After("attach"))

	aging := ecs.NewQuery1[Particle](w)
	shots := ecs.NewQuery1[Bullet](w)
	flashes := ecs.NewQuery1[Flash](w)
	s.AddFunc("age", func(ctx *sched.Context) {
		c := ctx.Commands()
		for r := range aging.All() {
			if r.A.Ticks--; r.A.Ticks <= 0 {
				c.Despawn(r.Entity)
			}
		}
		for r := range shots.All() {
			if r.A.Ticks--; r.A.Ticks <= 0 {
				c.Despawn(r.Entity)
			}
		}
		for r := range flashes.All() {
			if r.A.Ticks--; r.A.Ticks <= 0 {
				flash.RemoveCmd(c, r.Entity)
			}
		}
	}, sched.Writes[Particle](), sched.Writes[Bullet](), sched.Writes[Flash](), sched.Writes[Pos](), sched.Writes[Vel](),
		sched.WritesRelation(g.H.Relation()), sched.Structural(), sched.After("damage"))

	rockCount := ecs.NewQuery1[Rock](w)
	s.AddFunc("spawn-rocks", func(ctx *sched.Context) {
		c := ctx.Commands()
		missing := g.cfg.Rocks - rockCount.Count()
		for range min(missing, 50) { // at most 50 a tick, from the arena's edges
			e := g.rock.SpawnCmd(c)
			x, y := rng.Float(0, Width), float32(0)
			if rng.Next()%2 == 0 {
				x, y = 0, rng.Float(0, Height)
			}
			pos.SetCmd(c, e, Pos{x, y})
			vel.SetCmd(c, e, Vel{rng.Float(-1, 1), rng.Float(-1, 1)})
		}
	}, sched.Writes[Rock](), sched.Writes[Health](), sched.Writes[Pos](), sched.Writes[Vel](),
		sched.WritesResource[Rng](), sched.Structural(), sched.After("emit"))
}

// inputOf returns player's controls among the tick's input events: the
// last one the player sent, or none (the zero Input). O(len(ins)), a few
// players.
func inputOf(ins []PlayerInput, player uint32) Input {
	for i := len(ins) - 1; i >= 0; i-- {
		if ins[i].Player == player {
			return ins[i].Input
		}
	}
	return Input{}
}

// firing reports whether ship's owner holds fire this tick; false for an
// entity without an owner.
func firing(ins []PlayerInput, owners *ecs.Map[Owner], ship ecs.Entity) bool {
	o, ok := owners.TryGet(ship)
	return ok && inputOf(ins, o.Player).Fire
}

// move advances every position by its velocity and wraps it around the
// arena's edges.
func move(p []Pos, v []Vel) {
	v = v[:len(p)]
	for i := range p {
		x, y := p[i].X+v[i].X, p[i].Y+v[i].Y
		if x < 0 {
			x += Width
		} else if x >= Width {
			x -= Width
		}
		if y < 0 {
			y += Height
		} else if y >= Height {
			y -= Height
		}
		p[i].X, p[i].Y = x, y
	}
}
