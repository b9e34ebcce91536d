// Package floor is the plain-Go floor of the peer suite: the work of each
// workload done on slices with no ECS, the fastest any library could be.
// Entities are indices; "deleting" truncates the slices.
package floor

import "github.com/tessera-ecs/tessera/bench/suite"

// Candidate returns the floor. It implements the iteration, random-access,
// create and delete workloads; add_remove has no slice equivalent.
func Candidate() *suite.Candidate {
	return &suite.Candidate{
		Name: "floor", Variant: "plain slices",
		Query2: query2, QueryFragInner: query2, QueryFragOuter: query2,
		RandomAccess: randomAccess,
		Create2:      create2, Create2Batch: create2, Create2Alloc: create2Alloc,
		Create10: create10, Create10Batch: create10,
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

//go:noinline
func move(pos []suite.Position, vel []suite.Velocity) {
	vel = vel[:len(pos)]
	for i := range pos {
		pos[i].X += vel[i].X
		pos[i].Y += vel[i].Y
	}
}

func query2(n int) suite.Op {
	b := newBodies(n)
	return suite.Op{Run: func() { move(b.pos, b.vel) }, Check: b.sum}
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

//go:noinline
func fill(b *bodies, n int) {
	for i := range n {
		b.pos = append(b.pos, suite.InitialPosition(i))
		b.vel = append(b.vel, suite.InitialVelocity(i))
	}
}

func createdSum(b *bodies) float64 {
	s := 0.0
	for i, p := range b.pos {
		s += p.X + p.Y + b.vel[i].X + b.vel[i].Y
	}
	return s
}

func create2(n int) suite.Op {
	b := &bodies{pos: make([]suite.Position, 0, n), vel: make([]suite.Velocity, 0, n)}
	return suite.Op{
		Run:   func() { fill(b, n) },
		Reset: func() { b.pos, b.vel = b.pos[:0], b.vel[:0] },
		Check: func() float64 { return createdSum(b) },
	}
}

func create2Alloc(n int) suite.Op {
	var b *bodies
	return suite.Op{
		Run:   func() { b = &bodies{}; fill(b, n) },
		Check: func() float64 { return createdSum(b) },
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

func create10(n int) suite.Op {
	t := &ten{}
	fillTen(t, n)
	return suite.Op{
		Run: func() { fillTen(t, n) },
		Reset: func() {
			t.c1, t.c2, t.c3, t.c4, t.c5 = t.c1[:0], t.c2[:0], t.c3[:0], t.c4[:0], t.c5[:0]
			t.c6, t.c7, t.c8, t.c9, t.c10 = t.c6[:0], t.c7[:0], t.c8[:0], t.c9[:0], t.c10[:0]
		},
		Check: func() float64 { return float64(len(t.c10)) },
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
