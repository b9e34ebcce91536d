// Command inventory keeps the inventories of a small party with relations
// between entities, each pair a source and a target:
//
//   - Holds{Count} (holder, item) is a Multi relation, many-to-many: an item
//     is held by several holders (the crypt key by two players and the guild
//     stash) and a holder holds several items, each pair with its count.
//     Targets(holder) lists what it holds, Sources(item) who holds it, and
//     Value reads or updates one pair's count. Destroying an item removes its
//     pairs (RemovePairs, the default cleanup policy).
//   - Equipped (character, weapon) is exclusive: Set replaces a character's
//     weapon.
//   - InBag (item, bag) cascades with OnTargetDespawn(DespawnSources):
//     burning a bag destroys what is in it.
//   - QuestItemOf (item, quest giver) refuses with
//     OnTargetDespawn(RefuseDespawn): despawning a quest giver while one of
//     their quest items exists panics, before anything changes.
//
// A query filter selects by relation: Relation.To keeps the sources of one
// target (the characters holding the key) and Relation.ToVar the sources of
// a target chosen per pass (the contents of each bag in the listing).
//
//	go run ./examples/inventory
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// Components.
type (
	Name      string
	Character struct{}
	Container struct{}
	Bag       struct{} // an item other items can be put in
	Weapon    struct{}
	Weight    struct{ Kg float64 }
)

// Relation pair types.
type (
	Holds       struct{ Count int32 } // (holder, item), Multi
	Equipped    struct{}              // (character, weapon), one weapon each
	InBag       struct{}              // (item, bag), burning the bag destroys the item
	QuestItemOf struct{}              // (item, quest giver), who cannot leave while it exists
)

// Game is a world with the handles, relations and queries of the inventory.
type Game struct {
	World       *ecs.World
	names       *ecs.Map[Name]
	weapons     *ecs.Map[Weapon]
	bags        *ecs.Map[Bag]
	holds       *ecs.Relation[Holds]
	equipped    *ecs.Relation[Equipped]
	inBag       *ecs.Relation[InBag]
	questItemOf *ecs.Relation[QuestItemOf]
	holders     *ecs.Query1[Name]         // characters and containers, for the listing
	bag         ecs.TargetVar             // the bag contents lists
	contents    *ecs.Query2[Name, Weight] // the items in bag
	byName      map[Name]ecs.Entity
}

// NewGame sets up two characters, a guild stash and a quest giver.
func NewGame() *Game {
	w := ecs.NewWorld()
	g := &Game{
		World:       w,
		names:       ecs.NewMap[Name](w),
		weapons:     ecs.NewMap[Weapon](w),
		bags:        ecs.NewMap[Bag](w),
		holds:       ecs.NewRelation[Holds](w, ecs.Multi()),
		equipped:    ecs.NewRelation[Equipped](w),
		inBag:       ecs.NewRelation[InBag](w, ecs.OnTargetDespawn(ecs.DespawnSources)),
		questItemOf: ecs.NewRelation[QuestItemOf](w, ecs.OnTargetDespawn(ecs.RefuseDespawn)),
		holders:     ecs.NewQuery1[Name](w, ecs.AnyOf(ecs.C[Character](), ecs.C[Container]())),
		byName:      map[Name]ecs.Entity{},
	}
	g.contents = ecs.NewQuery2[Name, Weight](w, g.inBag.ToVar(&g.bag))
	chars := ecs.NewMap[Character](w)
	for _, n := range []Name{"alice", "bob"} {
		chars.Add(g.spawn(n), Character{})
	}
	ecs.NewMap[Container](w).Add(g.spawn("guild stash"), Container{})
	maren := g.spawn("Maren")
	for _, n := range []Name{"healing potion", "arrow", "crypt key"} {
		g.spawn(n)
	}
	for _, n := range []Name{"sword", "bow", "axe"} {
		g.weapons.Add(g.spawn(n), Weapon{})
	}
	backpack := g.spawn("backpack")
	g.bags.Add(backpack, Bag{})
	weights := ecs.NewMap[Weight](w)
	for _, it := range []struct {
		name Name
		kg   float64
	}{{"lantern", 1.2}, {"old map", 0.1}, {"rope", 2.5}} {
		e := g.spawn(it.name)
		weights.Add(e, Weight{Kg: it.kg})
		g.inBag.Add(e, backpack)
	}
	g.questItemOf.Add(g.spawn("Maren's locket"), maren)

	for _, h := range []struct {
		holder Name
		items  []Name
		counts []int32
	}{
		{"alice", []Name{"healing potion", "crypt key", "sword", "backpack", "Maren's locket"}, []int32{3, 1, 1, 1, 1}},
		{"bob", []Name{"arrow", "crypt key", "bow", "axe"}, []int32{40, 1, 1, 1}},
		{"guild stash", []Name{"healing potion", "arrow", "crypt key"}, []int32{10, 200, 1}},
	} {
		for i, item := range h.items {
			g.holds.Set(g.E(h.holder), g.E(item), Holds{Count: h.counts[i]})
		}
	}
	must(g.Equip(g.E("alice"), g.E("sword")))
	must(g.Equip(g.E("bob"), g.E("bow")))
	return g
}

func (g *Game) spawn(n Name) ecs.Entity {
	e := g.names.Spawn(n)
	g.byName[n] = e
	return e
}

// E returns the entity named n.
func (g *Game) E(n Name) ecs.Entity { return g.byName[n] }

// Transfer moves n of item from one holder to another.
func (g *Game) Transfer(from, to, item ecs.Entity, n int32) error {
	have, ok := g.holds.TryValue(from, item)
	if !ok || have.Count < n {
		return fmt.Errorf("%s holds %s x%d, cannot give %d", g.name(from), g.name(item), g.Count(from, item), n)
	}
	have.Count -= n
	if have.Count == 0 {
		g.holds.Remove(from, item)
		g.equipped.Remove(from, item) // does nothing unless from wielded it
	}
	if v, ok := g.holds.TryValue(to, item); ok {
		v.Count += n
	} else {
		g.holds.Set(to, item, Holds{Count: n})
	}
	return nil
}

// Count returns how many of item holder holds.
func (g *Game) Count(holder, item ecs.Entity) int32 {
	if v, ok := g.holds.TryValue(holder, item); ok {
		return v.Count
	}
	return 0
}

// Equip makes c wield weapon, which c must hold, in place of c's weapon.
func (g *Game) Equip(c, weapon ecs.Entity) error {
	if !g.weapons.Has(weapon) || !g.holds.Has(c, weapon) {
		return fmt.Errorf("%s holds no weapon called %s", g.name(c), g.name(weapon))
	}
	g.equipped.Set(c, weapon, Equipped{})
	return nil
}

// Wields returns the name of c's weapon, or "nothing".
func (g *Game) Wields(c ecs.Entity) Name {
	if w, ok := g.equipped.Target(c); ok {
		return g.name(w)
	}
	return "nothing"
}

// TryDespawn despawns e, or returns the panic of a refused despawn as an
// error. A RefuseDespawn refusal comes before anything changes, so the world
// is as it was.
func (g *Game) TryDespawn(e ecs.Entity) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	g.World.Despawn(e)
	return nil
}

// Listing returns every character's and container's inventory.
func (g *Game) Listing() string {
	var b strings.Builder
	for r := range g.holders.All() {
		fmt.Fprintf(&b, "%s", *r.A)
		if g.equipped.HasTargets(r.Entity) {
			fmt.Fprintf(&b, " (wields %s)", g.Wields(r.Entity))
		}
		b.WriteString("\n")
		for _, item := range g.holds.Targets(r.Entity) {
			fmt.Fprintf(&b, "  %s x%d", g.name(item), g.holds.Value(r.Entity, item).Count)
			if g.bags.Has(item) {
				g.bag.Set(item) // contents visits this bag's items from now on
				var in []string
				total := 0.0
				for c := range g.contents.All() {
					in = append(in, fmt.Sprintf("%s %.1f kg", *c.A, c.B.Kg))
					total += c.B.Kg
				}
				fmt.Fprintf(&b, ": %s (%.1f kg)", strings.Join(in, ", "), total)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (g *Game) name(e ecs.Entity) Name { return *g.names.Get(e) }

func (g *Game) list(es []ecs.Entity) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = string(g.name(e))
	}
	return strings.Join(s, ", ")
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func run(out io.Writer) {
	g := NewGame()
	E := g.E
	fmt.Fprint(out, "== the party sets out ==\n", g.Listing())

	key := E("crypt key")
	holding := ecs.NewQuery1[Name](g.World, ecs.With(ecs.C[Character]()), g.holds.To(key))
	var chars []ecs.Entity
	for r := range holding.All() {
		chars = append(chars, r.Entity)
	}
	fmt.Fprintf(out, "\nthe crypt key is held by %s; by characters: %s\n", g.list(g.holds.Sources(key)), g.list(chars))

	fmt.Fprintln(out, "\n== trading ==")
	for _, t := range []struct {
		from, to, item Name
		n              int32
	}{
		{"guild stash", "bob", "healing potion", 5},
		{"alice", "bob", "crypt key", 1},
		{"alice", "bob", "arrow", 1},
	} {
		if err := g.Transfer(E(t.from), E(t.to), E(t.item), t.n); err != nil {
			fmt.Fprintln(out, "refused:", err)
			continue
		}
		fmt.Fprintf(out, "%s gives %s %s x%d\n", t.from, t.to, t.item, t.n)
	}
	fmt.Fprintf(out, "the crypt key is now held by %s\n", g.list(g.holds.Sources(key)))
	before := g.Wields(E("bob"))
	must(g.Equip(E("bob"), E("axe")))
	fmt.Fprintf(out, "bob wields the axe instead of the %s\n", before)
	if err := g.Equip(E("alice"), E("bow")); err != nil {
		fmt.Fprintln(out, "refused:", err)
	}

	fmt.Fprintln(out, "\n== accidents ==")
	g.World.Despawn(E("axe"))
	fmt.Fprintf(out, "the axe breaks: bob holds axe x%d and wields %s\n", g.Count(E("bob"), E("axe")), g.Wields(E("bob")))
	n := g.World.Len()
	g.World.Despawn(E("backpack"))
	fmt.Fprintf(out, "the backpack burns: %d entities -> %d; the lantern is gone: %v\n",
		n, g.World.Len(), !g.World.Alive(E("lantern")))

	fmt.Fprintln(out, "\n== Maren wants to leave ==")
	maren := E("Maren")
	fmt.Fprintf(out, "quest items of Maren still out: %s\n", g.list(g.questItemOf.Sources(maren)))
	n = g.World.Len()
	err := g.TryDespawn(maren)
	fmt.Fprintf(out, "Despawn(Maren) panicked, recovered: %v\n", err)
	fmt.Fprintf(out, "  (%v is Maren, %v her locket; nothing changed: Maren alive %v, %d entities -> %d)\n",
		maren, E("Maren's locket"), g.World.Alive(maren), n, g.World.Len())
	g.World.Despawn(E("Maren's locket")) // alice returns the locket; the quest ends
	must(g.TryDespawn(maren))
	fmt.Fprintf(out, "alice returns the locket; Maren leaves (alive: %v)\n", g.World.Alive(maren))

	fmt.Fprint(out, "\n== the party comes back ==\n", g.Listing())
}

func main() { run(os.Stdout) }
