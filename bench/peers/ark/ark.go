// Package ark runs the peer suite on github.com/mlange-42/ark.
package ark

import (
	"github.com/mlange-42/ark/ecs"
	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/mlange-42/ark v0.8.3"

// capacity is the initial capacity of every world.
const capacity = 1024

type (
	pos = suite.Position
	vel = suite.Velocity
)

// Candidates returns Ark with per-entity iteration (Query2.Next/Get), which
// also carries every non-iteration workload, and Ark with per-table
// iteration (Query2.NextTable/GetColumns), which only differs in the
// iteration workloads and implements only those.
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "ark", Module: module, Variant: "per entity (Query2.Get)",
			Query2: query2(false), QueryFragInner: fragInner(false), QueryFragOuter: fragOuter(false),
			RandomAccess: randomAccess,
			Create2:      create2(false), Create2Batch: create2(true), Create2Alloc: create2Alloc,
			Create10: create10(false), Create10Batch: create10(true),
			AddRemove: addRemove(false, false), AddRemoveBatch: addRemove(false, true),
			AddRemoveLarge: addRemove(true, false), AddRemoveLargeBatch: addRemove(true, true),
			Delete2: deleteN(false, false), Delete2Batch: deleteN(false, true),
			Delete10: deleteN(true, false), Delete10Batch: deleteN(true, true),
			CreateWorld: createWorld,
		},
		{
			Name: "ark", Module: module, Variant: "per table (Query2.GetColumns)",
			Query2: query2(true), QueryFragInner: fragInner(true), QueryFragOuter: fragOuter(true),
		},
	}
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
func moveEntities(f *ecs.Filter2[pos, vel]) {
	q := f.Query()
	for q.Next() {
		p, v := q.Get()
		p.X += v.X
		p.Y += v.Y
	}
}

//go:noinline
func moveTables(f *ecs.Filter2[pos, vel]) {
	q := f.Query()
	for q.NextTable() {
		ps, vs := q.GetColumns()
		vs = vs[:len(ps)]
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	}
}

// moveOp iterates the Position+Velocity entities of w with a registered
// filter.
func moveOp(w *ecs.World, tables bool) suite.Op {
	f := ecs.NewFilter2[pos, vel](w).Register()
	run := func() { moveEntities(f) }
	if tables {
		run = func() { moveTables(f) }
	}
	return suite.Op{Run: run, Check: func() float64 {
		s := 0.0
		q := f.Query()
		for q.Next() {
			p, _ := q.Get()
			s += p.X + p.Y
		}
		return s
	}}
}

func query2(tables bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		for i := range n {
			p, v := suite.InitialPosition(i), suite.InitialVelocity(i)
			m.NewEntity(&p, &v)
		}
		return moveOp(w, tables)
	}
}

func fragInner(tables bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		pv := []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
		cs := tenIDs(w)[:5]
		for i := range n {
			e := w.Unsafe().NewEntity(withBits(pv, cs, i%32)...)
			p, v := m.Get(e)
			*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
		}
		return moveOp(w, tables)
	}
}

func fragOuter(tables bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		for i := range n {
			p, v := suite.InitialPosition(i), suite.InitialVelocity(i)
			m.NewEntity(&p, &v)
		}
		pm := ecs.NewMap[pos](w)
		cs := tenIDs(w)[:8]
		base := []ecs.ID{ecs.ComponentID[pos](w)}
		for j := range 4 * n {
			e := w.Unsafe().NewEntity(withBits(base, cs, j%256)...)
			*pm.Get(e) = suite.InitialPosition(j)
		}
		return moveOp(w, tables)
	}
}

// --- random access ---

//go:noinline
func sumX(m *ecs.Map[pos], es []ecs.Entity) float64 {
	s := 0.0
	for _, e := range es {
		s += m.Get(e).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := ecs.NewWorld(capacity)
	m := ecs.NewMap[pos](w)
	created := make([]ecs.Entity, n)
	for i := range n {
		p := suite.InitialPosition(i)
		created[i] = m.NewEntity(&p)
	}
	es := make([]ecs.Entity, n)
	for k, i := range suite.Shuffle(n) {
		es[k] = created[i]
	}
	var sum float64
	return suite.Op{Run: func() { sum = sumX(m, es) }, Check: func() float64 { return sum }}
}

// --- creation ---

// createEach2 initialises through NewEntityFn's callback, measured faster
// than NewEntity with pointers to prepared values.
//
//go:noinline
func createEach2(m *ecs.Map2[pos, vel], n int) {
	for i := range n {
		m.NewEntityFn(func(p *pos, v *vel) {
			*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
		})
	}
}

//go:noinline
func createBatch2(m *ecs.Map2[pos, vel], n int) {
	i := 0
	m.NewBatchFn(n, func(_ ecs.Entity, p *pos, v *vel) {
		*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
		i++
	})
}

func createdSum(w *ecs.World) float64 {
	s := 0.0
	q := ecs.NewFilter2[pos, vel](w).Query()
	for q.Next() {
		p, v := q.Get()
		s += p.X + p.Y + v.X + v.Y
	}
	return s
}

func removeAll(w *ecs.World) {
	w.RemoveEntities(ecs.NewFilter0(w).Batch(), nil)
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		createEach2(m, n)
		removeAll(w)
		run := func() { createEach2(m, n) }
		if batch {
			run = func() { createBatch2(m, n) }
		}
		return suite.Op{Run: run, Reset: func() { removeAll(w) }, Check: func() float64 { return createdSum(w) }}
	}
}

//go:noinline
func allocCreate2(n int) *ecs.World {
	w := ecs.NewWorld(capacity)
	createEach2(ecs.NewMap2[pos, vel](w), n)
	return w
}

func create2Alloc(n int) suite.Op {
	var w *ecs.World
	return suite.Op{Run: func() { w = allocCreate2(n) }, Check: func() float64 { return createdSum(w) }}
}

type map10 = ecs.Map10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10]

func newMap10(w *ecs.World) *map10 {
	return ecs.NewMap10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10](w)
}

// New rows are zeroed, so a nil initialiser gives zero components.

//go:noinline
func createEach10(m *map10, n int) {
	for range n {
		m.NewEntityFn(nil)
	}
}

//go:noinline
func createBatch10(m *map10, n int) {
	m.NewBatchFn(n, nil)
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := newMap10(w)
		createEach10(m, n)
		removeAll(w)
		run := func() { createEach10(m, n) }
		if batch {
			run = func() { createBatch10(m, n) }
		}
		c10 := ecs.NewFilter1[suite.C10](w)
		return suite.Op{Run: run, Reset: func() { removeAll(w) }, Check: func() float64 {
			q := c10.Query()
			defer q.Close()
			return float64(q.Count())
		}}
	}
}

// --- add / remove ---

//go:noinline
func addRemoveEach(m *ecs.Map[vel], es []ecs.Entity) {
	for i, e := range es {
		v := suite.InitialVelocity(i)
		m.Add(e, &v)
	}
	for _, e := range es {
		m.Remove(e)
	}
}

// addRemoveBatch adds Velocity to the entities of without and removes it
// from those of with; vs holds each entity's Velocity by entity ID.
//
//go:noinline
func addRemoveBatch(m *ecs.Map[vel], without *ecs.Filter1[pos], with *ecs.Filter2[pos, vel], vs []vel) {
	m.AddBatchFn(without.Batch(), func(e ecs.Entity, v *vel) { *v = vs[e.ID()] })
	m.RemoveBatch(with.Batch(), nil)
}

func addRemove(large, batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		pm := ecs.NewMap[pos](w)
		ids := []ecs.ID{ecs.ComponentID[pos](w)}
		if large {
			ids = append(ids, tenIDs(w)...)
		}
		es := make([]ecs.Entity, n)
		maxID := uint32(0)
		for i := range n {
			es[i] = w.Unsafe().NewEntity(ids...)
			*pm.Get(es[i]) = suite.InitialPosition(i)
			maxID = max(maxID, es[i].ID())
		}
		vs := make([]vel, maxID+1)
		for i, e := range es {
			vs[e.ID()] = suite.InitialVelocity(i)
		}
		m := ecs.NewMap[vel](w)
		without := ecs.NewFilter1[pos](w).Without(ecs.C[vel]())
		with := ecs.NewFilter2[pos, vel](w)
		run := func() { addRemoveEach(m, es) }
		if batch {
			run = func() { addRemoveBatch(m, without, with, vs) }
		}
		run()
		return suite.Op{Run: run, Check: func() float64 {
			q := without.Query()
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
func removeBatch(w *ecs.World, f *ecs.Filter0) {
	w.RemoveEntities(f.Batch(), nil)
}

func deleteN(ten, batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		ids := []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
		f := ecs.NewFilter0(w).With(ecs.C[pos](), ecs.C[vel]())
		if ten {
			ids = tenIDs(w)
			f = ecs.NewFilter0(w).With(ecs.C[suite.C1](), ecs.C[suite.C10]())
		}
		es := make([]ecs.Entity, 0, n)
		// reset removes whatever Run left and creates the n entities.
		reset := func() {
			removeAll(w)
			es = es[:0]
			for i := range n {
				e := w.Unsafe().NewEntity(ids...)
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
func newWorld() *ecs.World { return ecs.NewWorld(capacity) }

func createWorld(int) suite.Op {
	var w *ecs.World
	return suite.Op{Run: func() { w = newWorld() }, Check: func() float64 {
		if w == nil {
			return -1
		}
		return 0
	}}
}
