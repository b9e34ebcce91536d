package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }

func nearWorld(a, b World) bool { return near(a.X, b.X) && near(a.Y, b.Y) && near(a.Angle, b.Angle) }

// direct returns e's world transform without Propagate: the origin of e's
// frame mapped through its own Local, then its parent's, and so on up
// Ancestors to the root.
func direct(s *Scene, e ecs.Entity) World {
	l := *s.locals.Get(e)
	x, y, angle := l.X, l.Y, l.Angle
	for a := range s.H.Ancestors(e) {
		p := *s.locals.Get(a)
		sin, cos := math.Sincos(p.Angle)
		x, y = p.X+cos*x-sin*y, p.Y+sin*x+cos*y
		angle += p.Angle
	}
	return World{x, y, angle}
}

// checkPropagated fails unless every node's World is the direct composition
// along its ancestors, and returns how many nodes it checked.
func checkPropagated(t *testing.T, s *Scene) int {
	t.Helper()
	n := 0
	for r := range ecs.NewQuery2[Local, World](s.World).All() {
		if want := direct(s, r.Entity); !nearWorld(*r.B, want) {
			t.Errorf("%s: World %+v, want %+v", *s.names.Get(r.Entity), *r.B, want)
		}
		n++
	}
	return n
}

func TestPropagateMatchesAncestors(t *testing.T) {
	s := NewScene()
	if n := checkPropagated(t, s); n != 14 {
		t.Fatalf("checked %d nodes, want 14", n)
	}
	for range 37 {
		s.Tick(0.13)
	}
	checkPropagated(t, s)
	// Orbits keep their radius around the moving parent.
	dist := func(a, b Name) float64 {
		p, q := s.WorldOf(a), s.WorldOf(b)
		return math.Hypot(p.X-q.X, p.Y-q.Y)
	}
	for _, c := range []struct {
		body, parent Name
		r            float64
	}{{"earth", "sun", 10}, {"moon", "earth", 1.5}, {"phobos", "mars", 1}, {"deimos", "mars", 2}} {
		if d := dist(c.body, c.parent); !near(d, c.r) {
			t.Errorf("%s is %v from %s, want %v", c.body, d, c.parent, c.r)
		}
	}
}

// A chain of 200 links of length 1, each turned by 1/200 of a turn from
// its parent, is a regular polygon: its last node is back at the origin.
// The nodes are spawned children first, so no order of ids or rows gives
// parents first by accident.
func TestDeepChain(t *testing.T) {
	const n = 200
	s := NewScene()
	chain := make([]ecs.Entity, n+1)
	for i := n; i >= 0; i-- {
		l := Local{X: 1, Angle: 2 * math.Pi / n}
		if i == 0 {
			l = Local{}
		}
		chain[i] = s.nodes.Spawn(Name(fmt.Sprint("link-", i)), l, World{})
	}
	for i := 1; i <= n; i++ {
		s.H.SetParent(chain[i], chain[i-1])
	}
	s.Propagate()
	checkPropagated(t, s)
	if tip := *s.worlds.Get(chain[n]); math.Abs(tip.X) > 1e-9 || math.Abs(tip.Y) > 1e-9 || !near(tip.Angle, 2*math.Pi) {
		t.Fatalf("tip at %+v, want the origin after a full turn", tip)
	}
}

func TestReparentKeepsWorldPosition(t *testing.T) {
	s := NewScene()
	for range 25 {
		s.Tick(0.1)
	}
	before := map[ecs.Entity]World{}
	for r := range ecs.NewQuery1[World](s.World).All() {
		before[r.Entity] = *r.A
	}
	turret, borealis := s.Node("aurora/turret-2"), s.Node("borealis")
	s.Reparent(turret, borealis)
	s.Propagate()
	if p, _ := s.H.Parent(turret); p != borealis {
		t.Fatalf("turret's parent is %v, want borealis %v", p, borealis)
	}
	if got := s.H.Root(s.Node("aurora/turret-2/barrel")); got != borealis {
		t.Fatalf("barrel's root is %v, want borealis", got)
	}
	// Nothing moved: the turret, its barrel, and every other node.
	for e, w := range before {
		if got := *s.worlds.Get(e); !nearWorld(got, w) {
			t.Errorf("%s moved from %+v to %+v", *s.names.Get(e), w, got)
		}
	}
	// Animation goes on in the new frame.
	s.Tick(0.1)
	checkPropagated(t, s)
}

func TestDespawnShipTakesItsSubtree(t *testing.T) {
	s := NewScene()
	s.Reparent(s.Node("aurora/turret-2"), s.Node("borealis"))
	n := s.World.Len()
	s.World.Despawn(s.Node("aurora"))
	if got := s.World.Len(); got != n-3 {
		t.Fatalf("Len = %d after the despawn, want %d", got, n-3)
	}
	for _, name := range []Name{"aurora", "aurora/turret-1", "aurora/turret-1/barrel"} {
		if s.World.Alive(s.Node(name)) {
			t.Errorf("%s is alive", name)
		}
	}
	for _, name := range []Name{"aurora/turret-2", "aurora/turret-2/barrel", "borealis/turret-1"} {
		if !s.World.Alive(s.Node(name)) {
			t.Errorf("%s was despawned", name)
		}
	}
	if got := s.roots.Count(); got != 2 {
		t.Errorf("%d roots, want 2", got)
	}
	s.Tick(0.1)
	if got := checkPropagated(t, s); got != 11 {
		t.Errorf("checked %d nodes, want 11", got)
	}
}

func TestRun(t *testing.T) {
	var a, b bytes.Buffer
	run(&a)
	run(&b)
	if a.String() != b.String() {
		t.Fatalf("two runs differ:\n%s\n%s", a.String(), b.String())
	}
	out := a.String()
	for _, want := range []string{
		"14 nodes; roots: [borealis sun aurora]\n",
		"despawned aurora: 14 nodes -> 11; turret-1 alive: false; borealis has 2 turrets\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var bx, by, ax, ay float64
	i := strings.Index(out, "its barrel at")
	if _, err := fmt.Sscanf(out[i:], "its barrel at (%f, %f) before, (%f, %f) after", &bx, &by, &ax, &ay); err != nil {
		t.Fatalf("reparent line: %v\n%s", err, out)
	}
	if bx != ax || by != ay {
		t.Errorf("barrel moved from (%v, %v) to (%v, %v) when its turret was reparented", bx, by, ax, ay)
	}
}
