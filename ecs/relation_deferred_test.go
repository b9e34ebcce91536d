package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// A relation change refused when it is applied (here a cycle of an
// acyclic relation) panics at the end of the loop, from the flush; the
// changes queued after it are not stranded: after Recover none is pending
// and the despawn queued after the refused change has been applied.
func TestRefusedDeferredRelationChangeStrandsNoQueue(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	tags := ecs.NewMap[rfTag](w)
	a, b, c := tags.Spawn(rfTag{1}), tags.Spawn(rfTag{2}), tags.Spawn(rfTag{3})
	q := ecs.NewQuery1[rfTag](w)
	msg := panicOf(func() {
		for range q.All() {
			h.SetParent(a, b)
			h.SetParent(b, a) // closes a cycle once the first is applied
			w.Despawn(c)
			break
		}
	})
	if !strings.Contains(msg, "cycle") {
		t.Fatalf("panic %q, want the cycle refusal", msg)
	}
	w.Recover()
	if w.IsIterating() {
		t.Fatal("still iterating after Recover")
	}
	if n := w.Pending(); n != 0 || w.Alive(c) {
		t.Fatalf("after the refused deferred SetParent and Recover: Pending() = %d, Despawn(c) applied: %v (want 0 and true)", n, !w.Alive(c))
	}
}

// The same with an exclusive Add that finds a target there when applied,
// and with a deferred despawn refused by RefuseDespawn: the refusal comes
// from the flush, and the despawn queued after it is applied by Recover.
func TestDeferredRefusalsStrandNoQueue(t *testing.T) {
	for _, tc := range []string{"exclusive Add", "RefuseDespawn"} {
		t.Run(tc, func(t *testing.T) {
			w := ecs.NewWorld()
			follows := ecs.NewRelation[rfFollows](w)
			guard := ecs.NewRelation[rfGuard](w, ecs.OnTargetDespawn(ecs.RefuseDespawn))
			tags := ecs.NewMap[rfTag](w)
			a, b, c, d := tags.Spawn(rfTag{1}), tags.Spawn(rfTag{2}), tags.Spawn(rfTag{3}), tags.Spawn(rfTag{4})
			guard.Add(a, b)
			msg := panicOf(func() {
				for range ecs.NewQuery1[rfTag](w).All() {
					if tc == "exclusive Add" {
						follows.Add(a, b)
						follows.Add(a, c) // a has b by then
					} else {
						w.Despawn(b) // a guards b
					}
					w.Despawn(d)
					break
				}
			})
			if msg == "" {
				t.Fatal("no panic")
			}
			w.Recover()
			if n := w.Pending(); n != 0 || w.Alive(d) {
				t.Fatalf("panic %q; after Recover: Pending() = %d, d alive %v (want 0, false)", msg, n, w.Alive(d))
			}
		})
	}
}

// Recover after a panic inside a loop that queued relation changes and a
// cascading despawn: everything queued is applied, in order.
func TestRecoverAppliesDeferredRelationChangesInOrder(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	link := ecs.NewRelation[rfLink](w, ecs.Multi())
	tags := ecs.NewMap[rfTag](w)
	var es []ecs.Entity
	for i := range 6 {
		es = append(es, tags.Spawn(rfTag{i}))
	}
	h.SetParent(es[1], es[0])
	h.SetParent(es[2], es[1])
	msg := panicOf(func() {
		for range ecs.NewQuery1[rfTag](w).All() {
			h.SetParent(es[3], es[2])         // joins the doomed tree
			link.Set(es[4], es[3], rfLink{7}) // dropped with es[3]
			link.Set(es[4], es[5], rfLink{8})
			w.Despawn(es[0])          // cascades es[1], es[2] and es[3]
			h.SetParent(es[5], es[2]) // es[2] is dead by then: dropped
			panic("boom")
		}
	})
	if msg != "boom" {
		t.Fatalf("panic %q", msg)
	}
	w.Recover()
	if w.Pending() != 0 || w.IsIterating() {
		t.Fatalf("Pending %d iterating %v", w.Pending(), w.IsIterating())
	}
	for i, want := range []bool{false, false, false, false, true, true} {
		if w.Alive(es[i]) != want {
			t.Fatalf("es[%d] alive %v, want %v", i, w.Alive(es[i]), want)
		}
	}
	if got := link.Targets(es[4]); !slices.Equal(got, []ecs.Entity{es[5]}) || link.Value(es[4], es[5]).W != 8 {
		t.Fatalf("es[4] targets %v", got)
	}
	if _, ok := h.Parent(es[5]); ok {
		t.Fatal("es[5] got a dead parent")
	}
	rfCheckPairs(t, w, link, es)
	rfCheckPairs(t, w, h.Relation(), es)
}

// An OnRemove hook that panics inside a deferred cascade: Recover
// completes the despawn that was interrupted, cascade included.
func TestRecoverCompletesACascadeAHookInterrupted(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	as := ecs.NewMap[rfNodeA](w)
	root, a, b, c := as.Spawn(rfNodeA{0}), as.Spawn(rfNodeA{1}), as.Spawn(rfNodeA{2}), as.Spawn(rfNodeA{3})
	h.SetParent(a, root)
	h.SetParent(b, root)
	h.SetParent(c, a)
	ecs.OnRemove(w, func(e ecs.Entity, v *rfNodeA) {
		if v.N == 3 {
			panic("hook")
		}
	})
	msg := panicOf(func() {
		for range ecs.NewQuery1[rfNodeA](w).All() {
			w.Despawn(root)
			break
		}
	})
	if msg != "hook" {
		t.Fatalf("panic %q", msg)
	}
	w.Recover()
	if w.Len() != 0 {
		t.Fatalf("%d entities left after Recover", w.Len())
	}
}
