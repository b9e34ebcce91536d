package ecs_test

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

// Hull, Turret and Aim are the components of the prefab example.
type (
	Hull   struct{ HP int }
	Turret struct{ Arc float64 }
	Aim    struct{ E ecs.Entity }
)

// A prefab of a ship with two turrets: the template is built with the
// ordinary API, captured, and despawned; instances get their own
// entities, their own tree, and entity values pointing into it.
func ExampleNewPrefab() {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	hulls := ecs.NewMap[Hull](w)
	turrets := ecs.NewMap2[Turret, Aim](w)

	hull := hulls.Spawn(Hull{HP: 100})
	left := turrets.Spawn(Turret{Arc: 90}, Aim{})
	right := turrets.Spawn(Turret{Arc: 90}, Aim{E: left}) // covers the left turret
	h.SetParent(left, hull)
	h.SetParent(right, hull)
	ship := ecs.NewPrefab(w, hull)
	w.Despawn(hull) // the prefab keeps its own copies

	ecs.PrefabValue[Hull](ship, 0).HP = 150 // later instances get 150
	ship.SpawnBatchFunc(2, func(i int, inst []ecs.Entity) {
		turret, _ := turrets.Get(inst[1])
		turret.Arc += float64(float64(i) * 10) // a per-instance override
	})

	for r := range ecs.NewQuery1[Hull](w).All() {
		hp, kids := r.A, h.Children(r.Entity)
		l, _ := turrets.Get(kids[0])
		_, aim := turrets.Get(kids[1])
		fmt.Println(hp.HP, l.Arc, aim.E == kids[0])
	}
	// Output:
	// 150 90 true
	// 150 100 true
}

// A system that records into a Commands buffer spawns an instance and
// overrides a child's value: SpawnCmdNodes hands out every node's pending
// entity, and changes recorded on them apply after the instance is
// filled.
func ExamplePrefab_SpawnCmdNodes() {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	hulls := ecs.NewMap[Hull](w)
	arcs := ecs.NewMap[Turret](w)
	hull := hulls.Spawn(Hull{HP: 100})
	left, right := arcs.Spawn(Turret{Arc: 90}), arcs.Spawn(Turret{Arc: 90})
	h.SetParent(left, hull)
	h.SetParent(right, hull)
	ship := ecs.NewPrefab(w, hull)
	rightNode, _ := ship.Node(right)

	c := w.NewCommands()
	inst := ship.SpawnCmdNodes(c, nil)                // pending: root, left, right
	arcs.SetCmd(c, inst[rightNode], Turret{Arc: 180}) // overrides the right turret
	w.Apply(c)

	root, _ := c.Resolve(inst[0])
	for _, e := range h.Children(root) {
		fmt.Print(arcs.Get(e).Arc, " ")
	}
	fmt.Println(hulls.Get(root).HP)
	// Output:
	// 90 180 100
}

// CopyEntity copies an entity with all its components; a clone of a child is
// a sibling.
func ExampleWorld_CopyEntity() {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	hulls := ecs.NewMap[Hull](w)
	ship := hulls.Spawn(Hull{HP: 100})
	fleet := w.Spawn()
	h.SetParent(ship, fleet)

	twin := w.CopyEntity(ship)
	hulls.Get(twin).HP = 80
	fmt.Println(hulls.Get(ship).HP, hulls.Get(twin).HP, h.Children(fleet))
	// Output:
	// 100 80 [1v0 3v0]
}
