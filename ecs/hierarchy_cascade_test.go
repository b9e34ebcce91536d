package ecs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

func TestCascadeParentsFirst(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		w := ecs.NewWorld()
		h := ecs.NewHierarchy(w)
		pos := ecs.NewMap[cpPos](w)
		vel := ecs.NewMap[cpVel](w)
		var es []ecs.Entity
		for i := range 300 {
			var e ecs.Entity
			if rng.IntN(5) == 0 {
				e = vel.Spawn(cpVel{}) // not matched: an ancestor the query skips
			} else {
				e = pos.Spawn(cpPos{X: float64(i)})
			}
			if len(es) > 0 && rng.IntN(4) != 0 {
				h.SetParent(e, es[rng.IntN(len(es))])
			}
			es = append(es, e)
		}
		// Reparent some, so spawn order is not parents-first.
		for range 100 {
			c, p := es[rng.IntN(len(es))], es[rng.IntN(len(es))]
			if c != p && !slices.Contains(slices.Collect(h.Ancestors(p)), c) {
				h.SetParent(c, p)
			}
		}
		q := ecs.NewQuery1[cpPos](w)
		var queryOrder []ecs.Entity
		for r := range q.All() {
			queryOrder = append(queryOrder, r.Entity)
		}
		got := slices.Collect(h.Cascade(q))
		if len(got) != len(queryOrder) {
			t.Fatalf("seed %d: Cascade yielded %d entities, the query matches %d", seed, len(got), len(queryOrder))
		}
		at := map[ecs.Entity]int{}
		for i, e := range got {
			at[e] = i
		}
		for i, e := range got {
			if i > 0 && h.Depth(got[i-1]) > h.Depth(e) {
				t.Fatalf("seed %d: depth %d after depth %d", seed, h.Depth(e), h.Depth(got[i-1]))
			}
			for a := range h.Ancestors(e) {
				if j, ok := at[a]; ok && j > i {
					t.Fatalf("seed %d: %v visited before its ancestor %v", seed, e, a)
				}
			}
		}
		// Within a depth, the query's order.
		for d := 0; d < 300; d++ {
			var want, have []ecs.Entity
			for _, e := range queryOrder {
				if h.Depth(e) == d {
					want = append(want, e)
				}
			}
			for _, e := range got {
				if h.Depth(e) == d {
					have = append(have, e)
				}
			}
			if !slices.Equal(want, have) {
				t.Fatalf("seed %d depth %d: order %v, query order %v", seed, d, have, want)
			}
		}
	}
}

func TestCascadeBodyChanges(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	pos := ecs.NewMap[cpPos](w)
	root := pos.Spawn(cpPos{})
	a, b := pos.Spawn(cpPos{}), pos.Spawn(cpPos{})
	h.SetParent(a, root)
	h.SetParent(b, root)
	q := ecs.NewQuery1[cpPos](w)
	var seen []ecs.Entity
	for e := range h.Cascade(q) {
		seen = append(seen, e)
		if e == root {
			w.Despawn(b)
			pos.Spawn(cpPos{}) // not visited
		}
	}
	if !slices.Equal(seen, []ecs.Entity{root, a}) {
		t.Fatalf("visited %v, want the root and a", seen)
	}
	// Stopping early stops.
	n := 0
	for range h.Cascade(q) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("a break after one yielded %d", n)
	}
	other := ecs.NewQuery1[cpPos](ecs.NewWorld())
	if msg := panicOf(func() { h.Cascade(other) }); msg == "" {
		t.Fatal("a query of another world was accepted")
	}
}
