package refmodel

import (
	"fmt"
	"slices"
	"testing"
)

func TestHooksAndObservers(t *testing.T) {
	w := NewWorld()
	a := NewStore[int](w, "A")
	b := NewStore[int](w, "B")
	var log []string
	rec := func(what string) func(EntityID, int) {
		return func(e EntityID, v int) { log = append(log, fmt.Sprintf("%s %d %d", what, e, v)) }
	}
	a.OnAdd(rec("add"))
	a.OnSet(rec("set"))
	a.OnRemove(rec("remove"))
	old := w.Spawn()
	a.Add(old, 0) // a member before the observer: fires nothing when it registers
	q := &Query{Terms: []Kind{a.Kind()}, Without: []Kind{b.Kind()}}
	w.OnEnter(q, func(e EntityID) { log = append(log, fmt.Sprintf("enter %d", e)) })
	w.OnLeave(q, func(e EntityID) { log = append(log, fmt.Sprintf("leave %d", e)) })
	check := func(what string, want ...string) {
		t.Helper()
		slices.Sort(log)
		slices.Sort(want)
		if !slices.Equal(log, want) {
			t.Fatalf("%s: %q, want %q", what, log, want)
		}
		log = nil
	}
	check("registration", "add 1 0")
	e := w.Spawn()
	a.Add(e, 1)
	check("Add", "add 2 1", "enter 2")
	a.Set(e, 2)
	check("Set", "set 2 2")
	a.Update(e, func(v *int) { *v = 3 })
	check("Update")
	w.Batch(func() { b.Add(e, 0); b.Remove(e) })
	check("Batch settles once")
	w.BeginIteration()
	a.Remove(e)
	a.Set(e, 4) // a remove of A is deferred: the Set is a deferred add after it
	check("inside an iteration")
	w.EndIteration()
	check("deferred changes", "remove 2 3", "add 2 4") // leaves and enters in one settling
	w.BeginIteration()
	a.Remove(e)
	w.EndIteration()
	check("deferred remove", "remove 2 4", "leave 2")
	w.BeginIteration()
	a.Set(e, 6) // deferred add, then a deferred add that overwrites it
	a.Set(e, 7)
	b.Add(e, 0)
	b.Remove(e)
	w.EndIteration()
	check("deferred adds", "add 2 6", "set 2 7", "enter 2")
	a.AddMatching(&Query{Terms: []Kind{a.Kind()}}, 8)
	check("AddMatching", "set 1 8", "set 2 8")
	w.Despawn(e)
	check("Despawn", "remove 2 8", "leave 2")
	a.RemoveMatching(q)
	check("RemoveMatching", "remove 1 8", "leave 1")
	// Hooks run with the world iterating: their changes wait.
	a.OnAdd(func(e EntityID, _ int) {
		if !w.IsIterating() {
			t.Fatal("hook ran with changes immediate")
		}
		b.Add(e, 9)
	})
	f := w.Spawn()
	a.Add(f, 10)
	check("hook's deferred change", "add 3 10") // enters and leaves within one settling
	if v, ok := b.Get(f); !ok || v != 9 || w.IsIterating() {
		t.Fatalf("hook's add: %v %v, iterating %v", v, ok, w.IsIterating())
	}
}
