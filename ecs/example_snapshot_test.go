package ecs_test

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// Inventory holds a slice, so snapshots need it to copy itself.
type Inventory struct{ Items []string }

// Clone makes Inventory a Cloner: snapshots and the world never share Items.
func (i Inventory) Clone() Inventory { return Inventory{Items: slices.Clone(i.Items)} }

// A rollback: save, run a tick that turns out wrong, restore, run it again.
// The restore rewinds everything, the entity ids the tick spawned included.
func ExampleWorld_Snapshot() {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	inv := ecs.NewMap[Inventory](w)
	hero := pos.Spawn(Position{X: 1})
	inv.Add(hero, Inventory{Items: []string{"sword"}})

	var save ecs.Snapshot
	w.Snapshot(&save)

	tick := func(dx float64, loot string) ecs.Entity {
		pos.Get(hero).X += dx
		bag := inv.Get(hero)
		bag.Items = append(bag.Items, loot)
		return pos.Spawn(Position{}) // a projectile
	}
	first := tick(5, "shield") // predicted with the wrong input
	w.Restore(&save)
	second := tick(2, "potion") // re-simulated with the right one

	fmt.Println(pos.Get(hero).X, inv.Get(hero).Items, second == first, w.Len())
	// Output: 3 [sword potion] true 2
}

// Save a world and load it into a new one made by the same code: the
// entities keep their ids, and the checksums agree.
func ExampleWorld_Save() {
	build := func() (*ecs.World, *ecs.Map[Position]) {
		w := ecs.NewWorld()
		return w, ecs.NewMap[Position](w)
	}
	w, pos := build()
	a := pos.Spawn(Position{X: 1, Y: 2})
	pos.Spawn(Position{X: 3, Y: 4})
	w.Despawn(a)

	var file bytes.Buffer
	if err := w.Save(&file); err != nil {
		panic(err)
	}
	loaded, lpos := build()
	if err := loaded.Load(&file); err != nil {
		panic(err)
	}
	for r := range ecs.NewQuery1[Position](loaded).All() {
		fmt.Println(r.Entity, *r.A, lpos.Has(r.Entity))
	}
	fmt.Println(loaded.Checksum() == w.Checksum(), loaded.Spawn().Index() == w.Spawn().Index())
	// Output:
	// 2v0 {3 4} true
	// true true
}

// Target is a component that names another entity.
type Target struct{ E ecs.Entity }

// Merge a saved squad into a world that already has entities: the squad's
// entities get new ids, and the references between them follow.
func ExampleWorld_Merge() {
	build := func() (*ecs.World, *ecs.Map[Target]) {
		w := ecs.NewWorld()
		return w, ecs.NewMap[Target](w)
	}
	squad, follow := build()
	leader := squad.Spawn()
	scout := follow.Spawn(Target{E: leader})
	var file bytes.Buffer
	if err := squad.Save(&file); err != nil {
		panic(err)
	}

	game, gameFollow := build()
	game.Spawn()
	game.Spawn()
	m, err := game.Merge(&file)
	if err != nil {
		panic(err)
	}
	newLeader, _ := m.Get(leader)
	newScout, _ := m.Get(scout)
	fmt.Println(m.Len(), game.Len(), newLeader, newScout, gameFollow.Get(newScout).E == newLeader)
	// Output: 2 4 3v0 4v0 true
}
