// Command registry rebuilds the walk-through of the "type-erased component
// registry" tutorial of the Multiversal Consciousness engine with Tessera: a
// level with agents, walls and a door made of Transform, Agent, Wall, Door,
// PhysicsComponent and Inventory components. It adds components (Set adds or
// updates), looks them up (TryGet and Has report a missing component instead
// of failing), iterates them, removes them, despawns an entity with
// everything it has, and shows the stale-pointer trap of swap-and-pop storage
// and the rule that avoids it.
//
// There is no registry to fill in: a component type gets its storage the
// first time a world sees it.
//
//	go run ./examples/registry
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// The components of the level.
type (
	Transform        struct{ X, Y float64 }
	Agent            struct{ Name string }
	Wall             struct{ Height float64 }
	Door             struct{ Locked bool }
	PhysicsComponent struct{ Mass, VX, VY float64 }
	Inventory        struct{ Items []string }
)

// Level is a world with one cached handle per component type.
type Level struct {
	World       *ecs.World
	Transforms  *ecs.Map[Transform]
	Agents      *ecs.Map[Agent]
	Walls       *ecs.Map[Wall]
	Doors       *ecs.Map[Door]
	Physics     *ecs.Map[PhysicsComponent]
	Inventories *ecs.Map[Inventory]
	moving      *ecs.Query2[Transform, PhysicsComponent]

	Scout, Medic, NorthWall, EastWall, Gate ecs.Entity
}

// NewLevel spawns two agents, two walls and a door.
func NewLevel() *Level {
	w := ecs.NewWorld()
	l := &Level{
		World:       w,
		Transforms:  ecs.NewMap[Transform](w),
		Agents:      ecs.NewMap[Agent](w),
		Walls:       ecs.NewMap[Wall](w),
		Doors:       ecs.NewMap[Door](w),
		Physics:     ecs.NewMap[PhysicsComponent](w),
		Inventories: ecs.NewMap[Inventory](w),
		moving:      ecs.NewQuery2[Transform, PhysicsComponent](w),
	}
	agents := ecs.NewMap3[Transform, Agent, Inventory](w)
	l.Scout = agents.Spawn(Transform{0, 0}, Agent{"scout"}, Inventory{[]string{"map"}})
	l.Medic = agents.Spawn(Transform{1, 0}, Agent{"medic"}, Inventory{[]string{"bandage", "potion"}})
	walls := ecs.NewMap2[Transform, Wall](w)
	l.NorthWall = walls.Spawn(Transform{0, 10}, Wall{3})
	l.EastWall = walls.Spawn(Transform{10, 0}, Wall{3})
	l.Gate = ecs.NewMap3[Transform, Door, PhysicsComponent](w).Spawn(Transform{5, 10}, Door{Locked: true}, PhysicsComponent{Mass: 40})
	return l
}

// Components lists the component types e has, in a fixed order.
func (l *Level) Components(e ecs.Entity) []string {
	var out []string
	add := func(name string, has bool) {
		if has {
			out = append(out, name)
		}
	}
	add("Transform", l.Transforms.Has(e))
	add("Agent", l.Agents.Has(e))
	add("Wall", l.Walls.Has(e))
	add("Door", l.Doors.Has(e))
	add("PhysicsComponent", l.Physics.Has(e))
	add("Inventory", l.Inventories.Has(e))
	return out
}

func (l *Level) describe(e ecs.Entity) string {
	return fmt.Sprintf("%v [%s]", e, strings.Join(l.Components(e), " "))
}

// Integrate moves every entity with a Transform and a PhysicsComponent by
// its velocity × dt and returns how many it moved.
func (l *Level) Integrate(dt float64) int {
	n := 0
	for r := range l.moving.All() {
		r.A.X += float64(r.B.VX * dt) // rounded before the add: never fused
		r.A.Y += float64(r.B.VY * dt)
		n++
	}
	return n
}

// panicMessage runs f and returns the message it panicked with, or "".
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func run(out io.Writer) {
	l := NewLevel()
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }

	p("1. add")
	for i, e := range []ecs.Entity{l.Scout, l.Medic, l.NorthWall, l.EastWall, l.Gate} {
		p("   %-10s %s", []string{"scout", "medic", "north wall", "east wall", "gate"}[i], l.describe(e))
	}
	l.Physics.Set(l.Scout, PhysicsComponent{Mass: 70, VX: 1}) // adds
	p("   Set adds:     scout %s", l.describe(l.Scout))
	l.Physics.Set(l.Scout, PhysicsComponent{Mass: 70, VX: 2, VY: 1}) // updates
	p("   Set updates:  scout physics %+v", *l.Physics.Get(l.Scout))
	p("   Add panics:   %s", panicMessage(func() { l.Physics.Add(l.Scout, PhysicsComponent{}) }))

	p("2. look up")
	p("   scout transform %+v, agent %q", *l.Transforms.Get(l.Scout), l.Agents.Get(l.Scout).Name)
	ph, ok := l.Physics.TryGet(l.NorthWall)
	p("   north wall physics: TryGet -> %v, %v; Has inventory: %v", ph, ok, l.Inventories.Has(l.NorthWall))
	p("   Get panics:   %s", panicMessage(func() { l.Physics.Get(l.NorthWall) }))

	p("3. iterate")
	var names []string // tables in creation order: the scout moved to a newer one
	for r := range ecs.NewQuery1[Agent](l.World).All() {
		names = append(names, r.A.Name)
	}
	p("   agents: %s; placed entities: %d", strings.Join(names, ", "), ecs.NewQuery1[Transform](l.World).Count())
	p("   physics system moved %d entities; scout now at %+v", l.Integrate(0.5), *l.Transforms.Get(l.Scout))

	p("4. remove")
	l.Inventories.Remove(l.Medic)
	l.Inventories.Remove(l.Medic) // nothing to remove: no-op
	p("   medic %s", l.describe(l.Medic))

	p("5. despawn")
	l.World.Despawn(l.Gate)
	_, ok = l.Doors.TryGet(l.Gate)
	p("   gate %s alive=%v TryGet(Door) ok=%v", l.describe(l.Gate), l.World.Alive(l.Gate), ok)
	crate := l.World.Spawn()
	p("   new entity %v reuses the index; old handle %v alive=%v", crate, l.Gate, l.World.Alive(l.Gate))

	p("6. stale pointers")
	east := l.Transforms.Get(l.EastWall) // the last row of the walls table
	l.Transforms.Set(l.EastWall, Transform{11, 0})
	p("   after Set (no structural change) the pointer still sees %+v", *east)
	l.World.Despawn(l.NorthWall) // swap-and-pop: east moves into north's row
	east.X = 99
	p("   after despawning north, a write through the old pointer is lost: east at %+v", *l.Transforms.Get(l.EastWall))
	ecs.NewMap2[Transform, Wall](l.World).Add(crate, Transform{-4, -4}, Wall{1})
	p("   after another wall lands in that row, the old pointer reads its data: %+v", *east)
	p("   rule: call Get again after any spawn, add, remove or despawn")
}

func main() { run(os.Stdout) }
