// Package arche runs the peer suite on github.com/mlange-42/arche.
package arche

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/mlange-42/arche v0.15.3"

// capacity is the initial capacity of every world.
const capacity = 1024

type (
	pos = suite.Position
	vel = suite.Velocity
)

// Candidates returns Arche through its generic API. Arche has no per-table
// (column) access, so there is a single, per-entity, variant.
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{{
		Name: "arche", Module: module, Variant: "generic (Query2.Get)",
		Query2: query2, QueryFragInner: fragInner, QueryFragOuter: fragOuter,
		RandomAccess: randomAccess,
		Create2:      create2(false), Create2Batch: create2(true), Create2Alloc: create2Alloc,
		Create10: create10(false), Create10Batch: create10(true),
		AddRemove: addRemove(false, false), AddRemoveBatch: addRemove(false, true),
		AddRemoveLarge: addRemove(true, false), AddRemoveLargeBatch: addRemove(true, true),
		Delete2: deleteN(false, false), Delete2Batch: deleteN(false, true),
		Delete10: deleteN(true, false), Delete10Batch: deleteN(true, true),
		CreateWorld: createWorld,
	}}
}

func newWorldPtr() *ecs.World {
	w := ecs.NewWorld(capacity)
	return &w
}

// tenIDs returns the IDs of C1..C10.
func tenIDs(w *ecs.World) []ecs.ID {
	return []ecs.ID{
		ecs.ComponentID[suite.C1](w), ecs.ComponentID[suite.C2](w), ecs.ComponentID[suite.C3](w),
		ecs.ComponentID[suite.C4](w), ecs.ComponentID[suite.C5](w), ecs.ComponentID[suite.C6](w),
		ecs.ComponentID[suite.C7](w), ecs.ComponentID[suite.C8](w), ecs.ComponentID[suite.C9](w),
		ecs.ComponentID[suite.C10](w),
	}
}

// withBits appends to base the IDs of cs whose bit is set in mask.
func withBits(base, cs []ecs.ID, mask int) []ecs.ID {
	ids := append([]ecs.ID(nil), base...)
	for b, id := range cs {
		if mask&(1<<b) != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// --- iteration ---

//go:noinline
func move(w *ecs.World, f *generic.Filter2[pos, vel]) {
	q := f.Query(w)
	for q.Next() {
		p, v := q.Get()
		p.X += v.X
		p.Y += v.Y
	}
}

// moveOp iterates the Position+Velocity entities of w with a registered
// filter.
func moveOp(w *ecs.World) suite.Op {
	f := generic.NewFilter2[pos, vel]()
	f.Register(w)
	return suite.Op{Run: func() { move(w, f) }, Check: func() float64 {
		s := 0.0
		q := f.Query(w)
		for q.Next() {
			p, _ := q.Get()
			s += p.X + p.Y
		}
		return s
	}}
}

// spawnPV creates n entities with Position and Velocity and their initial
// values.
func spawnPV(w *ecs.World, n int) {
	m := generic.NewMap2[pos, vel](w)
	for i := range n {
		p, v := suite.InitialPosition(i), suite.InitialVelocity(i)
		m.NewWith(&p, &v)
	}
}

func query2(n int) suite.Op {
	w := newWorldPtr()
	spawnPV(w, n)
	return moveOp(w)
}

func fragInner(n int) suite.Op {
	w := newWorldPtr()
	m := generic.NewMap2[pos, vel](w)
	pv := []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
	cs := tenIDs(w)[:5]
	for i := range n {
		e := w.NewEntity(withBits(pv, cs, i%32)...)
		p, v := m.Get(e)
		*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
	}
	return moveOp(w)
}

func fragOuter(n int) suite.Op {
	w := newWorldPtr()
	spawnPV(w, n)
	pm := generic.NewMap[pos](w)
	cs := tenIDs(w)[:8]
	base := []ecs.ID{ecs.ComponentID[pos](w)}
	for j := range 4 * n {
		e := w.NewEntity(withBits(base, cs, j%256)...)
		*pm.Get(e) = suite.InitialPosition(j)
	}
	return moveOp(w)
}

// --- random access ---

//go:noinline
func sumX(m *generic.Map[pos], es []ecs.Entity) float64 {
	s := 0.0
	for _, e := range es {
		s += m.Get(e).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := newWorldPtr()
	m := generic.NewMap1[pos](w)
	created := make([]ecs.Entity, n)
	for i := range n {
		p := suite.InitialPosition(i)
		created[i] = m.NewWith(&p)
	}
	es := make([]ecs.Entity, n)
	for k, i := range suite.Shuffle(n) {
		es[k] = created[i]
	}
	get := generic.NewMap[pos](w)
	var sum float64
	return suite.Op{Run: func() { sum = sumX(&get, es) }, Check: func() float64 { return sum }}
}

// --- creation ---

// createEach2 creates with Map2.New and sets through Map2.Get, measured
// faster than Map2.NewWith, which goes through a callback.
//
//go:noinline
func createEach2(m *generic.Map2[pos, vel], n int) {
	for i := range n {
		p, v := m.Get(m.New())
		*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
	}
}

//go:noinline
func createBatch2(m *generic.Map2[pos, vel], n int) {
	q := m.NewBatchQ(n)
	for i := 0; q.Next(); i++ {
		p, v := q.Get()
		*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
	}
}

func createdSum(w *ecs.World) float64 {
	s := 0.0
	q := generic.NewFilter2[pos, vel]().Query(w)
	for q.Next() {
		p, v := q.Get()
		s += p.X + p.Y + v.X + v.Y
	}
	return s
}

func removeAll(w *ecs.World) {
	w.Batch().RemoveEntities(ecs.All())
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		m := generic.NewMap2[pos, vel](w)
		createEach2(&m, n)
		removeAll(w)
		run := func() { createEach2(&m, n) }
		if batch {
			run = func() { createBatch2(&m, n) }
		}
		return suite.Op{Run: run, Reset: func() { removeAll(w) }, Check: func() float64 { return createdSum(w) }}
	}
}

//go:noinline
func allocCreate2(n int) *ecs.World {
	w := newWorldPtr()
	m := generic.NewMap2[pos, vel](w)
	createEach2(&m, n)
	return w
}

func create2Alloc(n int) suite.Op {
	var w *ecs.World
	return suite.Op{Run: func() { w = allocCreate2(n) }, Check: func() float64 { return createdSum(w) }}
}

type map10 = generic.Map10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10]

// Map10.New and NewBatch create zeroed components.

//go:noinline
func createEach10(m *map10, n int) {
	for range n {
		m.New()
	}
}

//go:noinline
func createBatch10(m *map10, n int) {
	m.NewBatch(n)
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		m := generic.NewMap10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10](w)
		createEach10(&m, n)
		removeAll(w)
		run := func() { createEach10(&m, n) }
		if batch {
			run = func() { createBatch10(&m, n) }
		}
		c10 := generic.NewFilter1[suite.C10]()
		return suite.Op{Run: run, Reset: func() { removeAll(w) }, Check: func() float64 {
			q := c10.Query(w)
			defer q.Close()
			return float64(q.Count())
		}}
	}
}

// --- add / remove ---

//go:noinline
func addRemoveEach(m *generic.Map1[vel], es []ecs.Entity) {
	for i, e := range es {
		v := suite.InitialVelocity(i)
		m.Assign(e, &v)
	}
	for _, e := range es {
		m.Remove(e)
	}
}

// addRemoveBatch adds Velocity to the entities of without and removes it
// from those of with; vs holds each entity's Velocity by entity ID.
//
//go:noinline
func addRemoveBatch(m *generic.Map1[vel], without, with ecs.Filter, vs []vel) {
	q := m.AddBatchQ(without)
	for q.Next() {
		*q.Get() = vs[q.Entity().ID()]
	}
	m.RemoveBatch(with)
}

func addRemove(large, batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		pm := generic.NewMap[pos](w)
		posID, velID := ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)
		ids := []ecs.ID{posID}
		if large {
			ids = append(ids, tenIDs(w)...)
		}
		es := make([]ecs.Entity, n)
		maxID := uint32(0)
		for i := range n {
			es[i] = w.NewEntity(ids...)
			*pm.Get(es[i]) = suite.InitialPosition(i)
			maxID = max(maxID, es[i].ID())
		}
		vs := make([]vel, maxID+1)
		for i, e := range es {
			vs[e.ID()] = suite.InitialVelocity(i)
		}
		m := generic.NewMap1[vel](w)
		mf := ecs.All(posID).Without(velID)
		var without, with ecs.Filter = &mf, ecs.All(posID, velID)
		run := func() { addRemoveEach(&m, es) }
		if batch {
			run = func() { addRemoveBatch(&m, without, with, vs) }
		}
		run()
		return suite.Op{Run: run, Check: func() float64 {
			q := w.Query(without)
			defer q.Close()
			return float64(q.Count())
		}}
	}
}

// --- deletion ---

//go:noinline
func removeEach(w *ecs.World, es []ecs.Entity) {
	for _, e := range es {
		w.RemoveEntity(e)
	}
}

//go:noinline
func removeBatch(w *ecs.World, f ecs.Filter) {
	w.Batch().RemoveEntities(f)
}

func deleteN(ten, batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		m := generic.NewMap2[pos, vel](w)
		ids := []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
		if ten {
			ids = tenIDs(w)
		}
		var f ecs.Filter = ecs.All(ids...)
		es := make([]ecs.Entity, 0, n)
		// reset removes whatever Run left and creates the n entities.
		reset := func() {
			removeAll(w)
			es = es[:0]
			for i := range n {
				e := w.NewEntity(ids...)
				if !ten {
					p, v := m.Get(e)
					*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
				}
				es = append(es, e)
			}
		}
		reset()
		run := func() { removeEach(w, es) }
		if batch {
			run = func() { removeBatch(w, f) }
		}
		return suite.Op{Run: run, Reset: reset, Check: func() float64 { return float64(w.Stats().Entities.Used) }}
	}
}

// --- world creation ---

//go:noinline
func newWorld() *ecs.World { return newWorldPtr() }

func createWorld(int) suite.Op {
	var w *ecs.World
	return suite.Op{Run: func() { w = newWorld() }, Check: func() float64 {
		if w == nil {
			return -1
		}
		return 0
	}}
}
