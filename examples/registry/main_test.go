package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

func TestLevelComposition(t *testing.T) {
	l := NewLevel()
	want := map[ecs.Entity][]string{
		l.Scout:     {"Transform", "Agent", "Inventory"},
		l.Medic:     {"Transform", "Agent", "Inventory"},
		l.NorthWall: {"Transform", "Wall"},
		l.EastWall:  {"Transform", "Wall"},
		l.Gate:      {"Transform", "Door", "PhysicsComponent"},
	}
	for e, w := range want {
		if got := l.Components(e); !slices.Equal(got, w) {
			t.Errorf("%v has %v, want %v", e, got, w)
		}
	}
	if l.World.Len() != 5 {
		t.Errorf("Len = %d, want 5", l.World.Len())
	}
}

func TestSetAddsThenUpdates(t *testing.T) {
	l := NewLevel()
	l.Physics.Set(l.Scout, PhysicsComponent{Mass: 70, VX: 1})
	if !l.Physics.Has(l.Scout) {
		t.Fatal("Set did not add the component")
	}
	p := l.Physics.Get(l.Scout)
	l.Physics.Set(l.Scout, PhysicsComponent{Mass: 80})
	if p.Mass != 80 || l.Physics.Get(l.Scout) != p {
		t.Fatalf("Set on an existing component did not overwrite in place: %+v", *p)
	}
	if msg := panicMessage(func() { l.Physics.Add(l.Scout, PhysicsComponent{}) }); !strings.Contains(msg, "already has") {
		t.Fatalf("Add on an existing component: panic %q", msg)
	}
	// Unrelated components survive the table move Set caused.
	if inv := l.Inventories.Get(l.Scout); !slices.Equal(inv.Items, []string{"map"}) {
		t.Fatalf("inventory after the move: %v", inv.Items)
	}
}

func TestMissingComponent(t *testing.T) {
	l := NewLevel()
	if p, ok := l.Physics.TryGet(l.NorthWall); p != nil || ok {
		t.Fatalf("TryGet of a missing component = %v, %v", p, ok)
	}
	if l.Inventories.Has(l.NorthWall) {
		t.Fatal("Has reports a missing component")
	}
	if msg := panicMessage(func() { l.Physics.Get(l.NorthWall) }); !strings.Contains(msg, "does not have") {
		t.Fatalf("Get of a missing component: panic %q", msg)
	}
}

func TestRemove(t *testing.T) {
	l := NewLevel()
	l.Inventories.Remove(l.Medic)
	l.Inventories.Remove(l.Medic)
	if got := l.Components(l.Medic); !slices.Equal(got, []string{"Transform", "Agent"}) {
		t.Fatalf("medic has %v", got)
	}
	if l.Agents.Get(l.Medic).Name != "medic" || l.Agents.Get(l.Scout).Name != "scout" {
		t.Fatal("removal corrupted another component")
	}
}

func TestDespawnRemovesEverything(t *testing.T) {
	l := NewLevel()
	l.World.Despawn(l.Gate)
	if l.World.Alive(l.Gate) || len(l.Components(l.Gate)) != 0 {
		t.Fatalf("gate after despawn: alive=%v components=%v", l.World.Alive(l.Gate), l.Components(l.Gate))
	}
	if ecs.NewQuery1[Door](l.World).Count() != 0 || ecs.NewQuery1[PhysicsComponent](l.World).Count() != 0 {
		t.Fatal("the gate's components are still stored")
	}
	e := l.World.Spawn()
	if e.Index() != l.Gate.Index() || e.Generation() == l.Gate.Generation() {
		t.Fatalf("new entity %v, old %v: want the index recycled with a new generation", e, l.Gate)
	}
	l.Doors.Set(e, Door{})
	if l.Doors.Has(l.Gate) || l.World.Alive(l.Gate) {
		t.Fatal("the old handle reaches the new entity")
	}
}

func TestIntegrate(t *testing.T) {
	l := NewLevel()
	l.Physics.Set(l.Scout, PhysicsComponent{VX: 2, VY: -4})
	if n := l.Integrate(0.25); n != 2 {
		t.Fatalf("Integrate moved %d entities, want 2 (scout and gate)", n)
	}
	if got := *l.Transforms.Get(l.Scout); got != (Transform{0.5, -1}) {
		t.Fatalf("scout at %+v", got)
	}
	if got := *l.Transforms.Get(l.Gate); got != (Transform{5, 10}) {
		t.Fatalf("gate (no velocity) at %+v", got)
	}
}

func TestStalePointer(t *testing.T) {
	l := NewLevel()
	east := l.Transforms.Get(l.EastWall)
	l.Transforms.Set(l.Medic, Transform{7, 7}) // another table: no effect on east
	l.Transforms.Set(l.EastWall, Transform{11, 0})
	if *east != (Transform{11, 0}) {
		t.Fatalf("pointer after an in-place Set: %+v", *east)
	}
	l.World.Despawn(l.NorthWall)
	east.X = 99
	if got := l.Transforms.Get(l.EastWall).X; got != 11 {
		t.Fatalf("east X = %v: the write through the stale pointer should be lost", got)
	}
	ecs.NewMap2[Transform, Wall](l.World).Spawn(Transform{-4, -4}, Wall{1})
	if *east != (Transform{-4, -4}) {
		t.Fatalf("stale pointer reads %+v, want the new wall's transform", *east)
	}
	if got := *l.Transforms.Get(l.EastWall); got != (Transform{11, 0}) {
		t.Fatalf("east wall at %+v after fresh Get", got)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	run(&a)
	run(&b)
	if a.String() != b.String() {
		t.Fatal("two runs differ")
	}
	for _, want := range []string{
		"TryGet -> <nil>, false",
		"medic 2v0 [Transform Agent]",
		"new entity 5v1 reuses the index; old handle 5v0 alive=false",
		"the old pointer reads its data: {X:-4 Y:-4}",
	} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, a.String())
		}
	}
}
