// Command physics rebuilds the introductory example of Pierre Vigier,
// "Entity-Component-System – Part 1" (the ECS of the game Vagabond), with
// Tessera: a physics system that moves every entity having both a position
// and a velocity by a fixed time step, while entities lacking a velocity
// (anchors) are left alone.
//
// The bodies start from a seeded random source, so every run prints the same
// summary: kinetic energy and momentum stay constant in free motion, and the
// centre of mass moves as momentum / mass × time. At the end the bodies that
// left the arena are despawned from inside a loop (a deferred change).
//
//	go run ./examples/physics
package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/tessera-ecs/tessera/ecs"
)

// Position, Velocity and Mass are the components of a body.
type (
	Position struct{ X, Y float64 }
	Velocity struct{ X, Y float64 }
	Mass     struct{ Kg float64 }
)

// Arena is a world resource: bodies farther than HalfSize from the origin
// on either axis have left it.
type Arena struct{ HalfSize float64 }

// Sim is a world plus the cached queries its systems use.
type Sim struct {
	World   *ecs.World
	moving  *ecs.Query2[Position, Velocity] // the physics system's requirements
	bodies  *ecs.Query2[Velocity, Mass]
	massive *ecs.Query2[Position, Mass]
}

// NewSim spawns n moving bodies with random positions, velocities and masses
// drawn from seed, and anchors static bodies (position and mass, no
// velocity) spread on the x axis.
func NewSim(seed uint64, n, anchors int) *Sim {
	w := ecs.NewWorld()
	ecs.AddResource(w, &Arena{HalfSize: 10})
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ecs.NewMap3[Position, Velocity, Mass](w).SpawnBatchFunc(n,
		func(_ ecs.Entity, p *Position, v *Velocity, m *Mass) {
			// Every product is rounded before the add (float64(...)): arm64
			// would otherwise fuse it into one multiply-add and round once.
			// Uniform draws, not NormFloat64, whose tail calls math.Exp and
			// math.Log: their last bits differ from machine to machine.
			*p = Position{float64(rng.Float64()*10) - 5, float64(rng.Float64()*10) - 5}
			*v = Velocity{float64(rng.Float64()*6) - 3, float64(rng.Float64()*6) - 3}
			m.Kg = 1 + float64(rng.Float64()*4)
		})
	statics := ecs.NewMap2[Position, Mass](w)
	for i := range anchors {
		statics.Spawn(Position{X: float64(2*i - anchors + 1)}, Mass{Kg: 10})
	}
	return &Sim{
		World:   w,
		moving:  ecs.NewQuery2[Position, Velocity](w),
		bodies:  ecs.NewQuery2[Velocity, Mass](w),
		massive: ecs.NewQuery2[Position, Mass](w),
	}
}

// Moving returns how many entities the physics system updates.
func (s *Sim) Moving() int { return s.moving.Count() }

// Step is the physics system: position += velocity × dt for every entity
// that has both, one plain slice loop per table.
func (s *Sim) Step(dt float64) {
	for c := range s.moving.Chunks() {
		ps := c.A[:len(c.B)] // a local: indexing c.A would reload it after every store
		for i, v := range c.B {
			ps[i].X += float64(v.X * dt) // rounded before the add: never fused
			ps[i].Y += float64(v.Y * dt)
		}
	}
}

// KineticEnergy returns the sum of ½ m v² over the moving bodies.
func (s *Sim) KineticEnergy() float64 {
	e := 0.0
	for r := range s.bodies.All() {
		e += float64(0.5 * r.B.Kg * (float64(r.A.X*r.A.X) + float64(r.A.Y*r.A.Y)))
	}
	return e
}

// Momentum returns the sum of m v over the moving bodies.
func (s *Sim) Momentum() (px, py float64) {
	for r := range s.bodies.All() {
		px += float64(r.B.Kg * r.A.X)
		py += float64(r.B.Kg * r.A.Y)
	}
	return px, py
}

// CenterOfMass returns the mass-weighted mean position of every entity with
// a mass, anchors included, and the total mass.
func (s *Sim) CenterOfMass() (x, y, total float64) {
	for r := range s.massive.All() {
		x += float64(r.B.Kg * r.A.X)
		y += float64(r.B.Kg * r.A.Y)
		total += r.B.Kg
	}
	return x / total, y / total, total
}

// Cull despawns the moving entities outside the arena and returns how many
// it despawned. The despawns are deferred until the loop ends.
func (s *Sim) Cull() int {
	half := ecs.GetResource[Arena](s.World).HalfSize
	n := 0
	it := s.moving.Iter()
	for it.Next() {
		p, _ := it.Get()
		if p.X < -half || p.X > half || p.Y < -half || p.Y > half {
			s.World.Despawn(it.Entity())
			n++
		}
	}
	return n
}

func report(out io.Writer, s *Sim, t float64) {
	px, py := s.Momentum()
	cx, cy, _ := s.CenterOfMass()
	fmt.Fprintf(out, "t=%.0fs  energy %.3f J  momentum (%.3f, %.3f)  centre of mass (%.3f, %.3f)\n",
		t, s.KineticEnergy(), px, py, cx, cy)
}

func run(out io.Writer) {
	const (
		seed    = 42
		steps   = 60
		dt      = 1.0 / 60
		seconds = 3
	)
	s := NewSim(seed, 12, 3)
	fmt.Fprintf(out, "%d entities; the physics system moves %d of them (the anchors have no velocity)\n",
		s.World.Len(), s.Moving())
	px, py := s.Momentum()
	cx, cy, m := s.CenterOfMass()
	report(out, s, 0)
	for sec := 1; sec <= seconds; sec++ {
		for range steps {
			s.Step(dt)
		}
		report(out, s, float64(sec))
	}
	fmt.Fprintf(out, "predicted centre of mass at t=%ds: (%.3f, %.3f) = start + momentum / %.3f kg × t\n",
		seconds, cx+float64(px/m*seconds), cy+float64(py/m*seconds), m)
	culled := s.Cull()
	fmt.Fprintf(out, "culled %d bodies that left the arena; %d entities remain, %d of them moving\n",
		culled, s.World.Len(), s.Moving())
	// Every product above is rounded before its add: this checksum is the
	// same on amd64, arm64, 386 and wasm.
	fmt.Fprintf(out, "world checksum: %016x\n", s.World.Checksum())
}

func main() { run(os.Stdout) }
