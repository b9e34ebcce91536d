package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type labelled struct {
	N    int
	Name string
}

type nested struct {
	Grid [4][4]float32
	Tags []string
}

func TestPointerFree(t *testing.T) {
	w := ecs.NewWorld()
	cases := []struct {
		name string
		got  bool
		want bool
	}{
		{"Position", ecs.NewMap[Position](w).PointerFree(), true},
		{"[8]Mass", ecs.NewMap[[8]Mass](w).PointerFree(), true},
		{"labelled (a string)", ecs.NewMap[labelled](w).PointerFree(), false},
		{"nested (a slice after an array)", ecs.NewMap[nested](w).PointerFree(), false},
		{"*Position", ecs.NewMap[*Position](w).PointerFree(), false},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: PointerFree %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestSetIsPlainWrite(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	pos.Spawn(Position{})
	if !pos.SetIsPlainWrite() {
		t.Fatal("no hook, no checker, no iteration: Set is a plain write")
	}
	ecs.OnSet(w, func(ecs.Entity, *Velocity) {})
	if vel.SetIsPlainWrite() || !pos.SetIsPlainWrite() {
		t.Fatal("an OnSet hook on Velocity must make its Set not plain, and only its")
	}
	for range ecs.NewQuery1[Position](w).All() {
		if pos.SetIsPlainWrite() {
			t.Fatal("inside an iteration a Set may be deferred: not plain")
		}
	}
	w.SetAccessChecker(&accessLog{})
	if pos.SetIsPlainWrite() {
		t.Fatal("with an access checker a Set is reported: not plain")
	}
	w.SetAccessChecker(nil)
}
