package ecs_test

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// An iter.Seq may be ranged over more than once: Ancestors and
// Descendants yield the same entities each time.
func TestHierarchyWalksCanBeRangedTwice(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	root, a, b := w.Spawn(), w.Spawn(), w.Spawn()
	h.SetParent(a, root)
	h.SetParent(b, a)
	seq := h.Ancestors(b)
	first := slices.Collect(seq)
	second := slices.Collect(seq)
	if !slices.Equal(first, []ecs.Entity{a, root}) || !slices.Equal(second, first) {
		t.Fatalf("Ancestors(b) ranged twice: %v then %v, want [%v %v] both times", first, second, a, root)
	}
	desc := h.Descendants(root)
	if d1, d2 := slices.Collect(desc), slices.Collect(desc); !slices.Equal(d1, d2) {
		t.Fatalf("Descendants ranged twice: %v then %v", d1, d2)
	}
}
