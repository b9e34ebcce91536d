package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type trackedPlain struct{ N int }

func TestSetIsPlainWrite(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[trackedPlain](w, ecs.TrackChanges())
	pos := ecs.NewMap[Position](w)
	ecs.NewMap[Velocity](w)
	ecs.NewMap[trackedPlain](w)
	pos.Spawn(Position{})
	par := w.Parallel()
	plain := func(c ecs.ComponentType) bool { return par.SetIsPlainWrite(c) }
	if !plain(ecs.C[Position]()) {
		t.Fatal("no hook, no checker, no iteration: Set is a plain write")
	}
	if plain(ecs.C[trackedPlain]()) {
		t.Fatal("a Set of a tracked type marks it changed: not plain")
	}
	if plain(ecs.C[Mass]()) {
		t.Fatal("a type the world has never met: not plain")
	}
	ecs.OnSet(w, func(ecs.Entity, *Velocity) {})
	if plain(ecs.C[Velocity]()) || !plain(ecs.C[Position]()) {
		t.Fatal("an OnSet hook on Velocity must make its Set not plain, and only its")
	}
	for range ecs.NewQuery1[Position](w).All() {
		if plain(ecs.C[Position]()) {
			t.Fatal("inside an iteration a Set may be deferred: not plain")
		}
	}
	par.Begin()
	if plain(ecs.C[Position]()) {
		t.Fatal("inside a parallel section a Set may be deferred: not plain")
	}
	par.End()
	par.SetAccessChecker(&accessLog{})
	if plain(ecs.C[Position]()) {
		t.Fatal("with an access checker a Set is reported: not plain")
	}
	par.SetAccessChecker(nil)
	if !plain(ecs.C[Position]()) {
		t.Fatal("with the checker gone, Set is a plain write again")
	}
}
