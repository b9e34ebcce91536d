package ecs_test

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// A Multi relation whose value type holds a map and has no Clone method:
// either CanSnapshot refuses it, or a snapshot does not share the map
// with the world (a change after Snapshot is undone by Restore).
func TestSnapshotSharesNoMapOfAMultiPairValue(t *testing.T) {
	w := ecs.NewWorld()
	rel := ecs.NewRelation[rfMapVal](w, ecs.Multi())
	a, b := w.Spawn(), w.Spawn()
	rel.Set(a, b, rfMapVal{M: map[string]int{"k": 1}})
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

// An exclusive relation whose value type has a Clone method of its own is
// accepted by CanSnapshot, as the same type in a Multi relation is.
func TestSnapshotAcceptsAnExclusivePairValueWithClone(t *testing.T) {
	w := ecs.NewWorld()
	rel := ecs.NewRelation[rfNames](w)
	a, b := w.Spawn(), w.Spawn()
	rel.Set(a, b, rfNames{Names: []string{"x"}})
	if err := w.CanSnapshot(); err != nil {
		t.Fatalf("CanSnapshot refuses an exclusive relation whose value type has Clone: %v", err)
	}
}

// A pair value type with a Checksum method of its own (and a slice the
// default hash plan skips): the world's checksum changes with the value,
// in exclusive and Multi relations alike.
func TestChecksumCallsThePairValuesChecksumMethod(t *testing.T) {
	for _, multi := range []bool{true, false} {
		t.Run(fmt.Sprint("multi=", multi), func(t *testing.T) {
			w := ecs.NewWorld()
			var rel *ecs.Relation[rfNames]
			if multi {
				rel = ecs.NewRelation[rfNames](w, ecs.Multi())
			} else {
				rel = ecs.NewRelation[rfNames](w)
			}
			a, b := w.Spawn(), w.Spawn()
			rel.Set(a, b, rfNames{Names: []string{"x"}})
			s1 := w.Checksum()
			rel.Set(a, b, rfNames{Names: []string{"y"}})
			if s2 := w.Checksum(); s1 == s2 {
				t.Fatalf("the checksum did not change with the pair's value (T implements Checksummer)")
			}
		})
	}
}

// A snapshot taken before a relation was declared restores it empty; a
// checksum after restore matches; a relation declared after a Save is
// loaded by a world that declares it first.
func TestRestoreEmptiesARelationDeclaredAfterTheSnapshot(t *testing.T) {
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
