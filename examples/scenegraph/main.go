// Command scenegraph propagates transforms down a scene graph built on the
// hierarchy of package ecs: every node has a Local transform, relative to
// its parent, and a World transform that Propagate computes as the parent's
// World composed with the node's Local (2D rigid transforms: rotate by
// Angle, then translate by X, Y).
//
// It shows how to visit a tree parents first with the public API: the roots
// are the nodes without a parent, a query with
// Without(h.Relation().AsSource()), and Hierarchy.Descendants yields each
// node before its children, so a node's parent is always up to date when
// the node is reached. Two ships with turrets and barrels and a small solar
// system move for a while (turrets spin, planets and moons orbit); then a
// turret moves from one ship to the other without jumping (its Local is
// recomputed from the new parent), and a ship is despawned, taking its
// turrets and barrels with it.
//
//	go run ./examples/scenegraph
package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/tessera-ecs/tessera/detmath"
	"github.com/tessera-ecs/tessera/ecs"
)

// The components of a node. Spin and Orbit animate Local; World is only
// written by Propagate.
type (
	Name  string
	Local struct{ X, Y, Angle float64 } // relative to the parent, or to the world for a root
	World struct{ X, Y, Angle float64 } // where the node is, computed from Local
	Spin  struct{ Rate float64 }        // radians per second added to Local.Angle
	Orbit struct{ Radius, Rate, Phase float64 }
)

// Then returns the world transform of a node whose parent is at p and
// whose local transform is l: p ∘ l, the local offset rotated by the
// parent's angle.
func (p World) Then(l Local) World {
	// detmath and rounded products: the same bits on every machine.
	sin, cos := detmath.Sincos(p.Angle)
	return World{
		X:     p.X + float64(cos*l.X) - float64(sin*l.Y),
		Y:     p.Y + float64(sin*l.X) + float64(cos*l.Y),
		Angle: p.Angle + l.Angle,
	}
}

// Relative returns the local transform that puts a child of p at w: p⁻¹ ∘ w.
func (p World) Relative(w World) Local {
	sin, cos := detmath.Sincos(p.Angle)
	dx, dy := w.X-p.X, w.Y-p.Y
	return Local{X: float64(cos*dx) + float64(sin*dy), Y: float64(-sin*dx) + float64(cos*dy), Angle: w.Angle - p.Angle}
}

// Scene is a world, its hierarchy, and the handles and queries the systems use.
type Scene struct {
	World  *ecs.World
	H      *ecs.Hierarchy
	nodes  *ecs.Map3[Name, Local, World]
	names  *ecs.Map[Name]
	locals *ecs.Map[Local]
	worlds *ecs.Map[World]
	roots  *ecs.Query2[Local, World]
	spins  *ecs.Query2[Local, Spin]
	orbits *ecs.Query2[Local, Orbit]
	byName map[Name]ecs.Entity
}

// NewScene builds two ships and a solar system, and propagates once.
func NewScene() *Scene {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	s := &Scene{
		World:  w,
		H:      h,
		nodes:  ecs.NewMap3[Name, Local, World](w),
		names:  ecs.NewMap[Name](w),
		locals: ecs.NewMap[Local](w),
		worlds: ecs.NewMap[World](w),
		// A root is a node that is not the source of a ChildOf pair.
		roots:  ecs.NewQuery2[Local, World](w, ecs.Without(h.Relation().AsSource())),
		spins:  ecs.NewQuery2[Local, Spin](w),
		orbits: ecs.NewQuery2[Local, Orbit](w),
		byName: map[Name]ecs.Entity{},
	}
	spin := ecs.NewMap[Spin](w)
	orbit := ecs.NewMap[Orbit](w)

	aurora := s.Spawn("aurora", "", Local{X: 30, Y: 0, Angle: math.Pi / 2})
	spin.Add(aurora, Spin{Rate: 0.05})
	for i, side := range []float64{1, -1} {
		name := Name(fmt.Sprintf("aurora/turret-%d", i+1))
		turret := s.Spawn(name, "aurora", Local{X: 2 * side, Y: 1})
		spin.Add(turret, Spin{Rate: 0.8 * side})
		s.Spawn(name+"/barrel", name, Local{X: 1.5})
	}
	s.Spawn("borealis", "", Local{X: -30, Y: 10, Angle: -0.6})
	turret := s.Spawn("borealis/turret-1", "borealis", Local{Y: 1.5})
	spin.Add(turret, Spin{Rate: 0.5})
	s.Spawn("borealis/turret-1/barrel", "borealis/turret-1", Local{X: 1.5})

	s.Spawn("sun", "", Local{})
	for _, b := range []struct {
		name, parent Name
		orbit        Orbit
	}{
		{"earth", "sun", Orbit{Radius: 10, Rate: 0.5}},
		{"moon", "earth", Orbit{Radius: 1.5, Rate: 3}},
		{"mars", "sun", Orbit{Radius: 16, Rate: 0.25, Phase: math.Pi}},
		{"phobos", "mars", Orbit{Radius: 1, Rate: 4}},
		{"deimos", "mars", Orbit{Radius: 2, Rate: 1.5}},
	} {
		orbit.Add(s.Spawn(b.name, b.parent, Local{}), b.orbit)
	}
	s.Tick(0) // place the orbiting bodies and propagate
	return s
}

// Spawn adds a node under the node named parent ("" for a root).
func (s *Scene) Spawn(name, parent Name, l Local) ecs.Entity {
	e := s.nodes.Spawn(name, l, World{})
	if parent != "" {
		s.H.SetParent(e, s.byName[parent])
	}
	s.byName[name] = e
	return e
}

// Node returns the entity of the node named name.
func (s *Scene) Node(name Name) ecs.Entity { return s.byName[name] }

// Tick animates the local transforms for dt seconds, then propagates.
func (s *Scene) Tick(dt float64) {
	for r := range s.spins.All() {
		r.A.Angle += float64(r.B.Rate * dt)
	}
	for r := range s.orbits.All() {
		r.B.Phase += float64(r.B.Rate * dt)
		sin, cos := detmath.Sincos(r.B.Phase)
		*r.A = Local{X: r.B.Radius * cos, Y: r.B.Radius * sin}
	}
	s.Propagate()
}

// Propagate computes every node's World from its parent's World and its own
// Local, parents first: a root's World is its Local, and Descendants visits
// each node before its children.
func (s *Scene) Propagate() {
	for r := range s.roots.All() {
		*r.B = World(*r.A)
		for e := range s.H.Descendants(r.Entity) {
			parent, _ := s.H.Parent(e)
			*s.worlds.Get(e) = s.worlds.Get(parent).Then(*s.locals.Get(e))
		}
	}
}

// Reparent moves e, with its subtree, under parent without moving it in the
// world: its new Local is its World seen from the parent's World. Call it
// when the World transforms are current (after Tick or Propagate).
func (s *Scene) Reparent(e, parent ecs.Entity) {
	s.H.SetParent(e, parent)
	*s.locals.Get(e) = s.worlds.Get(parent).Relative(*s.worlds.Get(e))
}

// WorldOf returns the World transform of the node named name.
func (s *Scene) WorldOf(name Name) World { return *s.worlds.Get(s.byName[name]) }

func (s *Scene) print(out io.Writer, names ...Name) {
	for _, n := range names {
		w := s.WorldOf(n)
		fmt.Fprintf(out, "  %-26s (%8.3f, %8.3f) %7.2f°\n", n, w.X, w.Y, degrees(w.Angle))
	}
}

// degrees converts an angle to degrees in [-180, 180].
func degrees(rad float64) float64 { return math.Remainder(rad, 2*math.Pi) * 180 / math.Pi }

func run(out io.Writer) {
	const ticks, dt = 50, 0.1
	s := NewScene()
	var roots []Name
	for r := range s.roots.All() {
		roots = append(roots, *s.names.Get(r.Entity))
	}
	fmt.Fprintf(out, "%d nodes; roots: %v\n", s.World.Len(), roots)

	for range ticks {
		s.Tick(dt)
	}
	fmt.Fprintf(out, "after %d ticks of %gs:\n", ticks, dt)
	s.print(out, "earth", "moon", "phobos", "aurora/turret-2", "aurora/turret-2/barrel")

	turret := s.Node("aurora/turret-2")
	before := s.WorldOf("aurora/turret-2/barrel")
	s.Reparent(turret, s.Node("borealis"))
	s.Propagate()
	after := s.WorldOf("aurora/turret-2/barrel")
	fmt.Fprintf(out, "aurora/turret-2 moves to borealis: its barrel at (%.3f, %.3f) before, (%.3f, %.3f) after\n",
		before.X, before.Y, after.X, after.Y)
	l := s.locals.Get(turret)
	fmt.Fprintf(out, "  its local transform is now (%.3f, %.3f) at %.2f°\n", l.X, l.Y, degrees(l.Angle))

	for range ticks {
		s.Tick(dt)
	}
	fmt.Fprintf(out, "after %d more ticks:\n", ticks)
	s.print(out, "moon", "aurora/turret-2", "aurora/turret-2/barrel")

	n := s.World.Len()
	s.World.Despawn(s.Node("aurora"))
	fmt.Fprintf(out, "despawned aurora: %d nodes -> %d; turret-1 alive: %v; borealis has %d turrets\n",
		n, s.World.Len(), s.World.Alive(s.Node("aurora/turret-1")), s.H.NumChildren(s.Node("borealis")))
	// detmath's Sincos and rounded products: this checksum is the same on
	// amd64, arm64, 386 and wasm.
	fmt.Fprintf(out, "world checksum: %016x\n", s.World.Checksum())
}

func main() { run(os.Stdout) }
