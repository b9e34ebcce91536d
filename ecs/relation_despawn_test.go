package ecs_test

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// DespawnMatching over a target and its RefuseDespawn source, both
// matched, despawns both without a panic, whichever comes first in
// iteration order.
func TestDespawnMatchingBothEndsOfARefusingPairInAnyOrder(t *testing.T) {
	for _, targetFirst := range []bool{false, true} {
		t.Run(fmt.Sprint("targetFirst=", targetFirst), func(t *testing.T) {
			w := ecs.NewWorld()
			guard := ecs.NewRelation[rfGuard](w, ecs.OnTargetDespawn(ecs.RefuseDespawn))
			tags := ecs.NewMap[rfTag](w)
			var src, dst ecs.Entity
			if targetFirst {
				dst, src = tags.Spawn(rfTag{1}), tags.Spawn(rfTag{2})
			} else {
				src, dst = tags.Spawn(rfTag{1}), tags.Spawn(rfTag{2})
			}
			guard.Add(src, dst)
			if msg := panicOf(func() { w.DespawnMatching(ecs.NewQuery1[rfTag](w)) }); msg != "" {
				t.Fatalf("DespawnMatching of both ends panicked: %q (alive now: %d)", msg, w.Len())
			}
			if w.Len() != 0 {
				t.Fatalf("%d left", w.Len())
			}
		})
	}
}

// DespawnMatching over entities that are in trees, parents before children
// and children before parents, and over a hooked world: everything matched
// goes, each cascade once, and no list names a dead entity.
func TestDespawnMatchingOverTreesCascadesEachOnce(t *testing.T) {
	for _, hooked := range []bool{false, true} {
		for _, deferred := range []bool{false, true} {
			w := ecs.NewWorld()
			h := ecs.NewHierarchy(w)
			link := ecs.NewRelation[rfLink](w, ecs.Multi())
			tags := ecs.NewMap[rfTag](w)
			var removed []int
			if hooked {
				ecs.OnRemove(w, func(e ecs.Entity, v *rfTag) { removed = append(removed, v.N) })
			}
			keep := w.Spawn()
			var es []ecs.Entity
			for i := range 10 {
				es = append(es, tags.Spawn(rfTag{i}))
			}
			for i := 1; i < 10; i++ {
				if i%2 == 1 {
					h.SetParent(es[i], es[(i-1)/2]) // child after parent
				} else {
					h.SetParent(es[(i-1)/2], es[i]) // parent after child, when no cycle
				}
			}
			for i := range es {
				link.Set(keep, es[i], rfLink{i})
				link.Set(es[i], keep, rfLink{i})
			}
			outside := w.Spawn() // not matched, but a child of es[3]
			h.SetParent(outside, es[3])
			if deferred {
				for range ecs.NewQuery1[rfTag](w).All() {
					w.DespawnMatching(ecs.NewQuery1[rfTag](w))
					break
				}
			} else {
				w.DespawnMatching(ecs.NewQuery1[rfTag](w))
			}
			if w.Len() != 1 || !w.Alive(keep) || w.Alive(outside) {
				t.Fatalf("hooked %v deferred %v: %d alive, outside alive %v", hooked, deferred, w.Len(), w.Alive(outside))
			}
			if hooked && len(removed) != 10 {
				t.Fatalf("OnRemove ran %d times: %v", len(removed), removed)
			}
			if len(link.Targets(keep)) != 0 || len(link.Sources(keep)) != 0 {
				t.Fatalf("keep's lists %v %v", link.Targets(keep), link.Sources(keep))
			}
		}
	}
}

// Cycles in relations that are not acyclic (self-pairs too) despawn and
// cascade without looping.
func TestCyclesOfNonAcyclicRelationsDespawnWithoutLooping(t *testing.T) {
	w := ecs.NewWorld()
	follows := ecs.NewRelation[rfFollows](w, ecs.OnTargetDespawn(ecs.DespawnSources))
	link := ecs.NewRelation[rfLink](w, ecs.Multi(), ecs.OnTargetDespawn(ecs.DespawnSources))
	a, b, c, d := w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn()
	follows.Add(a, b)
	follows.Add(b, c)
	follows.Add(c, a)
	link.Add(d, d)
	link.Add(d, a)
	w.Despawn(b)
	if w.Len() != 0 {
		t.Fatalf("%d left", w.Len())
	}
	e := w.Spawn()
	link.Add(e, e)
	w.Despawn(e)
	if w.Len() != 0 {
		t.Fatal("self pair")
	}
}

// One cascading relation that is exclusive and not Acyclic may hold a
// cycle made by the program (no file involved): despawning one of its
// entities takes the whole cycle, without a panic or a loop.
func TestDespawnTakesAWholeCycleOfAnExclusiveCascade(t *testing.T) {
	w := ecs.NewWorld()
	follows := ecs.NewRelation[rfFollows](w, ecs.OnTargetDespawn(ecs.DespawnSources))
	a, b, c := w.Spawn(), w.Spawn(), w.Spawn()
	keep := w.Spawn()
	follows.Add(a, b)
	follows.Add(b, c)
	follows.Add(c, a)
	if msg := panicOf(func() { w.Despawn(b) }); msg != "" {
		t.Fatalf("Despawn(b) of a cycle the relation allows: %s", msg)
	}
	if w.Len() != 1 || !w.Alive(keep) {
		t.Fatalf("%d alive", w.Len())
	}
	self := w.Spawn()
	follows.Add(self, self)
	if msg := panicOf(func() { w.Despawn(self) }); msg != "" || w.Alive(self) {
		t.Fatalf("Despawn of a self-follower: %q", msg)
	}
}
