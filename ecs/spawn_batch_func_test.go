package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Values an init writes land on the entity it was handed, row after row,
// while init also spawns into the batch's own table (a single spawn and a
// nested batch, both deferred until the batch ends). Run with the three
// types in the table (one slice per type) and with one of them sparse (a
// slot per entity), the two paths of Map3.SpawnBatchFunc.
func TestSpawnBatchFuncValuesLandWhileInitSpawns(t *testing.T) {
	type sbA struct{ N int }
	type sbB struct{ N int }
	type sbC struct{ N int }
	for _, sparse := range []bool{false, true} {
		w := ecs.NewWorld()
		if sparse {
			ecs.Register[sbB](w, ecs.Sparse())
		}
		m := ecs.NewMap3[sbA, sbB, sbC](w)
		m.Spawn(sbA{-1}, sbB{-1}, sbC{-1}) // a row before the batch's
		const n = 50
		var got []ecs.Entity
		m.SpawnBatchFunc(n, func(e ecs.Entity, a *sbA, b *sbB, c *sbC) {
			if a.N != 0 || b.N != 0 || c.N != 0 {
				t.Fatalf("sparse=%v: entity %d starts at %d, %d, %d, not zero", sparse, len(got), a.N, b.N, c.N)
			}
			i := len(got)
			got = append(got, e)
			a.N, b.N, c.N = i, 2*i, 3*i
			if i%10 == 0 {
				m.Spawn(sbA{1000 + i}, sbB{1000 + i}, sbC{1000 + i})
				m.SpawnBatchFunc(2, func(_ ecs.Entity, a *sbA, _ *sbB, _ *sbC) { a.N = 5000 + i })
			}
		})
		if len(got) != n {
			t.Fatalf("sparse=%v: init ran %d times, want %d", sparse, len(got), n)
		}
		for i, e := range got {
			a, b, c := m.Get(e)
			if a.N != i || b.N != 2*i || c.N != 3*i {
				t.Fatalf("sparse=%v: entity %d holds %d, %d, %d, want %d, %d, %d", sparse, i, a.N, b.N, c.N, i, 2*i, 3*i)
			}
		}
		if want := 1 + n + 3*(n/10); w.Len() != want {
			t.Fatalf("sparse=%v: %d entities after the batch, want %d", sparse, w.Len(), want)
		}
		late := 0
		for r := range ecs.NewQuery1[sbA](w).All() {
			if r.A.N >= 1000 {
				late++
			}
		}
		if late != 3*(n/10) {
			t.Fatalf("sparse=%v: %d entities spawned by init, want %d", sparse, late, 3*(n/10))
		}
	}
}
