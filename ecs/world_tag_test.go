package ecs

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type tagPos struct{ X, Y float64 }

type tagHeat struct{ V float64 }

type tagVel struct{ X float64 }

// twinWorlds returns two worlds built by the same calls and the entity each
// spawned: equal index and generation, different worlds.
func twinWorlds(t *testing.T) (w1, w2 *World, e1, e2 Entity) {
	t.Helper()
	w1, w2 = NewWorld(), NewWorld()
	for _, w := range []*World{w1, w2} {
		Register[tagHeat](w, Sparse())
		NewMap[tagPos](w).Spawn(tagPos{X: 1})
	}
	e1 = NewMap[tagPos](w1).Spawn(tagPos{X: 2})
	e2 = NewMap[tagPos](w2).Spawn(tagPos{X: 3})
	NewMap[tagHeat](w1).Add(e1, tagHeat{1})
	NewMap[tagHeat](w2).Add(e2, tagHeat{2})
	if e1.Index() != e2.Index() || e1.Generation() != e2.Generation() || e1.String() != e2.String() {
		t.Fatalf("twin worlds handed out %v and %v", e1, e2)
	}
	if e1 == e2 {
		t.Fatalf("entities of two worlds are equal values: %v (word %#x)", e1, e1.gen)
	}
	return w1, w2, e1, e2
}

// checkUntouched fails unless e is still alive in w with its components.
func checkUntouched(t *testing.T, w *World, e Entity, x, heat float64) {
	t.Helper()
	if !w.Alive(e) {
		t.Fatalf("%v is no longer alive in its world", e)
	}
	if p := NewMap[tagPos](w).Get(e); p.X != x {
		t.Errorf("%v: position %v, want X %v", e, *p, x)
	}
	if h := NewMap[tagHeat](w).Get(e); h.V != heat {
		t.Errorf("%v: heat %v, want %v", e, *h, heat)
	}
	if NewMap[tagVel](w).Has(e) {
		t.Errorf("%v gained a tagVel", e)
	}
}

func TestForeignEntityDespawn(t *testing.T) {
	w1, w2, e1, e2 := twinWorlds(t)
	testhelp.MustPanic(t, func() { w2.Despawn(e1) }, "ecs: Despawn: entity 2v0 belongs to another world")
	testhelp.MustPanic(t, func() { w1.Despawn(e2) }, "ecs: Despawn: entity 2v0 belongs to another world")
	checkUntouched(t, w2, e2, 3, 2)
	checkUntouched(t, w1, e1, 2, 1)
	if w1.Len() != 2 || w2.Len() != 2 {
		t.Errorf("Len = %d, %d, want 2, 2", w1.Len(), w2.Len())
	}

	// Inside an iteration the despawn would be deferred: it is refused first.
	for range NewQuery1[tagPos](w2).All() {
		testhelp.MustPanic(t, func() { w2.Despawn(e1) }, "Despawn", "another world")
		break
	}
	checkUntouched(t, w2, e2, 3, 2)
}

func TestForeignEntityNotAlive(t *testing.T) {
	w1, w2, e1, e2 := twinWorlds(t)
	if w2.Alive(e1) || w1.Alive(e2) {
		t.Fatal("an entity is alive in a world that did not make it")
	}
	if !w1.Alive(e1) || !w2.Alive(e2) {
		t.Fatal("an entity is not alive in its own world")
	}
	pos, heat := NewMap[tagPos](w2), NewMap[tagHeat](w2)
	if pos.Has(e1) || heat.Has(e1) {
		t.Error("Has reports a component of another world's entity")
	}
	if _, ok := pos.TryGet(e1); ok {
		t.Error("TryGet (table) finds another world's entity")
	}
	if _, ok := heat.TryGet(e1); ok {
		t.Error("TryGet (sparse) finds another world's entity")
	}
}

func TestForeignEntityMapPanics(t *testing.T) {
	w1, w2, e1, e2 := twinWorlds(t)
	pos, heat, vel := NewMap[tagPos](w2), NewMap[tagHeat](w2), NewMap[tagVel](w2)
	pair := NewMap2[tagPos, tagVel](w2)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"Get", func() { pos.Get(e1) }, "ecs: Get[ecs.tagPos]: entity 2v0 belongs to another world"},
		{"Get sparse", func() { heat.Get(e1) }, "ecs: Get[ecs.tagHeat]: entity 2v0 belongs to another world"},
		{"Add", func() { vel.Add(e1, tagVel{9}) }, "ecs: Add[ecs.tagVel]: entity 2v0 belongs to another world"},
		{"Add present", func() { pos.Add(e1, tagPos{9, 9}) }, "ecs: Add[ecs.tagPos]: entity 2v0 belongs to another world"},
		{"Add sparse", func() { heat.Add(e1, tagHeat{9}) }, "ecs: Add[ecs.tagHeat]: entity 2v0 belongs to another world"},
		{"Set", func() { pos.Set(e1, tagPos{9, 9}) }, "ecs: Set[ecs.tagPos]: entity 2v0 belongs to another world"},
		{"Set sparse", func() { heat.Set(e1, tagHeat{9}) }, "ecs: Set[ecs.tagHeat]: entity 2v0 belongs to another world"},
		{"Remove", func() { pos.Remove(e1) }, "ecs: Remove[ecs.tagPos]: entity 2v0 belongs to another world"},
		{"Remove absent", func() { vel.Remove(e1) }, "ecs: Remove[ecs.tagVel]: entity 2v0 belongs to another world"},
		{"Remove sparse", func() { heat.Remove(e1) }, "ecs: Remove[ecs.tagHeat]: entity 2v0 belongs to another world"},
		{"Map2.Get", func() { pair.Get(e1) }, "entity 2v0 belongs to another world"},
		{"Map2.Add", func() { pair.Add(e1, tagPos{}, tagVel{}) }, "entity 2v0 belongs to another world"},
		{"Map2.Remove", func() { pair.Remove(e1) }, "entity 2v0 belongs to another world"},
	} {
		t.Run(c.name, func(t *testing.T) { testhelp.MustPanic(t, c.f, c.want) })
	}
	checkUntouched(t, w2, e2, 3, 2)
	checkUntouched(t, w1, e1, 2, 1)
}

func TestForeignEntityCommands(t *testing.T) {
	w1, w2, e1, e2 := twinWorlds(t)
	c := w2.NewCommands()
	pos, heat, vel := NewMap[tagPos](w2), NewMap[tagHeat](w2), NewMap[tagVel](w2)
	testhelp.MustPanic(t, func() { c.Despawn(e1) }, "ecs: Despawn: entity 2v0 belongs to another world")
	testhelp.MustPanic(t, func() { vel.SetCmd(c, e1, tagVel{9}) }, "ecs: SetCmd[ecs.tagVel]: entity 2v0 belongs to another world")
	testhelp.MustPanic(t, func() { heat.RemoveCmd(c, e1) }, "ecs: RemoveCmd[ecs.tagHeat]: entity 2v0 belongs to another world")
	if c.Len() != 0 {
		t.Fatalf("%d commands recorded for another world's entity", c.Len())
	}

	// Pending entities carry no tag and keep working; what they become is
	// tagged with the world that applies them.
	p := c.Spawn()
	vel.SetCmd(c, p, tagVel{5})
	vel.SetCmd(c, e2, tagVel{6})
	w2.Apply(c)
	var spawned []Entity
	for r := range NewQuery1[tagVel](w2).All() {
		if r.Entity != e2 {
			spawned = append(spawned, r.Entity)
		}
	}
	if len(spawned) != 1 || spawned[0].gen&^genMask != w2.entities.tag {
		t.Fatalf("spawned %v, want one entity with w2's tag", spawned)
	}
	if w1.Alive(spawned[0]) {
		t.Errorf("%v, spawned by w2's buffer, is alive in w1", spawned[0])
	}
	if vel.Get(e2).X != 6 || pos.Get(e2).X != 3 {
		t.Error("w2's own entity lost a command")
	}
	checkUntouched(t, w1, e1, 2, 1)
}

func TestOwnDeadEntityIsNotAlive(t *testing.T) {
	_, w2, _, e2 := twinWorlds(t)
	w2.Despawn(e2)
	testhelp.MustPanic(t, func() { w2.Despawn(e2) }, "ecs: Despawn: entity 2v0 is not alive")
	testhelp.MustPanic(t, func() { NewMap[tagPos](w2).Get(e2) }, "ecs: Get[ecs.tagPos]: entity 2v0 is not alive")
	testhelp.MustPanic(t, func() { w2.NewCommands().Despawn(e2) }, "is not alive")
	testhelp.MustPanic(t, func() { w2.Despawn(Entity{}) }, "ecs: Despawn: entity 0v0 is not alive")
	e := w2.Spawn()
	if e.Index() != e2.Index() || e.Generation() != 1 || e.String() != "2v1" {
		t.Errorf("recycled %v, want 2v1", e)
	}
}

// withWorldCount runs f with the world counter set to n, then restores it.
func withWorldCount(n uint32, f func()) {
	old := worldCount.Load()
	defer worldCount.Store(old)
	worldCount.Store(n)
	f()
}

func TestWorldTagsWrap(t *testing.T) {
	withWorldCount(0, func() {
		if tag := NewWorld().entities.tag; tag != 0 {
			t.Errorf("first world's tag %#x, want 0", tag)
		}
	})
	withWorldCount(1<<32-1, func() {
		// The counter itself wraps around without a panic.
		if tag := NewWorld().entities.tag; tag != 0xFF<<genBits {
			t.Errorf("tag %#x, want %#x", tag, uint32(0xFF<<genBits))
		}
		if tag := NewWorld().entities.tag; tag != 0 {
			t.Errorf("tag after the counter wrapped %#x, want 0", tag)
		}
	})

	// 300 worlds: every one works, tags count up modulo 256.
	worlds := make([]*World, 300)
	ents := make([]Entity, len(worlds))
	for i := range worlds {
		w := NewWorld()
		worlds[i] = w
		a := w.Spawn()
		w.Despawn(a)
		ents[i] = w.Spawn()
		if e := ents[i]; e.Index() != a.Index() || e.Generation() != 1 || e.gen&^genMask != w.entities.tag || !w.Alive(e) {
			t.Fatalf("world %d (tag %#x): spawned %v (word %#x)", i, w.entities.tag, e, e.gen)
		}
		if i > 0 && w.entities.tag-worlds[i-1].entities.tag != 1<<genBits {
			t.Fatalf("world %d: tag %#x after %#x", i, w.entities.tag, worlds[i-1].entities.tag)
		}
	}
	for i := 1; i < len(worlds); i++ {
		if w := worlds[i]; w.Alive(ents[i-1]) {
			t.Errorf("world %d accepts world %d's %v", i, i-1, ents[i-1])
		}
	}
	// The limit of an 8-bit tag: worlds 256 apart share it.
	if !worlds[256].Alive(ents[0]) || ents[0] != ents[256] {
		t.Errorf("worlds 0 and 256 do not share a tag: %#x, %#x", ents[0].gen, ents[256].gen)
	}
}

func TestGenerationRetiresWithHighTag(t *testing.T) {
	var w *World
	withWorldCount(0xFF, func() { w = NewWorld() })
	e := w.Spawn()
	if tag := e.gen &^ genMask; tag != 0xFF<<genBits {
		t.Fatalf("tag %#x, want %#x", tag, uint32(0xFF<<genBits))
	}
	w.Despawn(e)
	r := w.entities.at(e.index)
	r.gen = r.gen&^genMask | (genMask - 1)
	last := w.Spawn()
	w.Despawn(last)
	last = w.Spawn()
	if last.index != e.index || last.gen != 0xFFFFFFFF || last.Generation() != genMask {
		t.Fatalf("last handle of the index %v (word %#x)", last, last.gen)
	}
	if got, want := last.String(), fmt.Sprintf("%dv%d", e.index, genMask); got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	w.Despawn(last)
	if next := w.Spawn(); next.index == e.index || next.gen != 0xFF<<genBits {
		t.Fatalf("after retirement spawned %v (word %#x), want a new index at generation 0", next, next.gen)
	}
}
