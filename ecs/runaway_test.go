package ecs_test

import (
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Regression tests for callbacks that keep firing each other and for loops
// left open: each must end in a panic that names what happened, and the
// world must be usable after World.Recover.

type ( // component types of the cascades below
	runA struct{ V int }
	runB struct{}
	runT struct{}
)

// recovered runs f and returns the message of the panic it raised, or "".
func recovered(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	f()
	return ""
}

// mustStayUsable checks that w works normally after w.Recover: no open
// iteration, changes apply at once, and a query agrees with Len.
func mustStayUsable(t *testing.T, w *ecs.World) {
	t.Helper()
	w.Recover()
	if w.IsIterating() || w.Pending() != 0 {
		t.Fatalf("after Recover: IsIterating %v, Pending %d", w.IsIterating(), w.Pending())
	}
	pos := ecs.NewMap[Position](w)
	e := w.Spawn()
	pos.Add(e, Position{1, 2})
	if !pos.Has(e) {
		t.Fatal("an Add after Recover was not applied at once")
	}
	w.Despawn(e)
	if w.Alive(e) {
		t.Fatal("a Despawn after Recover was not applied at once")
	}
}

func TestHooksSettingEachOtherPanicWithTheChain(t *testing.T) {
	w := ecs.NewWorld()
	a := ecs.NewMap[runA](w)
	ecs.OnAdd(w, func(e ecs.Entity, v *runA) { a.Set(e, runA{v.V + 1}) })
	ecs.OnSet(w, func(e ecs.Entity, v *runA) { a.Set(e, runA{v.V + 1}) })
	msg := recovered(func() { a.Spawn(runA{}) })
	for _, want := range []string{"hooks nested more than", "OnAdd[ecs_test.runA](1v0)", "OnSet[ecs_test.runA](1v0)", "entity 1v0", "World.Recover"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not mention %q", msg, want)
		}
	}
	mustStayUsable(t, w)
	if n := ecs.NewQuery1[runA](w).Count(); n != 1 || w.Len() != 1 {
		t.Fatalf("after the panic: %d entities with runA, Len %d; want the spawned one", n, w.Len())
	}
}

func TestHooksUndoingEachOtherStopAfterMaxRounds(t *testing.T) {
	// Add A -> OnAdd[A] adds B -> OnAdd[B] removes A -> OnRemove[A] removes
	// B -> OnRemove[B] adds A -> ... each change queued by the hook of the
	// one before: a cascade that never settles.
	w := ecs.NewWorld()
	a, b := ecs.NewMap[runA](w), ecs.NewMap[runB](w)
	ecs.OnAdd(w, func(e ecs.Entity, _ *runA) { b.Add(e, runB{}) })
	ecs.OnAdd(w, func(e ecs.Entity, _ *runB) { a.Remove(e) })
	ecs.OnRemove(w, func(e ecs.Entity, _ *runA) { b.Remove(e) })
	ecs.OnRemove(w, func(e ecs.Entity, _ *runB) { a.Add(e, runA{}) })
	e := w.Spawn()
	msg := recovered(func() { a.Add(e, runA{}) })
	for _, want := range []string{"did not settle after 1000 rounds", "Add[ecs_test.runA] 1v0", "Remove[ecs_test.runB] 1v0", "dropped"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not mention %q", msg, want)
		}
	}
	mustStayUsable(t, w)
	if !w.Alive(e) {
		t.Fatal("the entity died")
	}
}

func TestHookSpawningForeverStops(t *testing.T) {
	// Each added A spawns another entity with A: one new entity per round.
	w := ecs.NewWorld()
	a := ecs.NewMap[runA](w)
	ecs.OnAdd(w, func(e ecs.Entity, v *runA) { a.Spawn(runA{v.V + 1}) })
	msg := recovered(func() { a.Spawn(runA{}) })
	if !strings.Contains(msg, "did not settle after") {
		t.Fatalf("panic %q; want the cascade limit", msg)
	}
	mustStayUsable(t, w)
	if n := w.Len(); n < ecs.MaxCascadeRounds || n > ecs.MaxCascadeRounds+3 {
		t.Fatalf("Len %d after the cascade; want about %d", n, ecs.MaxCascadeRounds)
	}
}

func TestObserversUndoingEachOtherPanic(t *testing.T) {
	w := ecs.NewWorld()
	a, tag := ecs.NewMap[runA](w), ecs.NewMap[runT](w)
	q := ecs.NewQuery1[runA](w, ecs.With(ecs.C[runT]()))
	q.OnEnter(func(e ecs.Entity) { tag.Remove(e) })
	q.OnLeave(func(e ecs.Entity) { tag.Add(e, runT{}) })
	e := a.Spawn(runA{})
	msg := recovered(func() { tag.Add(e, runT{}) })
	for _, want := range []string{"observers did not settle", "entity 1v0", "Query1[ecs_test.runA] With[ecs_test.runT]"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not mention %q", msg, want)
		}
	}
	mustStayUsable(t, w)
}

func TestAbandonedLoopIsNamedInPanics(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	vel := ecs.NewMap[Velocity](w)
	pos.Spawn(Position{})
	q := ecs.NewQuery1[Position](w)
	recovered(func() {
		for range q.All() {
			panic("escapes the loop")
		}
	})
	// No Recover: the loop still counts as open, so this Add waits.
	e := w.Spawn()
	vel.Add(e, Velocity{1, 1})
	if !w.IsIterating() || w.Pending() != 1 {
		t.Fatalf("IsIterating %v, Pending %d; want true, 1", w.IsIterating(), w.Pending())
	}
	msg := recovered(func() { vel.Get(e) })
	for _, want := range []string{"Get[ecs_test.Velocity]", "does not have the component", "a loop over Query1[ecs_test.Position] is open", "1 waiting", "World.Recover", "Close"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not mention %q", msg, want)
		}
	}
	w.Recover()
	if !vel.Has(e) {
		t.Fatal("Recover did not apply the waiting Add")
	}
	// A cursor left without Close.
	it := q.Iter()
	it.Next()
	msg = recovered(func() { w.Apply(w.NewCommands()) })
	if !strings.Contains(msg, "a loop over Query1[ecs_test.Position] is open") {
		t.Errorf("Apply with a cursor left open: %q", msg)
	}
	it.Close()
	// Inside a hook, deferral is expected and the note is left out.
	ecs.OnAdd(w, func(e ecs.Entity, _ *Mass) {
		msg = recovered(func() { vel.Get(e) })
	})
	ecs.NewMap[Mass](w).Spawn(Mass{})
	if !strings.Contains(msg, "does not have the component") || strings.Contains(msg, "note:") {
		t.Errorf("Get inside a hook: %q", msg)
	}
}
