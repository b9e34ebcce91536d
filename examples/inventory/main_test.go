package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

const startListing = `alice (wields sword)
  healing potion x3
  crypt key x1
  sword x1
  backpack x1: lantern 1.2 kg, old map 0.1 kg, rope 2.5 kg (3.8 kg)
  Maren's locket x1
bob (wields bow)
  arrow x40
  crypt key x1
  bow x1
  axe x1
guild stash
  healing potion x10
  arrow x200
  crypt key x1
`

const endListing = `alice (wields sword)
  healing potion x3
  sword x1
bob
  arrow x40
  crypt key x2
  bow x1
  healing potion x5
guild stash
  healing potion x5
  arrow x200
  crypt key x1
`

// checkInvariants fails unless the relations agree with each other: both
// sides of every pair list each other and hold only living entities, every
// count is positive, a character wields a weapon it holds, and only bags
// have contents.
func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	for r := range ecs.NewQuery1[Name](g.World).All() {
		e := r.Entity
		for _, item := range g.holds.Targets(e) {
			if !g.World.Alive(item) || !slices.Contains(g.holds.Sources(item), e) {
				t.Errorf("%s holds %v, which does not list it as a holder", *r.A, item)
			} else if c := g.holds.Value(e, item).Count; c <= 0 {
				t.Errorf("%s holds %s x%d", *r.A, g.name(item), c)
			}
		}
		for _, holder := range g.holds.Sources(e) {
			if !g.World.Alive(holder) || !g.holds.Has(holder, e) {
				t.Errorf("%s lists holder %v, which does not hold it", *r.A, holder)
			}
		}
		if w, ok := g.equipped.Target(e); ok && (!g.weapons.Has(w) || !g.holds.Has(e, w)) {
			t.Errorf("%s wields %v, not a weapon it holds", *r.A, w)
		}
		if g.inBag.NumSources(e) > 0 && !g.bags.Has(e) {
			t.Errorf("%s has contents but is no bag", *r.A)
		}
	}
}

// total returns how many of item all holders hold together.
func total(g *Game, item ecs.Entity) int32 {
	var n int32
	for _, h := range g.holds.Sources(item) {
		n += g.Count(h, item)
	}
	return n
}

func TestStartingInventory(t *testing.T) {
	g := NewGame()
	checkInvariants(t, g)
	if got := g.Listing(); got != startListing {
		t.Fatalf("listing:\n%s\nwant:\n%s", got, startListing)
	}
	key := g.E("crypt key")
	if got, want := g.holds.Sources(key), []ecs.Entity{g.E("alice"), g.E("bob"), g.E("guild stash")}; !slices.Equal(got, want) {
		t.Errorf("key holders %v, want %v", got, want)
	}
	var chars []ecs.Entity
	for r := range ecs.NewQuery1[Name](g.World, ecs.With(ecs.C[Character]()), g.holds.To(key)).All() {
		chars = append(chars, r.Entity)
	}
	if want := []ecs.Entity{g.E("alice"), g.E("bob")}; !slices.Equal(chars, want) {
		t.Errorf("characters holding the key %v, want %v", chars, want)
	}
}

func TestTransfer(t *testing.T) {
	g := NewGame()
	alice, bob, stash := g.E("alice"), g.E("bob"), g.E("guild stash")
	potion, sword := g.E("healing potion"), g.E("sword")
	sum := total(g, potion)
	for _, step := range []struct {
		from, to ecs.Entity
		n        int32
	}{{stash, bob, 4}, {bob, alice, 1}, {alice, stash, 4}, {bob, stash, 3}} {
		if err := g.Transfer(step.from, step.to, potion, step.n); err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, g)
		if got := total(g, potion); got != sum {
			t.Fatalf("%d potions after a transfer, want %d", got, sum)
		}
	}
	if g.holds.Has(alice, potion) || g.holds.Has(bob, potion) || g.Count(stash, potion) != sum {
		t.Fatalf("potions: alice %d, bob %d, stash %d; want all %d in the stash",
			g.Count(alice, potion), g.Count(bob, potion), g.Count(stash, potion), sum)
	}
	// A refused transfer changes nothing.
	before := g.World.Checksum()
	if err := g.Transfer(alice, bob, potion, 1); err == nil {
		t.Fatal("alice gave a potion she does not have")
	}
	if g.World.Checksum() != before {
		t.Fatal("a refused transfer changed the world")
	}
	// Giving away the wielded weapon unequips it.
	if err := g.Transfer(alice, bob, sword, 1); err != nil {
		t.Fatal(err)
	}
	if g.equipped.HasTargets(alice) || g.equipped.NumSources(sword) != 0 {
		t.Fatalf("alice still wields the sword she gave away")
	}
	checkInvariants(t, g)
}

func TestEquipReplacesTheWeapon(t *testing.T) {
	g := NewGame()
	bob := g.E("bob")
	if err := g.Equip(bob, g.E("axe")); err != nil {
		t.Fatal(err)
	}
	if got := g.equipped.Targets(bob); !slices.Equal(got, []ecs.Entity{g.E("axe")}) {
		t.Fatalf("bob wields %v, want only the axe", got)
	}
	if g.equipped.NumSources(g.E("bow")) != 0 {
		t.Fatal("the bow is still wielded")
	}
	if g.Equip(bob, g.E("sword")) == nil || g.Equip(bob, g.E("arrow")) == nil {
		t.Fatal("bob equipped a weapon he does not hold, or an arrow")
	}
	checkInvariants(t, g)
}

func TestDestroyedItemLeavesEveryInventory(t *testing.T) {
	g := NewGame()
	key := g.E("crypt key")
	holders := g.holds.Sources(key)
	g.World.Despawn(key)
	for _, h := range holders {
		if slices.Contains(g.holds.Targets(h), key) {
			t.Errorf("%s still holds the destroyed key", g.name(h))
		}
		if !g.World.Alive(h) {
			t.Errorf("%s was despawned with the key", g.name(h))
		}
	}
	g.World.Despawn(g.E("bow")) // wielded: bob's Equipped pair goes too
	if g.equipped.HasTargets(g.E("bob")) {
		t.Error("bob wields the destroyed bow")
	}
	checkInvariants(t, g)
}

func TestBurningTheBagDestroysItsContents(t *testing.T) {
	g := NewGame()
	n := g.World.Len()
	g.World.Despawn(g.E("backpack"))
	if got := g.World.Len(); got != n-4 {
		t.Fatalf("Len = %d, want %d (the bag and its three items)", got, n-4)
	}
	for _, name := range []Name{"backpack", "lantern", "old map", "rope"} {
		if g.World.Alive(g.E(name)) {
			t.Errorf("%s survived the fire", name)
		}
	}
	if g.holds.Has(g.E("alice"), g.E("backpack")) || len(g.holds.Targets(g.E("alice"))) != 4 {
		t.Errorf("alice holds %v after the fire", g.holds.Targets(g.E("alice")))
	}
	checkInvariants(t, g)
}

func TestQuestGiverCannotLeaveEarly(t *testing.T) {
	g := NewGame()
	maren, locket := g.E("Maren"), g.E("Maren's locket")
	before := g.World.Checksum()
	err := g.TryDespawn(maren)
	if err == nil || !strings.Contains(err.Error(), "RefuseDespawn") {
		t.Fatalf("despawning Maren: %v, want a RefuseDespawn refusal", err)
	}
	if g.World.Checksum() != before || !g.World.Alive(maren) || !g.questItemOf.Has(locket, maren) {
		t.Fatal("the refused despawn changed the world")
	}
	// The world works on after the recovered panic.
	if err := g.Transfer(g.E("alice"), g.E("bob"), locket, 1); err != nil {
		t.Fatal(err)
	}
	// Releasing the pair lets Maren go and keeps the locket.
	g.questItemOf.Remove(locket, maren)
	if err := g.TryDespawn(maren); err != nil {
		t.Fatal(err)
	}
	if !g.World.Alive(locket) || g.Count(g.E("bob"), locket) != 1 {
		t.Fatal("the locket went with Maren")
	}
	checkInvariants(t, g)
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
		"== the party sets out ==\n" + startListing,
		"the crypt key is held by alice, bob, guild stash; by characters: alice, bob\n",
		"refused: alice holds arrow x0, cannot give 1\n",
		"the crypt key is now held by bob, guild stash\n",
		"bob wields the axe instead of the bow\n",
		"the axe breaks: bob holds axe x0 and wields nothing\n",
		"the backpack burns: 14 entities -> 10; the lantern is gone: true\n",
		"whose policy is RefuseDespawn",
		"nothing changed: Maren alive true, 10 entities -> 10)\n",
		"Maren leaves (alive: false)\n",
		"== the party comes back ==\n" + endListing,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
