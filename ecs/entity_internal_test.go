package ecs

import (
	"math"
	"testing"
)

func TestGenerationWrapAroundRetiresIndex(t *testing.T) {
	w := NewWorld()
	e := w.Spawn()
	// Age the slot to the last generation a handle can carry.
	w.Despawn(e)
	r := w.entities.at(e.index)
	r.gen = math.MaxUint32 - 1
	e1 := w.Spawn()
	if e1.index != e.index || e1.gen != math.MaxUint32-1 {
		t.Fatalf("recycled %v, want index %d generation %d", e1, e.index, uint32(math.MaxUint32-1))
	}
	w.Despawn(e1)
	e2 := w.Spawn()
	if e2.index != e.index || e2.gen != math.MaxUint32 {
		t.Fatalf("recycled %v, want generation MaxUint32", e2)
	}
	w.Despawn(e2)
	// Bumping again would wrap to generation 0, which a handle once had:
	// the index must be retired, not recycled.
	e3 := w.Spawn()
	if e3.index == e.index {
		t.Fatalf("index %d recycled after its generation wrapped: %v", e.index, e3)
	}
	for _, old := range []Entity{e, e1, e2, {e.index, 0}} {
		if w.Alive(old) {
			t.Errorf("stale handle %v is alive", old)
		}
	}
	if w.Len() != 1 {
		t.Errorf("Len = %d, want 1", w.Len())
	}
}

func TestEntityIndexIsPaged(t *testing.T) {
	w := NewWorld()
	first := w.Spawn()
	rec := w.entities.at(first.index)
	for range 3 * recordPageSize {
		w.Spawn()
	}
	if got := len(w.entities.pages); got != 4 {
		t.Errorf("pages = %d, want 4 for %d entities", got, 3*recordPageSize+1)
	}
	if w.entities.at(first.index) != rec {
		t.Error("growing the index moved an existing record")
	}
}

func TestReserveAvoidsGrowth(t *testing.T) {
	w := NewWorld()
	w.Reserve(20_000)
	pages := len(w.entities.pages)
	// AllocsPerRun calls f twice: 18,000 spawns in all.
	allocs := testing.AllocsPerRun(1, func() {
		for range 9_000 {
			w.Spawn()
		}
	})
	if len(w.entities.pages) != pages {
		t.Errorf("entity index grew from %d to %d pages despite Reserve", pages, len(w.entities.pages))
	}
	// The empty table's entity column still grows; the index itself must not.
	// (The index reserve is what is under test; tables grow by doubling.)
	if allocs > 40 {
		t.Errorf("%v allocations for 9000 spawns after Reserve", allocs)
	}
}
