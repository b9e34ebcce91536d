package ecs

import "testing"

type sparseTag struct{ V int }

func TestSparsePagesAllocatedWhereUsedAndPooled(t *testing.T) {
	w := NewWorld()
	Register[sparseTag](w, Sparse())
	m := NewMap[sparseTag](w)
	s := m.sparse
	es := make([]Entity, 5000)
	for i := range es {
		es[i] = w.Spawn()
	}
	// Only entities on one page (indices 3072..4095) get the component.
	for _, e := range es[3100:3200] {
		m.Add(e, sparseTag{int(e.index)})
	}
	live := 0
	for _, p := range s.pages {
		if p != nil {
			live++
		}
	}
	if live != 1 {
		t.Fatalf("%d sparse pages for 100 entities on one page", live)
	}
	for _, e := range es[3100:3200] {
		m.Remove(e)
	}
	if s.pages[3] != nil || len(s.pool) != 1 {
		t.Fatalf("emptied page not pooled: page %v, pool %d", s.pages[3] != nil, len(s.pool))
	}
	m.Add(es[10], sparseTag{})
	if len(s.pool) != 0 || s.pages[0] == nil {
		t.Fatal("pooled page not reused")
	}
}

func TestCapacityHint(t *testing.T) {
	w := NewWorld()
	Register[sparseTag](w, Sparse(), CapacityHint(500))
	Register[int](w, CapacityHint(300))
	if c := NewMap[sparseTag](w).sparse.capacity; c < 500 {
		t.Errorf("sparse capacity %d after a hint of 500", c)
	}
	e := w.Spawn()
	NewMap[int](w).Add(e, 1)
	if c := w.tableOf(w.entities.lookup(e)).capacity; c < 300 {
		t.Errorf("table capacity %d after a hint of 300", c)
	}
}

func TestSparseDriverIsTheRarestSet(t *testing.T) {
	w := NewWorld()
	Register[sparseTag](w, Sparse())
	pos, tag := NewMap[int](w), NewMap[sparseTag](w)
	for i := range 100 {
		e := w.Spawn()
		pos.Add(e, i)
		if i < 3 {
			tag.Add(e, sparseTag{})
		}
	}
	q := NewQuery2[int, sparseTag](w)
	var it entityIter
	it.start(q.c)
	if it.driver != tag.sparse {
		t.Fatal("a query over 100 table rows and 3 sparse entities is not driven by the sparse set")
	}
	q2 := NewQuery1[int](w, Without(C[sparseTag]()))
	it.start(q2.c)
	if it.driver != nil {
		t.Fatal("Without must not drive a query")
	}
}
