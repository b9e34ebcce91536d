package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }

type body struct {
	p      Position
	v      Velocity
	moving bool
}

// snapshot returns every entity with a position, and its velocity when it has one.
func snapshot(s *Sim) map[ecs.Entity]body {
	vel := ecs.NewMap[Velocity](s.World)
	out := map[ecs.Entity]body{}
	for r := range ecs.NewQuery1[Position](s.World).All() {
		b := body{p: *r.A}
		if v, ok := vel.TryGet(r.Entity); ok {
			b.v, b.moving = *v, true
		}
		out[r.Entity] = b
	}
	return out
}

func TestCounts(t *testing.T) {
	s := NewSim(1, 20, 4)
	if got := s.World.Len(); got != 24 {
		t.Fatalf("Len = %d, want 24", got)
	}
	if got := s.Moving(); got != 20 {
		t.Fatalf("Moving = %d, want 20", got)
	}
}

func TestStepFollowsVelocity(t *testing.T) {
	s := NewSim(7, 16, 3)
	before := snapshot(s)
	const steps, dt = 90, 1.0 / 60
	for range steps {
		s.Step(dt)
	}
	after := snapshot(s)
	if len(after) != len(before) {
		t.Fatalf("%d entities after stepping, want %d", len(after), len(before))
	}
	for e, b := range before {
		want := Position{b.p.X + b.v.X*dt*steps, b.p.Y + b.v.Y*dt*steps}
		got := after[e].p
		if !near(got.X, want.X) || !near(got.Y, want.Y) {
			t.Errorf("%v at %v, want %v", e, got, want)
		}
	}
}

func TestFreeMotionConservesEnergyAndMomentum(t *testing.T) {
	s := NewSim(3, 10, 2)
	ke0 := s.KineticEnergy()
	px, py := s.Momentum()
	cx, cy, m := s.CenterOfMass()
	if ke0 <= 0 || m <= 0 {
		t.Fatalf("energy %v, mass %v: want both positive", ke0, m)
	}
	const steps, dt = 120, 0.01
	for range steps {
		s.Step(dt)
	}
	if ke := s.KineticEnergy(); !near(ke, ke0) {
		t.Errorf("kinetic energy %v, want %v", ke, ke0)
	}
	if qx, qy := s.Momentum(); !near(qx, px) || !near(qy, py) {
		t.Errorf("momentum (%v, %v), want (%v, %v)", qx, qy, px, py)
	}
	tt := steps * dt
	if x, y, _ := s.CenterOfMass(); !near(x, cx+px/m*tt) || !near(y, cy+py/m*tt) {
		t.Errorf("centre of mass (%v, %v), want (%v, %v)", x, y, cx+px/m*tt, cy+py/m*tt)
	}
}

func TestCullDespawnsOnlyBodiesOutside(t *testing.T) {
	s := NewSim(5, 30, 3)
	for range 200 {
		s.Step(0.02)
	}
	half := ecs.GetResource[Arena](s.World).HalfSize
	outside := func(p Position) bool { return math.Abs(p.X) > half || math.Abs(p.Y) > half }
	want := 0
	for _, b := range snapshot(s) {
		if b.moving && outside(b.p) {
			want++
		}
	}
	if want == 0 {
		t.Fatal("no body left the arena; the test needs some")
	}
	if got := s.Cull(); got != want {
		t.Fatalf("Cull = %d, want %d", got, want)
	}
	if s.World.IsIterating() {
		t.Fatal("Cull left an iteration open")
	}
	if got := s.World.Len(); got != 33-want {
		t.Fatalf("Len = %d, want %d", got, 33-want)
	}
	for e, b := range snapshot(s) {
		if b.moving && outside(b.p) {
			t.Errorf("%v at %v is still alive", e, b.p)
		}
	}
	if got := ecs.NewQuery2[Position, Mass](s.World, ecs.Without(ecs.C[Velocity]())).Count(); got != 3 {
		t.Errorf("%d anchors, want 3", got)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	run(&a)
	run(&b)
	if a.String() != b.String() {
		t.Fatalf("two runs differ:\n%s\n%s", a.String(), b.String())
	}
	if !strings.HasPrefix(a.String(), "15 entities; the physics system moves 12 of them") {
		t.Fatalf("unexpected summary:\n%s", a.String())
	}
}
