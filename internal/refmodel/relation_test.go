package refmodel_test

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/internal/refmodel"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// relFixture is a world with the relations of Tessera's relation tests: a
// hierarchy (exclusive, acyclic, DespawnSources), a Multi relation with
// int values that removes pairs, and an exclusive guard that refuses.
type relFixture struct {
	w     *refmodel.World
	tag   *refmodel.Store[int]
	child *refmodel.Relation[struct{}]
	likes *refmodel.Relation[int]
	guard *refmodel.Relation[int]
}

// newRelFixture makes an empty relFixture.
func newRelFixture() relFixture {
	w := refmodel.NewWorld()
	return relFixture{
		w:     w,
		tag:   refmodel.NewStore[int](w, "tag"),
		child: refmodel.NewRelation[struct{}](w, "child", refmodel.RelationOptions{Acyclic: true, Cleanup: refmodel.DespawnSources}),
		likes: refmodel.NewRelation[int](w, "likes", refmodel.RelationOptions{Multi: true}),
		guard: refmodel.NewRelation[int](w, "guard", refmodel.RelationOptions{Cleanup: refmodel.RefuseDespawn}),
	}
}

// spawn makes n entities, each with a tag (so Each can iterate them).
func (f relFixture) spawn(n int) []refmodel.EntityID {
	var es []refmodel.EntityID
	for i := range n {
		e := f.w.Spawn()
		f.tag.Add(e, i)
		es = append(es, e)
	}
	return es
}

// iterate runs body inside an iteration, so its changes are deferred.
func (f relFixture) iterate(body func()) {
	f.w.BeginIteration()
	body()
	f.w.EndIteration()
}

// wantIDs fails unless got is want, in order.
func wantIDs(t *testing.T, what string, got []refmodel.EntityID, want ...refmodel.EntityID) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// TestRelationExclusive: Add, Set, Remove and the orders of an exclusive
// relation, and its refusal of a second target.
func TestRelationExclusive(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(4)
	a, b, c, d := es[0], es[1], es[2], es[3]
	f.guard.Add(a, b)
	f.guard.Add(a, b) // the pair exists: nothing happens
	f.guard.Add(c, b)
	wantIDs(t, "Sources(b)", f.guard.Sources(b), a, c)
	if err := f.guard.CheckAdd(a, d); err == nil {
		t.Fatal("CheckAdd accepts a second target of an exclusive relation")
	}
	testhelp.MustPanic(t, func() { f.guard.Add(a, d) }, "already has the target")
	if tg, ok := f.guard.Target(a); !ok || tg != b || f.guard.Has(a, d) {
		t.Fatalf("a refused Add changed the pair: target %d %v", tg, ok)
	}
	f.guard.Set(a, b, 5) // same target: overwrites the value, keeps the order
	wantIDs(t, "Sources(b) after Set of the same pair", f.guard.Sources(b), a, c)
	f.guard.Add(a, b) // the pair exists: its value stays
	if v, ok := f.guard.Value(a, b); !ok || v != 5 {
		t.Fatalf("Value(a, b) = %d, %v; want 5", v, ok)
	}
	f.guard.Set(a, d, 7) // replaces b
	wantIDs(t, "Sources(b) after the replace", f.guard.Sources(b), c)
	wantIDs(t, "Targets(a) after the replace", f.guard.Targets(a), d)
	if v, _ := f.guard.Value(a, d); v != 7 || f.guard.Has(a, b) {
		t.Fatalf("after Set(a, d, 7): value %d, still has b %v", v, f.guard.Has(a, b))
	}
	f.guard.Set(c, d, 1) // c's pair with d is newer than a's
	wantIDs(t, "Sources(d)", f.guard.Sources(d), a, c)
	f.guard.Remove(a, b) // no such pair: nothing happens
	f.guard.Remove(a, d)
	wantIDs(t, "Sources(d) after Remove", f.guard.Sources(d), c)
	if _, ok := f.guard.Target(a); ok || f.guard.Len() != 1 {
		t.Fatalf("after Remove: a has a target %v, %d pairs", ok, f.guard.Len())
	}
	f.guard.RemoveTargets(c)
	if f.guard.Len() != 0 || f.guard.Sources(d) != nil {
		t.Fatalf("after RemoveTargets: %d pairs, Sources(d) %v", f.guard.Len(), f.guard.Sources(d))
	}
	f.likes.Add(a, d)
	f.w.Despawn(d)
	f.likes.Remove(a, d) // a dead target is allowed
	testhelp.MustPanic(t, func() { f.guard.Add(a, d) }, "not alive")
	testhelp.MustPanic(t, func() { f.guard.Sources(d) }, "not alive")
	if f.guard.Has(d, a) || f.likes.Has(a, d) {
		t.Fatal("Has reports a pair with a dead entity")
	}
}

// TestRelationMulti: a Multi relation keeps targets and sources in the
// order the pairs were made, and RemovePairs drops a dead target's pairs.
func TestRelationMulti(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(4)
	a, b, c, d := es[0], es[1], es[2], es[3]
	f.likes.Set(a, b, 1)
	f.likes.Add(a, c)
	f.likes.Set(a, d, 3)
	f.likes.Set(b, c, 4)
	f.likes.Add(a, b) // exists: the value stays
	if v, _ := f.likes.Value(a, b); v != 1 {
		t.Fatalf("Value(a, b) = %d after Add over it, want 1", v)
	}
	f.likes.Set(a, b, 9)
	wantIDs(t, "Targets(a)", f.likes.Targets(a), b, c, d)
	if v, _ := f.likes.Value(a, b); v != 9 {
		t.Fatalf("Value(a, b) = %d after Set over it, want 9", v)
	}
	if v, ok := f.likes.Value(a, c); !ok || v != 0 {
		t.Fatalf("Value(a, c) = %d, %v, want the zero value of Add", v, ok)
	}
	wantIDs(t, "Sources(c)", f.likes.Sources(c), a, b)
	f.likes.Remove(a, c) // the middle one: the others keep their order
	wantIDs(t, "Targets(a) after Remove", f.likes.Targets(a), b, d)
	f.likes.Add(a, c) // a new pair goes last on both sides
	wantIDs(t, "Targets(a) after the re-add", f.likes.Targets(a), b, d, c)
	wantIDs(t, "Sources(c) after the re-add", f.likes.Sources(c), b, a)
	if tg, _ := f.likes.Target(a); tg != b {
		t.Fatalf("Target(a) = %d, want the first target %d", tg, b)
	}
	f.likes.Add(c, c) // self pairs are fine without Acyclic
	f.w.Despawn(c)    // RemovePairs: a and b live on without c
	wantIDs(t, "Targets(a) after c died", f.likes.Targets(a), b, d)
	if f.likes.Targets(b) != nil || f.likes.Len() != 2 {
		t.Fatalf("after c died: Targets(b) %v, %d pairs", f.likes.Targets(b), f.likes.Len())
	}
	testhelp.MustPanic(t, func() {
		refmodel.NewRelation[int](f.w, "bad", refmodel.RelationOptions{Multi: true, Acyclic: true})
	}, "Acyclic")
}

// TestRelationAcyclicAndWalks: cycles refused with nothing changed, and the
// hierarchy's walks.
func TestRelationAcyclicAndWalks(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(6)
	root, a, b, a1, a2, b1 := es[0], es[1], es[2], es[3], es[4], es[5]
	f.child.Set(a, root, struct{}{})
	f.child.Set(b, root, struct{}{})
	f.child.Add(a1, a)
	f.child.Add(a2, a)
	f.child.Add(b1, b)
	wantIDs(t, "Descendants(root)", f.child.Descendants(root), a, a1, a2, b, b1)
	wantIDs(t, "Ancestors(a2)", f.child.Ancestors(a2), a, root)
	if f.child.Root(b1) != root || f.child.Depth(b1) != 2 || f.child.Depth(root) != 0 || f.child.Root(root) != root {
		t.Fatalf("Root(b1) %d Depth(b1) %d", f.child.Root(b1), f.child.Depth(b1))
	}
	for _, c := range [][2]refmodel.EntityID{{root, root}, {root, a1}, {a, a2}} {
		if err := f.child.CheckSet(c[0], c[1]); err == nil {
			t.Fatalf("CheckSet(%d, %d) accepts a cycle", c[0], c[1])
		}
		testhelp.MustPanic(t, func() { f.child.Set(c[0], c[1], struct{}{}) }, "cycle")
	}
	wantIDs(t, "Descendants(root) after refused cycles", f.child.Descendants(root), a, a1, a2, b, b1)
	f.child.Set(a, b, struct{}{}) // reparent a subtree: not a cycle
	wantIDs(t, "Children(root)", f.child.Sources(root), b)
	wantIDs(t, "Descendants(root) after the reparent", f.child.Descendants(root), b, b1, a, a1, a2)
	testhelp.MustPanic(t, func() { f.guard.Descendants(a) }, "not acyclic")
	testhelp.MustPanic(t, func() { f.likes.Ancestors(a) }, "Multi")
}

// TestRelationCascadeOrder: a cascade's order through two DespawnSources
// relations, with an entity reached twice and a self pair.
func TestRelationCascadeOrder(t *testing.T) {
	f := newRelFixture()
	owns := refmodel.NewRelation[struct{}](f.w, "owns", refmodel.RelationOptions{Multi: true, Cleanup: refmodel.DespawnSources})
	es := f.spawn(8)
	root, c1, c2, g, o1, o2, x, keep := es[0], es[1], es[2], es[3], es[4], es[5], es[6], es[7]
	f.child.Add(c1, root)
	f.child.Add(c2, root)
	f.child.Add(g, c1)
	// Tessera's TestCascadeOrder: children first, the last child first.
	wantIDs(t, "DespawnOrder(root)", f.w.DespawnOrder(root), c2, g, c1, root)
	// A second cascading relation: its sources are gathered after the
	// hierarchy's, so they go first. o2 is reached twice (from root and
	// from c2) and gathered once, by root; x owns itself and g.
	owns.Add(o1, root)
	owns.Add(o2, root)
	owns.Add(o2, c2)
	owns.Add(x, g)
	owns.Add(x, x)
	wantIDs(t, "DespawnOrder(root) with owns", f.w.DespawnOrder(root), o2, o1, c2, x, g, c1, root)
	var removed []refmodel.EntityID
	f.tag.OnRemove(func(e refmodel.EntityID, _ int) { removed = append(removed, e) })
	f.w.Despawn(root)
	wantIDs(t, "hook order of Despawn(root)", removed, o2, o1, c2, x, g, c1, root)
	wantIDs(t, "Entities() after the cascade", f.w.Entities(), keep)
	if owns.Len() != 0 || f.child.Len() != 0 {
		t.Fatalf("pairs left: owns %d child %d", owns.Len(), f.child.Len())
	}
}

// TestRelationRefuseDespawn: a guarded target refuses unless its sources die
// with it, and a refused cascade changes nothing.
func TestRelationRefuseDespawn(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(5)
	root, kid, other, self, out := es[0], es[1], es[2], es[3], es[4]
	f.child.Add(kid, root)
	f.guard.Add(kid, root) // its source dies with it: allowed
	f.guard.Add(self, self)
	f.guard.Add(root, other)
	if err := f.w.CheckDespawn(other); err == nil {
		t.Fatal("CheckDespawn accepts a guarded target")
	}
	testhelp.MustPanic(t, func() { f.w.Despawn(other) }, "RefuseDespawn")
	if !f.w.Alive(other) || !f.guard.Has(root, other) {
		t.Fatal("a refused despawn changed the world")
	}
	// The guard's source is inside the cascade of root: the whole tree goes.
	if err := f.w.CheckDespawn(root); err != nil {
		t.Fatalf("CheckDespawn(root): %v", err)
	}
	f.w.Despawn(root)
	if f.w.Alive(kid) || f.w.Alive(root) || f.guard.Len() != 1 {
		t.Fatalf("after Despawn(root): kid %v root %v, %d guard pairs", f.w.Alive(kid), f.w.Alive(root), f.guard.Len())
	}
	f.w.Despawn(self) // guards itself
	// A guard below a cascading target, with its source outside: the
	// whole cascade is refused, the outer target included.
	f.child.Add(other, out)
	f.likes.Add(out, other)
	g := f.w.Spawn()
	f.guard.Add(g, other)
	testhelp.MustPanic(t, func() { f.w.Despawn(out) }, "RefuseDespawn")
	if !f.w.Alive(out) || !f.w.Alive(other) || !f.likes.Has(out, other) {
		t.Fatal("a refused cascade changed the world")
	}
}

// TestRelationDespawnMatchingBatch: a batch that takes a guard and its target
// despawns both, in either order.
func TestRelationDespawnMatchingBatch(t *testing.T) {
	for _, targetFirst := range []bool{false, true} {
		f := newRelFixture()
		es := f.spawn(2)
		src, dst := es[0], es[1]
		if targetFirst {
			src, dst = dst, src
		}
		f.guard.Add(src, dst)
		f.w.DespawnMatching(&refmodel.Query{Terms: []refmodel.Kind{f.tag.Kind()}})
		if f.w.Len() != 0 {
			t.Fatalf("targetFirst %v: %d left after DespawnMatching of a guard and its target", targetFirst, f.w.Len())
		}
	}
}

// TestRelationDeferred: changes inside an iteration wait, apply in order,
// and are dropped when one of their entities died first.
func TestRelationDeferred(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(5)
	a, b, c, d, e := es[0], es[1], es[2], es[3], es[4]
	f.likes.Set(a, b, 1)
	f.likes.Set(a, c, 2)
	f.child.Add(e, d)
	f.iterate(func() {
		f.likes.Remove(a, b)
		f.likes.Set(a, b, 3) // removed then added: goes last
		f.likes.Set(c, d, 4)
		f.child.Set(e, c, struct{}{}) // reparented before its old parent dies
		f.w.Despawn(d)                // alone, and the pair (c, d) with it
		f.likes.Set(b, d, 5)          // d is dead by then: dropped
		f.w.Despawn(c)                // takes e along
		f.child.Set(a, c, struct{}{}) // dropped
		if f.w.Pending() != 8 || !f.w.Alive(d) {
			t.Fatalf("inside the iteration: %d pending, d alive %v", f.w.Pending(), f.w.Alive(d))
		}
		wantIDs(t, "Targets(a) inside the iteration", f.likes.Targets(a), b, c)
	})
	wantIDs(t, "Targets(a)", f.likes.Targets(a), b)
	if v, _ := f.likes.Value(a, b); v != 3 {
		t.Fatalf("Value(a, b) = %d, want 3", v)
	}
	if f.w.Alive(c) || f.w.Alive(d) || f.w.Alive(e) || f.w.Len() != 2 {
		t.Fatalf("alive after the iteration: c %v d %v e %v", f.w.Alive(c), f.w.Alive(d), f.w.Alive(e))
	}
	if f.likes.Len() != 1 || f.child.Len() != 0 {
		t.Fatalf("pairs left: likes %d child %d", f.likes.Len(), f.child.Len())
	}
	// A change deferred after a Despawn of one of its entities is dropped.
	x, y := f.w.Spawn(), f.w.Spawn()
	f.iterate(func() {
		f.w.Despawn(x)
		f.likes.Add(y, x)
		f.likes.RemoveTargets(y)
		f.likes.Add(y, a)
	})
	wantIDs(t, "Targets(y)", f.likes.Targets(y), a)
}

// TestRelationDeferredRefusalAndRecover: each change refused when applied
// panics, and Recover applies the ones after it.
func TestRelationDeferredRefusalAndRecover(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(5)
	a, b, c, d, g := es[0], es[1], es[2], es[3], es[4]
	f.guard.Add(g, d)
	f.w.BeginIteration()
	f.child.Set(a, b, struct{}{})
	f.child.Set(b, a, struct{}{}) // a cycle once the first is applied
	f.w.Despawn(c)
	f.w.Despawn(d) // refused: g guards d
	f.guard.Add(g, c)
	f.guard.Add(g, a) // g has c by then... but c is dead: g has d
	f.w.Despawn(b)
	testhelp.MustPanic(t, f.w.EndIteration, "cycle")
	if !f.w.Alive(c) || f.child.Has(b, a) {
		t.Fatalf("after the refused change: c alive %v (the changes after it must wait), b's parent is a %v", f.w.Alive(c), f.child.Has(b, a))
	}
	testhelp.MustPanic(t, f.w.Recover, "RefuseDespawn")
	if f.w.Alive(c) || !f.w.Alive(d) {
		t.Fatalf("after the first Recover: c alive %v, d alive %v", f.w.Alive(c), f.w.Alive(d))
	}
	testhelp.MustPanic(t, f.w.Recover, "already has the target")
	f.w.Recover()
	if f.w.Pending() != 0 || f.w.Alive(b) || f.w.Alive(a) {
		t.Fatalf("after the last Recover: %d pending, a alive %v, b alive %v", f.w.Pending(), f.w.Alive(a), f.w.Alive(b))
	}
	f.w.Recover() // nothing waits: nothing happens
	testhelp.MustPanic(t, func() { f.iterate(f.w.Recover) }, "inside an iteration")
}

// TestRelationHooksDuringCascade: the hooks of a cascade see the pairs as
// they are, and what they change waits for the whole cascade.
func TestRelationHooksDuringCascade(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(4)
	root, mid, leaf, keep := es[0], es[1], es[2], es[3]
	f.child.Add(mid, root)
	f.child.Add(leaf, mid)
	var corpses []refmodel.EntityID
	var pending []int
	f.tag.OnRemove(func(e refmodel.EntityID, _ int) {
		pending = append(pending, f.w.Pending())
		p, ok := f.child.Target(e)
		if !ok {
			return
		}
		if !f.w.Alive(p) {
			t.Errorf("%d's parent %d is dead when its hook runs", e, p)
		}
		c := f.w.Spawn() // a corpse left under the dying parent
		corpses = append(corpses, c)
		f.child.Set(c, p, struct{}{}) // deferred: p is dead by then
		f.likes.Set(keep, p, 1)       // dropped too
		f.likes.Set(keep, c, 2)       // kept
	})
	f.w.Despawn(root)
	// The changes of each hook wait for the end of the cascade, not of
	// the despawn of its own entity.
	if want := []int{0, 3, 6}; !slices.Equal(pending, want) {
		t.Fatalf("changes pending as the hooks of leaf, mid and root start: %v, want %v", pending, want)
	}
	if len(corpses) != 2 {
		t.Fatalf("%d hooks with a parent ran, want 2", len(corpses))
	}
	for _, c := range corpses {
		if !f.w.Alive(c) {
			t.Fatalf("corpse %d died with the tree", c)
		}
		if _, ok := f.child.Target(c); ok {
			t.Fatalf("corpse %d got a dead parent", c)
		}
	}
	wantIDs(t, "Targets(keep)", f.likes.Targets(keep), corpses...)
}

// TestRelationSnapshotRestore: a restore gives the pairs back, empties a
// relation declared since, and shares nothing with the snapshot.
func TestRelationSnapshotRestore(t *testing.T) {
	f := newRelFixture()
	es := f.spawn(3)
	a, b, c := es[0], es[1], es[2]
	f.likes.Set(a, b, 1)
	f.likes.Set(c, b, 2)
	f.child.Add(b, a)
	s := f.w.Snapshot()
	late := refmodel.NewRelation[int](f.w, "late", refmodel.RelationOptions{})
	late.Add(a, b)
	f.likes.Set(a, b, 9)
	f.likes.Remove(c, b)
	f.w.Despawn(a) // takes b along
	f.w.Restore(s)
	wantIDs(t, "Sources(b) after Restore", f.likes.Sources(b), a, c)
	if v, _ := f.likes.Value(a, b); v != 1 || !f.child.Has(b, a) || late.Len() != 0 {
		t.Fatalf("after Restore: value %d, b's parent a %v, %d late pairs", v, f.child.Has(b, a), late.Len())
	}
	f.likes.Set(a, b, 5) // the restored pairs are the world's own copy
	f.w.Restore(s)
	if v, _ := f.likes.Value(a, b); v != 1 {
		t.Fatalf("a second Restore gives value %d, want 1", v)
	}
}
