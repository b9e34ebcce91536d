package ecs_test

import (
	"runtime"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Burning is a component that comes and goes often: sparse storage.
type Burning struct{ Heat float64 }

func sparseWorld() (*ecs.World, *ecs.Map[Burning]) {
	w := ecs.NewWorld()
	ecs.Register[Burning](w, ecs.Sparse())
	return w, ecs.NewMap[Burning](w)
}

func TestRegister(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[Burning](w)
	testhelp.MustPanic(t, func() { ecs.Register[Burning](w, ecs.Sparse()) }, "Register[ecs_test.Burning]", "already in use")
	if ecs.SparseStorage.String() != "sparse" || ecs.TableStorage.String() != "table" {
		t.Fatal("Storage.String")
	}
}

func TestSparseMapAccess(t *testing.T) {
	w, burn := sparseWorld()
	e := w.Spawn()
	if burn.Has(e) {
		t.Fatal("new entity is burning")
	}
	testhelp.MustPanic(t, func() { burn.Get(e) }, "Get[ecs_test.Burning]", "does not have")
	burn.Add(e, Burning{1})
	testhelp.MustPanic(t, func() { burn.Add(e, Burning{}) }, "Add[ecs_test.Burning]", "already has")
	burn.Set(e, Burning{burn.Get(e).Heat + 1})
	if p, ok := burn.TryGet(e); !ok || p.Heat != 2 {
		t.Fatalf("TryGet = %v %v", p, ok)
	}
	burn.Remove(e)
	burn.Remove(e)
	if burn.Has(e) {
		t.Fatal("Remove left the component")
	}
	burn.Set(e, Burning{5})
	w.Despawn(e)
	f := w.Spawn() // recycles e's index
	if burn.Has(f) || burn.Has(e) {
		t.Fatal("despawn left a sparse component behind")
	}
	testhelp.MustPanic(t, func() { burn.Get(e) }, "Get[ecs_test.Burning]", "not alive")
}

func TestSparseNeverMovesRows(t *testing.T) {
	w, burn := sparseWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	es := make([]ecs.Entity, 100)
	for i := range es {
		es[i] = pv.Spawn(Position{float64(i), 0}, Velocity{})
	}
	p50, _ := pv.Get(es[50])
	for _, e := range es {
		burn.Add(e, Burning{})
	}
	for _, e := range es[:60] {
		burn.Remove(e)
	}
	// The table row of es[50] never moved: its pointer still reads it.
	if p, _ := pv.Get(es[50]); p != p50 || p.X != 50 {
		t.Fatal("a sparse add or remove moved a table row")
	}
}

func TestMapNWithSparseTypes(t *testing.T) {
	w, burn := sparseWorld()
	pb := ecs.NewMap2[Position, Burning](w)
	e := pb.Spawn(Position{1, 1}, Burning{7})
	if p, b := pb.Get(e); p.X != 1 || b.Heat != 7 || !burn.Has(e) {
		t.Fatal("Spawn with a sparse type")
	}
	pb.SpawnBatch(10, Position{2, 2}, Burning{3})
	// Despawn some so sparse slots hold removed values before the next batch.
	q := ecs.NewQuery2[Position, Burning](w)
	w.DespawnMatching(q)
	var made []ecs.Entity
	pb.SpawnBatchFunc(5, func(e ecs.Entity, p *Position, b *Burning) {
		if *b != (Burning{}) || *p != (Position{}) {
			t.Fatalf("init got %v %v, want zero values", *p, *b)
		}
		b.Heat = float64(len(made))
		made = append(made, e)
	})
	if q.Count() != 5 {
		t.Fatalf("Count = %d", q.Count())
	}
	for i, e := range made {
		if _, b := pb.Get(e); b.Heat != float64(i) {
			t.Fatalf("entity %d: heat %v", i, b.Heat)
		}
	}
	pb.Remove(made[0])
	if burn.Has(made[0]) || pb.Has(made[0]) {
		t.Fatal("Map2.Remove left the sparse component")
	}
	pb.Add(made[0], Position{}, Burning{1})
	testhelp.MustPanic(t, func() { pb.Add(made[0], Position{}, Burning{}) }, "already has")
}

func TestSparseDrivenQuery(t *testing.T) {
	w, burn := sparseWorld()
	pos := ecs.NewMap[Position](w)
	var burning []ecs.Entity
	for i := range 1000 {
		e := w.Spawn()
		pos.Add(e, Position{float64(i), 0})
		if i%100 == 7 {
			burn.Add(e, Burning{float64(i)})
			burning = append(burning, e)
		}
	}
	q := ecs.NewQuery2[Position, Burning](w)
	var seen []ecs.Entity
	for r := range q.All() {
		if r.A.X != r.B.Heat {
			t.Fatalf("%v: position %v, heat %v", r.Entity, r.A.X, r.B.Heat)
		}
		seen = append(seen, r.Entity)
	}
	if len(seen) != len(burning) || q.Count() != len(burning) {
		t.Fatalf("visited %d, Count %d, want %d", len(seen), q.Count(), len(burning))
	}
	it := q.Iter()
	n := 0
	for it.Next() {
		p, b := it.Get()
		if p.X != b.Heat || pos.Get(it.Entity()) != p {
			t.Fatal("cursor over a sparse query")
		}
		n++
	}
	chunks := 0
	for c := range q.Chunks() {
		if len(c.Entities) != 1 || len(c.A) != 1 || len(c.B) != 1 || c.A[0].X != c.B[0].Heat {
			t.Fatal("chunk of a sparse query")
		}
		chunks++
	}
	if n != len(burning) || chunks != len(burning) {
		t.Fatalf("cursor %d, chunks %d, want %d", n, chunks, len(burning))
	}
	// Without over a sparse type.
	if got := ecs.NewQuery1[Position](w, ecs.Without(ecs.C[Burning]())).Count(); got != 1000-len(burning) {
		t.Fatalf("Without(Burning) matched %d", got)
	}
}

func TestSparseChangesInsideIterationAreDeferred(t *testing.T) {
	w, burn := sparseWorld()
	pos := ecs.NewMap[Position](w)
	for i := range 10 {
		pos.Add(w.Spawn(), Position{float64(i), 0})
	}
	q := ecs.NewQuery1[Position](w)
	bq := ecs.NewQuery1[Burning](w)
	for r := range q.All() {
		burn.Add(r.Entity, Burning{r.A.X})
		if burn.Has(r.Entity) {
			t.Fatal("sparse add applied inside the loop")
		}
	}
	if bq.Count() != 10 {
		t.Fatalf("Count = %d after the loop", bq.Count())
	}
	for r := range bq.All() {
		burn.Remove(r.Entity)
		r.A.Heat = -1 // the value stays valid for the whole loop
	}
	if bq.Count() != 0 {
		t.Fatalf("Count = %d after removing", bq.Count())
	}
}

func TestSparseValuesAreCollected(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[Holder](w, ecs.Sparse())
	m := ecs.NewMap[Holder](w)
	es, ws := spawnHolders(w, m, 100)
	runtime.GC()
	for i := range es {
		if ws[i][0].Value() == nil {
			t.Fatal("payload collected while held by a sparse component")
		}
	}
	for i, e := range es {
		if i%2 == 0 {
			m.Remove(e)
		} else {
			w.Despawn(e)
		}
	}
	for range 3 {
		runtime.GC()
	}
	for i := range es {
		for _, wp := range ws[i] {
			if wp.Value() != nil {
				t.Fatalf("payload of entity %d survives its sparse component", i)
			}
		}
	}
	runtime.KeepAlive(w)
}
