package ecs_test

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// The inlined lookups of Map.Get, TryGet and Has reject every handle that
// is not a live entity with the component, and fall back to the checking
// path for a world with an access checker, before and after tables are
// made, and again once the checker is gone.
func TestGetFastPathRejectsWhatItMust(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	vel := ecs.NewMap[Velocity](w)
	a := pos.Spawn(Position{1, 2})
	bare := w.Spawn()
	gone := pos.Spawn(Position{3, 4})
	w.Despawn(gone)

	// Another world with many more entities: its handles have indices far
	// past this world's index, which the lookup masks into range, and a
	// different tag, which the generation test rejects.
	other := ecs.NewWorld()
	otherPos := ecs.NewMap[Position](other)
	var far ecs.Entity
	for range 5000 {
		far = otherPos.Spawn(Position{})
	}

	if p := pos.Get(a); p.X != 1 || p.Y != 2 {
		t.Fatalf("Get(a) = %+v, want {1 2}", *p)
	}
	for _, c := range []struct {
		name string
		e    ecs.Entity
		msg  string
	}{
		{"the zero Entity", ecs.Entity{}, "not alive"},
		{"a despawned entity", gone, "not alive"},
		{"an entity without the component", bare, "does not have"},
		{"an entity of another world", far, "another world"},
	} {
		testhelp.MustPanic(t, func() { pos.Get(c.e) }, c.msg)
		if p, ok := pos.TryGet(c.e); ok || p != nil {
			t.Errorf("TryGet(%s) = %v, %v, want nil, false", c.name, p, ok)
		}
		if pos.Has(c.e) {
			t.Errorf("Has(%s) = true", c.name)
		}
	}
	if vel.Has(a) {
		t.Error("Has: a has no Velocity")
	}

	var log accessLog
	w.Parallel().SetAccessChecker(&log)
	pos.Get(a)
	pos.TryGet(a)
	pos.Has(a)
	// A table made while the checker is set must not open the fast path.
	b := ecs.NewMap2[Position, Velocity](w).Spawn(Position{5, 6}, Velocity{})
	log.got = log.got[:0]
	if p := pos.Get(b); p.X != 5 {
		t.Errorf("Get(b) under a checker = %+v", *p)
	}
	vel.Has(b)
	w.Parallel().SetAccessChecker(nil)
	if want := []string{"Get Position", "Has Velocity"}; !slices.Equal(log.got, want) {
		t.Errorf("the checker saw %q, want %q", log.got, want)
	}
	log.got = log.got[:0]
	if p := pos.Get(b); p.X != 5 || !vel.Has(b) {
		t.Errorf("after the checker is gone: Get(b) = %+v, Has Velocity %v", *p, vel.Has(b))
	}
	if len(log.got) != 0 {
		t.Errorf("a removed checker still saw %q", log.got)
	}
}

// MapN's getters take the same fast path and the same fallbacks.
func TestMapNGettersFastAndSlow(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	e := pv.Spawn(Position{1, 2}, Velocity{3, 4})
	onlyPos := ecs.NewMap[Position](w).Spawn(Position{})
	gone := pv.Spawn(Position{}, Velocity{})
	w.Despawn(gone)

	if p, v := pv.Get(e); p.X != 1 || v.X != 3 {
		t.Fatalf("Get = %+v %+v", *p, *v)
	}
	if p, v, ok := pv.TryGet(e); !ok || p.Y != 2 || v.Y != 4 {
		t.Fatalf("TryGet = %v %v %v", p, v, ok)
	}
	for _, x := range []ecs.Entity{onlyPos, gone, {}} {
		if pv.Has(x) {
			t.Errorf("Has(%v) = true", x)
		}
		if p, v, ok := pv.TryGet(x); ok || p != nil || v != nil {
			t.Errorf("TryGet(%v) = %v %v %v", x, p, v, ok)
		}
	}
	testhelp.MustPanic(t, func() { pv.Get(onlyPos) }, "does not have")
	testhelp.MustPanic(t, func() { pv.Get(gone) }, "not alive")

	var log accessLog
	w.Parallel().SetAccessChecker(&log)
	pv.Get(e)
	pv.Has(e)
	w.Parallel().SetAccessChecker(nil)
	want := []string{"Get Position", "Get Velocity", "Has Position", "Has Velocity"}
	if !slices.Equal(log.got, want) {
		t.Errorf("the checker saw %q, want %q", log.got, want)
	}
}
