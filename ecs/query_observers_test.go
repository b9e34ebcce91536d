package ecs_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// watch registers enter and leave observers on q that log "+e" and "-e".
func watch(q interface {
	OnEnter(func(ecs.Entity))
	OnLeave(func(ecs.Entity))
}) *hookLog {
	log := &hookLog{}
	q.OnEnter(func(e ecs.Entity) { *log = append(*log, "+"+e.String()) })
	q.OnLeave(func(e ecs.Entity) { *log = append(*log, "-"+e.String()) })
	return log
}

func TestEnterLeave(t *testing.T) {
	for storage, newWorld := range storages {
		t.Run(storage, func(t *testing.T) {
			w := newWorld()
			pos, red := ecs.NewMap[Position](w), ecs.NewMap[Red](w)
			before := pos.Spawn(Position{}) // matches once Red is added
			red.Add(before, Red{})
			q := ecs.NewQuery1[Position](w, ecs.With(ecs.C[Red]()), ecs.Without(ecs.C[Blue]()))
			log := watch(q)
			check := func(what string, want ...string) {
				t.Helper()
				if got := log.take(); !slices.Equal(got, want) {
					t.Fatalf("%s: events %v, want %v", what, got, want)
				}
			}
			check("registration: existing members fire nothing")
			e := pos.Spawn(Position{})
			check("spawn without Red")
			red.Add(e, Red{})
			check("Add Red", "+"+e.String())
			ecs.NewMap[Blue](w).Add(e, Blue{})
			check("Add Blue (excluded)", "-"+e.String())
			ecs.NewMap[Blue](w).Remove(e)
			check("Remove Blue", "+"+e.String())
			red.Remove(e)
			check("Remove Red", "-"+e.String())
			red.Add(e, Red{})
			log.take()
			w.Despawn(e)
			check("Despawn", "-"+e.String())
			f := ecs.NewMap2[Position, Red](w).Spawn(Position{}, Red{})
			check("Map2.Spawn", "+"+f.String())

			// Deferred: gaining and losing inside one batch fires nothing;
			// a net change fires once, after the loop.
			g := pos.Spawn(Position{})
			for range q.All() {
				red.Add(g, Red{})
				red.Remove(g)
				red.Remove(f)
			}
			check("deferred add+remove and a net removal", "-"+f.String())
			red.AddMatching(ecs.NewQuery1[Position](w), Red{})
			check("AddMatching", "+"+f.String(), "+"+g.String())
			w.DespawnMatching(q)
			check("DespawnMatching", "-"+before.String(), "-"+f.String(), "-"+g.String())
		})
	}
}

func TestObserverChangesAreDeferredAndObserved(t *testing.T) {
	w := ecs.NewWorld()
	pos, red := ecs.NewMap[Position](w), ecs.NewMap[Red](w)
	q := ecs.NewQuery1[Position](w, ecs.With(ecs.C[Red]()))
	var events []string
	q.OnEnter(func(e ecs.Entity) {
		events = append(events, fmt.Sprint("enter ", e))
		w.Despawn(e) // deferred: the entity is still alive here
		if !w.Alive(e) {
			t.Fatal("a despawn in an observer was immediate")
		}
	})
	q.OnLeave(func(e ecs.Entity) { events = append(events, fmt.Sprint("leave ", e)) })
	e := pos.Spawn(Position{})
	red.Add(e, Red{})
	if w.Alive(e) {
		t.Fatal("the observer's despawn was not applied")
	}
	want := []string{"enter " + e.String(), "leave " + e.String()}
	if !slices.Equal(events, want) {
		t.Fatalf("events %v, want %v", events, want)
	}
	testhelp.MustPanic(t, func() {
		for range q.All() {
			q.OnEnter(func(ecs.Entity) {})
		}
		q.OnEnter(func(ecs.Entity) {})
		pos.Spawn(Position{})
		for range ecs.NewQuery1[Position](w).All() {
			q.OnLeave(func(ecs.Entity) {})
		}
	}, "inside an iteration")
	w.Recover()
}

func TestObservedOperationsDoNotAllocate(t *testing.T) {
	w := ecs.NewWorld()
	pos, red := ecs.NewMap[Position](w), ecs.NewMap[Red](w)
	q := ecs.NewQuery1[Position](w, ecs.With(ecs.C[Red]()))
	entered := 0
	q.OnEnter(func(ecs.Entity) { entered++ })
	q.OnLeave(func(ecs.Entity) { entered-- })
	e := pos.Spawn(Position{})
	red.Add(e, Red{}) // warm the buffers
	red.Remove(e)
	if a := testing.AllocsPerRun(100, func() {
		red.Add(e, Red{})
		red.Remove(e)
	}); a != 0 {
		t.Fatalf("%v allocations per observed add+remove", a)
	}
	if entered != 0 {
		t.Fatalf("enter/leave out of balance: %d", entered)
	}
}
