package ecs_test

import (
	"fmt"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// Likes is a relation's pair value: how much the source likes the target.
type Likes struct{ Stars int }

// A many-to-many relation with a value per pair, read from both sides.
func ExampleNewRelation() {
	w := ecs.NewWorld()
	likes := ecs.NewRelation[Likes](w, ecs.Multi())
	alice, bob, carol := w.Spawn(), w.Spawn(), w.Spawn()
	likes.Set(alice, bob, Likes{Stars: 5})
	likes.Set(carol, bob, Likes{Stars: 3})
	likes.Set(alice, carol, Likes{Stars: 4})

	fmt.Println(likes.Targets(alice), likes.Sources(bob), likes.Value(carol, bob).Stars)
	w.Despawn(bob) // RemovePairs: alice and carol lose their pair with bob
	fmt.Println(likes.Targets(alice), likes.Has(carol, bob))
	// Output:
	// [2v0 3v0] [1v0 3v0] 3
	// [3v0] false
}

// A scene graph: reparent a subtree, walk it, and despawn it with its
// children.
func ExampleHierarchy() {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	ship, turret, gun, tank := w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn()
	h.SetParent(turret, ship)
	h.SetParent(gun, turret)
	fmt.Println(slices.Collect(h.Descendants(ship)), h.Root(gun), h.Depth(gun))

	h.SetParent(turret, tank) // the turret moves, its gun with it
	fmt.Println(h.Children(ship), slices.Collect(h.Ancestors(gun)))

	w.Despawn(tank) // DespawnSources: the turret and its gun go too
	fmt.Println(w.Alive(turret), w.Alive(gun), w.Len())
	// Output:
	// [2v0 3v0] 1v0 2
	// [] [2v0 4v0]
	// false false 1
}

// MemberOf is the pair type of ExampleSplitByTarget: a unit's faction.
type MemberOf struct{}

// A relation split by target: each faction's units are a table of their
// own, so a query over one faction hands out its units as one chunk.
func ExampleSplitByTarget() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	hp := ecs.NewMap[Health](w)
	member := ecs.NewRelation[MemberOf](w, ecs.SplitByTarget())
	red, blue := w.Spawn(), w.Spawn()
	for i := range 5 {
		u := hp.Spawn(Health{HP: 10 * (i + 1)})
		if i%2 == 0 {
			member.Add(u, red)
		} else {
			member.Add(u, blue)
		}
	}
	var faction ecs.TargetVar
	q := ecs.NewQuery1[Health](w, member.ToVar(&faction))
	for name, f := range map[string]ecs.Entity{"red": red, "blue": blue} {
		faction.Set(f)
		for c := range q.Chunks() {
			total := 0
			for _, h := range c.A {
				total += h.HP
			}
			fmt.Printf("%s: %d units in one chunk, %d HP\n", name, len(c.A), total)
		}
	}
	// Unordered output:
	// red: 3 units in one chunk, 90 HP
	// blue: 2 units in one chunk, 60 HP
}
