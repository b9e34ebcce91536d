package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// TestMapSpawnFunc checks Map.SpawnFunc for table and sparse storage: a nil
// init gives a zero value even in a row a despawn left stale, an init's
// value lands and OnAdd sees it, and inside a loop the add waits for the
// loop's end.
func TestMapSpawnFunc(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		w := ecs.NewWorld()
		if sparse {
			ecs.Register[Position](w, ecs.Sparse())
		}
		pos := ecs.NewMap[Position](w)
		a, b := pos.Spawn(Position{1, 1}), pos.Spawn(Position{2, 2})
		w.Despawn(a) // b moves to row 0; row 1 is stale
		w.Despawn(b)
		for range 2 {
			if p := pos.Get(pos.SpawnFunc(nil)); *p != (Position{}) {
				t.Fatalf("sparse=%v: SpawnFunc(nil) = %v, want zero", sparse, *p)
			}
		}
		var seen []Position
		ecs.OnAdd(w, func(e ecs.Entity, p *Position) { seen = append(seen, *p) })
		e := pos.SpawnFunc(func(e ecs.Entity, p *Position) { p.X = 9 })
		if p := pos.Get(e); p.X != 9 || len(seen) != 1 || seen[0].X != 9 {
			t.Fatalf("sparse=%v: SpawnFunc(init) = %v, OnAdd saw %v; want X 9 both", sparse, *p, seen)
		}
		var inLoop ecs.Entity
		for range ecs.NewQuery1[Position](w).All() {
			if inLoop.IsZero() {
				inLoop = pos.SpawnFunc(func(e ecs.Entity, p *Position) { p.Y = 5 })
				if pos.Has(inLoop) {
					t.Fatalf("sparse=%v: SpawnFunc in a loop added at once", sparse)
				}
			}
		}
		if p, ok := pos.TryGet(inLoop); !ok || p.Y != 5 {
			t.Fatalf("sparse=%v: SpawnFunc in a loop: %v %v after the loop, want Y 5", sparse, p, ok)
		}
	}
}

// TestZeroTailAfterBatches checks that a SpawnBatch of zero values reads
// zero after despawns and batch moves left rows stale or cleared them.
func TestZeroTailAfterBatches(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	all := ecs.NewQuery2[Position, Velocity](w)
	pv.SpawnBatch(10, Position{3, 3}, Velocity{4, 4})
	i := 0
	for r := range all.All() {
		if i++; i%2 == 0 {
			w.Despawn(r.Entity) // deferred to the loop's end
		}
	}
	pv.SpawnBatch(8, Position{}, Velocity{1, 1})
	zeros := 0
	for r := range all.All() {
		if *r.A == (Position{}) && *r.B == (Velocity{1, 1}) {
			zeros++
		}
	}
	if zeros != 8 {
		t.Fatalf("%d of the 8 entities of a zero-Position batch read zero, want 8", zeros)
	}
	w.DespawnMatching(all)
	pv.SpawnBatch(4, Position{}, Velocity{})
	for r := range all.All() {
		if *r.A != (Position{}) || *r.B != (Velocity{}) {
			t.Fatalf("after DespawnMatching, a zero batch reads %v %v", *r.A, *r.B)
		}
	}
}
