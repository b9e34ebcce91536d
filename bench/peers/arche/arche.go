// Package arche runs the peer suite on github.com/mlange-42/arche, with
// the calls go-ecs-benchmarks' Arche benchmarks make: its ID-based API
// (World.NewEntity, Query.Get(id), World.Get, Batch, Builder).
package arche

import (
	"unsafe"

	"github.com/mlange-42/arche/ecs"
	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/mlange-42/arche v0.15.3"

// capacity is the initial capacity of every world but create_world's.
const capacity = 1024

type (
	pos = suite.Position
	vel = suite.Velocity
)

// Candidates returns Arche with a plain filter, which also carries every
// non-iteration workload, and Arche with a registered (cached) filter for
// the iteration workloads: go-ecs-benchmarks' "Arche" and "Arche
// (cached)". Arche has no per-table (column) access.
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "arche", Module: module, Variant: "Query.Get",
			Query2: query2(false), QueryFragInner: fragInner(false), QueryFragOuter: fragOuter(false),
			RandomAccess: randomAccess,
			Create2:      create2(false), Create2Batch: create2(true),
			Create2Alloc: create2Alloc(false), Create2AllocBatch: create2Alloc(true),
			Create10: create10(false), Create10Batch: create10(true),
			AddRemove: addRemove(false, false), AddRemoveBatch: addRemove(false, true),
			AddRemoveLarge: addRemove(true, false), AddRemoveLargeBatch: addRemove(true, true),
			Delete2: deleteN(false, false), Delete2Batch: deleteN(false, true),
			Delete10: deleteN(true, false), Delete10Batch: deleteN(true, true),
			CreateWorld: createWorld,
		},
		{
			Name: "arche", Module: module, Variant: "Query.Get, cached filter",
			Query2: query2(true), QueryFragInner: fragInner(true), QueryFragOuter: fragOuter(true),
		},
	}
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

// setBody writes entity i's initial Position and Velocity.
func setBody(p, v unsafe.Pointer, i int) {
	// SAFETY: callers pass what Arche's Get returns for the ids of pos and
	// vel: the addresses of the entity's pos and vel.
	*(*pos)(p), *(*vel)(v) = suite.InitialPosition(i), suite.InitialVelocity(i)
}

// --- iteration ---

//go:noinline
func move(w *ecs.World, f ecs.Filter, posID, velID ecs.ID) {
	q := w.Query(f)
	for q.Next() {
		// SAFETY: Arche's Get returns the address of the current entity's
		// component of that id, which the query requires: a pos, a vel.
		p := (*pos)(q.Get(posID))
		v := (*vel)(q.Get(velID))
		p.X += v.X
		p.Y += v.Y
	}
}

// moveOp iterates the Position+Velocity entities of w with a plain filter
// or, if cached, a registered one.
func moveOp(w *ecs.World, cached bool) suite.Op {
	posID, velID := ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)
	mask := ecs.All(posID, velID)
	var f ecs.Filter = &mask
	if cached {
		cf := w.Cache().Register(&mask)
		f = &cf
	}
	return suite.Op{Run: func() { move(w, f, posID, velID) }, Check: func() float64 {
		s := 0.0
		q := w.Query(f)
		for q.Next() {
			// SAFETY: as in move.
			p := (*pos)(q.Get(posID))
			s += p.X + p.Y
		}
		return s
	}}
}

// spawnBodies creates n entities with Position and Velocity and their
// initial values, in one batch.
func spawnBodies(w *ecs.World, n int) {
	posID, velID := ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)
	q := ecs.NewBuilder(w, posID, velID).NewBatchQ(n)
	for i := 0; q.Next(); i++ {
		setBody(q.Get(posID), q.Get(velID), i)
	}
}

func query2(cached bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		ecs.NewBuilder(w, ecs.ComponentID[pos](w)).NewBatch(10 * n)
		spawnBodies(w, n)
		return moveOp(w, cached)
	}
}

func fragInner(cached bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		posID, velID := ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)
		cs := tenIDs(w)[:5]
		for i := range n {
			e := w.NewEntity(withBits([]ecs.ID{posID, velID}, cs, i%32)...)
			setBody(w.Get(e, posID), w.Get(e, velID), i)
		}
		return moveOp(w, cached)
	}
}

func fragOuter(cached bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		spawnBodies(w, n)
		cs := tenIDs(w)[:8]
		base := []ecs.ID{ecs.ComponentID[pos](w)}
		for j := range 4 * n {
			w.NewEntity(withBits(base, cs, j%256)...)
		}
		return moveOp(w, cached)
	}
}

// --- random access ---

//go:noinline
func sumX(w *ecs.World, posID ecs.ID, es []ecs.Entity) float64 {
	s := 0.0
	for _, e := range es {
		// SAFETY: Arche's Get returns the address of e's pos, which every
		// entity of es has.
		s += (*pos)(w.Get(e, posID)).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := newWorldPtr()
	posID := ecs.ComponentID[pos](w)
	created := make([]ecs.Entity, 0, n)
	q := w.Batch().NewQ(n, posID)
	for i := 0; q.Next(); i++ {
		// SAFETY: the batch's entities have a pos, whose address Get returns.
		*(*pos)(q.Get(posID)) = suite.InitialPosition(i)
		created = append(created, q.Entity())
	}
	es := make([]ecs.Entity, n)
	for k, i := range suite.Shuffle(n) {
		es[k] = created[i]
	}
	var sum float64
	return suite.Op{Run: func() { sum = sumX(w, posID, es) }, Check: func() float64 { return sum }}
}

// --- creation ---

// createEach creates n entities with the components ids (zero values) one
// at a time, appending each to es.
//
//go:noinline
func createEach(w *ecs.World, ids []ecs.ID, es []ecs.Entity, n int) []ecs.Entity {
	for range n {
		es = append(es, w.NewEntity(ids...))
	}
	return es
}

// createLoose is createEach that collects nothing (create2_alloc).
//
//go:noinline
func createLoose(w *ecs.World, ids []ecs.ID, n int) {
	for range n {
		w.NewEntity(ids...)
	}
}

// createBatch creates n entities with the components ids (zero values)
// with a Builder made in the timed code, as go-ecs-benchmarks does.
//
//go:noinline
func createBatch(w *ecs.World, ids []ecs.ID, n int) {
	ecs.NewBuilder(w, ids...).NewBatch(n)
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(w *ecs.World) float64 {
	posID, velID := ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)
	s := 0.0
	q := w.Query(ecs.All(posID, velID))
	for q.Next() {
		// SAFETY: as in move.
		p, v := (*pos)(q.Get(posID)), (*vel)(q.Get(velID))
		s += 1 + p.X + p.Y + v.X + v.Y
	}
	return s
}

// clearCreated deletes what a create round made, as go-ecs-benchmarks'
// Arche benchmarks do: below suite.SmallReset the entities es in reverse
// order, one at a time, else every entity with ids, in one batch. It
// returns es emptied.
func clearCreated(w *ecs.World, ids []ecs.ID, es []ecs.Entity, n int) []ecs.Entity {
	if n < suite.SmallReset && len(es) > 0 {
		for i := len(es) - 1; i >= 0; i-- {
			w.RemoveEntity(es[i])
		}
	} else {
		w.Batch().RemoveEntities(ecs.All(ids...))
	}
	return es[:0]
}

// createOp prepares create2 or create10 over the components ids.
func createOp(w *ecs.World, ids []ecs.ID, n int, batch bool, check func() float64) suite.Op {
	ecs.NewBuilder(w, ids...).NewBatch(n) // the warm-up
	w.Batch().RemoveEntities(ecs.All(ids...))
	es := make([]ecs.Entity, 0, n)
	run := func() { es = createEach(w, ids, es, n) }
	if batch {
		run = func() { createBatch(w, ids, n) }
	}
	return suite.Op{Run: run, Reset: func() { es = clearCreated(w, ids, es, n) }, Check: check}
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		ids := []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
		return createOp(w, ids, n, batch, func() float64 { return createdCheck(w) })
	}
}

func create2Alloc(batch bool) suite.Workload {
	return func(n int) suite.Op {
		var (
			w   *ecs.World
			ids []ecs.ID
		)
		run := func() { createLoose(w, ids, n) }
		if batch {
			run = func() { createBatch(w, ids, n) }
		}
		return suite.Op{
			Run: run,
			Reset: func() {
				w = newWorldPtr()
				ids = []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
			},
			Check: func() float64 { return createdCheck(w) },
		}
	}
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		ids := tenIDs(w)
		c10 := ecs.All(ids[9])
		return createOp(w, ids, n, batch, func() float64 {
			q := w.Query(c10)
			defer q.Close()
			return float64(q.Count())
		})
	}
}

// --- add / remove ---

// addRemoveEach adds Velocity (no value) to every entity, then removes it
// from every entity.
//
//go:noinline
func addRemoveEach(w *ecs.World, es []ecs.Entity, velIDs []ecs.ID) {
	for _, e := range es {
		w.Add(e, velIDs...)
	}
	for _, e := range es {
		w.Remove(e, velIDs...)
	}
}

// addRemoveBatch adds Velocity to every entity with Position and removes
// it from every entity with Position and Velocity.
//
//go:noinline
func addRemoveBatch(w *ecs.World, withPos, withPosVel ecs.Filter, velIDs []ecs.ID) {
	w.Batch().Add(withPos, velIDs...)
	w.Batch().Remove(withPosVel, velIDs...)
}

func addRemove(large, batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := newWorldPtr()
		posID, velID := ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)
		ids := []ecs.ID{posID}
		if large {
			ids = append(ids, tenIDs(w)...)
		}
		es := make([]ecs.Entity, n)
		for i := range n {
			es[i] = w.NewEntity(ids...)
			// SAFETY: es[i] was made with a pos, whose address Get returns.
			*(*pos)(w.Get(es[i], posID)) = suite.InitialPosition(i)
		}
		velIDs := []ecs.ID{velID}
		mPos, mPosVel := ecs.All(posID), ecs.All(posID, velID)
		run := func() { addRemoveEach(w, es, velIDs) }
		if batch {
			run = func() { addRemoveBatch(w, &mPos, &mPosVel, velIDs) }
		}
		run() // the warm-up round
		without := ecs.All(posID).Without(velID)
		return suite.Op{Run: run, Check: func() float64 {
			q := w.Query(&without)
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
		ids := []ecs.ID{ecs.ComponentID[pos](w), ecs.ComponentID[vel](w)}
		if ten {
			ids = tenIDs(w)
		}
		mask := ecs.All(ids...)
		es := make([]ecs.Entity, 0, n)
		// reset removes whatever Run left and creates the n entities: one at
		// a time below suite.SmallReset, else in one batch.
		reset := func() {
			w.Batch().RemoveEntities(ecs.All())
			es = es[:0]
			if n < suite.SmallReset {
				es = createEach(w, ids, es, n)
				return
			}
			q := w.Batch().NewQ(n, ids...)
			for q.Next() {
				es = append(es, q.Entity())
			}
		}
		reset()
		run := func() { removeEach(w, es) }
		if batch {
			run = func() { removeBatch(w, &mask) }
		}
		return suite.Op{Run: run, Reset: reset, Check: func() float64 { return float64(w.Stats().Entities.Used) }}
	}
}

// --- world creation ---

// newWorld makes a world as go-ecs-benchmarks' new_world does: with the
// default capacity, returned by value.
//
//go:noinline
func newWorld() ecs.World { return ecs.NewWorld() }

func createWorld(int) suite.Op {
	var w ecs.World
	return suite.Op{Run: func() { w = newWorld() }, Check: func() float64 {
		if w.IsLocked() {
			return -1
		}
		return 0
	}}
}
