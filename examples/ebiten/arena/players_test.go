package arena

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// TestEachShipFollowsItsOwner: two ships, each moved by its own player's
// PlayerInput only: one turns left and thrusts, the other turns right and
// fires; a tick without a player's input leaves its ship coasting.
func TestEachShipFollowsItsOwner(t *testing.T) {
	g := NewEmpty(Config{Seed: 5, Rocks: 0, Workers: 2, Debug: true})
	defer g.Close()
	a := g.SpawnShip(7, Pos{100, 240})
	b := g.SpawnShip(9, Pos{500, 240})
	ships, pos, bullets := ecs.NewMap[Ship](g.W), ecs.NewMap[Pos](g.W), ecs.NewQuery1[Bullet](g.W)
	start := *ships.Get(a)
	for range 30 {
		g.StepPlayers(PlayerInput{Player: 9, Input: Input{Right: true, Fire: true}},
			PlayerInput{Player: 7, Input: Input{Left: true, Thrust: true}})
	}
	if got := ships.Get(a).Angle; got >= start.Angle-2 {
		t.Errorf("player 7's ship heads %v, want it turned left by 30 x 0.08 from %v", got, start.Angle)
	}
	if got := ships.Get(b).Angle; got <= start.Angle+2 {
		t.Errorf("player 9's ship heads %v, want it turned right by 30 x 0.08 from %v", got, start.Angle)
	}
	if p := *pos.Get(a); p == (Pos{100, 240}) {
		t.Error("player 7 thrust, but its ship did not move")
	}
	if p := *pos.Get(b); p != (Pos{500, 240}) {
		t.Errorf("player 9 never thrust, but its ship moved to %v", p)
	}
	if bullets.Count() == 0 {
		t.Error("player 9 fired, but there is no bullet")
	}

	// A tick with no input: nobody turns, and the turrets stop firing.
	for range BulletTicks + 1 {
		g.StepPlayers()
	}
	angle := ships.Get(b).Angle
	g.StepPlayers(PlayerInput{Player: 8, Input: Input{Right: true, Fire: true}}) // a player with no ship
	if ships.Get(b).Angle != angle || bullets.Count() != 0 {
		t.Errorf("with no input of their owners the ships turned (%v to %v) or fired (%d bullets)", angle, ships.Get(b).Angle, bullets.Count())
	}
	if e, ok := g.ShipOf(9); !ok || e != b {
		t.Errorf("ShipOf(9) = %v, %v; want %v", e, ok, b)
	}
}

// TestRemoveShip: a player's ship goes with its turrets and engine; the
// other player's stays.
func TestRemoveShip(t *testing.T) {
	g := NewEmpty(Config{Seed: 5, Workers: 1, Debug: true})
	defer g.Close()
	a, b := g.SpawnShip(1, Pos{100, 100}), g.SpawnShip(2, Pos{300, 300})
	for range 10 {
		g.StepPlayers()
	}
	if !g.RemoveShip(1) || g.RemoveShip(1) {
		t.Fatal("RemoveShip(1) did not report the ship once")
	}
	if g.W.Alive(a) || !g.W.Alive(b) {
		t.Fatalf("after RemoveShip(1): ship 1 alive %v, ship 2 alive %v", g.W.Alive(a), g.W.Alive(b))
	}
	if n := ecs.NewQuery1[Turret](g.W).Count(); n != 2 {
		t.Errorf("%d turrets left, want ship 2's 2", n)
	}
	if _, ok := g.ShipOf(1); ok {
		t.Error("ShipOf(1) finds a ship after RemoveShip(1)")
	}
}
