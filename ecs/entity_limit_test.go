package ecs

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type limitA struct{ V int }
type limitB struct{ V float32 }

// A count the entity index cannot hold panics with the limit before
// anything is allocated or spawned, on every batch path, inside and
// outside a loop, instead of asking the runtime for tens of GiB.
func TestCountsPastMaxEntitiesPanic(t *testing.T) {
	w := NewWorld()
	a := NewMap[limitA](w)
	ab := NewMap2[limitA, limitB](w)
	h := NewHierarchy(w)
	root := a.Spawn(limitA{1})
	h.SetParent(ab.Spawn(limitA{2}, limitB{3}), root)
	p := NewPrefab(w, root) // two entities an instance
	if got, want := w.Room(), MaxEntities-w.Len(); got != want {
		t.Fatalf("Room = %d with %d spawned, want %d", got, w.Len(), want)
	}
	huge := []int{MaxEntities + 1, math.MaxInt}
	if big := uint64(1) << 31; big <= math.MaxInt { // the reported count, on 64-bit machines
		huge = append(huge, int(big))
	}
	check := func(where string) {
		t.Helper()
		before, room := w.Len(), w.Room()
		for _, n := range huge {
			testhelp.MustPanic(t, func() { a.SpawnBatch(n, limitA{}) }, "SpawnBatch[ecs.limitA]", "MaxEntities", "room for")
			testhelp.MustPanic(t, func() { a.SpawnBatchFunc(n, nil) }, "SpawnBatchFunc[ecs.limitA]", "MaxEntities")
			testhelp.MustPanic(t, func() { ab.SpawnBatch(n, limitA{}, limitB{}) }, "Map2[ecs.limitA,ecs.limitB].SpawnBatch", "MaxEntities")
			testhelp.MustPanic(t, func() { ab.SpawnBatchFunc(n, nil) }, "SpawnBatchFunc", "MaxEntities")
			testhelp.MustPanic(t, func() { p.SpawnBatch(n) }, "Prefab.SpawnBatch", "MaxEntities")
			testhelp.MustPanic(t, func() { p.SpawnBatchFunc(n, nil) }, "Prefab.SpawnBatchFunc", "MaxEntities")
		}
		// Half the room in instances of two entities overflows by one.
		testhelp.MustPanic(t, func() { p.SpawnBatch(room/2 + 1) }, "Prefab.SpawnBatch", "MaxEntities")
		if w.Len() != before || w.Room() != room {
			t.Fatalf("%s: refused batches changed the world: %d entities and room %d, want %d and %d",
				where, w.Len(), w.Room(), before, room)
		}
	}
	check("outside a loop")
	for range NewQuery1[limitA](w).All() {
		check("inside a loop")
		break
	}
	// Reserve: past the limit, and math.MaxInt once a spawn has moved next
	// (its doubling once overflowed to 0 and never returned).
	for _, n := range huge {
		testhelp.MustPanic(t, func() { w.Reserve(n) }, "Reserve", "MaxEntities")
	}
	w.Reserve(1000) // a count that fits is still taken
	a.SpawnBatch(1000, limitA{7})
	if n := NewQuery1[limitA](w).Count(); n != 1002 {
		t.Fatalf("%d entities with limitA after the refusals, want 1002", n)
	}
}

// Near the limit (the index's next pointer moved there by hand, since a
// real world that size takes 12 GiB, so nothing here may allocate index
// records): the room counts free indices, a batch or a Merge one past it
// is refused, and with every index handed out a Spawn panics.
func TestRoomAtTheLimit(t *testing.T) {
	src := NewWorld()
	NewMap[limitA](src).SpawnBatch(4, limitA{5})
	var file bytes.Buffer
	if err := src.Save(&file); err != nil {
		t.Fatal(err)
	}

	w := NewWorld()
	m := NewMap[limitA](w)
	e := m.Spawn(limitA{1})
	m.Spawn(limitA{2})
	w.Despawn(e) // one free index
	x := &w.entities
	x.next = MaxEntities - 1 // indices up to MaxEntities-2 handed out
	if got := w.Room(); got != 3 {
		t.Fatalf("Room = %d, want 2 never handed out + 1 free", got)
	}
	testhelp.MustPanic(t, func() { m.SpawnBatch(4, limitA{}) }, "4 entities do not fit", "room for 3 more")
	testhelp.MustPanic(t, func() { w.Reserve(4) }, "Reserve", "room for 3 more")
	c := w.NewCommands()
	for range 4 {
		NewMap[limitA](w).SetCmd(c, c.Spawn(), limitA{9})
	}
	testhelp.MustPanic(t, func() { w.Apply(c) }, "Apply of the spawns recorded", "4 entities do not fit")
	if c.Len() != 8 {
		t.Fatalf("a refused Apply emptied the buffer: %d changes left, want 8 (4 spawns, 4 adds)", c.Len())
	}
	_, err := w.Merge(bytes.NewReader(file.Bytes()))
	if err == nil || !strings.Contains(err.Error(), "4 entities do not fit") || !strings.Contains(err.Error(), "MaxEntities") {
		t.Fatalf("Merge of 4 entities into room for 3: %v, want an error naming MaxEntities", err)
	}
	var jsonFile bytes.Buffer
	if err := src.SaveJSON(&jsonFile); err != nil {
		t.Fatal(err)
	}
	if _, err := w.MergeJSON(&jsonFile); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Fatalf("MergeJSON of 4 entities into room for 3: %v, want refused", err)
	}
	if w.Len() != 1 || w.Room() != 3 {
		t.Fatalf("refusals changed the world: %d alive, room %d; want 1 and 3", w.Len(), w.Room())
	}

	x.next, x.free = MaxEntities+1, nil // every index handed out
	if got := w.Room(); got != 0 {
		t.Fatalf("Room = %d with every index handed out, want 0", got)
	}
	testhelp.MustPanic(t, func() { w.Spawn() }, "Spawn", "MaxEntities")
	testhelp.MustPanic(t, func() { m.Spawn(limitA{}) }, "Spawn", "MaxEntities")
	testhelp.MustPanic(t, func() { m.SpawnBatch(1, limitA{}) }, "SpawnBatch", "room for 0 more")
	if w.Len() != 1 {
		t.Fatalf("a refused Spawn changed the world: %d alive, want 1", w.Len())
	}
}
