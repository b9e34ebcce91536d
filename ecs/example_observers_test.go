package ecs_test

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

func ExampleRegister() {
	type Position struct{ X, Y float64 }
	type Stunned struct{ Ticks int } // comes and goes often: sparse
	w := ecs.NewWorld()
	ecs.Register[Stunned](w, ecs.Sparse())

	pos := ecs.NewMap[Position](w)
	stunned := ecs.NewMap[Stunned](w)
	a, b := pos.Spawn(Position{1, 1}), pos.Spawn(Position{2, 2})
	stunned.Add(b, Stunned{Ticks: 3}) // b's table row does not move

	q := ecs.NewQuery2[Position, Stunned](w)
	for r := range q.All() {
		fmt.Println(r.Entity == b, r.A.X, r.B.Ticks)
	}
	fmt.Println(stunned.Has(a), q.Count())
	// Output:
	// true 2 3
	// false 1
}

func ExampleOnAdd() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	ecs.OnAdd(w, func(e ecs.Entity, h *Health) { fmt.Println("added", h.HP) })
	ecs.OnSet(w, func(e ecs.Entity, h *Health) { fmt.Println("set", h.HP) })
	ecs.OnRemove(w, func(e ecs.Entity, h *Health) { fmt.Println("removed", h.HP) })

	health := ecs.NewMap[Health](w)
	e := health.Spawn(Health{10})
	health.Set(e, Health{7})
	w.Despawn(e)
	// Output:
	// added 10
	// set 7
	// removed 7
}

func ExampleQuery1_OnEnter() {
	type Enemy struct{}
	type Visible struct{}
	w := ecs.NewWorld()
	enemies := ecs.NewMap[Enemy](w)
	visible := ecs.NewMap[Visible](w)
	q := ecs.NewQuery1[Enemy](w, ecs.With(ecs.C[Visible]()))
	q.OnEnter(func(e ecs.Entity) { fmt.Println("spotted", e) })
	q.OnLeave(func(e ecs.Entity) { fmt.Println("lost", e) })

	a, b := enemies.Spawn(Enemy{}), enemies.Spawn(Enemy{})
	visible.Add(a, Visible{})
	// Inside a loop the changes are deferred and settled once, after it:
	// b becomes visible and hides again, so nothing is reported for b.
	for range q.All() {
		visible.Add(b, Visible{})
		visible.Remove(b)
		visible.Remove(a)
	}
	// Output:
	// spotted 1v0
	// lost 1v0
}

func ExampleWorld_Stats() {
	type Position struct{ X, Y float64 }
	w := ecs.NewWorld()
	ecs.NewMap[Position](w).SpawnBatch(1000, Position{})
	st := w.Stats()
	for _, c := range st.Components {
		fmt.Println(c.Type, c.Storage, c.Count, c.Bytes)
	}
	// Output:
	// ecs_test.Position table 1000 16000
}
