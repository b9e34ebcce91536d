package ecs_test

import (
	"runtime"
	"testing"
	"weak"

	"github.com/tessera-ecs/tessera/ecs"
)

// payload is a heap object whose only reference lives in a component.
type payload struct{ data [64]byte }

// Holder is a component that holds a pointer, a slice, a map and a string.
type Holder struct {
	P    *payload
	S    []*payload
	M    map[int]*payload
	Name string
}

// spawnHolders creates entities whose Holder components hold the only
// references to fresh payloads, returning weak pointers to them.
func spawnHolders(w *ecs.World, m *ecs.Map[Holder], n int) ([]ecs.Entity, [][3]weak.Pointer[payload]) {
	es := make([]ecs.Entity, n)
	ws := make([][3]weak.Pointer[payload], n)
	for i := range n {
		p, s, mp := new(payload), new(payload), new(payload)
		p.data[0], s.data[0], mp.data[0] = byte(i), byte(i+1), byte(i+2)
		es[i] = w.Spawn()
		m.Add(es[i], Holder{P: p, S: []*payload{s}, M: map[int]*payload{i: mp}, Name: "h"})
		ws[i] = [3]weak.Pointer[payload]{weak.Make(p), weak.Make(s), weak.Make(mp)}
	}
	return es, ws
}

func TestComponentsKeepHeapObjectsAlive(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap[Holder](w)
	vel := ecs.NewMap[Velocity](w)
	es, ws := spawnHolders(w, m, 200)
	for round := range 5 {
		runtime.GC()
		// Structural changes move rows between tables and grow columns:
		// the references must follow.
		for i, e := range es {
			if (i+round)%3 == 0 {
				vel.Set(e, Velocity{})
			} else {
				vel.Remove(e)
			}
		}
		runtime.GC()
		for i, e := range es {
			h := m.Get(e)
			for k, wp := range ws[i] {
				if wp.Value() == nil {
					t.Fatalf("round %d: payload %d/%d of %v collected while referenced", round, i, k, e)
				}
			}
			if h.P.data[0] != byte(i) || h.S[0].data[0] != byte(i+1) || h.M[i].data[0] != byte(i+2) {
				t.Fatalf("round %d: %v holds corrupted payloads", round, e)
			}
		}
	}
}

func TestRemovedComponentsAreCollected(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap[Holder](w)
	es, ws := spawnHolders(w, m, 300)
	// Remove from a third, despawn a third, keep a third.
	for i, e := range es {
		switch i % 3 {
		case 0:
			m.Remove(e)
		case 1:
			w.Despawn(e)
		}
	}
	collected := func(i int) bool {
		for _, wp := range ws[i] {
			if wp.Value() != nil {
				return false
			}
		}
		return true
	}
	for range 3 {
		runtime.GC()
	}
	for i := range es {
		if gone := collected(i); gone != (i%3 != 2) {
			t.Errorf("payloads of entity %d (case %d): collected=%v", i, i%3, gone)
		}
	}
	runtime.KeepAlive(w)
}

func TestDeferredValuesAreCollectedAfterApply(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap[Holder](w)
	pos := ecs.NewMap[Position](w)
	e := w.Spawn()
	pos.Add(e, Position{})
	q := ecs.NewQuery1[Position](w)
	p := new(payload)
	wp := weak.Make(p)
	for range q.All() {
		m.Add(e, Holder{P: p}) // deferred: the value waits in the command buffer
	}
	p = nil
	w.Despawn(e)
	for range 3 {
		runtime.GC()
	}
	if wp.Value() != nil {
		t.Fatal("a deferred value stays reachable after it was applied and despawned")
	}
	runtime.KeepAlive(w)
}
