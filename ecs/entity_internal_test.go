package ecs

import (
	"fmt"
	"testing"
)

func TestGenerationWrapAroundRetiresIndex(t *testing.T) {
	w := NewWorld()
	e := w.Spawn()
	tag := e.gen &^ genMask
	// Age the slot to the last generation a handle can carry, keeping the
	// world's tag.
	w.Despawn(e)
	r := w.entities.at(e.index)
	r.gen = tag | (genMask - 1)
	e1 := w.Spawn()
	if e1.index != e.index || e1.Generation() != genMask-1 || e1.gen&^genMask != tag {
		t.Fatalf("recycled %v (word %#x), want index %d generation %d tag %#x", e1, e1.gen, e.index, genMask-1, tag)
	}
	w.Despawn(e1)
	e2 := w.Spawn()
	if e2.index != e.index || e2.Generation() != genMask || e2.gen&^genMask != tag {
		t.Fatalf("recycled %v (word %#x), want generation %d tag %#x", e2, e2.gen, genMask, tag)
	}
	if e2.String() != fmt.Sprintf("%dv16777215", e.index) {
		t.Errorf("String = %q, want the 24-bit generation alone", e2.String())
	}
	w.Despawn(e2)
	// Bumping again would carry into the tag and wrap the generation to 0,
	// which a handle once had: the index must be retired, not recycled.
	e3 := w.Spawn()
	if e3.index == e.index {
		t.Fatalf("index %d recycled after its generation wrapped: %v", e.index, e3)
	}
	if r := w.entities.at(e.index); r.gen != tag|genMask {
		t.Errorf("retired record word %#x, want %#x", r.gen, tag|genMask)
	}
	for _, old := range []Entity{e, e1, e2, {e.index, tag}, {e.index, tag + genMask + 1}} {
		if w.Alive(old) {
			t.Errorf("stale handle %v is alive", old)
		}
	}
	if w.Len() != 1 {
		t.Errorf("Len = %d, want 1", w.Len())
	}
	if len(w.entities.free) != 0 {
		t.Errorf("free list %v, want the retired index left out", w.entities.free)
	}
}

func TestEntityIndexGrowsByDoubling(t *testing.T) {
	w := NewWorld()
	if got := len(w.entities.recs); got != minRecords {
		t.Fatalf("a new world's index has %d records, want %d", got, minRecords)
	}
	first := w.Spawn()
	gone := w.Spawn()
	w.Despawn(gone)
	for range 1000 {
		w.Spawn()
	}
	x := &w.entities
	if len(x.recs) != 1024 || x.mask != 1023 {
		t.Errorf("%d records, mask %d: want 1024 and 1023 for %d indices", len(x.recs), x.mask, x.next)
	}
	for i := x.next; i < uint32(len(x.recs)); i++ {
		if x.recs[i].slot != deadSlot {
			t.Fatalf("record %d, never handed out, is not dead", i)
		}
	}
	if !w.Alive(first) || w.Alive(gone) {
		t.Errorf("after growth: first alive %v (want true), despawned alive %v (want false)", w.Alive(first), w.Alive(gone))
	}
	if x.recs[0].slot != deadSlot {
		t.Error("the reserved index 0 is not dead")
	}
}

func TestReserveAvoidsGrowth(t *testing.T) {
	SkipAllocsUnderRelocate(t)
	w := NewWorld()
	w.Reserve(20_000)
	records := len(w.entities.recs)
	// AllocsPerRun calls f twice: 18,000 spawns in all.
	allocs := testing.AllocsPerRun(1, func() {
		for range 9_000 {
			w.Spawn()
		}
	})
	if len(w.entities.recs) != records {
		t.Errorf("entity index grew from %d to %d records despite Reserve", records, len(w.entities.recs))
	}
	// The empty table's entity column still grows; the index itself must not.
	// (The index reserve is what is under test; tables grow by doubling.)
	if allocs > 40 {
		t.Errorf("%v allocations for 9000 spawns after Reserve", allocs)
	}
}
