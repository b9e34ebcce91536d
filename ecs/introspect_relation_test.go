package ecs_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// inspFollows is an exclusive relation with a value, for the
// introspection tests.
type inspFollows struct{ Dist float64 }

// pairString prints a pair as source>target=value, relation by its Go
// type's name.
func pairString(p ecs.PairInfo) string {
	return fmt.Sprintf("%s:%v>%v=%v", p.Relation.Name(), p.Source, p.Target, p.Value)
}

func pairStrings(seq func(func(ecs.PairInfo) bool)) []string {
	var out []string
	for p := range seq {
		out = append(out, pairString(p))
	}
	return out
}

func TestReflectionRelations(t *testing.T) {
	w := ecs.NewWorld()
	if got := w.Reflect().Relations(); len(got) != 0 {
		t.Fatalf("a world without relations lists %v", got)
	}
	h := ecs.NewHierarchy(w)
	lk := ecs.NewRelation[Likes](w, ecs.Multi())
	fw := ecs.NewRelation[inspFollows](w, ecs.OnTargetDespawn(ecs.RefuseDespawn))
	a, b, c, d := w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn()
	h.SetParent(b, a)
	h.SetParent(c, a)
	lk.Set(a, b, Likes{Stars: 5})
	lk.Set(a, c, Likes{Stars: 2})
	lk.Set(d, b, Likes{Stars: 1})
	fw.Set(c, d, inspFollows{Dist: 1.5})

	infos := w.Reflect().Relations()
	if len(infos) != 3 {
		t.Fatalf("Relations: %+v", infos)
	}
	want := []ecs.RelationInfo{
		{Name: "github.com/tessera-ecs/tessera/ecs.ChildOf", GoType: reflect.TypeFor[ecs.ChildOf](), Exclusive: true, Acyclic: true, OnTargetDespawn: ecs.DespawnSources, Sources: 2, Targets: 1},
		{Name: "github.com/tessera-ecs/tessera/ecs_test.Likes", GoType: reflect.TypeFor[Likes](), Sources: 2, Targets: 2},
		{Name: "github.com/tessera-ecs/tessera/ecs_test.inspFollows", GoType: reflect.TypeFor[inspFollows](), Exclusive: true, OnTargetDespawn: ecs.RefuseDespawn, Sources: 1, Targets: 1},
	}
	for i := range want {
		if infos[i] != want[i] {
			t.Errorf("Relations()[%d] = %+v; want %+v", i, infos[i], want[i])
		}
	}

	r := w.Reflect()
	if got, wantS := pairStrings(r.PairsOf(a, nil)), []string{"Likes:1v0>2v0={5}", "Likes:1v0>3v0={2}"}; !slices.Equal(got, wantS) {
		t.Errorf("PairsOf(a) = %v; want %v", got, wantS)
	}
	if got, wantS := pairStrings(r.PairsOf(c, nil)), []string{"ChildOf:3v0>1v0={}", "inspFollows:3v0>4v0={1.5}"}; !slices.Equal(got, wantS) {
		t.Errorf("PairsOf(c) = %v; want %v", got, wantS)
	}
	if got, wantS := pairStrings(r.PairsTo(b, nil)), []string{"Likes:1v0>2v0={5}", "Likes:4v0>2v0={1}"}; !slices.Equal(got, wantS) {
		t.Errorf("PairsTo(b) = %v; want %v", got, wantS)
	}
	childOf := reflect.TypeFor[ecs.ChildOf]()
	if got, wantS := pairStrings(r.PairsTo(a, childOf)), []string{"ChildOf:2v0>1v0={}", "ChildOf:3v0>1v0={}"}; !slices.Equal(got, wantS) {
		t.Errorf("PairsTo(a, ChildOf) = %v; want %v", got, wantS)
	}
	if got := pairStrings(r.PairsOf(a, reflect.TypeFor[Position]())); got != nil {
		t.Errorf("PairsOf with a type that is no relation = %v", got)
	}
	for _, tc := range []struct {
		e        ecs.Entity
		rel      reflect.Type
		src, tgt int
	}{{a, nil, 2, 2}, {a, childOf, 0, 2}, {b, nil, 1, 2}, {d, nil, 1, 1}, {d, reflect.TypeFor[Likes](), 1, 0}, {c, reflect.TypeFor[Position](), 0, 0}} {
		if s, g := r.NumPairs(tc.e, tc.rel); s != tc.src || g != tc.tgt {
			t.Errorf("NumPairs(%v, %v) = %d, %d; want %d, %d", tc.e, tc.rel, s, g, tc.src, tc.tgt)
		}
	}
	// Values are copies.
	for p := range r.PairsOf(c, reflect.TypeFor[inspFollows]()) {
		v := p.Value.(inspFollows)
		v.Dist = 99
	}
	if fw.Value(c, d).Dist != 1.5 {
		t.Error("changing a yielded value changed the pair")
	}
}

// TestReflectionPairsLoopDefersChanges checks that a change made inside
// the loop waits for its end, so the loop sees the lists it began with.
func TestReflectionPairsLoopDefersChanges(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	root := w.Spawn()
	for range 5 {
		h.SetParent(w.Spawn(), root)
	}
	n := 0
	for p := range w.Reflect().PairsTo(root, nil) {
		h.RemoveParent(p.Source) // deferred
		n++
	}
	if n != 5 || h.NumChildren(root) != 0 {
		t.Errorf("the loop saw %d children, %d left after it; want 5 and 0", n, h.NumChildren(root))
	}
	// Breaking out early unlocks the world.
	h.SetParent(w.Spawn(), root)
	h.SetParent(w.Spawn(), root)
	for range w.Reflect().PairsTo(root, nil) {
		break
	}
	e := w.Spawn()
	h.SetParent(e, root)
	if h.NumChildren(root) != 3 {
		t.Errorf("after a loop that broke early, a SetParent was not applied: %d children", h.NumChildren(root))
	}
}

func TestReflectionRelationRoots(t *testing.T) {
	w := ecs.NewWorld()
	childOf := reflect.TypeFor[ecs.ChildOf]()
	if got := slices.Collect(w.Reflect().RelationRoots(childOf)); got != nil {
		t.Fatalf("roots of an undeclared hierarchy: %v", got)
	}
	h := ecs.NewHierarchy(w)
	es := make([]ecs.Entity, 3000)
	for i := range es {
		es[i] = w.Spawn()
	}
	// Roots at indices spread over three sparse pages, attached out of
	// order: 2500 (two children), 7 (a chain of three), 1200 (one child).
	h.SetParent(es[2600], es[2500])
	h.SetParent(es[10], es[7])
	h.SetParent(es[11], es[10])
	h.SetParent(es[1300], es[1200])
	h.SetParent(es[2601], es[2500])
	want := []ecs.Entity{es[7], es[1200], es[2500]}
	if got := slices.Collect(w.Reflect().RelationRoots(childOf)); !slices.Equal(got, want) {
		t.Errorf("RelationRoots = %v; want %v", got, want)
	}
	h.RemoveParent(es[1300]) // 1200 is in no tree any more
	h.SetParent(es[7], es[2999])
	want = []ecs.Entity{es[2500], es[2999]}
	if got := slices.Collect(w.Reflect().RelationRoots(childOf)); !slices.Equal(got, want) {
		t.Errorf("RelationRoots after changes = %v; want %v", got, want)
	}
	if got := slices.Collect(w.Reflect().RelationRoots(reflect.TypeFor[Likes]())); got != nil {
		t.Errorf("roots of an undeclared relation: %v", got)
	}
}

// TestReflectionRelationRootsLarge walks the roots of a hierarchy of a
// million nodes (a thousand trees of a thousand) and reads one root's
// children, within a bounded time.
func TestReflectionRelationRootsLarge(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	for range 1000 {
		root := w.Spawn()
		for range 999 {
			h.SetParent(w.Spawn(), root)
		}
	}
	done := make(chan int, 1)
	go func() {
		n := 0
		for range w.Reflect().RelationRoots(reflect.TypeFor[ecs.ChildOf]()) {
			n++
		}
		done <- n
	}()
	select {
	case n := <-done:
		if n != 1000 {
			t.Errorf("%d roots; want 1000", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("walking the roots of a million-node hierarchy took over 10 s")
	}
}

func TestReflectionPairsPanicsOnDeadEntity(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewHierarchy(w)
	e := w.Spawn()
	w.Despawn(e)
	for name, call := range map[string]func(){
		"PairsOf":  func() { w.Reflect().PairsOf(e, nil) },
		"PairsTo":  func() { w.Reflect().PairsTo(e, nil) },
		"NumPairs": func() { w.Reflect().NumPairs(e, nil) },
	} {
		func() {
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, "Reflection."+name) || !strings.Contains(msg, e.String()) || !strings.Contains(msg, "not alive") {
					t.Errorf("%s of a dead entity panicked with %q", name, msg)
				}
			}()
			call()
		}()
	}
}
