// Package wordsize keeps types with int, uint and uintptr in a world
// (reported once, at the declaration) and types without them, or never
// kept in a world (not reported).
package wordsize

import (
	"bytes"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type Census struct {
	Alive  int // want `wordsize: Census.Alive is an int kept in the world \(ecs.AddResource\): it is 64 bits on amd64, arm64 and wasm but 32 bits on 386 and arm, so arithmetic on it wraps at 2\^31 \(signed\) there.*use int32 if its values fit, int64 otherwise`
	Born   int64
	Deaths int32
	Hash   uint // want `wordsize: Census.Hash is a uint kept in the world .* wraps at 2\^32 there.*use uint32 if its values fit, uint64 otherwise`
}

type Count int // want `wordsize: Count is an int kept in the world \(ecs.Register\)`

type Inner struct {
	Steps [2]uintptr // want `wordsize: Outer.In.Steps\[i\] is a uintptr kept in the world \(ecs.NewMap\)`
	OK    uint32
}

type Outer struct {
	In      Inner
	Kids    []Count // want `wordsize: Outer.Kids\[i\] is a Count, an int, kept in the world`
	Next    *Inner  // behind a pointer: neither checksummed nor saved
	ByName  map[string]int
	_       int
	private int // want `wordsize: Outer.private is an int`
}

type Pair[T any] struct{ A, B T }

type Hit struct{ Damage int } // want `wordsize: Hit.Damage is an int kept in the world \(ecs.EventsOf\)`

type Pos struct{ X, Y float32 }

type Link struct{ Weight int } //tessera:nondeterministic-ok weights stay below 100

// Self holds itself through a slice; the walk ends.
type Self struct {
	Kids []Self
	N    int // want `wordsize: Self.N is an int`
}

// helper has ints but is never kept in a world.
type helper struct{ n, m int }

func setup(w *ecs.World) {
	ecs.AddResource(w, &Census{}) // the type argument is inferred from *Census
	_ = ecs.NewResource[Census](w)
	ecs.Register[Count](w)
	_ = ecs.NewMap[Outer](w)
	_ = ecs.NewMap2[Outer, Pos](w) // reported once per package: nothing new here
	_ = ecs.EventsOf[Hit](w)
	_ = ecs.NewRelation[Link](w)
	_ = ecs.NewMap[Self](w)
	_ = ecs.NewMap[int](w)               // want `wordsize: int is an int kept in the world \(ecs.NewMap\)`
	_ = ecs.NewMap[Pair[uint]](w)        // want `wordsize: Pair\[uint\].A is a uint` `wordsize: Pair\[uint\].B is a uint`
	_ = ecs.NewMap[Pair[int64]](w)       // int64 is 64 bits everywhere
	_ = ecs.NewResource[bytes.Buffer](w) // another package's unexported fields are not reported
	_ = ecs.NewResource[sched.Time](w)
	_ = ecs.NewQuery1[helper](w) // a query reads what others store
	_ = ecs.GetResource[helper](w)
	_ = helper{}
}
