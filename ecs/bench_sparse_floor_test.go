package ecs_test

// floorSparseSet is the least a paged sparse set can do for an add and a
// remove with an alive check: the floor under BenchmarkAddRemoveSparse. It
// has Tessera's page size and dense layout but no type erasure, hooks,
// observers, deferral or page pooling, and knows the entity records are one
// flat slice.
type floorSparseSet struct {
	alive []uint32 // generation+1 of each living entity index, 0 if dead
	pages []*[1024]uint32
	dense []floorEntity
	heat  []float64
}

type floorEntity struct{ index, gen uint32 }

//go:noinline
func (s *floorSparseSet) add(e floorEntity, v float64) bool {
	if s.alive[e.index] != e.gen+1 {
		return false
	}
	entry := &s.pages[e.index>>10][e.index&1023]
	if *entry != 0 {
		return false
	}
	*entry = uint32(len(s.dense)) + 1
	s.dense = append(s.dense, e)
	s.heat = append(s.heat, v)
	return true
}

//go:noinline
func (s *floorSparseSet) remove(e floorEntity) bool {
	entry := &s.pages[e.index>>10][e.index&1023]
	i := int(*entry) - 1
	if i < 0 || s.dense[i] != e {
		return false
	}
	last := len(s.dense) - 1
	moved := s.dense[last]
	s.dense[i], s.heat[i] = moved, s.heat[last]
	s.pages[moved.index>>10][moved.index&1023] = uint32(i) + 1
	s.dense, s.heat = s.dense[:last], s.heat[:last]
	*entry = 0
	return true
}

//go:noinline
func addRemoveFloor(s *floorSparseSet, es []floorEntity) {
	for _, e := range es {
		s.add(e, 1)
	}
	for _, e := range es {
		s.remove(e)
	}
}

func newFloorSparseSet(n int) (*floorSparseSet, []floorEntity) {
	s := &floorSparseSet{alive: make([]uint32, n+1)}
	for range (n + 1 + 1023) / 1024 {
		s.pages = append(s.pages, new([1024]uint32))
	}
	es := make([]floorEntity, n)
	for i := range es {
		es[i] = floorEntity{uint32(i + 1), 0}
		s.alive[i+1] = 1
	}
	return s, es
}
