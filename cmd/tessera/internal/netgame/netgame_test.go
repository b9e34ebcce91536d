package netgame

import (
	"math"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/net/netcode"
)

func TestRulesPerScenario(t *testing.T) {
	game, err := Rules("game")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Rules("game")
	particle, err := Rules("particle")
	if err != nil {
		t.Fatal(err)
	}
	if game.Fingerprint() != again.Fingerprint() {
		t.Error("two builds of the game's rules differ")
	}
	if game.Fingerprint() == particle.Fingerprint() {
		t.Error("the game's and the particles' rules have one fingerprint: their clients would join each other's server")
	}
	if _, err := Rules("predator"); err == nil {
		t.Error("Rules(predator): no error")
	}
	if _, err := NewMarker("predator", ecs.NewWorld()); err == nil {
		t.Error("NewMarker(predator): no error")
	}
	if _, err := NewRelevancy("predator", ecs.NewWorld(), 0); err == nil {
		t.Error("NewRelevancy(predator): no error")
	}
}

func TestParseRadiusAndFocus(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float32
		ok   bool
	}{
		{"all", 0, true}, {"grid:60", 60, true}, {"grid:0.5", 0.5, true}, {"grid:1024", 1024, true},
		{"grid:0", 0, false}, {"grid:-3", 0, false}, {"grid:1025", 0, false}, {"grid:NaN", 0, false},
		{"grid:Inf", 0, false}, {"grid:", 0, false}, {"grid", 0, false}, {"some", 0, false}, {"", 0, false},
	} {
		got, err := ParseRadius(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseRadius(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   string
		x, y float32
		ok   bool
	}{
		{"160,120", 160, 120, true}, {"-5.5, 7", -5.5, 7, true}, {"1048576,0", 1 << 20, 0, true},
		{"160", 0, 0, false}, {"a,b", 0, 0, false}, {"1,NaN", 0, 0, false}, {"1e30,0", 0, 0, false}, {"", 0, 0, false},
	} {
		x, y, err := ParseFocus(c.in)
		if (err == nil) != c.ok || x != c.x || y != c.y {
			t.Errorf("ParseFocus(%q) = %v, %v, %v; want %v, %v, ok %v", c.in, x, y, err, c.x, c.y, c.ok)
		}
	}
}

func TestMarkerMarksNewEntitiesOnly(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[scenario.GamePosition](w)
	for range 5 {
		pos.Spawn(scenario.GamePosition{})
	}
	w.Spawn() // no position: never marked
	m, err := NewMarker("game", w)
	if err != nil {
		t.Fatal(err)
	}
	if n := m.Mark(); n != 5 {
		t.Fatalf("first Mark marked %d, want 5", n)
	}
	if n := m.Mark(); n != 0 {
		t.Fatalf("second Mark marked %d, want 0", n)
	}
	e := pos.Spawn(scenario.GamePosition{})
	if n := m.Mark(); n != 1 || !ecs.NewMap[netcode.Replicated](w).Has(e) {
		t.Fatalf("Mark after a spawn marked %d, want the new entity", n)
	}
}

// relevancyWorld is a game world with replicated entities at xs along
// the line y = 120, through the default focus (160, 120).
func relevancyWorld(t *testing.T, xs ...float32) (*ecs.World, []ecs.Entity, *ecs.Map[scenario.GamePosition]) {
	t.Helper()
	w := ecs.NewWorld()
	pos := ecs.NewMap[scenario.GamePosition](w)
	var es []ecs.Entity
	for _, x := range xs {
		es = append(es, pos.Spawn(scenario.GamePosition{X: x, Y: 120}))
	}
	m, err := NewMarker("game", w)
	if err != nil {
		t.Fatal(err)
	}
	m.Mark()
	return w, es, pos
}

// relevant returns the entities r gives client id, sorted.
func relevant(r *Relevancy, w *ecs.World, id netcode.ClientID) []ecs.Entity {
	es := r.Relevant(id, w, nil)
	slices.SortFunc(es, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	return es
}

func TestRelevancyCapsAndHysteresis(t *testing.T) {
	w, es, pos := relevancyWorld(t, 160, 165, 171, 400)
	r, err := NewRelevancy("game", w, 10)
	if err != nil {
		t.Fatal(err)
	}
	r.Update(w, []netcode.ClientID{1})
	// No View yet: the default focus (160, 120) and the cap, 10.
	if got := relevant(r, w, 1); !slices.Equal(got, es[:2]) {
		t.Fatalf("client without a View sees %v, want %v", got, es[:2])
	}
	// Moved out to 11 from the focus: within the margin (10 + 10/8), it stays.
	pos.Set(es[1], scenario.GamePosition{X: 171, Y: 120})
	r.Update(w, []netcode.ClientID{1})
	if got := relevant(r, w, 1); !slices.Equal(got, es[:2]) {
		t.Fatalf("an entity inside the margin left: %v", got)
	}
	// At 12, past the margin: it leaves; the one at 11 that never entered stays out.
	pos.Set(es[1], scenario.GamePosition{X: 172, Y: 120})
	r.Update(w, []netcode.ClientID{1})
	if got := relevant(r, w, 1); !slices.Equal(got, es[:1]) {
		t.Fatalf("after leaving the margin: %v, want %v", got, es[:1])
	}
	// A View asking for everything is capped to the radius around its point.
	views := ecs.EventsOf[netcode.Input[View]](w)
	views.Send(netcode.Input[View]{Client: 1, Value: View{X: 400, Y: 120}})
	r.Update(w, []netcode.ClientID{1})
	if x, y, rad := r.Grant(1); x != 400 || y != 120 || rad != 10 {
		t.Fatalf("Grant = %v, %v, %v; want 400, 120, 10", x, y, rad)
	}
	if got := relevant(r, w, 1); !slices.Equal(got, es[3:]) {
		t.Fatalf("client looking at (400, 120) sees %v", got)
	}
	// Not finite, or out of range: the default focus, and the cap.
	for _, v := range []View{{X: float32(math.NaN()), Y: 0, R: 5}, {X: 1e30, Y: 0, R: float32(math.Inf(1))}, {R: -1}, {R: float32(math.NaN())}} {
		views.Send(netcode.Input[View]{Client: 1, Value: v})
		r.Update(w, []netcode.ClientID{1})
		x, y, rad := r.Grant(1)
		wantX, wantY := float32(160), float32(120)
		if v.X == 0 && v.Y == 0 {
			wantX, wantY = 0, 0
		}
		wantR := float32(10)
		if v.R == 5 {
			wantR = 5
		}
		if x != wantX || y != wantY || rad != wantR {
			t.Errorf("View %+v: Grant = %v, %v, %v; want %v, %v, %v", v, x, y, rad, wantX, wantY, wantR)
		}
	}
	// A client that left is forgotten: it would come back with the default.
	r.Update(w, nil)
	if x, y, rad := r.Grant(1); x != 160 || y != 120 || rad != 10 {
		t.Errorf("forgotten client: Grant = %v, %v, %v; want the default", x, y, rad)
	}
}

func TestRelevancyWithoutCap(t *testing.T) {
	w, es, _ := relevancyWorld(t, 160, 165, 171, 400)
	r, err := NewRelevancy("game", w, 0)
	if err != nil {
		t.Fatal(err)
	}
	views := ecs.EventsOf[netcode.Input[View]](w)
	views.Send(netcode.Input[View]{Client: 2, Value: View{X: 160, Y: 120, R: 6}})
	views.Send(netcode.Input[View]{Client: 3, Value: View{X: 160, Y: 120, R: 5000}}) // beyond MaxRadius: everything
	r.Update(w, []netcode.ClientID{1, 2, 3})
	if got := relevant(r, w, 1); !slices.Equal(got, es) {
		t.Errorf("client 1, no View: %v, want every entity", got)
	}
	if got := relevant(r, w, 2); !slices.Equal(got, es[:2]) {
		t.Errorf("client 2, radius 6: %v, want %v", got, es[:2])
	}
	if got := relevant(r, w, 3); !slices.Equal(got, es) {
		t.Errorf("client 3, radius beyond the bound: %v, want every entity", got)
	}
}

// BenchmarkRelevancyUpdate is the relevancy's share of a served tick of
// the 10,000-entity game with one client: the grid's rebuild when the
// client's view is capped, nothing much when it sees everything.
func BenchmarkRelevancyUpdate(b *testing.B) {
	for _, limit := range []float32{0, 60} {
		name := "all"
		if limit > 0 {
			name = "grid60"
		}
		b.Run(name, func(b *testing.B) {
			g, err := scenario.NewGame(scenario.Config{N: 10_000, Seed: 1, Workers: 1})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			m, _ := NewMarker("game", g.World())
			m.Mark()
			r, _ := NewRelevancy("game", g.World(), limit)
			joined := []netcode.ClientID{1}
			for b.Loop() {
				r.Update(g.World(), joined)
			}
		})
	}
}
