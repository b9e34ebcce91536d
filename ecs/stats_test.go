package ecs_test

import (
	"reflect"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

func TestStats(t *testing.T) {
	w, burn := sparseWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pv.SpawnBatch(1000, Position{}, Velocity{})
	tag := ecs.NewMap[Tag](w)
	q := ecs.NewQuery1[Position](w)
	i := 0
	for r := range q.All() {
		if i%10 == 0 {
			burn.Add(r.Entity, Burning{})
			tag.Add(r.Entity, Tag{})
		}
		i++
	}
	st := w.Stats()
	if st.Entities != 1000 {
		t.Fatalf("Entities = %d", st.Entities)
	}
	byType := map[reflect.Type]ecs.ComponentStats{}
	for _, c := range st.Components {
		byType[c.Type] = c
	}
	pos := byType[reflect.TypeFor[Position]()]
	if pos.Storage != ecs.TableStorage || pos.Count != 1000 || pos.Capacity < 1000 || pos.Bytes != pos.Capacity*16 {
		t.Errorf("Position stats %+v", pos)
	}
	b := byType[reflect.TypeFor[Burning]()]
	if b.Storage != ecs.SparseStorage || b.Count != 100 || b.Pages != 1 || b.Bytes < b.Capacity*(8+8) {
		t.Errorf("Burning stats %+v", b)
	}
	if tg := byType[reflect.TypeFor[Tag]()]; tg.Count != 100 || tg.Bytes != 0 {
		t.Errorf("a tag takes column memory: %+v", tg)
	}
	rows, sum := 0, st.EntityIndex.Bytes+b.Bytes
	for _, tb := range st.Tables {
		rows += tb.Rows
		sum += tb.Bytes
	}
	// 1,001 indices (index 0 is reserved) in pages of 256 records.
	if rows != 1000 || sum != st.TotalBytes || st.EntityIndex.Capacity != 1024 {
		t.Errorf("rows %d, total %d (sum %d), index capacity %d", rows, st.TotalBytes, sum, st.EntityIndex.Capacity)
	}
}

func TestShrink(t *testing.T) {
	w, burn := sparseWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	pv.SpawnBatch(10_000, Position{1, 2}, Velocity{3, 4})
	q := ecs.NewQuery2[Position, Velocity](w)
	var keep []ecs.Entity
	n := 0
	for r := range q.All() {
		burn.Add(r.Entity, Burning{float64(n)})
		if n%100 == 0 {
			keep = append(keep, r.Entity)
		} else {
			w.Despawn(r.Entity)
		}
		n++
	}
	st := w.Stats()
	before := st.TotalBytes - st.EntityIndex.Bytes
	testhelp.MustPanic(t, func() {
		for range q.All() {
			w.Shrink()
		}
	}, "Shrink", "inside an iteration")
	w.Recover()
	w.Shrink()
	// The entity index keeps its records (the generations of recycled
	// indices); the component storage must shrink.
	st = w.Stats()
	if after := st.TotalBytes - st.EntityIndex.Bytes; after >= before/4 {
		t.Fatalf("Shrink kept %d of %d storage bytes for 1%% of the entities", after, before)
	}
	for i, e := range keep {
		p, v := pv.Get(e)
		if *p != (Position{1, 2}) || *v != (Velocity{3, 4}) || burn.Get(e).Heat != float64(i*100) {
			t.Fatalf("entity %v lost its values in Shrink", e)
		}
	}
	// The world keeps working after shrinking to exact sizes.
	pv.SpawnBatch(5, Position{}, Velocity{})
	burn.Add(pv.Spawn(Position{}, Velocity{}), Burning{})
	if q.Count() != len(keep)+6 {
		t.Fatalf("Count = %d", q.Count())
	}
}
