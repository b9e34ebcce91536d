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

// A nil init leaves every value zero, as Ark's NewBatchFn(n, nil) does:
// also in rows left stale by a batch move out of the table, with a sparse
// type in the bundle, and inside an iteration, where the spawns wait for
// the loop. OnAdd hooks see each entity once.
func TestSpawnBatchFuncNilInit(t *testing.T) {
	type nzA struct{ N int }
	type nzB struct{ N int }
	type nzC struct{ N int }
	type nzD struct{ N int }
	for _, sparse := range []bool{false, true} {
		for _, deferred := range []bool{false, true} {
			w := ecs.NewWorld()
			if sparse {
				ecs.Register[nzB](w, ecs.Sparse())
			}
			added := 0
			ecs.OnAdd(w, func(ecs.Entity, *nzA) { added++ })
			m := ecs.NewMap3[nzA, nzB, nzC](w)
			one := ecs.NewMap[nzC](w)
			oneB := ecs.NewMap[nzB](w) // sparse when sparse is set
			d := ecs.NewMap[nzD](w)
			all := ecs.NewQuery1[nzA](w)
			const n = 40
			// Rows with values, then moved out: the table's rows are stale.
			m.SpawnBatch(n, nzA{1}, nzB{2}, nzC{3})
			d.AddMatching(all, nzD{4})
			added = 0
			spawn := func() {
				m.SpawnBatchFunc(n, nil)
				one.SpawnBatchFunc(n, nil)
				oneB.SpawnBatchFunc(n, nil)
			}
			where := "outside"
			if deferred {
				where = "inside an iteration"
				for range ecs.NewQuery1[nzD](w).All() { // the moved rows
					spawn()
					break
				}
			} else {
				spawn()
			}
			zeros := 0
			for r := range ecs.NewQuery3[nzA, nzB, nzC](w, ecs.Without(ecs.C[nzD]())).All() {
				if r.A.N != 0 || r.B.N != 0 || r.C.N != 0 {
					t.Fatalf("sparse=%v, %s: %v holds %d, %d, %d after SpawnBatchFunc(n, nil)", sparse, where, r.Entity, r.A.N, r.B.N, r.C.N)
				}
				zeros++
			}
			if zeros != n {
				t.Fatalf("sparse=%v, %s: %d entities with the three types, want %d", sparse, where, zeros, n)
			}
			if added != n {
				t.Fatalf("sparse=%v, %s: OnAdd ran %d times, want %d", sparse, where, added, n)
			}
			if got := ecs.NewQuery1[nzC](w, ecs.Without(ecs.C[nzA]())).Count(); got != n {
				t.Fatalf("sparse=%v, %s: Map.SpawnBatchFunc(n, nil) made %d entities, want %d", sparse, where, got, n)
			}
			onlyB := 0
			for r := range ecs.NewQuery1[nzB](w, ecs.Without(ecs.C[nzA]())).All() {
				if r.A.N != 0 {
					t.Fatalf("sparse=%v, %s: %v holds %d after Map.SpawnBatchFunc(n, nil)", sparse, where, r.Entity, r.A.N)
				}
				onlyB++
			}
			if onlyB != n {
				t.Fatalf("sparse=%v, %s: Map.SpawnBatchFunc(n, nil) of a sparse type made %d entities, want %d", sparse, where, onlyB, n)
			}
		}
	}
}
