// Package ark runs the peer suite on github.com/mlange-42/ark, with the
// calls go-ecs-benchmarks' Ark benchmarks make.
package ark

import (
	"github.com/mlange-42/ark/ecs"
	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/mlange-42/ark v0.8.3"

// capacity is the initial capacity of every world but create_world's.
const capacity = 1024

type (
	pos = suite.Position
	vel = suite.Velocity
)

// Candidates returns Ark with per-entity iteration (Query2.Next/Get), which
// also carries every non-iteration workload, and Ark with per-table
// iteration (Query2.NextTable/GetColumns), which only differs in the
// iteration workloads and implements only those: go-ecs-benchmarks' "Ark"
// and "Ark (tables)".
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "ark", Module: module, Variant: "per entity (Query2.Get)",
			Query2: query2(false), QueryFragInner: fragInner(false), QueryFragOuter: fragOuter(false),
			RandomAccess: randomAccess,
			Create2:      create2(false), Create2Batch: create2(true),
			Create2Alloc: create2Alloc(false), Create2AllocBatch: create2Alloc(true),
			Create10: create10(false), Create10Batch: create10(true),
			AddRemove: addRemove(false, false), AddRemoveBatch: addRemove(false, true),
			AddRemoveLarge: addRemove(true, false), AddRemoveLargeBatch: addRemove(true, true),
			Delete2: delete2(false), Delete2Batch: delete2(true),
			Delete10: delete10(false), Delete10Batch: delete10(true),
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
		suite.MoveRows(q.GetColumns())
	}
}

// moveOp iterates the Position+Velocity entities of w with a filter that is
// not registered, as go-ecs-benchmarks' Ark benchmarks do: each Query
// call finds the matching tables.
func moveOp(w *ecs.World, tables bool) suite.Op {
	f := ecs.NewFilter2[pos, vel](w)
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

// spawnBodies creates n entities with Position and Velocity and their
// initial values.
func spawnBodies(w *ecs.World, n int) {
	i := 0
	ecs.NewMap2[pos, vel](w).NewBatchFn(n, func(_ ecs.Entity, p *pos, v *vel) {
		*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
		i++
	})
}

func query2(tables bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		ecs.NewMap1[pos](w).NewBatchFn(10*n, nil)
		spawnBodies(w, n)
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
		spawnBodies(w, n)
		cs := tenIDs(w)[:8]
		base := []ecs.ID{ecs.ComponentID[pos](w)}
		for j := range 4 * n {
			w.Unsafe().NewEntity(withBits(base, cs, j%256)...)
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

type map2 = ecs.Map2[pos, vel]

// createEach2 creates n entities with zero components (a nil initialiser)
// one at a time, appending each to es.
//
//go:noinline
func createEach2(m *map2, es []ecs.Entity, n int) []ecs.Entity {
	for range n {
		es = append(es, m.NewEntityFn(nil))
	}
	return es
}

// createLoose2 is createEach2 that collects nothing (create2_alloc).
//
//go:noinline
func createLoose2(m *map2, n int) {
	for range n {
		m.NewEntityFn(nil)
	}
}

//go:noinline
func createBatch2(m *map2, n int) {
	m.NewBatchFn(n, nil)
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(w *ecs.World) float64 {
	s := 0.0
	q := ecs.NewFilter2[pos, vel](w).Query()
	for q.Next() {
		p, v := q.Get()
		s += 1 + p.X + p.Y + v.X + v.Y
	}
	return s
}

// clearCreated deletes what a create round made, as go-ecs-benchmarks'
// Ark benchmarks do: below suite.SmallReset the entities es in reverse
// order, one at a time, else every entity f matches, in one batch. It
// returns es emptied.
func clearCreated(w *ecs.World, f *ecs.Filter0, es []ecs.Entity, n int) []ecs.Entity {
	if n < suite.SmallReset && len(es) > 0 {
		for i := len(es) - 1; i >= 0; i-- {
			w.RemoveEntity(es[i])
		}
	} else {
		w.RemoveEntities(f.Batch(), nil)
	}
	return es[:0]
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		all := ecs.NewFilter0(w)
		m.NewBatchFn(n, nil) // the warm-up
		w.RemoveEntities(all.Batch(), nil)
		es := make([]ecs.Entity, 0, n)
		run := func() { es = createEach2(m, es, n) }
		if batch {
			run = func() { createBatch2(m, n) }
		}
		return suite.Op{Run: run, Reset: func() { es = clearCreated(w, all, es, n) }, Check: func() float64 { return createdCheck(w) }}
	}
}

func create2Alloc(batch bool) suite.Workload {
	return func(n int) suite.Op {
		var (
			w *ecs.World
			m *map2
		)
		run := func() { createLoose2(m, n) }
		if batch {
			run = func() { createBatch2(m, n) }
		}
		return suite.Op{
			Run:   run,
			Reset: func() { w = ecs.NewWorld(capacity); m = ecs.NewMap2[pos, vel](w) },
			Check: func() float64 { return createdCheck(w) },
		}
	}
}

type map10 = ecs.Map10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10]

func newMap10(w *ecs.World) *map10 {
	return ecs.NewMap10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10](w)
}

//go:noinline
func createEach10(m *map10, es []ecs.Entity, n int) []ecs.Entity {
	for range n {
		es = append(es, m.NewEntityFn(nil))
	}
	return es
}

//go:noinline
func createBatch10(m *map10, n int) {
	m.NewBatchFn(n, nil)
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := newMap10(w)
		all := ecs.NewFilter0(w)
		m.NewBatchFn(n, nil) // the warm-up
		w.RemoveEntities(all.Batch(), nil)
		es := make([]ecs.Entity, 0, n)
		run := func() { es = createEach10(m, es, n) }
		if batch {
			run = func() { createBatch10(m, n) }
		}
		c10 := ecs.NewFilter1[suite.C10](w)
		return suite.Op{Run: run, Reset: func() { es = clearCreated(w, all, es, n) }, Check: func() float64 {
			q := c10.Query()
			defer q.Close()
			return float64(q.Count())
		}}
	}
}

// --- add / remove ---

// addRemoveEach adds Velocity with no value (AddFn with a nil
// initialiser) to every entity, then removes it from every entity.
//
//go:noinline
func addRemoveEach(m *ecs.Map1[vel], es []ecs.Entity) {
	for _, e := range es {
		m.AddFn(e, nil)
	}
	for _, e := range es {
		m.Remove(e)
	}
}

// addRemoveBatch adds Velocity with no value to every entity with
// Position and removes it from every entity with Position and Velocity.
//
//go:noinline
func addRemoveBatch(m *ecs.Map1[vel], withPos *ecs.Filter1[pos], withPosVel *ecs.Filter2[pos, vel]) {
	m.AddBatchFn(withPos.Batch(), nil)
	m.RemoveBatch(withPosVel.Batch(), nil)
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
		for i := range n {
			es[i] = w.Unsafe().NewEntity(ids...)
			*pm.Get(es[i]) = suite.InitialPosition(i)
		}
		m := ecs.NewMap1[vel](w)
		withPos := ecs.NewFilter1[pos](w)
		withPosVel := ecs.NewFilter2[pos, vel](w)
		run := func() { addRemoveEach(m, es) }
		if batch {
			run = func() { addRemoveBatch(m, withPos, withPosVel) }
		}
		run() // the warm-up round
		without := ecs.NewFilter1[pos](w).Without(ecs.C[vel]())
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
func removeBatch(w *ecs.World, b ecs.Batch) {
	w.RemoveEntities(b, nil)
}

// deleteOp prepares a delete workload: reset removes whatever Run left and
// creates the n entities, one at a time below suite.SmallReset, else in
// one batch; run deletes them, each or with one batch over f.
func deleteOp(w *ecs.World, n int, batch bool, each, many func([]ecs.Entity) []ecs.Entity, f func() ecs.Batch) suite.Op {
	all := ecs.NewFilter0(w)
	es := make([]ecs.Entity, 0, n)
	reset := func() {
		w.RemoveEntities(all.Batch(), nil)
		if n < suite.SmallReset {
			es = each(es[:0])
		} else {
			es = many(es[:0])
		}
	}
	reset()
	run := func() { removeEach(w, es) }
	if batch {
		run = func() { removeBatch(w, f()) }
	}
	return suite.Op{Run: run, Reset: reset, Check: func() float64 { return float64(w.Stats().Entities.Used) }}
}

func delete2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := ecs.NewMap2[pos, vel](w)
		f := ecs.NewFilter2[pos, vel](w)
		return deleteOp(w, n, batch,
			func(es []ecs.Entity) []ecs.Entity { return createEach2(m, es, n) },
			func(es []ecs.Entity) []ecs.Entity {
				m.NewBatchFn(n, func(e ecs.Entity, _ *pos, _ *vel) { es = append(es, e) })
				return es
			},
			func() ecs.Batch { return f.Batch() })
	}
}

func delete10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld(capacity)
		m := newMap10(w)
		f := ecs.NewFilter0(w)
		return deleteOp(w, n, batch,
			func(es []ecs.Entity) []ecs.Entity { return createEach10(m, es, n) },
			func(es []ecs.Entity) []ecs.Entity {
				m.NewBatchFn(n, nil)
				q := f.Query()
				for q.Next() {
					es = append(es, q.Entity())
				}
				return es
			},
			func() ecs.Batch { return f.Batch() })
	}
}

// --- world creation ---

// newWorld makes a world as go-ecs-benchmarks' new_world does: with the
// default capacity.
//
//go:noinline
func newWorld() *ecs.World { return ecs.NewWorld() }

func createWorld(int) suite.Op {
	var w *ecs.World
	return suite.Op{Run: func() { w = newWorld() }, Check: func() float64 {
		if w == nil {
			return -1
		}
		return 0
	}}
}
