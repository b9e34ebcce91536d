// Package floor is the plain-Go floor of the peer suite: the work of each
// workload done on slices with no ECS, the fastest any library could be.
// Entities are indices; "deleting" truncates the slices. The floor holds
// only the entities a workload touches (query2's 10n Position-only
// entities, which a query skips, do not exist here).
package floor

import (
	"slices"

	"github.com/tessera-ecs/tessera/bench/suite"
)

// Candidate returns the floor. It implements the iteration, random-access,
// create and delete workloads; add_remove has no slice equivalent.
func Candidate() *suite.Candidate {
	return &suite.Candidate{
		Name: "floor", Variant: "plain slices",
		Query2: query2, QueryFragInner: query2, QueryFragOuter: query2,
		RandomAccess: randomAccess,
		Create2:      create2(false), Create2Batch: create2(true),
		Create2Alloc: create2Alloc(false), Create2AllocBatch: create2Alloc(true),
		Create10: create10(false), Create10Batch: create10(true),
		Delete2: delete2, Delete2Batch: delete2, Delete10: delete2, Delete10Batch: delete2,
		CreateWorld: func(int) suite.Op { return suite.Op{Run: func() {}, Check: func() float64 { return 0 }} },
		// The floor has nothing to add or remove: the checksum is n.
		AddRemove: addRemove, AddRemoveBatch: addRemove, AddRemoveLarge: addRemove, AddRemoveLargeBatch: addRemove,
	}
}

type bodies struct {
	pos []suite.Position
	vel []suite.Velocity
}

func newBodies(n int) *bodies {
	b := &bodies{pos: make([]suite.Position, n), vel: make([]suite.Velocity, n)}
	for i := range n {
		b.pos[i], b.vel[i] = suite.InitialPosition(i), suite.InitialVelocity(i)
	}
	return b
}

func (b *bodies) sum() float64 {
	s := 0.0
	for _, p := range b.pos {
		s += p.X + p.Y
	}
	return s
}

func query2(n int) suite.Op {
	b := newBodies(n)
	return suite.Op{Run: func() { suite.MoveRows(b.pos, b.vel) }, Check: b.sum}
}

//go:noinline
func sumX(pos []suite.Position, order []int) float64 {
	s := 0.0
	for _, i := range order {
		s += pos[i].X
	}
	return s
}

func randomAccess(n int) suite.Op {
	b := newBodies(n)
	order := suite.Shuffle(n)
	var sum float64
	return suite.Op{Run: func() { sum = sumX(b.pos, order) }, Check: func() float64 { return sum }}
}

// fillEach appends n zero bodies one at a time.
//
//go:noinline
func fillEach(b *bodies, n int) {
	for range n {
		b.pos = append(b.pos, suite.Position{})
		b.vel = append(b.vel, suite.Velocity{})
	}
}

// fillCollect is fillEach that also appends each new index to ids, as the
// suite's one-at-a-time create appends each new entity to a slice.
//
//go:noinline
func fillCollect(b *bodies, ids []int, n int) []int {
	for range n {
		ids = append(ids, len(b.pos))
		b.pos = append(b.pos, suite.Position{})
		b.vel = append(b.vel, suite.Velocity{})
	}
	return ids
}

// extend appends n zero values to s in one step: grow once, then clear.
func extend[T any](s []T, n int) []T {
	k := len(s)
	s = slices.Grow(s, n)[:k+n]
	clear(s[k:])
	return s
}

// fillBatch appends n zero bodies in one step.
//
//go:noinline
func fillBatch(b *bodies, n int) {
	b.pos, b.vel = extend(b.pos, n), extend(b.vel, n)
}

// createdCheck is the create checksum: the number of bodies plus the sum of
// their values.
func createdCheck(b *bodies) float64 {
	s := float64(len(b.pos))
	for i, p := range b.pos {
		s += p.X + p.Y + b.vel[i].X + b.vel[i].Y
	}
	return s
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		b := &bodies{pos: make([]suite.Position, 0, n), vel: make([]suite.Velocity, 0, n)}
		ids := make([]int, 0, n)
		run := func() { ids = fillCollect(b, ids, n) }
		if batch {
			run = func() { fillBatch(b, n) }
		}
		return suite.Op{
			Run:   run,
			Reset: func() { b.pos, b.vel, ids = b.pos[:0], b.vel[:0], ids[:0] },
			Check: func() float64 { return createdCheck(b) },
		}
	}
}

func create2Alloc(batch bool) suite.Workload {
	return func(n int) suite.Op {
		var b *bodies
		run := func() { fillEach(b, n) }
		if batch {
			run = func() { fillBatch(b, n) }
		}
		return suite.Op{
			Run:   run,
			Reset: func() { b = &bodies{} },
			Check: func() float64 { return createdCheck(b) },
		}
	}
}

type ten struct {
	c1  []suite.C1
	c10 []suite.C10
	c2  []suite.C2
	c3  []suite.C3
	c4  []suite.C4
	c5  []suite.C5
	c6  []suite.C6
	c7  []suite.C7
	c8  []suite.C8
	c9  []suite.C9
}

//go:noinline
func fillTen(t *ten, n int) {
	for range n {
		t.c1, t.c2, t.c3, t.c4, t.c5 = append(t.c1, suite.C1{}), append(t.c2, suite.C2{}), append(t.c3, suite.C3{}), append(t.c4, suite.C4{}), append(t.c5, suite.C5{})
		t.c6, t.c7, t.c8, t.c9, t.c10 = append(t.c6, suite.C6{}), append(t.c7, suite.C7{}), append(t.c8, suite.C8{}), append(t.c9, suite.C9{}), append(t.c10, suite.C10{})
	}
}

// fillTenBatch appends n zero entities in one step.
//
//go:noinline
func fillTenBatch(t *ten, n int) {
	t.c1, t.c2, t.c3, t.c4, t.c5 = extend(t.c1, n), extend(t.c2, n), extend(t.c3, n), extend(t.c4, n), extend(t.c5, n)
	t.c6, t.c7, t.c8, t.c9, t.c10 = extend(t.c6, n), extend(t.c7, n), extend(t.c8, n), extend(t.c9, n), extend(t.c10, n)
}

// fillTenCollect is fillTen that also appends each new index to ids.
//
//go:noinline
func fillTenCollect(t *ten, ids []int, n int) []int {
	for range n {
		ids = append(ids, len(t.c1))
		t.c1, t.c2, t.c3, t.c4, t.c5 = append(t.c1, suite.C1{}), append(t.c2, suite.C2{}), append(t.c3, suite.C3{}), append(t.c4, suite.C4{}), append(t.c5, suite.C5{})
		t.c6, t.c7, t.c8, t.c9, t.c10 = append(t.c6, suite.C6{}), append(t.c7, suite.C7{}), append(t.c8, suite.C8{}), append(t.c9, suite.C9{}), append(t.c10, suite.C10{})
	}
	return ids
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		t := &ten{}
		fillTen(t, n)
		ids := make([]int, 0, n)
		run := func() { ids = fillTenCollect(t, ids, n) }
		if batch {
			run = func() { fillTenBatch(t, n) }
		}
		return suite.Op{
			Run: run,
			Reset: func() {
				t.c1, t.c2, t.c3, t.c4, t.c5 = t.c1[:0], t.c2[:0], t.c3[:0], t.c4[:0], t.c5[:0]
				t.c6, t.c7, t.c8, t.c9, t.c10 = t.c6[:0], t.c7[:0], t.c8[:0], t.c9[:0], t.c10[:0]
				ids = ids[:0]
			},
			Check: func() float64 { return float64(len(t.c10)) },
		}
	}
}

func delete2(n int) suite.Op {
	b := newBodies(n)
	return suite.Op{
		Run:   func() { b.pos, b.vel = b.pos[:0], b.vel[:0] },
		Reset: func() { b.pos, b.vel = b.pos[:n], b.vel[:n] },
		Check: func() float64 { return float64(len(b.pos)) },
	}
}

func addRemove(n int) suite.Op {
	return suite.Op{Run: func() {}, Check: func() float64 { return float64(n) }}
}
