package refmodel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/internal/refmodel"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// bag holds a slice and copies it deeply.
type bag struct{ Items []int }

func (b bag) Clone() bag { return bag{slices.Clone(b.Items)} }

// shared holds a slice and has no Clone: snapshots copy it by assignment.
type shared struct{ Items []int }

func TestSnapshotRestore(t *testing.T) {
	f := newFixture()
	a, b, c := f.w.Spawn(), f.w.Spawn(), f.w.Spawn()
	f.pos.Add(a, pos{1, 1})
	f.pos.Add(b, pos{2, 2})
	f.name.Add(b, "b")
	f.tag.Add(c, struct{}{})
	f.w.Despawn(c) // dead at the snapshot: stays dead
	snap := f.w.Snapshot()

	f.w.Despawn(b)
	d := f.w.Spawn()
	f.pos.Set(a, pos{9, 9})
	f.vel.Add(a, vel{3, 3})
	f.name.Add(d, "d")
	f.pos.Update(a, func(p *pos) { p.X = 7 })
	for round := range 2 { // a snapshot restores any number of times
		f.w.Restore(snap)
		if got := f.w.Entities(); !slices.Equal(got, ids(a, b)) {
			t.Fatalf("round %d: entities %v, want %v", round, got, ids(a, b))
		}
		if v, _ := f.pos.Get(a); v != (pos{1, 1}) || f.vel.Has(a) {
			t.Fatalf("round %d: a has pos %v, vel %v; want {1 1} and no vel", round, v, f.vel.Has(a))
		}
		if v, ok := f.name.Get(b); !ok || v != "b" || f.name.Len() != 1 || f.tag.Len() != 0 {
			t.Fatalf("round %d: b's name %q %v, %d names, %d tags", round, v, ok, f.name.Len(), f.tag.Len())
		}
		// The id counter is back: the next spawn is d again, with nothing.
		if e := f.w.Spawn(); e != d || f.name.Has(d) {
			t.Fatalf("round %d: spawn after restore gave %d (name %v), want %d without name", round, e, f.name.Has(e), d)
		}
		f.pos.Set(a, pos{5, 5}) // changes after a restore leave the snapshot alone
		f.w.Despawn(a)
	}
	if f.w.Alive(c) {
		t.Fatal("an entity dead at the snapshot is alive")
	}
}

func TestSnapshotCopiesValues(t *testing.T) {
	w := refmodel.NewWorld()
	bags := refmodel.NewStore[bag](w, "bag")
	shareds := refmodel.NewStore[shared](w, "shared")
	e := w.Spawn()
	bags.Add(e, bag{[]int{1, 2}})
	s := []int{1, 2}
	shareds.Add(e, shared{s})
	snap := w.Snapshot()
	bags.Update(e, func(b *bag) { b.Items[0] = 99 }) // in place: the snapshot has a clone
	s[1] = 42                                        // no Clone: the snapshot shares the array
	for round := range 2 {
		w.Restore(snap)
		if v, _ := bags.Get(e); !slices.Equal(v.Items, []int{1, 2}) {
			t.Fatalf("round %d: bag after restore %v, want [1 2]", round, v.Items)
		}
		if v, _ := shareds.Get(e); !slices.Equal(v.Items, []int{1, 42}) {
			t.Fatalf("round %d: shared after restore %v, want the shared [1 42]", round, v.Items)
		}
		bags.Update(e, func(b *bag) { b.Items[1] = 77 }) // the restored value is the world's own
	}
}

// TestSnapshotFiresNothing: a restore fires no hook or observer and puts
// observer membership back, so the next change fires what it would have
// fired at the snapshot; stores and observers made since are emptied and
// start from the restored state.
func TestSnapshotFiresNothing(t *testing.T) {
	f := newFixture()
	var log []string
	rec := func(what string) func(refmodel.EntityID) {
		return func(e refmodel.EntityID) { log = append(log, fmt.Sprintf("%s %d", what, e)) }
	}
	recV := func(what string) func(refmodel.EntityID, vel) {
		return func(e refmodel.EntityID, _ vel) { log = append(log, fmt.Sprintf("%s %d", what, e)) }
	}
	f.vel.OnAdd(recV("add"))
	f.vel.OnSet(recV("set"))
	f.vel.OnRemove(recV("remove"))
	moving := &refmodel.Query{Terms: []refmodel.Kind{f.pos.Kind(), f.vel.Kind()}}
	f.w.OnEnter(moving, rec("enter"))
	f.w.OnLeave(moving, rec("leave"))
	a, b := f.w.Spawn(), f.w.Spawn()
	f.pos.Add(a, pos{})
	f.pos.Add(b, pos{})
	f.vel.Add(b, vel{})
	f.name.Add(a, "a")
	snap := f.w.Snapshot()

	f.vel.Add(a, vel{})
	f.vel.Remove(b)
	late := refmodel.NewStore[int](f.w, "late")
	late.Add(a, 1)
	named := &refmodel.Query{Terms: []refmodel.Kind{f.name.Kind()}}
	f.name.Remove(a)
	f.w.OnEnter(named, rec("named")) // registered after the snapshot, with no members
	f.w.OnLeave(named, rec("unnamed"))
	log = nil
	f.w.Restore(snap)
	if len(log) != 0 {
		t.Fatalf("Restore fired %q", log)
	}
	if late.Len() != 0 {
		t.Fatalf("a store made after the snapshot keeps %d values", late.Len())
	}
	f.vel.Add(a, vel{}) // a was no member then: enters again
	f.vel.Remove(b)     // b was: leaves again
	f.name.Remove(a)    // the late observer's members are the restored matches
	f.name.Add(b, "b")
	want := []string{fmt.Sprint("add ", a), fmt.Sprint("enter ", a), fmt.Sprint("remove ", b), fmt.Sprint("leave ", b),
		fmt.Sprint("unnamed ", a), fmt.Sprint("named ", b)}
	if !slices.Equal(log, want) {
		t.Fatalf("after restore the changes fired %q, want %q", log, want)
	}
}

func TestSnapshotPanics(t *testing.T) {
	f := newFixture()
	e := f.w.Spawn()
	f.pos.Add(e, pos{})
	snap := f.w.Snapshot()
	q := &refmodel.Query{Terms: []refmodel.Kind{f.pos.Kind()}}
	f.w.Each(q, func(refmodel.EntityID) bool {
		testhelp.MustPanic(t, func() { f.w.Snapshot() }, "Snapshot", "inside an iteration")
		testhelp.MustPanic(t, func() { f.w.Restore(snap) }, "Restore", "inside an iteration")
		return true
	})
	f.vel.OnAdd(func(refmodel.EntityID, vel) {
		testhelp.MustPanic(t, func() { f.w.Restore(snap) }, "inside an iteration, a hook")
	})
	f.vel.Add(e, vel{})
	f.w.Batch(func() {
		testhelp.MustPanic(t, func() { f.w.Snapshot() }, "inside a Batch")
	})
	testhelp.MustPanic(t, func() { f.w.Restore(nil) }, "nil snapshot")
	testhelp.MustPanic(t, func() { newFixture().w.Restore(snap) }, "another world")
	// None of the refused calls changed anything: vel is still there.
	if !f.vel.Has(e) || f.w.IsIterating() {
		t.Fatalf("after the refused calls: vel %v, iterating %v", f.vel.Has(e), f.w.IsIterating())
	}
}
