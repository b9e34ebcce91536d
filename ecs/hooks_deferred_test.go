package ecs_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Regression tests for hook corner cases of deferred changes: changes made
// by an OnRemove hook to the type being removed, hooks that panic while
// deferred changes apply, Recover called from the wrong place, and OnSet
// hooks on many goroutines of a parallel section.

type (
	shield struct{ N int }
	marker struct{ N int }
)

func TestOnRemoveSetOfTheRemovedTypeLandsAfterTheRemoval(t *testing.T) {
	for _, inLoop := range []bool{false, true} {
		w := ecs.NewWorld()
		sh := ecs.NewMap[shield](w)
		ecs.OnRemove(w, func(e ecs.Entity, v *shield) {
			if v.N == 1 {
				sh.Set(e, shield{2}) // judged as after the removal: a queued add
			}
		})
		e := sh.Spawn(shield{1})
		if inLoop {
			for range ecs.NewQuery1[shield](w).All() {
				sh.Remove(e)
			}
		} else {
			sh.Remove(e)
		}
		if v, ok := sh.TryGet(e); !ok || v.N != 2 {
			t.Fatalf("in a loop %v: after the removal, shield %v, %v; want {2}", inLoop, v, ok)
		}
	}
}

func TestOnRemoveAddOfTheRemovedTypeIsNotADuplicate(t *testing.T) {
	w := ecs.NewWorld()
	sh := ecs.NewMap[shield](w)
	mk := ecs.NewMap[marker](w)
	pair := ecs.NewMap2[shield, marker](w)
	ecs.OnRemove(w, func(e ecs.Entity, v *shield) {
		if v.N == 1 {
			sh.Add(e, shield{3}) // being removed: legal
			mk.Set(e, marker{4}) // removed by the same Map2.Remove: queued after it
		}
	})
	e := pair.Spawn(shield{1}, marker{1})
	pair.Remove(e)
	s, m := pair.Get(e)
	if s.N != 3 || m.N != 4 {
		t.Fatalf("after Map2.Remove: %v %v; want {3} {4}", *s, *m)
	}
}

func TestDespawnWhoseHookPanicsIsCompletedByRecover(t *testing.T) {
	w := ecs.NewWorld()
	sh := ecs.NewMap[shield](w)
	mk := ecs.NewMap[marker](w)
	e := sh.Spawn(shield{1})
	fail := true
	ecs.OnRemove(w, func(ecs.Entity, *shield) {
		if fail {
			fail = false
			panic("hook failed")
		}
	})
	msg := recovered(func() {
		for range ecs.NewQuery1[shield](w).All() {
			w.Despawn(e)
			mk.Set(e, marker{7}) // judged after the despawn: dropped
		}
	})
	if msg != "hook failed" {
		t.Fatalf("panic %q", msg)
	}
	w.Recover()
	if w.Alive(e) || mk.Has(e) || w.Len() != 0 {
		t.Fatalf("after Recover: Alive %v, marker %v, Len %d; want the despawn completed", w.Alive(e), mk.Has(e), w.Len())
	}
	mustStayUsable(t, w)
}

func TestRecoverInsideAHookRefuses(t *testing.T) {
	w := ecs.NewWorld()
	sh := ecs.NewMap[shield](w)
	var msg string
	ecs.OnAdd(w, func(ecs.Entity, *shield) {
		msg = recovered(w.Recover)
	})
	sh.Spawn(shield{})
	if !strings.Contains(msg, "Recover: called inside a hook") {
		t.Fatalf("Recover inside a hook: %q", msg)
	}
	mustStayUsable(t, w)
}

func TestHookPanicLeavesNoFrameHidingTheNote(t *testing.T) {
	w := ecs.NewWorld()
	sh := ecs.NewMap[shield](w)
	mk := ecs.NewMap[marker](w)
	ecs.OnAdd(w, func(ecs.Entity, *shield) { panic("hook failed") })
	recovered(func() { sh.Spawn(shield{}) }) // no Recover: the hook's count stays
	e := w.Spawn()
	mk.Add(e, marker{}) // waits
	msg := recovered(func() { mk.Get(e) })
	if !strings.Contains(msg, "note:") || !strings.Contains(msg, "World.Recover") {
		t.Fatalf("Get after a hook panic without Recover: %q", msg)
	}
	w.Recover()
	if !mk.Has(e) {
		t.Fatal("Recover did not apply the waiting Add")
	}
}

func TestParallelOnSetHooksOnManyGoroutines(t *testing.T) {
	// Hooks on many goroutines at once are not nesting: none may be
	// refused, whatever happened in earlier parallel sections.
	w := ecs.NewWorld()
	sh := ecs.NewMap[shield](w)
	const n = 300
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = sh.Spawn(shield{})
	}
	var inside sync.WaitGroup
	inside.Add(n)
	ecs.OnSet(w, func(ecs.Entity, *shield) {
		inside.Done()
		inside.Wait() // every goroutine is inside its hook at once
	})
	w.Parallel().Begin()
	var done sync.WaitGroup
	var mu sync.Mutex
	var msgs []string
	for i := range n {
		done.Add(1)
		go func() {
			defer done.Done()
			if m := recovered(func() { sh.Set(es[i], shield{i}) }); m != "" {
				mu.Lock()
				msgs = append(msgs, m)
				mu.Unlock()
				inside.Done()
			}
		}()
	}
	done.Wait()
	w.Parallel().End()
	if len(msgs) > 0 {
		t.Fatalf("%d Sets refused, first: %s", len(msgs), msgs[0])
	}
}
