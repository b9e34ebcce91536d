// Package volt implements the peer suite's workloads with
// github.com/akmonengine/volt: one Candidate iterating with Query2.Foreach
// (range over func, one goroutine) and one with Query2.ForeachChannel
// consumed by GOMAXPROCS workers.
package volt

import (
	"runtime"
	"sync"

	ecs "github.com/akmonengine/volt"

	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/akmonengine/volt v1.7.0"

// Candidates returns volt's candidates: "Foreach" implements every
// workload volt can do; "ForeachChannel" the query workloads, run in
// parallel (go-ecs-benchmarks has Foreach only; ForeachChannel is an extra
// row).
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "volt", Module: module, Variant: "Foreach",
			Query2: queries(foreachMove), QueryFragInner: fragInner(foreachMove), QueryFragOuter: fragOuter(foreachMove),
			RandomAccess: randomAccess,
			Create2:      create2, Create2Alloc: create2Alloc,
			Create10:  create10,
			AddRemove: addRemove(false), AddRemoveLarge: addRemove(true),
			Delete2: delete2, Delete10: delete10,
			// Create2Batch, Create10Batch, AddRemoveBatch,
			// AddRemoveLargeBatch, Delete2Batch and Delete10Batch stay nil:
			// volt has no call that creates, deletes or changes the
			// components of many entities at once.
			CreateWorld: func(int) suite.Op {
				var w *ecs.World
				return suite.Op{Run: func() { w = newEmptyWorld() }, Check: func() float64 {
					if w == nil {
						return -1
					}
					return 0
				}}
			},
		},
		{
			Name: "volt", Module: module, Variant: "ForeachChannel (parallel)",
			Query2: queries(channelMove), QueryFragInner: fragInner(channelMove), QueryFragOuter: fragOuter(channelMove),
		},
	}
}

// Components: volt needs a GetComponentId method on each component type,
// so each is a local type over the suite's {X, Y float64} struct.
type (
	position suite.Position
	velocity suite.Velocity
	c1       suite.C1
	c2       suite.C2
	c3       suite.C3
	c4       suite.C4
	c5       suite.C5
	c6       suite.C6
	c7       suite.C7
	c8       suite.C8
	c9       suite.C9
	c10      suite.C10
)

const (
	positionID ecs.ComponentId = iota
	velocityID
	c1ID
	c2ID
	c3ID
	c4ID
	c5ID
	c6ID
	c7ID
	c8ID
	c9ID
	c10ID
)

func (position) GetComponentId() ecs.ComponentId { return positionID }
func (velocity) GetComponentId() ecs.ComponentId { return velocityID }
func (c1) GetComponentId() ecs.ComponentId       { return c1ID }
func (c2) GetComponentId() ecs.ComponentId       { return c2ID }
func (c3) GetComponentId() ecs.ComponentId       { return c3ID }
func (c4) GetComponentId() ecs.ComponentId       { return c4ID }
func (c5) GetComponentId() ecs.ComponentId       { return c5ID }
func (c6) GetComponentId() ecs.ComponentId       { return c6ID }
func (c7) GetComponentId() ecs.ComponentId       { return c7ID }
func (c8) GetComponentId() ecs.ComponentId       { return c8ID }
func (c9) GetComponentId() ecs.ComponentId       { return c9ID }
func (c10) GetComponentId() ecs.ComponentId      { return c10ID }

func register[T ecs.ComponentInterface](w *ecs.World) {
	ecs.RegisterComponent[T](w, &ecs.ComponentConfig[T]{})
}

// capacity is the initial entity capacity of every world, as
// go-ecs-benchmarks creates them.
const capacity = 1024

//go:noinline
func newEmptyWorld() *ecs.World { return ecs.CreateWorld(capacity) }

// newWorld returns a world with every component registered.
func newWorld() *ecs.World {
	w := ecs.CreateWorld(capacity)
	register[position](w)
	register[velocity](w)
	register[c1](w)
	register[c2](w)
	register[c3](w)
	register[c4](w)
	register[c5](w)
	register[c6](w)
	register[c7](w)
	register[c8](w)
	register[c9](w)
	register[c10](w)
	return w
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func must1(_ ecs.EntityId, err error) { must(err) }

// spawnPosition creates an entity with Position only: volt has no
// one-component creation call, so it is CreateEntity then AddComponent.
func spawnPosition(w *ecs.World, p position) ecs.EntityId {
	e := w.CreateEntity()
	must(ecs.AddComponent(w, e, p))
	return e
}

// addBits gives e the components among C1..Ck whose bit is set in bits.
func addBits(w *ecs.World, e ecs.EntityId, bits, k int) {
	adders := [...]func() error{
		func() error { return ecs.AddComponent(w, e, c1{}) },
		func() error { return ecs.AddComponent(w, e, c2{}) },
		func() error { return ecs.AddComponent(w, e, c3{}) },
		func() error { return ecs.AddComponent(w, e, c4{}) },
		func() error { return ecs.AddComponent(w, e, c5{}) },
		func() error { return ecs.AddComponent(w, e, c6{}) },
		func() error { return ecs.AddComponent(w, e, c7{}) },
		func() error { return ecs.AddComponent(w, e, c8{}) },
	}
	for b := range k {
		if bits>>b&1 == 1 {
			must(adders[b]())
		}
	}
}

type q2 = ecs.Query2[position, velocity]

func newQ2(w *ecs.World) *q2 {
	q := ecs.CreateQuery2[position, velocity](w, ecs.QueryConfiguration{})
	return &q
}

//go:noinline
func foreachMove(q *q2) {
	for r := range q.Foreach(nil) {
		r.A.X += r.B.X
		r.A.Y += r.B.Y
	}
}

// chunkSize is the number of entities per iterator sent by ForeachChannel.
const chunkSize = 4096

//go:noinline
func channelMove(q *q2) {
	ch := q.ForeachChannel(chunkSize, nil)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for seq := range ch {
				for r := range seq {
					r.A.X += r.B.X
					r.A.Y += r.B.Y
				}
			}
		})
	}
	wg.Wait()
}

func sumPositions(w *ecs.World) float64 {
	s := 0.0
	for r := range newQ2(w).Foreach(nil) {
		s += r.A.X + r.A.Y
	}
	return s
}

func spawnBodies(w *ecs.World, n int) {
	for i := range n {
		must1(ecs.CreateEntityWithComponents2(w, position(suite.InitialPosition(i)), velocity(suite.InitialVelocity(i))))
	}
}

func queries(move func(*q2)) suite.Workload {
	return func(n int) suite.Op {
		w := newWorld()
		for range 10 * n {
			spawnPosition(w, position{})
		}
		spawnBodies(w, n)
		q := newQ2(w)
		return suite.Op{Run: func() { move(q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

func fragInner(move func(*q2)) suite.Workload {
	return func(n int) suite.Op {
		w := newWorld()
		for i := range n {
			e, err := ecs.CreateEntityWithComponents2(w, position(suite.InitialPosition(i)), velocity(suite.InitialVelocity(i)))
			must(err)
			addBits(w, e, i%32, 5)
		}
		q := newQ2(w)
		return suite.Op{Run: func() { move(q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

func fragOuter(move func(*q2)) suite.Workload {
	return func(n int) suite.Op {
		w := newWorld()
		spawnBodies(w, n)
		for j := range 4 * n {
			e := spawnPosition(w, position{})
			addBits(w, e, j%256, 8)
		}
		q := newQ2(w)
		return suite.Op{Run: func() { move(q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

//go:noinline
func sumX(w *ecs.World, es []ecs.EntityId) float64 {
	s := 0.0
	for _, e := range es {
		s += ecs.GetComponent[position](w, e).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := newWorld()
	es := make([]ecs.EntityId, n)
	for i := range es {
		es[i] = spawnPosition(w, position(suite.InitialPosition(i)))
	}
	shuffled := make([]ecs.EntityId, n)
	for i, j := range suite.Shuffle(n) {
		shuffled[i] = es[j]
	}
	var sum float64
	return suite.Op{Run: func() { sum = sumX(w, shuffled) }, Check: func() float64 { return sum }}
}

// spawnEach creates n entities with zero Position and Velocity one at a
// time, appending each to es.
//
//go:noinline
func spawnEach(w *ecs.World, es []ecs.EntityId, n int) []ecs.EntityId {
	for range n {
		e, err := ecs.CreateEntityWithComponents2(w, position{}, velocity{})
		if err != nil {
			panic(err)
		}
		es = append(es, e)
	}
	return es
}

// spawnLoose is spawnEach that collects nothing (create2_alloc).
//
//go:noinline
func spawnLoose(w *ecs.World, n int) {
	for range n {
		if _, err := ecs.CreateEntityWithComponents2(w, position{}, velocity{}); err != nil {
			panic(err)
		}
	}
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(w *ecs.World) float64 {
	s := 0.0
	for r := range newQ2(w).Foreach(nil) {
		s += 1 + r.A.X + r.A.Y + r.B.X + r.B.Y
	}
	return s
}

// removeAll removes the entities es, one at a time (unmeasured).
func removeAll(w *ecs.World, es []ecs.EntityId) []ecs.EntityId {
	for _, e := range es {
		w.RemoveEntity(e)
	}
	return es[:0]
}

func create2(n int) suite.Op {
	w := newWorld()
	es := removeAll(w, spawnEach(w, make([]ecs.EntityId, 0, n), n)) // the warm-up
	return suite.Op{
		Run:   func() { es = spawnEach(w, es, n) },
		Reset: func() { es = removeAll(w, es) },
		Check: func() float64 { return createdCheck(w) },
	}
}

func create2Alloc(n int) suite.Op {
	var w *ecs.World
	return suite.Op{
		Run: func() { spawnLoose(w, n) },
		Reset: func() {
			w = ecs.CreateWorld(capacity)
			register[position](w)
			register[velocity](w)
		},
		Check: func() float64 { return createdCheck(w) },
	}
}

// spawnTen creates an entity with C1..C10 as go-ecs-benchmarks does:
// creation calls take at most eight components, so it is created with
// C1..C8 and given C9 and C10.
func spawnTen(w *ecs.World) (ecs.EntityId, error) {
	e, err := ecs.CreateEntityWithComponents8(w, c1{}, c2{}, c3{}, c4{}, c5{}, c6{}, c7{}, c8{})
	if err != nil {
		return e, err
	}
	return e, ecs.AddComponents2(w, e, c9{}, c10{})
}

//go:noinline
func spawnTenEach(w *ecs.World, es []ecs.EntityId, n int) []ecs.EntityId {
	for range n {
		e, err := spawnTen(w)
		if err != nil {
			panic(err)
		}
		es = append(es, e)
	}
	return es
}

func countWith[T ecs.ComponentInterface](w *ecs.World) float64 {
	q := ecs.CreateQuery1[T](w, ecs.QueryConfiguration{})
	return float64(q.Count())
}

func create10(n int) suite.Op {
	w := newWorld()
	es := removeAll(w, spawnTenEach(w, make([]ecs.EntityId, 0, n), n)) // the warm-up
	return suite.Op{
		Run:   func() { es = spawnTenEach(w, es, n) },
		Reset: func() { es = removeAll(w, es) },
		Check: func() float64 { return countWith[c10](w) },
	}
}

// addRemoveEach adds a zero Velocity to every entity, then removes it from
// every entity.
//
//go:noinline
func addRemoveEach(w *ecs.World, es []ecs.EntityId) {
	for _, e := range es {
		if err := ecs.AddComponent(w, e, velocity{}); err != nil {
			panic(err)
		}
	}
	for _, e := range es {
		if err := ecs.RemoveComponent[velocity](w, e); err != nil {
			panic(err)
		}
	}
}

func addRemove(large bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorld()
		es := make([]ecs.EntityId, n)
		for i := range es {
			p := position(suite.InitialPosition(i))
			if large {
				e, err := ecs.CreateEntityWithComponents8(w, p, c1{}, c2{}, c3{}, c4{}, c5{}, c6{}, c7{})
				must(err)
				must(ecs.AddComponents3(w, e, c8{}, c9{}, c10{}))
				es[i] = e
			} else {
				es[i] = spawnPosition(w, p)
			}
		}
		addRemoveEach(w, es)
		return suite.Op{
			Run: func() { addRemoveEach(w, es) },
			Check: func() float64 {
				c := 0
				for _, e := range es {
					if w.HasComponents(e, positionID) && !w.HasComponents(e, velocityID) {
						c++
					}
				}
				return float64(c)
			},
		}
	}
}

//go:noinline
func removeEach(w *ecs.World, es []ecs.EntityId) {
	for _, e := range es {
		w.RemoveEntity(e)
	}
}

// deleteOp prepares delete2 or delete10: Reset creates n entities with
// spawn, Run removes them one at a time. Check counts the entities left
// with Position or C10 (World.Count counts the preallocated entity table).
func deleteOp(n int, spawn func(w *ecs.World, i int) (ecs.EntityId, error)) suite.Op {
	w := newWorld()
	es := make([]ecs.EntityId, n)
	return suite.Op{
		Run: func() { removeEach(w, es) },
		Reset: func() {
			for i := range es {
				e, err := spawn(w, i)
				must(err)
				es[i] = e
			}
		},
		Check: func() float64 { return countWith[position](w) + countWith[c10](w) },
	}
}

func delete2(n int) suite.Op {
	return deleteOp(n, func(w *ecs.World, i int) (ecs.EntityId, error) {
		return ecs.CreateEntityWithComponents2(w, position(suite.InitialPosition(i)), velocity(suite.InitialVelocity(i)))
	})
}

func delete10(n int) suite.Op {
	return deleteOp(n, func(w *ecs.World, _ int) (ecs.EntityId, error) { return spawnTen(w) })
}
