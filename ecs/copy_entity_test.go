package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Types of the clone and prefab tests.
type (
	cpPos   struct{ X, Y float64 }
	cpVel   struct{ X, Y float64 }
	cpName  struct{ S string }
	cpFlag  struct{}
	cpAim   struct{ At ecs.Entity }        // an entity held in a field
	cpCrew  struct{ Members []ecs.Entity } // entities in a slice, deep-copied by Clone
	cpSlots struct {
		Pair  [2]ecs.Entity
		Other int
	} // entities in an array
	cpBag   struct{ Items []int } // a slice without a Clone method
	cpRare  struct{ N int }       // sparse
	cpLikes struct{ W int }
)

func (c cpCrew) Clone() cpCrew { return cpCrew{Members: slices.Clone(c.Members)} }

func TestCopyEntityCopiesEveryComponent(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[cpPos, cpVel](w)
	name := ecs.NewMap[cpName](w)
	crew := ecs.NewMap[cpCrew](w)
	ecs.Register[cpRare](w, ecs.Sparse())
	rare := ecs.NewMap[cpRare](w)
	flag := ecs.NewMap[cpFlag](w)

	other := w.Spawn()
	e := pv.Spawn(cpPos{1, 2}, cpVel{3, 4})
	name.Add(e, cpName{"ship"})
	crew.Add(e, cpCrew{Members: []ecs.Entity{other}})
	rare.Add(e, cpRare{7})
	flag.Add(e, cpFlag{})

	c := w.CopyEntity(e)
	if c == e || !w.Alive(c) || w.Len() != 3 {
		t.Fatalf("clone %v of %v: alive %v, world of %d", c, e, w.Alive(c), w.Len())
	}
	p, v := pv.Get(c)
	if *p != (cpPos{1, 2}) || *v != (cpVel{3, 4}) || name.Get(c).S != "ship" || rare.Get(c).N != 7 || !flag.Has(c) {
		t.Fatalf("clone's values %v %v %v %v %v", *p, *v, *name.Get(c), *rare.Get(c), flag.Has(c))
	}
	if got := crew.Get(c).Members; !slices.Equal(got, []ecs.Entity{other}) {
		t.Fatalf("clone's crew %v", got)
	}
	// The copies are the clone's own: changing one side leaves the other.
	p.X = 100
	crew.Get(c).Members[0] = ecs.Entity{}
	rare.Get(c).N = 8
	if q, _ := pv.Get(e); q.X != 1 || crew.Get(e).Members[0] != other || rare.Get(e).N != 7 {
		t.Fatalf("the original changed with its clone: %v %v %v", *q, crew.Get(e).Members, *rare.Get(e))
	}
}

func TestCopyEntityRefusesUncopyableTypes(t *testing.T) {
	w := ecs.NewWorld()
	bag := ecs.NewMap[cpBag](w)
	e := bag.Spawn(cpBag{Items: []int{1}})
	msg := panicOf(func() { w.CopyEntity(e) })
	if !strings.Contains(msg, "CopyEntity") || !strings.Contains(msg, "cpBag") {
		t.Fatalf("panic %q does not name the operation and the type", msg)
	}
	if w.Len() != 1 {
		t.Fatalf("a refused clone changed the world: %d entities", w.Len())
	}
	// Declared shallow, it is copied plainly, sharing the slice.
	w2 := ecs.NewWorld()
	ecs.Shallow[cpBag](w2)
	bag2 := ecs.NewMap[cpBag](w2)
	e2 := bag2.Spawn(cpBag{Items: []int{1}})
	c2 := w2.CopyEntity(e2)
	if &bag2.Get(c2).Items[0] != &bag2.Get(e2).Items[0] {
		t.Fatal("a Shallow type was not copied plainly")
	}
}

func TestCopyEntityMisuse(t *testing.T) {
	w := ecs.NewWorld()
	e := w.Spawn()
	w.Despawn(e)
	if msg := panicOf(func() { w.CopyEntity(e) }); !strings.Contains(msg, "CopyEntity") || !strings.Contains(msg, "not alive") {
		t.Fatalf("clone of a dead entity: %q", msg)
	}
	other := ecs.NewWorld().Spawn()
	if msg := panicOf(func() { w.CopyEntity(other) }); !strings.Contains(msg, "another world") {
		t.Fatalf("clone of another world's entity: %q", msg)
	}
	live := w.Spawn()
	w.Parallel().Begin()
	if msg := panicOf(func() { w.CopyEntity(live) }); !strings.Contains(msg, "parallel") {
		t.Fatalf("clone in a parallel section: %q", msg)
	}
	w.Parallel().End()
}

func TestCopyEntityRelations(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	likes := ecs.NewRelation[cpLikes](w, ecs.Multi())
	parent, e, child, a, b := w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn()
	h.SetParent(e, parent)
	h.SetParent(child, e)
	likes.Set(e, a, cpLikes{1})
	likes.Set(e, b, cpLikes{2})
	likes.Set(b, e, cpLikes{3})

	c := w.CopyEntity(e)
	if got, _ := h.Parent(c); got != parent {
		t.Fatalf("clone's parent %v, want %v", got, parent)
	}
	if got := h.Children(parent); !slices.Equal(got, []ecs.Entity{e, c}) {
		t.Fatalf("parent's children %v", got)
	}
	if h.NumChildren(c) != 0 || likes.NumSources(c) != 0 {
		t.Fatalf("the clone took e's sources: children %v, likers %v", h.Children(c), likes.Sources(c))
	}
	if got := likes.Targets(c); !slices.Equal(got, []ecs.Entity{a, b}) || likes.Value(c, b).W != 2 {
		t.Fatalf("clone's likes %v", got)
	}
	if got := likes.Sources(a); !slices.Equal(got, []ecs.Entity{e, c}) {
		t.Fatalf("a's likers %v", got)
	}
	// The pair lists are the clone's own.
	likes.Remove(c, a)
	if !likes.Has(e, a) || likes.Has(c, a) {
		t.Fatal("removing the clone's pair touched the original's")
	}
	w.Despawn(parent) // cascades to both
	if w.Alive(e) || w.Alive(c) || w.Alive(child) {
		t.Fatal("the cascade missed the clone")
	}
}

func TestCopyEntityHooksAndObservers(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[cpPos](w)
	ecs.Register[cpRare](w, ecs.Sparse())
	rare := ecs.NewMap[cpRare](w)
	var added []ecs.Entity
	ecs.OnAdd(w, func(e ecs.Entity, v *cpRare) { added = append(added, e) })
	entered := 0
	ecs.NewQuery1[cpPos](w).OnEnter(func(ecs.Entity) { entered++ })
	e := pos.Spawn(cpPos{1, 1})
	rare.Add(e, cpRare{1})
	added, entered = nil, 0
	c := w.CopyEntity(e)
	if !slices.Equal(added, []ecs.Entity{c}) || entered != 1 {
		t.Fatalf("hooks saw %v, observer %d entries", added, entered)
	}
}

func TestCopyEntityInsideLoop(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[cpPos](w)
	e := pos.Spawn(cpPos{1, 1})
	gone := pos.Spawn(cpPos{2, 2})
	var c, c2, c3 ecs.Entity
	q := ecs.NewQuery1[cpPos](w)
	for r := range q.All() {
		if r.Entity == e {
			c = w.CopyEntity(e)
			if !w.Alive(c) || pos.Has(c) {
				t.Fatal("inside a loop the clone is alive and empty")
			}
			pos.Set(e, cpPos{5, 5}) // the clone copies the value as it is at the end
		}
		if r.Entity == gone {
			c3 = w.CopyEntity(gone) // applied before the despawn: gets the values
			w.Despawn(gone)
			c2 = w.CopyEntity(gone) // applied after it: stays empty
		}
	}
	if got := pos.Get(c); *got != (cpPos{5, 5}) {
		t.Fatalf("deferred clone got %v", *got)
	}
	if !w.Alive(c2) || pos.Has(c2) {
		t.Fatal("a clone made after the despawn of its entity in the same loop must stay empty")
	}
	if !pos.Has(c3) || pos.Get(c3).X != 2 {
		t.Fatal("a clone made before the despawn of its entity in the same loop must get its values")
	}
}

// TestCopyEntityFillKeepsLaterChanges: a clone made in a loop whose end
// panics may receive components before Recover applies its fill; the fill
// then leaves it as it is instead of overwriting them.
func TestCopyEntityFillKeepsLaterChanges(t *testing.T) {
	type cfPos struct{ X int }
	type cfVel struct{ X int }
	type cfRare struct{ X int }
	w := ecs.NewWorld()
	ecs.Register[cfRare](w, ecs.Sparse())
	pos, vel, rare := ecs.NewMap[cfPos](w), ecs.NewMap[cfVel](w), ecs.NewMap[cfRare](w)
	h := ecs.NewHierarchy(w)
	e := pos.Spawn(cfPos{1})
	rare.Add(e, cfRare{1})
	a, b := w.Spawn(), w.Spawn()
	var c ecs.Entity
	func() {
		defer func() { _ = recover() }()
		for range ecs.NewQuery1[cfPos](w).All() {
			h.SetParent(a, b)
			h.SetParent(b, a) // refused when the loop ends: the end panics
			c = w.CopyEntity(e)
		}
	}()
	vel.Add(c, cfVel{9})
	rare.Add(c, cfRare{7})
	w.Recover()
	if !vel.Has(c) || vel.Get(c).X != 9 || rare.Get(c).X != 7 || pos.Has(c) {
		t.Fatalf("the clone after Recover: vel %v, rare %v, pos %v; want its own vel 9 and rare 7, no pos", vel.Has(c), rare.Get(c), pos.Has(c))
	}
}
