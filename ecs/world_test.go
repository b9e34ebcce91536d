package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type Mass struct{ V float64 }

type Tag struct{}

// sameID reports whether a and b have the same index and generation: the
// entities of two worlds built by the same calls do, though the Entity
// values differ in the world's tag.
func sameID(a, b ecs.Entity) bool {
	return a.Index() == b.Index() && a.Generation() == b.Generation()
}

func TestZeroEntityNeverAlive(t *testing.T) {
	w := ecs.NewWorld()
	if w.Alive(ecs.Entity{}) {
		t.Fatal("zero Entity alive in a new world")
	}
	for range 100 {
		w.Spawn()
	}
	if w.Alive(ecs.Entity{}) {
		t.Fatal("zero Entity alive after spawns")
	}
	testhelp.MustPanic(t, func() { w.Despawn(ecs.Entity{}) }, "Despawn", "0v0", "not alive")
}

func TestSpawnDespawnRecycles(t *testing.T) {
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	if a == b || !w.Alive(a) || !w.Alive(b) || w.Len() != 2 {
		t.Fatalf("spawned %v %v, Len %d", a, b, w.Len())
	}
	w.Despawn(a)
	if w.Alive(a) || w.Len() != 1 {
		t.Fatalf("after despawn: Alive(a)=%v Len=%d", w.Alive(a), w.Len())
	}
	c := w.Spawn()
	if c.Index() != a.Index() || c.Generation() != a.Generation()+1 {
		t.Fatalf("recycled %v, want index %d with generation %d", c, a.Index(), a.Generation()+1)
	}
	if w.Alive(a) {
		t.Fatal("stale handle reaches the recycled entity")
	}
	testhelp.MustPanic(t, func() { w.Despawn(a) }, "Despawn", a.String())
}

func TestDespawnRemovesEveryComponent(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap3[Position, Velocity, Tag](w)
	mass := ecs.NewMap[Mass](w)
	e := m.Spawn(Position{1, 2}, Velocity{3, 4}, Tag{})
	mass.Add(e, Mass{5})
	other := m.Spawn(Position{7, 8}, Velocity{}, Tag{})
	w.Despawn(e)
	if m.Has(e) || mass.Has(e) {
		t.Fatal("despawned entity still has components")
	}
	// The entity that moved into e's row keeps its own values.
	if p, _, _ := m.Get(other); *p != (Position{7, 8}) {
		t.Fatalf("moved row has %v", *p)
	}
	f := w.Spawn()
	if ecs.NewMap[Position](w).Has(f) || mass.Has(f) {
		t.Fatal("recycled entity inherited components")
	}
}

func TestMapAccess(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	e := w.Spawn()
	if _, ok := pos.TryGet(e); ok || pos.Has(e) {
		t.Fatal("new entity has Position")
	}
	testhelp.MustPanic(t, func() { pos.Get(e) }, "Get[ecs_test.Position]", e.String(), "does not have")
	pos.Add(e, Position{1, 2})
	testhelp.MustPanic(t, func() { pos.Add(e, Position{}) }, "Add[ecs_test.Position]", e.String(), "already has")
	if p := pos.Get(e); *p != (Position{1, 2}) {
		t.Fatalf("Get = %v", *p)
	}
	pos.Get(e).X = 10
	pos.Set(e, Position{pos.Get(e).X, 20})
	if p, ok := pos.TryGet(e); !ok || *p != (Position{10, 20}) {
		t.Fatalf("TryGet = %v %v", p, ok)
	}
	pos.Remove(e)
	pos.Remove(e) // absent: no-op
	if pos.Has(e) {
		t.Fatal("Remove left the component")
	}
	pos.Set(e, Position{3, 4}) // Set adds when absent
	if *pos.Get(e) != (Position{3, 4}) {
		t.Fatal("Set did not add")
	}
	w.Despawn(e)
	for name, f := range map[string]func(){
		"Get":    func() { pos.Get(e) },
		"Add":    func() { pos.Add(e, Position{}) },
		"Set":    func() { pos.Set(e, Position{}) },
		"Remove": func() { pos.Remove(e) },
	} {
		testhelp.MustPanic(t, f, name+"[ecs_test.Position]", e.String(), "not alive")
	}
	if _, ok := pos.TryGet(e); ok || pos.Has(e) {
		t.Fatal("dead entity reported as having Position")
	}
}

func TestMapNAddRemove(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	e := w.Spawn()
	pv.Add(e, Position{1, 1}, Velocity{2, 2})
	p, v := pv.Get(e)
	if *p != (Position{1, 1}) || *v != (Velocity{2, 2}) {
		t.Fatalf("Get = %v %v", *p, *v)
	}
	testhelp.MustPanic(t, func() { pv.Add(e, Position{}, Velocity{}) }, "Map2[ecs_test.Position,ecs_test.Velocity].Add", "already has ecs_test.Position")
	ecs.NewMap[Mass](w).Add(e, Mass{3})
	pv.Remove(e)
	if pv.Has(e) || ecs.NewMap[Velocity](w).Has(e) || ecs.NewMap[Mass](w).Get(e).V != 3 {
		t.Fatal("Remove took the wrong components")
	}
	testhelp.MustPanic(t, func() { ecs.NewMap2[Position, Position](w) }, "NewMap2", "twice")
	testhelp.MustPanic(t, func() { pv.Get(e) }, "Get[ecs_test.Position]", "does not have")
}

func TestSpawnBatch(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pv.SpawnBatch(1000, Position{1, 2}, Velocity{3, 4})
	var seen []ecs.Entity
	pv.SpawnBatchFunc(10, func(e ecs.Entity, p *Position, v *Velocity) {
		seen = append(seen, e)
		p.X = float64(len(seen))
		v.Y = -1
	})
	if w.Len() != 1010 {
		t.Fatalf("Len = %d", w.Len())
	}
	for i, e := range seen {
		p, v := pv.Get(e)
		if p.X != float64(i+1) || v.Y != -1 {
			t.Fatalf("entity %v: %v %v", e, *p, *v)
		}
	}
	q := ecs.NewQuery2[Position, Velocity](w)
	if q.Count() != 1010 {
		t.Fatalf("Count = %d", q.Count())
	}
	testhelp.MustPanic(t, func() { pv.SpawnBatch(-1, Position{}, Velocity{}) }, "negative")
}

func TestResources(t *testing.T) {
	type Clock struct{ Tick int }
	w := ecs.NewWorld()
	if ecs.HasResource[Clock](w) || ecs.GetResource[Clock](w) != nil {
		t.Fatal("new world has a Clock")
	}
	ecs.AddResource(w, &Clock{Tick: 3})
	ecs.GetResource[Clock](w).Tick++
	if got := ecs.GetResource[Clock](w).Tick; got != 4 {
		t.Fatalf("Tick = %d", got)
	}
	testhelp.MustPanic(t, func() { ecs.AddResource(w, &Clock{}) }, "AddResource", "Clock", "already")
	testhelp.MustPanic(t, func() { ecs.AddResource[Mass](w, nil) }, "nil")
	if !ecs.RemoveResource[Clock](w) || ecs.HasResource[Clock](w) || ecs.RemoveResource[Clock](w) {
		t.Fatal("RemoveResource")
	}
}

func TestMapSpawn(t *testing.T) {
	for storage, newWorld := range storages {
		t.Run(storage, func(t *testing.T) {
			w := newWorld()
			vel := ecs.NewMap[Velocity](w)
			e := vel.Spawn(Velocity{1, 2})
			vel.SpawnBatch(3, Velocity{3, 4})
			testhelp.MustPanic(t, func() { vel.SpawnBatch(-1, Velocity{}) }, "negative")
			q := ecs.NewQuery1[Velocity](w)
			if q.Count() != 4 || *vel.Get(e) != (Velocity{1, 2}) {
				t.Fatalf("Count %d, Get %v", q.Count(), *vel.Get(e))
			}
			var inLoop ecs.Entity
			for range q.All() {
				if inLoop.IsZero() {
					inLoop = vel.Spawn(Velocity{9, 9})
					if vel.Has(inLoop) || !w.Alive(inLoop) {
						t.Fatal("Spawn inside a loop is not deferred")
					}
				}
			}
			if *vel.Get(inLoop) != (Velocity{9, 9}) || q.Count() != 5 {
				t.Fatal("deferred Spawn not applied")
			}
		})
	}
}
