package ecs_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

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
	if err := ecs.CheckZeroTails(w); err != nil {
		t.Fatal(err)
	}
	pv.SpawnBatch(4, Position{}, Velocity{})
	for r := range all.All() {
		if *r.A != (Position{}) || *r.B != (Velocity{}) {
			t.Fatalf("after DespawnMatching, a zero batch reads %v %v", *r.A, *r.B)
		}
	}
	// DespawnMatching leaves pointer-free rows stale: a SpawnFunc that
	// writes nothing must still read zero in every one of them.
	pv.SpawnBatch(12, Position{7, 7}, Velocity{8, 8})
	w.DespawnMatching(all)
	for range 20 {
		pv.SpawnFunc(func(_ ecs.Entity, p *Position, v *Velocity) {
			if *p != (Position{}) || *v != (Velocity{}) {
				t.Fatalf("after DespawnMatching, SpawnFunc is handed %v %v, want zero values", *p, *v)
			}
		})
	}
	if err := ecs.CheckZeroTails(w); err != nil {
		t.Fatal(err)
	}
}

// TestDespawnMatchingReleasesPointers checks that a batch despawn, which
// leaves pointer-free rows stale, zeroes the rows of pointer-holding
// types: what they referenced becomes garbage.
func TestDespawnMatchingReleasesPointers(t *testing.T) {
	type Payload struct{ buf []byte }
	w := ecs.NewWorld()
	m := ecs.NewMap2[Position, Payload](w)
	all := ecs.NewQuery1[Payload](w)
	var released atomic.Int32
	for range 64 {
		buf := make([]byte, 1<<10)
		runtime.AddCleanup(&buf[0], func(r *atomic.Int32) { r.Add(1) }, &released)
		m.Spawn(Position{1, 2}, Payload{buf})
	}
	w.DespawnMatching(all)
	for range 50 {
		if released.Load() == 64 {
			break
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if n := released.Load(); n != 64 {
		t.Fatalf("%d of 64 buffers held only by despawned rows were collected, want 64", n)
	}
	runtime.KeepAlive(w)
}
