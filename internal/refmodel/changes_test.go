package refmodel

import (
	"slices"
	"testing"
)

func TestChangeLog(t *testing.T) {
	w := NewWorld()
	s := NewStore[int](w, "int")
	a, b, c := w.Spawn(), w.Spawn(), w.Spawn()
	s.Add(a, 1)
	s.Add(b, 2)
	changed, added := w.NewChangeWatch(), w.NewChangeWatch()
	want := func(what string, got []EntityID, ids ...EntityID) {
		t.Helper()
		if !slices.Equal(got, ids) {
			t.Fatalf("%s: got %v, want %v", what, got, ids)
		}
	}
	want("first Changed", s.Changed(changed), a, b)
	want("first Added", s.Added(added), a, b)
	want("second Changed", s.Changed(changed))
	s.Set(b, 3)
	s.Update(a, func(v *int) { *v = 9 }) // a write through a pointer: not seen
	want("Changed after Set and Update", s.Changed(changed), b)
	want("Added after Set", s.Added(added))
	if s.MarkChanged(c) {
		t.Fatal("MarkChanged of an entity without the component reported true")
	}
	if !s.MarkChanged(a) {
		t.Fatal("MarkChanged of a present value reported false")
	}
	want("Changed after MarkChanged", s.Changed(changed), a)
	snap := w.Snapshot()
	s.Remove(a)
	s.Add(a, 4)
	s.Add(c, 5)
	want("Added after remove and add", s.Added(added), a, c)
	w.Despawn(c)
	want("Changed after a despawn", s.Changed(changed), a)
	late := w.NewChangeWatch()
	w.Restore(snap)
	// The watches had seen a and b at the snapshot; one made since has
	// seen nothing, and a restore is no change.
	want("Added after Restore", s.Added(added))
	want("Changed after Restore", s.Changed(changed))
	want("Changed of a watch made after the snapshot", s.Changed(late), a, b)
	var loose ChangeWatch // of no world: no Restore rewinds it
	want("first Changed of a loose watch", s.Changed(&loose), a, b)
	w.Restore(snap)
	want("Changed of a loose watch after Restore", s.Changed(&loose))
	s.Set(a, 5)
	want("Changed after Restore and Set", s.Changed(changed), a)
	d := w.CopyEntity(b)
	want("Added after CopyEntity", s.Added(added), d)
	// Deferred: applied when the iteration ends.
	q := &Query{Terms: []Kind{s.Kind()}}
	w.Each(q, func(e EntityID) bool {
		s.Set(e, 7)
		return true
	})
	want("Changed after Sets in a loop", s.Changed(changed), a, b, d)
}
