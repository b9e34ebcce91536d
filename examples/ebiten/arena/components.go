package arena

import (
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/pcg"
)

// Pos is where an entity is, in pixels of the Width x Height arena.
type Pos struct{ X, Y float32 }

// Vel is how far an entity moves per tick, in pixels.
type Vel struct{ X, Y float32 }

// Offset places a child relative to its parent (the hierarchy's ChildOf):
// the attach system turns it by the parent's heading and adds the
// parent's position.
type Offset struct{ X, Y float32 }

// Ship is a player's ship: its heading in radians.
type Ship struct{ Angle float32 }

// Owner is the player a ship belongs to: the steer and fire systems move
// it and fire its turrets by that player's PlayerInput.
type Owner struct{ Player uint32 }

// LocalPlayer is the player of a game on one machine: New gives it the
// ship and Step sends its input. A network server numbers its players
// otherwise (by client).
const LocalPlayer uint32 = 0

// Turret is a gun on the ship: its own heading, relative to the ship's,
// and the ticks until it may fire again.
type Turret struct {
	Angle    float32
	Cooldown int32
}

// Rock is an asteroid of radius R pixels.
type Rock struct{ R float32 }

// Health is what a rock has left; the observer on it explodes a rock at 0.
type Health struct{ HP int32 }

// Bullet is a shot with Ticks left to live.
type Bullet struct{ Ticks int32 }

// Particle is a spark with Ticks left to live, of palette colour Color.
// Particles are children of the emitter that made them: when an
// explosion's emitter expires, its sparks go with it.
type Particle struct {
	Ticks int32
	Color uint8
}

// Emitter makes Count particles every Every ticks for Ticks more ticks (or
// forever when Ticks is 0), flying out at Speed pixels a tick.
type Emitter struct {
	Every, Count, Ticks int32
	Speed               float32
	Color               uint8
}

// Flash marks a rock that was just hit, for Ticks ticks: a short-lived
// state, kept in a sparse set so that adding and removing it never moves
// the rock between tables.
type Flash struct{ Ticks int32 }

// Input is one player's controls for one tick.
type Input struct{ Left, Right, Thrust, Fire bool }

// PlayerInput is the event of one player's controls for the tick about to
// run: sent before the tick (Game.Step for LocalPlayer, Game.StepPlayers
// for several), read by the steer and fire systems, which move each ship
// by its Owner's. A ship whose owner sent none for the tick coasts: no
// turn, no thrust, no fire. When a player sends several for one tick, the
// last counts.
type PlayerInput struct {
	Player uint32
	Input
}

// Score is the game's score: a resource.
type Score struct {
	Hits, Kills int32
	Tick        uint64
}

// Rng is the game's random number generator, a resource, so that a save or
// a rewind brings back the numbers to come with the world.
type Rng struct{ State uint64 }

// Hit is the event of a bullet hitting a rock.
type Hit struct {
	Rock   ecs.Entity
	Damage int32
}

// Next returns 32 random bits (the output permutation of a 64-bit linear
// congruential generator, O'Neill's PCG XSH RR, package pcg).
func (r *Rng) Next() uint32 { return pcg.Next(&r.State) }

// Float returns a number in [lo, hi).
func (r *Rng) Float(lo, hi float32) float32 {
	// Rounded before the add: the division by a power of two becomes a
	// multiply, which arm64 would fuse into the add.
	return lo + float32((hi-lo)*float32(r.Next()>>8)/(1<<24))
}
