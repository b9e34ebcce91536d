package main

import "github.com/tessera-ecs/tessera/ecs"

// The player kinds of Player.Kind and the states of Health.Status.
const (
	NPC, Monster, Hero = 0, 1, 2
	Spawn, Dead, Alive = 0, 1, 2
)

// dt is the fixed time step: 1/60 s.
const dt = float32(1.0 / 60)

// newWorld spawns n entities, every other one a Character and the rest
// Props, through the generated spawners, with values drawn from seed;
// every tenth character carries an Inventory.
func newWorld(n int, seed uint64) *ecs.World {
	w := ecs.NewWorld()
	Register(w)
	rng := NewRand32(seed)
	place := func(p *Position, d *Data) {
		p.X, p.Y = float32(rng.Range(0, 420)-100), float32(rng.Range(0, 340)-100)
		d.Seed = rng.Next()
		d.Rng = NewRand32(uint64(rng.Next()))
	}
	NewProp(w).SpawnBatchFunc(n-n/2, func(_ ecs.Entity, p *Position, _ *Velocity, d *Data) { place(p, d) })
	inventories := ecs.NewMap[Inventory](w)
	var carriers []ecs.Entity
	NewCharacter(w).SpawnBatchFunc(n/2, func(e ecs.Entity, p *Position, _ *Velocity, d *Data, pl *Player, h *Health, dm *Damage, _ *Sprite) {
		place(p, d)
		pl.Rng = NewRand32(uint64(rng.Next()))
		switch r := rng.Range(1, 100); {
		case r <= 3:
			pl.Kind, h.MaxHP, *dm = NPC, int32(rng.Range(6, 12)), Damage{Atk: 0, Def: int32(rng.Range(3, 8))}
		case r <= 30:
			pl.Kind, h.MaxHP, *dm = Hero, int32(rng.Range(5, 15)), Damage{Atk: int32(rng.Range(4, 10)), Def: int32(rng.Range(2, 6))}
		default:
			pl.Kind, h.MaxHP, *dm = Monster, int32(rng.Range(4, 12)), Damage{Atk: int32(rng.Range(3, 9)), Def: int32(rng.Range(2, 8))}
		}
		h.HP = h.MaxHP
		if len(carriers)%10 == 0 {
			carriers = append(carriers, e)
		} else {
			carriers = append(carriers, ecs.Entity{})
		}
	})
	for i, e := range carriers {
		if !e.IsZero() {
			inventories.Add(e, Inventory{Items: []string{"rope", "lamp"}, Owner: carriers[max(0, i-10)]})
		}
	}
	return w
}

// game holds the queries of the game's systems.
type game struct {
	moving   *ecs.Query2[Position, Velocity]
	datas    *ecs.Query1[Data]
	complexQ *ecs.Query3[Position, Velocity, Data]
	healths  *ecs.Query1[Health]
	fights   *ecs.Query2[Health, Damage]
	sprites  *ecs.Query3[Sprite, Player, Health]
}

func newGame(w *ecs.World) *game {
	return &game{
		moving: ecs.NewQuery2[Position, Velocity](w), datas: ecs.NewQuery1[Data](w),
		complexQ: ecs.NewQuery3[Position, Velocity, Data](w), healths: ecs.NewQuery1[Health](w),
		fights: ecs.NewQuery2[Health, Damage](w), sprites: ecs.NewQuery3[Sprite, Player, Health](w),
	}
}

// tick runs the game's systems once, in order: movement, data, more
// complex, health, damage and sprite.
func (g *game) tick() {
	for r := range g.moving.All() {
		r.A.X += float32(r.B.X * dt) // rounded before the add: never fused
		r.A.Y += float32(r.B.Y * dt)
	}
	for r := range g.datas.All() {
		d := r.A
		d.Thingy = (d.Thingy + 1) % 1000000
		d.Dingy += 0.0001 * float64(dt)
		d.Mingy = !d.Mingy
		d.Numgy = d.Rng.Next()
	}
	for r := range g.complexQ.All() {
		if r.C.Thingy%10 != 0 {
			continue
		}
		a, b := float32(r.C.Rng.Range(3, 19)-10), float32(r.C.Rng.Range(0, 5))
		if r.A.X > r.A.Y {
			r.B.X, r.B.Y = a, b
		} else {
			r.B.X, r.B.Y = b, a
		}
	}
	for r := range g.healths.All() {
		h := r.A
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
	for r := range g.fights.All() {
		if d := r.B.Atk - r.B.Def; r.A.HP > 0 && d > 0 {
			r.A.HP = max(r.A.HP-d, 0)
		}
	}
	for r := range g.sprites.All() {
		switch r.C.Status {
		case Alive:
			r.A.Char = [...]byte{NPC: 'h', Monster: 'k', Hero: '@'}[r.B.Kind]
		case Dead:
			r.A.Char = '|'
		case Spawn:
			r.A.Char = '_'
		}
	}
}
