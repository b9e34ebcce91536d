package ecs_test

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type runLife struct{ Left float32 }
type runMark struct{}

// TestSparseQueryChunksAreRuns checks the chunk forms of a query whose one
// term is a sparse type: they hand out runs of the sparse set's entities,
// not one entity each, in the order of All, at most rows long, broken
// where an entity sits in a table the query excludes, and writes through a
// chunk's slice reach the entities' values.
func TestSparseQueryChunksAreRuns(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[runLife](w, ecs.Sparse())
	life := ecs.NewMap[runLife](w)
	mark := ecs.NewMap[runMark](w)
	var es []ecs.Entity
	for i := range 300 {
		e := life.Spawn(runLife{float32(i)})
		if i%50 == 7 {
			mark.Add(e, runMark{}) // another table, which the query excludes
		}
		es = append(es, e)
	}
	for _, e := range es[100:120] { // holes in the dense array, refilled by swap-and-pop
		life.Remove(e)
	}
	for _, e := range es[110:115] {
		life.Add(e, runLife{-1})
	}
	q := ecs.NewQuery1[runLife](w, ecs.Without(ecs.C[runMark]()))
	var want []ecs.Entity
	for r := range q.All() {
		want = append(want, r.Entity)
	}
	if len(want) != 300-20+5-5 {
		t.Fatalf("All visits %d entities, want %d", len(want), 300-20+5-5)
	}

	var got []ecs.Entity
	longest := 0
	for c := range q.Chunks() {
		if len(c.A) != len(c.Entities) {
			t.Fatalf("chunk of %d entities has %d values", len(c.Entities), len(c.A))
		}
		for i, e := range c.Entities {
			if mark.Has(e) {
				t.Fatalf("chunk holds %v, which the query excludes", e)
			}
			if *life.Get(e) != c.A[i] {
				t.Fatalf("chunk value %v of %v, Get says %v", c.A[i], e, *life.Get(e))
			}
			c.A[i].Left += 1000
		}
		got = append(got, c.Entities...)
		longest = max(longest, len(c.Entities))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Chunks visits %v\nAll visits %v", got, want)
	}
	if longest < 40 {
		t.Fatalf("longest chunk holds %d entities: want runs between the excluded ones (up to 49 long)", longest)
	}
	for _, e := range want {
		if v := life.Get(e).Left; v < 999 {
			t.Fatalf("%v: %v, the chunk's write did not land", e, v)
		}
	}

	for _, rows := range []int{1, 7, 64} {
		var got []ecs.Entity
		for _, c := range q.AppendChunks(nil, rows) {
			if len(c.Entities) > rows || len(c.Entities) == 0 || len(c.A) != len(c.Entities) {
				t.Fatalf("rows %d: a chunk of %d entities and %d values", rows, len(c.Entities), len(c.A))
			}
			got = append(got, c.Entities...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("AppendChunks(rows %d) visits %v\nAll visits %v", rows, got, want)
		}
	}
}
