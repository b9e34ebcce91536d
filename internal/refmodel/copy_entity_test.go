package refmodel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/internal/refmodel"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TestCopyEntityCopiesValues: the clone has a copy of every component of e
// and nothing else; values with a Clone method share no memory with e's.
func TestCopyEntityCopiesValues(t *testing.T) {
	f := newFixture()
	bags := refmodel.NewStore[bag](f.w, "bag")
	other := f.w.Spawn()
	f.vel.Add(other, vel{9, 9}) // a kind e lacks
	e := f.w.Spawn()
	f.pos.Add(e, pos{1, 2})
	f.name.Add(e, "ship")
	f.tag.Add(e, struct{}{})
	bags.Add(e, bag{[]int{1, 2}})

	c := f.w.CopyEntity(e)
	if c == e || c == other || !f.w.Alive(c) || f.w.Len() != 3 {
		t.Fatalf("clone %d of %d: alive %v, %d entities", c, e, f.w.Alive(c), f.w.Len())
	}
	if p, _ := f.pos.Get(c); p != (pos{1, 2}) {
		t.Fatalf("clone's pos %v", p)
	}
	if n, _ := f.name.Get(c); n != "ship" || !f.tag.Has(c) || f.vel.Has(c) {
		t.Fatalf("clone's name %q, tag %v, vel %v", n, f.tag.Has(c), f.vel.Has(c))
	}
	if b, _ := bags.Get(c); !slices.Equal(b.Items, []int{1, 2}) {
		t.Fatalf("clone's bag %v", b.Items)
	}
	bags.Update(c, func(b *bag) { b.Items[0] = 99 })
	f.pos.Set(c, pos{5, 5})
	if b, _ := bags.Get(e); b.Items[0] != 1 {
		t.Fatal("changing the clone's bag changed e's: the value was not cloned")
	}
	if p, _ := f.pos.Get(e); p != (pos{1, 2}) {
		t.Fatalf("e's pos %v after a Set on the clone", p)
	}
	empty := f.w.CopyEntity(f.w.Spawn())
	for k := range refmodel.Kind(f.w.Kinds()) {
		if f.w.HasKind(empty, k) {
			t.Fatalf("the clone of an empty entity has %s", f.w.KindName(k))
		}
	}
	f.w.Despawn(e)
	testhelp.MustPanic(t, func() { f.w.CopyEntity(e) }, "CopyEntity", "not alive")
	testhelp.MustPanic(t, func() { f.w.CopyEntity(0) }, "CopyEntity", "not alive")
}

// TestCopyEntityRelations: the clone gets e's pairs as a source, with the
// same targets in the same order and copies of the values, and none of the
// pairs that have e as their target.
func TestCopyEntityRelations(t *testing.T) {
	f := newRelFixture()
	bags := refmodel.NewRelation[bag](f.w, "bags", refmodel.RelationOptions{Multi: true})
	es := f.spawn(6)
	parent, e, child, a, b, g := es[0], es[1], es[2], es[3], es[4], es[5]
	f.child.Add(e, parent)
	f.child.Add(child, e)
	f.likes.Set(e, b, 2)
	f.likes.Set(e, a, 1)
	f.likes.Set(e, e, 3) // a pair with itself: the clone's pair targets e
	f.likes.Set(a, e, 4) // e as a target: not copied
	f.guard.Set(e, g, 5)
	bags.Set(e, a, bag{[]int{7}})

	c := f.w.CopyEntity(e)
	wantIDs(t, "parent's children", f.child.Sources(parent), e, c)
	wantIDs(t, "clone's children", f.child.Sources(c))
	wantIDs(t, "e's children", f.child.Sources(e), child)
	wantIDs(t, "clone's likes", f.likes.Targets(c), b, a, e)
	wantIDs(t, "e's likes", f.likes.Targets(e), b, a, e)
	wantIDs(t, "a's likers", f.likes.Sources(a), e, c)
	wantIDs(t, "e's likers", f.likes.Sources(e), e, a, c)
	wantIDs(t, "clone's likers", f.likes.Sources(c))
	wantIDs(t, "g's guards", f.guard.Sources(g), e, c)
	for tg, want := range map[refmodel.EntityID]int{a: 1, b: 2, e: 3} {
		if v, ok := f.likes.Value(c, tg); !ok || v != want {
			t.Fatalf("clone's likes value for %d: %d %v, want %d", tg, v, ok, want)
		}
	}
	if v, _ := f.guard.Value(c, g); v != 5 {
		t.Fatalf("clone's guard value %d", v)
	}
	bv, _ := bags.Value(c, a)
	bv.Items[0] = 99
	if v, _ := bags.Value(e, a); v.Items[0] != 7 {
		t.Fatal("the clone's pair value shares memory with e's")
	}
	// The clone's pairs are its own.
	f.likes.Set(c, a, 10)
	f.likes.Remove(c, b)
	if v, _ := f.likes.Value(e, a); v != 1 || !f.likes.Has(e, b) {
		t.Fatalf("changing the clone's pairs changed e's: value %d, has b %v", v, f.likes.Has(e, b))
	}
	// As a sibling, it goes with the parent's cascade, and it guards g too.
	testhelp.MustPanic(t, func() { f.w.Despawn(g) }, "RefuseDespawn")
	f.guard.Remove(e, g)
	testhelp.MustPanic(t, func() { f.w.Despawn(g) }, "RefuseDespawn")
	f.guard.Remove(c, g)
	f.w.Despawn(parent)
	if f.w.Alive(e) || f.w.Alive(c) || f.w.Alive(child) {
		t.Fatalf("the cascade left e %v, clone %v, child %v", f.w.Alive(e), f.w.Alive(c), f.w.Alive(child))
	}
}

// TestCopyEntityHooksAndObservers: OnAdd fires once per component of the
// clone, after everything is copied; an observer sees the clone enter;
// what the hooks change is applied before CopyEntity returns.
func TestCopyEntityHooksAndObservers(t *testing.T) {
	f := newRelFixture()
	name := refmodel.NewStore[string](f.w, "name")
	es := f.spawn(2)
	e, p := es[0], es[1]
	name.Add(e, "n")
	f.child.Add(e, p)
	var log []string
	f.tag.OnAdd(func(x refmodel.EntityID, v int) {
		// The hook sees the whole clone: the later kind and the pairs.
		_, parented := f.child.Target(x)
		log = append(log, fmt.Sprintf("tag %d %d name %v parent %v", x, v, name.Has(x), parented))
		f.likes.Add(x, p) // deferred: hooks run as iterations
	})
	name.OnAdd(func(x refmodel.EntityID, v string) { log = append(log, fmt.Sprintf("name %d %s", x, v)) })
	f.tag.OnSet(func(x refmodel.EntityID, v int) { log = append(log, fmt.Sprintf("set %d", x)) })
	q := &refmodel.Query{Terms: []refmodel.Kind{f.tag.Kind(), name.Kind()}}
	f.w.OnEnter(q, func(x refmodel.EntityID) { log = append(log, fmt.Sprintf("enter %d", x)) })

	c := f.w.CopyEntity(e)
	want := []string{
		fmt.Sprintf("tag %d 0 name true parent true", c),
		fmt.Sprintf("name %d n", c),
		fmt.Sprintf("enter %d", c),
	}
	if !slices.Equal(log, want) {
		t.Fatalf("CopyEntity fired %q, want %q", log, want)
	}
	if !f.likes.Has(c, p) || f.w.Pending() != 0 {
		t.Fatalf("the hook's change: applied %v, %d pending", f.likes.Has(c, p), f.w.Pending())
	}
}

// TestCopyEntityInsideIteration: inside an iteration the clone is alive and
// empty at once; its filling is one deferred change, applied in order with
// the others, copying what e has then, and dropped if e or the clone has
// died by then.
func TestCopyEntityInsideIteration(t *testing.T) {
	f := newRelFixture()
	name := refmodel.NewStore[string](f.w, "name")
	es := f.spawn(5)
	e, gone, p, q, x := es[0], es[1], es[2], es[3], es[4]
	name.Add(e, "old")
	f.child.Add(e, p)
	var added []refmodel.EntityID
	f.tag.OnAdd(func(y refmodel.EntityID, _ int) { added = append(added, y) })
	var removed []refmodel.EntityID
	f.tag.OnRemove(func(y refmodel.EntityID, _ int) { removed = append(removed, y) })

	var c, early, late, doomed refmodel.EntityID
	f.iterate(func() {
		name.Remove(e)                // queued before the clone: the clone lacks name
		f.child.Set(e, q, struct{}{}) // queued before too: the clone's parent is q
		c = f.w.CopyEntity(e)
		f.tag.Update(e, func(v *int) { *v = 40 }) // immediate: the clone copies 40
		f.likes.Set(e, x, 6)                      // queued after: not the clone's
		f.tag.Add(c, 50)                          // legal: the filling counts in no queued state
		if !f.w.Alive(c) || f.tag.Has(c) || f.w.Pending() != 5 {
			t.Fatalf("inside the iteration: clone alive %v, has a tag %v, %d pending", f.w.Alive(c), f.tag.Has(c), f.w.Pending())
		}
		early = f.w.CopyEntity(gone) // filled before the despawn
		f.w.Despawn(gone)
		late = f.w.CopyEntity(gone) // after it: stays empty
		doomed = f.w.CopyEntity(x)
		f.w.Despawn(doomed) // applied after the filling, which fires OnAdd first
	})
	if v, _ := f.tag.Get(c); v != 50 || name.Has(c) {
		t.Fatalf("clone's tag %d (want the later Add's 50), has name %v", v, name.Has(c))
	}
	if tg, _ := f.child.Target(c); tg != q || f.likes.Targets(c) != nil {
		t.Fatalf("clone's parent %d (want %d), likes %v", tg, q, f.likes.Targets(c))
	}
	wantIDs(t, "q's children", f.child.Sources(q), e, c)
	if v, _ := f.tag.Get(early); v != 1 || f.w.Alive(gone) {
		t.Fatalf("clone made before the despawn: tag %d, gone alive %v", v, f.w.Alive(gone))
	}
	if !f.w.Alive(late) || f.w.HasKind(late, f.tag.Kind()) {
		t.Fatalf("clone made after the despawn: alive %v, has a tag %v", f.w.Alive(late), f.w.HasKind(late, f.tag.Kind()))
	}
	if f.w.Alive(doomed) {
		t.Fatal("the despawn of a clone in its iteration was lost")
	}
	wantIDs(t, "OnAdd", added, c, early, doomed)
	wantIDs(t, "OnRemove", removed, gone, doomed)

	// Nested iterations: the filling waits for the outermost end.
	f.w.BeginIteration()
	f.w.BeginIteration()
	n := f.w.CopyEntity(e)
	f.w.EndIteration()
	if f.tag.Has(n) {
		t.Fatal("the end of a nested iteration filled the clone")
	}
	f.w.EndIteration()
	if v, _ := f.tag.Get(n); v != 40 {
		t.Fatalf("the clone made in nested iterations has tag %d, want 40", v)
	}
}

// TestCopyEntityInsideHooks: a hook's CopyEntity is deferred like any change
// it makes; a clone made by the OnRemove hook of its entity's despawn stays
// empty, since the entity is dead when the filling comes.
func TestCopyEntityInsideHooks(t *testing.T) {
	f := newRelFixture()
	name := refmodel.NewStore[string](f.w, "name")
	es := f.spawn(2)
	e, keep := es[0], es[1]
	var clones []refmodel.EntityID
	name.OnRemove(func(y refmodel.EntityID, _ string) {
		c := f.w.CopyEntity(y)
		if f.w.HasKind(c, f.tag.Kind()) {
			t.Error("a CopyEntity inside a hook filled the clone at once")
		}
		clones = append(clones, c)
	})
	name.Add(keep, "keep")
	name.Add(e, "e")
	name.Remove(keep) // the clone, filled after the removal, lacks name
	f.w.Despawn(e)
	if len(clones) != 2 {
		t.Fatalf("%d clones", len(clones))
	}
	if v, ok := f.tag.Get(clones[0]); !ok || v != 1 || name.Has(clones[0]) {
		t.Fatalf("clone of keep: tag %d %v, name %v", v, ok, name.Has(clones[0]))
	}
	if !f.w.Alive(clones[1]) || f.w.HasKind(clones[1], f.tag.Kind()) {
		t.Fatalf("clone of the dying e: alive %v, has a tag %v", f.w.Alive(clones[1]), f.w.HasKind(clones[1], f.tag.Kind()))
	}
}

// TestCopyEntityFillingNeedsAnEmptyClone: when a deferred change is refused,
// the filling of a clone queued after it waits; a top-level change that
// gives the clone a component first makes the filling do nothing.
func TestCopyEntityFillingNeedsAnEmptyClone(t *testing.T) {
	f := newRelFixture()
	name := refmodel.NewStore[string](f.w, "name")
	es := f.spawn(3)
	a, b, e := es[0], es[1], es[2]
	var c refmodel.EntityID
	f.w.BeginIteration()
	f.child.Set(a, b, struct{}{})
	f.child.Set(b, a, struct{}{}) // refused when applied
	c = f.w.CopyEntity(e)
	testhelp.MustPanic(t, f.w.EndIteration, "cycle")
	if f.w.Pending() == 0 || f.tag.Has(c) {
		t.Fatalf("after the refusal: %d pending, clone has a tag %v", f.w.Pending(), f.tag.Has(c))
	}
	name.Add(c, "own") // applied, then the waiting changes are
	if f.w.Pending() != 0 || f.tag.Has(c) {
		t.Fatalf("the filling of a clone that has a component: %d pending, tag %v", f.w.Pending(), f.tag.Has(c))
	}
	if v, _ := name.Get(c); v != "own" {
		t.Fatalf("clone's name %q", v)
	}
}
