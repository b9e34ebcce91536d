package ecs_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// pairLog records pair hook calls as "+s>t" and "-s>t" with the entities'
// names.
type pairLog struct {
	names map[ecs.Entity]string
	got   []string
}

func (l *pairLog) watch(name string, rel interface {
	OnAdd(func(s, t ecs.Entity))
	OnRemove(func(s, t ecs.Entity))
}) {
	rel.OnAdd(func(s, t ecs.Entity) { l.got = append(l.got, fmt.Sprintf("%s+%s>%s", name, l.names[s], l.names[t])) })
	rel.OnRemove(func(s, t ecs.Entity) { l.got = append(l.got, fmt.Sprintf("%s-%s>%s", name, l.names[s], l.names[t])) })
}

func (l *pairLog) take() []string {
	out := l.got
	l.got = nil
	return out
}

func TestPairHooks(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	likes := ecs.NewRelation[cpLikes](w, ecs.Multi())
	log := &pairLog{names: map[ecs.Entity]string{}}
	log.watch("c", h.Relation())
	log.watch("l", likes)
	ent := func(name string) ecs.Entity {
		e := w.Spawn()
		log.names[e] = name
		return e
	}
	a, b, c, d := ent("a"), ent("b"), ent("c"), ent("d")
	step := func(what string, fn func(), want ...string) {
		t.Helper()
		fn()
		if got := log.take(); !slices.Equal(got, want) {
			t.Fatalf("%s: hooks %v, want %v", what, got, want)
		}
	}
	step("SetParent", func() { h.SetParent(b, a) }, "c+b>a")
	step("SetParent again", func() { h.SetParent(b, a) })
	step("reparent", func() { h.SetParent(b, c) }, "c-b>a", "c+b>c")
	step("Multi adds", func() { likes.Add(a, b); likes.Set(a, c, cpLikes{2}); likes.Set(a, b, cpLikes{3}) }, "l+a>b", "l+a>c")
	step("Remove", func() { likes.Remove(a, b) }, "l-a>b")
	step("RemoveTargets", func() { likes.Add(a, d); likes.RemoveTargets(a) }, "l+a>d", "l-a>c", "l-a>d")
	step("despawn a target (RemovePairs)", func() { likes.Add(a, d); likes.Add(b, d); w.Despawn(d) },
		"l+a>d", "l+b>d", "l-b>d", "l-a>d")
	b2 := w.CopyEntity(b) // its hook runs inside CopyEntity, before b2 has a name
	if got := log.take(); !slices.Equal(got, []string{"c+>c"}) {
		t.Fatalf("clone: hooks %v", got)
	}
	log.names[b2] = "b2"

	// A cascade: the children's pairs go as they are despawned, leaves
	// first; hooks run after the whole despawn, when the entities are dead.
	var alive []bool
	h.Relation().OnRemove(func(s, t ecs.Entity) { alive = append(alive, w.Alive(s)) })
	step("cascade", func() { w.Despawn(c) }, "c-b2>c", "c-b>c") // the cascade's order: last child first
	if !slices.Equal(alive, []bool{false, false}) {
		t.Fatalf("sources alive in the hooks: %v", alive)
	}
}

func TestPairHooksDeferred(t *testing.T) {
	w := ecs.NewWorld()
	likes := ecs.NewRelation[cpLikes](w, ecs.Multi())
	pos := ecs.NewMap[cpPos](w)
	a, b := pos.Spawn(cpPos{}), pos.Spawn(cpPos{})
	var got []string
	likes.OnAdd(func(s, t ecs.Entity) {
		got = append(got, fmt.Sprintf("+%v>%v has=%v", s, t, likes.Has(s, t)))
		if s == a && t == b {
			likes.Add(b, a) // deferred: its hook runs in the next round
			if likes.Has(b, a) {
				panic("a hook's change was not deferred")
			}
		}
	})
	likes.OnRemove(func(s, t ecs.Entity) { got = append(got, fmt.Sprintf("-%v>%v", s, t)) })
	for r := range ecs.NewQuery1[cpPos](w).All() {
		if r.Entity == a {
			likes.Add(a, b)
			likes.Remove(a, b)
			likes.Add(a, b)
			if len(got) != 0 {
				t.Fatal("a pair hook ran inside the loop")
			}
		}
	}
	want := []string{
		fmt.Sprintf("+%v>%v has=true", a, b), fmt.Sprintf("-%v>%v", a, b), fmt.Sprintf("+%v>%v has=true", a, b),
		fmt.Sprintf("+%v>%v has=true", b, a), // the first hook's Add, one round later
	}
	if !slices.Equal(got, want) {
		t.Fatalf("hooks %v, want %v", got, want)
	}
	if !likes.Has(b, a) {
		t.Fatal("the hook's Add was not applied")
	}
	if msg := panics(func() { likes.OnAdd(nil) }); !strings.Contains(msg, "nil hook") {
		t.Fatalf("nil hook: %q", msg)
	}
}

func TestPairHooksPrefab(t *testing.T) {
	s := newShip(t)
	var made int
	s.h.Relation().OnAdd(func(_, _ ecs.Entity) { made++ })
	p := ecs.NewPrefab(s.w, s.hull)
	made = 0
	p.SpawnBatch(5)
	if made != 15 {
		t.Fatalf("5 instances of 3 children fired %d OnAdd hooks, want 15", made)
	}
}
