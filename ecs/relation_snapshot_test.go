package ecs_test

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// relMany[T] has a Clone method that copies its two slices and calls
// T's Clone when there is one; for a T with a map and no Clone it copies
// the values shallowly, so CanSnapshot accepts a type it would refuse as
// a component and the snapshot shares the map with the world.
func TestReviewSnapshotMultiValueSharesMap(t *testing.T) {
	w := ecs.NewWorld()
	rel := ecs.NewRelation[rvMapVal](w, ecs.Multi())
	a, b := w.Spawn(), w.Spawn()
	rel.Set(a, b, rvMapVal{M: map[string]int{"k": 1}})
	if err := w.CanSnapshot(); err != nil {
		t.Logf("CanSnapshot refuses (fine): %v", err)
		return
	}
	var s ecs.Snapshot
	w.Snapshot(&s)
	rel.Value(a, b).M["k"] = 2
	w.Restore(&s)
	if got := rel.Value(a, b).M["k"]; got != 1 {
		t.Fatalf("after Restore the pair's map holds %d, want 1: the snapshot shared it with the world (CanSnapshot accepted a map without Clone)", got)
	}
}

// relOne[T] has no Clone method: an exclusive relation whose value type
// has a Clone method of its own is refused by Snapshot (with a message
// telling the user to Register an unexported type), while the same type
// in a Multi relation is accepted.
func TestReviewSnapshotExclusiveClonerRefused(t *testing.T) {
	w := ecs.NewWorld()
	rel := ecs.NewRelation[rvNames](w)
	a, b := w.Spawn(), w.Spawn()
	rel.Set(a, b, rvNames{Names: []string{"x"}})
	if err := w.CanSnapshot(); err != nil {
		t.Fatalf("CanSnapshot refuses an exclusive relation whose value type has Clone: %v", err)
	}
}

// relOne[T] has no Checksum method: its default hash plan walks T's
// fields and skips the slice, ignoring T's own Checksum method (which
// relMany[T] honours), so two different values give one checksum.
func TestReviewChecksumExclusiveIgnoresChecksummer(t *testing.T) {
	for _, multi := range []bool{true, false} {
		t.Run(fmt.Sprint("multi=", multi), func(t *testing.T) {
			w := ecs.NewWorld()
			var rel *ecs.Relation[rvNames]
			if multi {
				rel = ecs.NewRelation[rvNames](w, ecs.Multi())
			} else {
				rel = ecs.NewRelation[rvNames](w)
			}
			a, b := w.Spawn(), w.Spawn()
			rel.Set(a, b, rvNames{Names: []string{"x"}})
			s1 := w.Checksum()
			rel.Set(a, b, rvNames{Names: []string{"y"}})
			if s2 := w.Checksum(); s1 == s2 {
				t.Fatalf("the checksum did not change with the pair's value (T implements Checksummer)")
			}
		})
	}
}

// A snapshot taken before a relation was declared restores it empty; a
// checksum after restore matches; a relation declared after a Save is
// loaded by a world that declares it first.
func TestReviewRestoreBeforeRelationDeclared(t *testing.T) {
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	sum := w.Checksum()
	var s ecs.Snapshot
	w.Snapshot(&s)
	h := ecs.NewHierarchy(w)
	h.SetParent(b, a)
	c := w.Spawn()
	h.SetParent(c, b)
	w.Restore(&s)
	if _, ok := h.Parent(b); ok || h.NumChildren(a) != 0 || w.Alive(c) {
		t.Fatalf("after restore: b's parent? %v, a's children %d", ok, h.NumChildren(a))
	}
	if w.Checksum() != sum {
		t.Fatal("checksum after restore")
	}
	h.SetParent(b, a)
	w.Despawn(a)
	if w.Alive(b) {
		t.Fatal("no cascade after restore")
	}
}
