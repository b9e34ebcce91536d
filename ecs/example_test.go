package ecs_test

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

// The component types are declared inside each example so that every example
// reads on its own. Queries visit tables in creation order and rows in table
// order, so the output of every example is deterministic.

func ExampleNewWorld() {
	w := ecs.NewWorld()
	a := w.Spawn()
	b := w.Spawn()
	fmt.Println(w.Len(), w.Alive(a), w.Alive(b))

	w.Despawn(a)
	fmt.Println(w.Len(), w.Alive(a), w.Alive(b))

	// The despawned index is recycled with a new generation: the old handle
	// stays dead.
	c := w.Spawn()
	fmt.Println(c.Index() == a.Index(), c.Generation(), w.Alive(a), w.Alive(c))
	fmt.Println(w.Alive(ecs.Entity{}))
	// Output:
	// 2 true true
	// 1 false true
	// true 1 false true
	// false
}

func ExampleMap() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	health := ecs.NewMap[Health](w)
	e := w.Spawn()

	_, ok := health.TryGet(e)
	fmt.Println("has:", health.Has(e), "tryget:", ok)

	health.Set(e, Health{HP: 10}) // adds
	health.Get(e).HP -= 3         // writes through the pointer
	fmt.Println("hp:", health.Get(e).HP)

	health.Set(e, Health{HP: 50}) // overwrites in place
	if h, ok := health.TryGet(e); ok {
		fmt.Println("hp:", h.HP)
	}

	health.Remove(e)
	health.Remove(e) // no T: does nothing
	fmt.Println("has:", health.Has(e), "alive:", w.Alive(e))
	// Output:
	// has: false tryget: false
	// hp: 7
	// hp: 50
	// has: false alive: true
}

func ExampleNewMap2() {
	type Position struct{ X, Y float64 }
	type Velocity struct{ X, Y float64 }
	w := ecs.NewWorld()
	bodies := ecs.NewMap2[Position, Velocity](w)

	e := bodies.Spawn(Position{1, 2}, Velocity{0.5, 0})
	bodies.SpawnBatch(3, Position{}, Velocity{1, 1})
	bodies.SpawnBatchFunc(2, func(_ ecs.Entity, p *Position, v *Velocity) {
		p.X = 10
		v.Y = -1
	})

	p, v := bodies.Get(e)
	fmt.Println(*p, *v)
	fmt.Println("entities:", w.Len(), "bodies:", ecs.NewQuery2[Position, Velocity](w).Count())
	// Output:
	// {1 2} {0.5 0}
	// entities: 6 bodies: 6
}

func ExampleQuery2_Chunks() {
	type Position struct{ X, Y float64 }
	type Velocity struct{ X, Y float64 }
	type Frozen struct{}
	w := ecs.NewWorld()
	ecs.NewMap2[Position, Velocity](w).SpawnBatch(3, Position{}, Velocity{1, 2})
	ecs.NewMap3[Position, Velocity, Frozen](w).Spawn(Position{}, Velocity{5, 5}, Frozen{})

	q := ecs.NewQuery2[Position, Velocity](w)
	for c := range q.Chunks() { // one chunk per table
		ps, vs := c.A, c.B[:len(c.A)] // locals keep the row loop a plain slice loop
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
		fmt.Println(len(c.Entities), c.A)
	}
	// Output:
	// 3 [{1 2} {1 2} {1 2}]
	// 1 [{5 5}]
}

func ExampleQuery2_All() {
	type Name string
	type Score struct{ Points int }
	w := ecs.NewWorld()
	players := ecs.NewMap2[Name, Score](w)
	players.Spawn("ada", Score{3})
	players.Spawn("bob", Score{5})

	q := ecs.NewQuery2[Name, Score](w)
	for r := range q.All() {
		r.B.Points *= 10
		fmt.Println(r.Entity, *r.A, r.B.Points)
	}
	// Output:
	// 1v0 ada 30
	// 2v0 bob 50
}

func ExampleQuery2_Iter() {
	type Name string
	type Score struct{ Points int }
	w := ecs.NewWorld()
	players := ecs.NewMap2[Name, Score](w)
	for i, n := range []Name{"ada", "bob", "cy"} {
		players.Spawn(n, Score{i})
	}

	it := ecs.NewQuery2[Name, Score](w).Iter()
	for it.Next() {
		name, score := it.Get()
		if score.Points == 1 {
			fmt.Println("found", *name, it.Entity())
			it.Close() // leaving early: release the iteration
			break
		}
	}
	fmt.Println("iterating:", w.IsIterating())
	// Output:
	// found bob 2v0
	// iterating: false
}

func ExampleWith() {
	type Name string
	type Player struct{}
	w := ecs.NewWorld()
	names := ecs.NewMap[Name](w)
	names.Set(w.Spawn(), "rock")
	ecs.NewMap2[Name, Player](w).Spawn("ada", Player{})

	// With requires Player without reading it.
	for r := range ecs.NewQuery1[Name](w, ecs.With(ecs.C[Player]())).All() {
		fmt.Println(*r.A)
	}
	// Output:
	// ada
}

func ExampleWithout() {
	type Name string
	type Dead struct{}
	w := ecs.NewWorld()
	names := ecs.NewMap[Name](w)
	for _, n := range []Name{"ada", "bob", "cy"} {
		names.Set(w.Spawn(), n)
	}
	ecs.NewMap2[Name, Dead](w).Spawn("ghost", Dead{})

	for r := range ecs.NewQuery1[Name](w, ecs.Without(ecs.C[Dead]())).All() {
		fmt.Println(*r.A)
	}
	// Output:
	// ada
	// bob
	// cy
}

func ExampleAnyOf() {
	type Name string
	type Flying struct{}
	type Swimming struct{}
	w := ecs.NewWorld()
	names := ecs.NewMap[Name](w)
	names.Set(w.Spawn(), "cat")
	ecs.NewMap2[Name, Flying](w).Spawn("bird", Flying{})
	ecs.NewMap2[Name, Swimming](w).Spawn("fish", Swimming{})
	ecs.NewMap3[Name, Flying, Swimming](w).Spawn("duck", Flying{}, Swimming{})

	q := ecs.NewQuery1[Name](w, ecs.AnyOf(ecs.C[Flying](), ecs.C[Swimming]()))
	for r := range q.All() {
		fmt.Println(*r.A)
	}
	// Output:
	// bird
	// fish
	// duck
}

func ExampleOptional() {
	type Name string
	type Shield struct{ Points int }
	w := ecs.NewWorld()
	ecs.NewMap[Name](w).Set(w.Spawn(), "ada")
	ecs.NewMap2[Name, Shield](w).Spawn("bob", Shield{Points: 4})

	q := ecs.NewQuery2[Name, Shield](w, ecs.Optional(ecs.C[Shield]()))
	for r := range q.All() {
		if r.B == nil {
			fmt.Println(*r.A, "has no shield")
			continue
		}
		fmt.Println(*r.A, "shield", r.B.Points)
	}
	// Output:
	// ada has no shield
	// bob shield 4
}

// Structural changes made inside a loop are deferred until the outermost
// loop ends, so the loop never sees a table change under its feet.
func ExampleWorld_Despawn_whileIterating() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	health := ecs.NewMap[Health](w)
	for _, hp := range []int{5, 0, 7, 0} {
		health.Set(w.Spawn(), Health{hp})
	}

	q := ecs.NewQuery1[Health](w)
	for r := range q.All() {
		if r.A.HP == 0 {
			w.Despawn(r.Entity)
			fmt.Println("despawn", r.Entity, "alive until the loop ends:", w.Alive(r.Entity))
		}
	}
	fmt.Println("left:", q.Count(), "entities:", w.Len())
	// Output:
	// despawn 2v0 alive until the loop ends: true
	// despawn 4v0 alive until the loop ends: true
	// left: 2 entities: 2
}

func ExampleMap_AddMatching() {
	type Position struct{ X, Y float64 }
	type Velocity struct{ X, Y float64 }
	type Frozen struct{}
	w := ecs.NewWorld()
	ecs.NewMap2[Position, Velocity](w).SpawnBatch(4, Position{}, Velocity{1, 0})
	ecs.NewMap[Position](w).Set(w.Spawn(), Position{})

	// Freeze everything that moves, then thaw it: one table move each.
	moving := ecs.NewQuery1[Velocity](w)
	frozen := ecs.NewMap[Frozen](w)
	frozen.AddMatching(moving, Frozen{})
	fmt.Println("frozen:", ecs.NewQuery1[Frozen](w).Count())

	frozen.RemoveMatching(moving)
	fmt.Println("frozen:", ecs.NewQuery1[Frozen](w).Count())

	w.DespawnMatching(moving)
	fmt.Println("entities:", w.Len())
	// Output:
	// frozen: 4
	// frozen: 0
	// entities: 1
}

func ExampleAddResource() {
	type Clock struct{ Tick int }
	w := ecs.NewWorld()
	fmt.Println(ecs.GetResource[Clock](w) == nil)

	ecs.AddResource(w, &Clock{})
	ecs.GetResource[Clock](w).Tick++
	fmt.Println(ecs.GetResource[Clock](w).Tick, ecs.HasResource[Clock](w))

	fmt.Println(ecs.RemoveResource[Clock](w), ecs.HasResource[Clock](w))
	// Output:
	// true
	// 1 true
	// true false
}

func ExampleResource() {
	type Clock struct{ Tick int }
	w := ecs.NewWorld()
	clock := ecs.NewResource[Clock](w) // once, before any system runs
	_, ok := clock.TryGet()
	fmt.Println(ok)

	clock.Set(&Clock{})                   // adds the resource (or replaces it)
	tick := func() { clock.Get().Tick++ } // a system's closure: no map lookup per call
	tick()
	tick()
	fmt.Println(clock.Get().Tick, ecs.GetResource[Clock](w).Tick)

	ecs.RemoveResource[Clock](w) // the handle sees it go
	fmt.Println(clock.Has())
	// Output:
	// false
	// 2 2
	// false
}

func ExampleWorld_Recover() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	health := ecs.NewMap[Health](w)
	for _, hp := range []int{3, -1, 4} {
		health.Set(w.Spawn(), Health{hp})
	}
	q := ecs.NewQuery1[Health](w)

	func() {
		defer func() {
			fmt.Println("recovered:", recover())
			// The range loop was left by a panic, so the world still
			// believes it runs; Recover ends it and applies the queued
			// despawn.
			fmt.Println("iterating:", w.IsIterating())
			w.Recover()
		}()
		for r := range q.All() {
			if r.A.HP < 0 {
				panic("negative health")
			}
			w.Despawn(r.Entity)
		}
	}()
	fmt.Println("iterating:", w.IsIterating(), "entities:", w.Len())
	// Output:
	// recovered: negative health
	// iterating: true
	// iterating: false entities: 2
}
