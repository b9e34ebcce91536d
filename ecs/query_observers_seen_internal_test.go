package ecs

import "testing"

type seenProbe struct{ N int }

// TestSettleFilterShrinksAfterABigRound checks that settle's duplicate
// filter is made anew after a round far larger than the next ones: a Go
// map's clear costs in proportion to the most entries it ever held, so
// keeping the map of a 20,000-entity batch would make every later settle
// of a few entities pay for 20,000. The observers still see every entity.
func TestSettleFilterShrinksAfterABigRound(t *testing.T) {
	w := NewWorld()
	m := NewMap[seenProbe](w)
	q := NewQuery1[seenProbe](w)
	entered := 0
	q.OnEnter(func(Entity) { entered++ })
	m.SpawnBatch(20_000, seenProbe{})
	if entered != 20_000 {
		t.Fatalf("%d enter calls for a batch of 20,000", entered)
	}
	for i := range 5 {
		m.Spawn(seenProbe{i})
	}
	if entered != 20_005 {
		t.Fatalf("%d enter calls after 5 more spawns, want 20,005", entered)
	}
	if w.seenPeak > 1000 {
		t.Fatalf("after rounds of one entity the filter is sized for %d entries", w.seenPeak)
	}
}
