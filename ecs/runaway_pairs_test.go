package ecs_test

import (
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Pair hooks that keep making or removing pairs: the runaway panics with a
// message naming the relation and its hooks (never a runtime error), and
// after Recover nothing stale is left to fire.

type (
	runLink  struct{}
	runPing  struct{}
	runOther struct{}
)

// runawayPairWorld is a world whose Relation[runLink].OnAdd makes a new
// pair from each new target while *keepGoing holds, with an observer
// when observed: the runaway of pair hooks, with or without observers.
func runawayPairWorld(observed bool) (w *ecs.World, link *ecs.Relation[runLink], calls *int, keepGoing *bool) {
	w = ecs.NewWorld()
	link = ecs.NewRelation[runLink](w, ecs.Multi())
	calls, keepGoing = new(int), new(bool)
	*keepGoing = true
	link.OnAdd(func(source, target ecs.Entity) {
		*calls++
		if *keepGoing {
			link.Add(target, w.Spawn())
		}
	})
	if observed {
		q := ecs.NewQuery1[Position](w)
		q.OnEnter(func(ecs.Entity) {})
	}
	return w, link, calls, keepGoing
}

func TestPairHooksAddingForeverPanicNamingTheRelation(t *testing.T) {
	for _, observed := range []bool{false, true} {
		w, link, calls, keepGoing := runawayPairWorld(observed)
		a, b := w.Spawn(), w.Spawn()
		msg := recovered(func() { link.Add(a, b) })
		for _, want := range []string{"relation pair hooks did not settle after 1000 rounds", "Relation[ecs_test.runLink].OnAdd", "dropped"} {
			if !strings.Contains(msg, want) {
				t.Errorf("observed %v: panic %q does not mention %q", observed, msg, want)
			}
		}
		if strings.Contains(msg, "observers did not settle") || strings.Contains(msg, "entering and leaving") {
			t.Errorf("observed %v: panic %q blames the observers", observed, msg)
		}
		*keepGoing = false
		mustStayUsable(t, w)
		// Nothing stale fires: an unrelated relation change after Recover
		// runs no runLink hook.
		*calls = 0
		other := ecs.NewRelation[runOther](w)
		other.OnAdd(func(source, target ecs.Entity) {})
		other.Add(w.Spawn(), w.Spawn())
		x, y := w.Spawn(), w.Spawn()
		link.Add(x, y)
		if *calls != 1 {
			t.Fatalf("observed %v: %d runLink hook calls after Recover and one new pair, want 1 (stale pair events fired)", observed, *calls)
		}
	}
}

func TestPairHooksPingPongPanicNamingBothHooks(t *testing.T) {
	w := ecs.NewWorld()
	ping := ecs.NewRelation[runPing](w)
	calls := 0
	ping.OnAdd(func(source, target ecs.Entity) {
		calls++
		ping.Remove(source, target)
	})
	ping.OnRemove(func(source, target ecs.Entity) {
		calls++
		if w.Alive(source) && w.Alive(target) {
			ping.Add(source, target)
		}
	})
	a, b := w.Spawn(), w.Spawn()
	msg := recovered(func() { ping.Add(a, b) })
	for _, want := range []string{"relation pair hooks did not settle", "Relation[ecs_test.runPing].OnAdd", "Relation[ecs_test.runPing].OnRemove", a.String() + " -> " + b.String()} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not mention %q", msg, want)
		}
	}
	mustStayUsable(t, w)
	// Recover left no pair event: an unrelated despawn settles the world
	// and must not restart the ping-pong.
	calls = 0
	c := w.Spawn()
	w.Despawn(c)
	if calls != 0 {
		t.Fatalf("%d pair hook calls after Recover for an unrelated despawn: the runaway restarted", calls)
	}
}

// A runaway cascade that includes deferred relation changes panics naming
// the runaway, and does not call the relation changes "Spawn" in its
// message.
func TestRunawayMessageCallsNoRelationChangeASpawn(t *testing.T) {
	w := ecs.NewWorld()
	link := ecs.NewRelation[rfLink](w, ecs.Multi())
	tags := ecs.NewMap[rfTag](w)
	y := w.Spawn()
	n := 0
	ecs.OnAdd(w, func(e ecs.Entity, v *rfTag) {
		n++
		link.Set(e, y, rfLink{n})
		tags.Remove(e)
	})
	ecs.OnRemove(w, func(e ecs.Entity, v *rfTag) { tags.Add(e, rfTag{}) })
	spawns := w.Len()
	msg := panicOf(func() { tags.Spawn(rfTag{}) })
	w.Recover()
	if !strings.Contains(msg, "did not settle") {
		t.Fatalf("panic %q, want the runaway cascade", msg)
	}
	if spawns+1 == w.Len() && strings.Contains(msg, "Spawn") {
		t.Fatalf("the message names a relation change as a Spawn (one entity was spawned, outside the cascade): %q", msg)
	}
}
