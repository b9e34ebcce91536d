// Package donburi implements the peer suite's workloads with
// github.com/yohamta/donburi.
//
// Donburi stores every component value in its own heap allocation and keeps
// per-archetype slices of pointers to them; entities are reached through a
// shared *Entry per entity id (World.Entry).
package donburi

import (
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/yohamta/donburi v1.15.8"

// Component types are registered globally in donburi, so they are created
// once per process.
var (
	position = dbr.NewComponentType[suite.Position]()
	velocity = dbr.NewComponentType[suite.Velocity]()
	c1       = dbr.NewComponentType[suite.C1]()
	c2       = dbr.NewComponentType[suite.C2]()
	c3       = dbr.NewComponentType[suite.C3]()
	c4       = dbr.NewComponentType[suite.C4]()
	c5       = dbr.NewComponentType[suite.C5]()
	c6       = dbr.NewComponentType[suite.C6]()
	c7       = dbr.NewComponentType[suite.C7]()
	c8       = dbr.NewComponentType[suite.C8]()
	c9       = dbr.NewComponentType[suite.C9]()
	c10      = dbr.NewComponentType[suite.C10]()
)

// Component lists passed to World.Create/CreateMany. Prebuilt, so the
// variadic call does not allocate a fresh slice per entity.
var (
	pvTypes    = []dbr.IComponentType{position, velocity}
	posTypes   = []dbr.IComponentType{position}
	tenTypes   = []dbr.IComponentType{c1, c2, c3, c4, c5, c6, c7, c8, c9, c10}
	largeTypes = []dbr.IComponentType{position, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10}
	bitTypes   = []dbr.IComponentType{c1, c2, c3, c4, c5, c6, c7, c8}
)

// Candidates returns donburi's candidates: "Each" implements every workload
// the library supports; "Iter" the query workloads with range over
// Query.Iter (go-ecs-benchmarks has Each only; Iter is an extra row).
//
// Donburi has no batch delete, add or remove (World.Remove and
// Entry.AddComponent/RemoveComponent take one entity), so the
// add_remove*, delete* batch fields are nil. World.CreateMany is its batch
// create (go-ecs-benchmarks has no batch rows for Donburi; these are
// extra).
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "donburi", Module: module, Variant: "Each",
			Query2: query2(eachMove), QueryFragInner: fragInner(eachMove), QueryFragOuter: fragOuter(eachMove),
			RandomAccess: randomAccess,
			Create2:      create2(false), Create2Batch: create2(true),
			Create2Alloc: create2Alloc(false), Create2AllocBatch: create2Alloc(true),
			Create10: create10(false), Create10Batch: create10(true),
			AddRemove: addRemove(posTypes), AddRemoveLarge: addRemove(largeTypes),
			Delete2: deleteN(pvTypes), Delete10: deleteN(tenTypes),
			CreateWorld: func(int) suite.Op {
				var w dbr.World
				return suite.Op{Run: func() { w = dbr.NewWorld() }, Check: func() float64 { return float64(w.Len()) }}
			},
		},
		{
			Name: "donburi", Module: module, Variant: "Iter",
			Query2: query2(iterMove), QueryFragInner: fragInner(iterMove), QueryFragOuter: fragOuter(iterMove),
		},
	}
}

func newMoveQuery() *dbr.Query { return dbr.NewQuery(filter.Contains(position, velocity)) }

//go:noinline
func eachMove(w dbr.World, q *dbr.Query) {
	q.Each(w, func(e *dbr.Entry) {
		p, v := position.Get(e), velocity.Get(e)
		p.X += v.X
		p.Y += v.Y
	})
}

//go:noinline
func iterMove(w dbr.World, q *dbr.Query) {
	for e := range q.Iter(w) {
		p, v := position.Get(e), velocity.Get(e)
		p.X += v.X
		p.Y += v.Y
	}
}

type mover func(dbr.World, *dbr.Query)

// sumPositions sums p.X + p.Y over the entities with Position and Velocity.
func sumPositions(w dbr.World) float64 {
	s := 0.0
	newMoveQuery().Each(w, func(e *dbr.Entry) {
		p := position.Get(e)
		s += p.X + p.Y
	})
	return s
}

// spawn creates one entity with types and gives it Position and Velocity
// of entity i.
func spawn(w dbr.World, types []dbr.IComponentType, i int) {
	e := w.Entry(w.Create(types...))
	position.SetValue(e, suite.InitialPosition(i))
	velocity.SetValue(e, suite.InitialVelocity(i))
}

// withBits returns base followed by the components of bitTypes[:k] whose
// bit is set in bits.
func withBits(base []dbr.IComponentType, bits, k int) []dbr.IComponentType {
	types := append([]dbr.IComponentType(nil), base...)
	for b := range k {
		if bits>>b&1 == 1 {
			types = append(types, bitTypes[b])
		}
	}
	return types
}

func query2(move mover) suite.Workload {
	return func(n int) suite.Op {
		w := dbr.NewWorld()
		for range 10 * n {
			w.Create(posTypes...)
		}
		for i := range n {
			spawn(w, pvTypes, i)
		}
		q := newMoveQuery()
		return suite.Op{Run: func() { move(w, q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

func fragInner(move mover) suite.Workload {
	return func(n int) suite.Op {
		w := dbr.NewWorld()
		for i := range n {
			spawn(w, withBits(pvTypes, i%32, 5), i)
		}
		q := newMoveQuery()
		return suite.Op{Run: func() { move(w, q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

func fragOuter(move mover) suite.Workload {
	return func(n int) suite.Op {
		w := dbr.NewWorld()
		for i := range n {
			spawn(w, pvTypes, i)
		}
		for j := range 4 * n {
			w.Create(withBits(posTypes, j%256, 8)...)
		}
		q := newMoveQuery()
		return suite.Op{Run: func() { move(w, q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

//go:noinline
func sumX(w dbr.World, es []dbr.Entity) float64 {
	s := 0.0
	for _, e := range es {
		s += (*suite.Position)(w.Entry(e).Component(position)).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := dbr.NewWorld()
	es := make([]dbr.Entity, n)
	for i := range es {
		es[i] = w.Create(posTypes...)
		position.SetValue(w.Entry(es[i]), suite.InitialPosition(i))
	}
	shuffled := make([]dbr.Entity, n)
	for i, j := range suite.Shuffle(n) {
		shuffled[i] = es[j]
	}
	var sum float64
	return suite.Op{Run: func() { sum = sumX(w, shuffled) }, Check: func() float64 { return sum }}
}

// removeAll deletes every entity matched by q, collected first: removing
// during a query swap-removes from the slice being iterated.
func removeAll(w dbr.World, q *dbr.Query) {
	var es []dbr.Entity
	q.Each(w, func(e *dbr.Entry) { es = append(es, e.Entity()) })
	for _, e := range es {
		w.Remove(e)
	}
}

// createEach creates n entities with Position and Velocity (zero values)
// one at a time, appending each to es.
//
//go:noinline
func createEach(w dbr.World, types []dbr.IComponentType, es []dbr.Entity, n int) []dbr.Entity {
	for range n {
		es = append(es, w.Create(types...))
	}
	return es
}

// createLoose is createEach that collects nothing (create2_alloc).
//
//go:noinline
func createLoose(w dbr.World, types []dbr.IComponentType, n int) {
	for range n {
		w.Create(types...)
	}
}

//go:noinline
func createBatch(w dbr.World, types []dbr.IComponentType, n int) {
	w.CreateMany(n, types...)
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(w dbr.World) float64 {
	s := 0.0
	newMoveQuery().Each(w, func(e *dbr.Entry) {
		p, v := position.Get(e), velocity.Get(e)
		s += 1 + p.X + p.Y + v.X + v.Y
	})
	return s
}

// createOp prepares create2 or create10 over types; all matches them.
func createOp(n int, types []dbr.IComponentType, all *dbr.Query, batch bool, check func(dbr.World, *dbr.Query) float64) suite.Op {
	w := dbr.NewWorld()
	es := createEach(w, types, make([]dbr.Entity, 0, n), n) // the warm-up
	removeAll(w, all)
	es = es[:0]
	run := func() { es = createEach(w, types, es, n) }
	if batch {
		run = func() { createBatch(w, types, n) }
	}
	return suite.Op{
		Run:   run,
		Reset: func() { removeAll(w, all); es = es[:0] },
		Check: func() float64 { return check(w, all) },
	}
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		return createOp(n, pvTypes, newMoveQuery(), batch, func(w dbr.World, _ *dbr.Query) float64 { return createdCheck(w) })
	}
}

func create2Alloc(batch bool) suite.Workload {
	return func(n int) suite.Op {
		var w dbr.World
		run := func() { createLoose(w, pvTypes, n) }
		if batch {
			run = func() { createBatch(w, pvTypes, n) }
		}
		return suite.Op{
			Run:   run,
			Reset: func() { w = dbr.NewWorld() },
			Check: func() float64 { return createdCheck(w) },
		}
	}
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		return createOp(n, tenTypes, dbr.NewQuery(filter.Contains(c10)), batch,
			func(w dbr.World, all *dbr.Query) float64 { return float64(all.Count(w)) })
	}
}

// addRemoveEach adds a zero Velocity to every entity, then removes it from
// every entity, with donburi.Add and donburi.Remove as go-ecs-benchmarks
// does.
//
//go:noinline
func addRemoveEach(w dbr.World, es []dbr.Entity) {
	for _, e := range es {
		dbr.Add(w.Entry(e), velocity, &suite.Velocity{})
	}
	for _, e := range es {
		dbr.Remove[suite.Velocity](w.Entry(e), velocity)
	}
}

func addRemove(types []dbr.IComponentType) suite.Workload {
	return func(n int) suite.Op {
		w := dbr.NewWorld()
		es := make([]dbr.Entity, n)
		for i := range es {
			es[i] = w.Create(types...)
		}
		addRemoveEach(w, es)
		without := dbr.NewQuery(filter.And(filter.Contains(position), filter.Not(filter.Contains(velocity))))
		return suite.Op{
			Run:   func() { addRemoveEach(w, es) },
			Check: func() float64 { return float64(without.Count(w)) },
		}
	}
}

//go:noinline
func removeEach(w dbr.World, es []dbr.Entity) {
	for _, e := range es {
		w.Remove(e)
	}
}

func deleteN(types []dbr.IComponentType) suite.Workload {
	return func(n int) suite.Op {
		w := dbr.NewWorld()
		es := make([]dbr.Entity, 0, n)
		// fill creates the n entities Run deletes, unless they are still
		// there: Reset may come before or after a Run.
		fill := func() {
			if len(es) > 0 {
				return
			}
			for range n {
				es = append(es, w.Create(types...))
			}
		}
		fill()
		return suite.Op{
			Run: func() {
				removeEach(w, es)
				es = es[:0]
			},
			Reset: fill,
			Check: func() float64 { return float64(w.Len()) },
		}
	}
}
