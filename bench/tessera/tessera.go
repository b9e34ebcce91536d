// Package tessera implements the peer suite's workloads with Tessera: one
// Candidate per iteration form (range over func, per table, cursor), one
// for add_remove with Velocity in table storage (the suite's work: an
// archetype move per add and remove), and one with Velocity in sparse
// storage, shown aside.
package tessera

import (
	"github.com/tessera-ecs/tessera/bench/suite"
	"github.com/tessera-ecs/tessera/ecs"
)

const module = "github.com/tessera-ecs/tessera (this repository)"

// Candidates returns Tessera's candidates: "range" implements every
// workload but add_remove; "chunks" and "cursor" the query workloads;
// "table Velocity" add_remove with Velocity in a table, as the suite times
// it; "sparse Velocity" add_remove with Velocity in a sparse set, which
// moves no row and so is not the suite's work: it is shown aside.
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "tessera", Module: module, Variant: "range (All)",
			Query2: queries(rangeMove), QueryFragInner: fragInner(rangeMove), QueryFragOuter: fragOuter(rangeMove),
			RandomAccess: randomAccess,
			Create2:      create2(false), Create2Batch: create2(true),
			Create2Alloc: create2Alloc(false), Create2AllocBatch: create2Alloc(true),
			Create10: create10(false), Create10Batch: create10(true),
			Delete2: delete2(false), Delete2Batch: delete2(true), Delete10: delete10(false), Delete10Batch: delete10(true),
			CreateWorld: func(int) suite.Op {
				var w *ecs.World
				return suite.Op{Run: func() { w = newWorld() }, Check: func() float64 { return float64(w.Len()) }}
			},
		},
		{
			Name: "tessera", Module: module, Variant: "per table (Chunks)",
			Query2: queries(chunkMove), QueryFragInner: fragInner(chunkMove), QueryFragOuter: fragOuter(chunkMove),
		},
		{
			Name: "tessera", Module: module, Variant: "cursor (Iter)",
			Query2: queries(cursorMove), QueryFragInner: fragInner(cursorMove), QueryFragOuter: fragOuter(cursorMove),
		},
		{
			Name: "tessera", Module: module, Variant: "table Velocity",
			AddRemove: addRemove(false, false, false), AddRemoveBatch: addRemove(true, false, false),
			AddRemoveLarge: addRemove(false, true, false), AddRemoveLargeBatch: addRemove(true, true, false),
		},
		{
			Name: "tessera", Module: module, Variant: "sparse Velocity",
			Aside: "Velocity in a sparse set: adding and removing it moves no row, where the suite times an archetype move; " +
				"for reference only, not in the ratio (which uses tessera (table Velocity))",
			AddRemove: addRemove(false, false, true), AddRemoveLarge: addRemove(false, true, true),
		},
	}
}

//go:noinline
func newWorld() *ecs.World { return ecs.NewWorld() }

type q2 = ecs.Query2[suite.Position, suite.Velocity]

//go:noinline
func rangeMove(q *q2) {
	for r := range q.All() {
		r.A.X += r.B.X
		r.A.Y += r.B.Y
	}
}

//go:noinline
func chunkMove(q *q2) {
	for c := range q.Chunks() {
		suite.MoveRows(c.A, c.B)
	}
}

//go:noinline
func cursorMove(q *q2) {
	it := q.Iter()
	for it.Next() {
		p, v := it.Get()
		p.X += v.X
		p.Y += v.Y
	}
}

func sumPositions(w *ecs.World) float64 {
	s := 0.0
	for r := range ecs.NewQuery2[suite.Position, suite.Velocity](w).All() {
		s += r.A.X + r.A.Y
	}
	return s
}

func spawnBodies(w *ecs.World, n int) {
	pv := ecs.NewMap2[suite.Position, suite.Velocity](w)
	i := 0
	pv.SpawnBatchFunc(n, func(_ ecs.Entity, p *suite.Position, v *suite.Velocity) {
		*p, *v = suite.InitialPosition(i), suite.InitialVelocity(i)
		i++
	})
}

// queries prepares query2: 10n Position-only entities, then the n bodies.
func queries(move func(*q2)) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		ecs.NewMap[suite.Position](w).SpawnBatch(10*n, suite.Position{})
		spawnBodies(w, n)
		q := ecs.NewQuery2[suite.Position, suite.Velocity](w)
		return suite.Op{Run: func() { move(q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

// addBits gives e the components among C1..Ck whose bit is set in bits.
func addBits(w *ecs.World, e ecs.Entity, bits, k int) {
	adders := [...]func(){
		func() { ecs.NewMap[suite.C1](w).Add(e, suite.C1{}) },
		func() { ecs.NewMap[suite.C2](w).Add(e, suite.C2{}) },
		func() { ecs.NewMap[suite.C3](w).Add(e, suite.C3{}) },
		func() { ecs.NewMap[suite.C4](w).Add(e, suite.C4{}) },
		func() { ecs.NewMap[suite.C5](w).Add(e, suite.C5{}) },
		func() { ecs.NewMap[suite.C6](w).Add(e, suite.C6{}) },
		func() { ecs.NewMap[suite.C7](w).Add(e, suite.C7{}) },
		func() { ecs.NewMap[suite.C8](w).Add(e, suite.C8{}) },
	}
	for b := range k {
		if bits>>b&1 == 1 {
			adders[b]()
		}
	}
}

func fragInner(move func(*q2)) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		pv := ecs.NewMap2[suite.Position, suite.Velocity](w)
		for i := range n {
			e := pv.Spawn(suite.InitialPosition(i), suite.InitialVelocity(i))
			addBits(w, e, i%32, 5)
		}
		q := ecs.NewQuery2[suite.Position, suite.Velocity](w)
		return suite.Op{Run: func() { move(q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

func fragOuter(move func(*q2)) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		spawnBodies(w, n)
		pos := ecs.NewMap[suite.Position](w)
		for j := range 4 * n {
			e := pos.Spawn(suite.Position{})
			addBits(w, e, j%256, 8)
		}
		q := ecs.NewQuery2[suite.Position, suite.Velocity](w)
		return suite.Op{Run: func() { move(q) }, Check: func() float64 { return sumPositions(w) }}
	}
}

//go:noinline
func sumX(m *ecs.Map[suite.Position], es []ecs.Entity) float64 {
	s := 0.0
	for _, e := range es {
		s += m.Get(e).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := ecs.NewWorld()
	pos := ecs.NewMap[suite.Position](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = pos.Spawn(suite.InitialPosition(i))
	}
	shuffled := make([]ecs.Entity, n)
	for i, j := range suite.Shuffle(n) {
		shuffled[i] = es[j]
	}
	var sum float64
	return suite.Op{Run: func() { sum = sumX(pos, shuffled) }, Check: func() float64 { return sum }}
}

// --- creation ---

type pvMap = ecs.Map2[suite.Position, suite.Velocity]

// spawnEach creates n entities with zero Position and Velocity one at a
// time, appending each to es. SpawnFunc(nil) is Tessera's form of the
// suite's zero-valued creation (Ark's NewEntityFn(nil)): it writes nothing
// into rows that are zero already.
//
//go:noinline
func spawnEach(pv *pvMap, es []ecs.Entity, n int) []ecs.Entity {
	for range n {
		es = append(es, pv.SpawnFunc(nil))
	}
	return es
}

// spawnLoose is spawnEach that collects nothing (create2_alloc).
//
//go:noinline
func spawnLoose(pv *pvMap, n int) {
	for range n {
		pv.SpawnFunc(nil)
	}
}

// spawnBatch spawns n entities with zero values in one batch:
// SpawnBatchFunc with a nil init, the form of Ark's NewBatchFn(n, nil),
// which the Ark adapter times.
//
//go:noinline
func spawnBatch(pv *pvMap, n int) {
	pv.SpawnBatchFunc(n, nil)
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(w *ecs.World) float64 {
	q := ecs.NewQuery2[suite.Position, suite.Velocity](w)
	s := float64(q.Count())
	for r := range q.All() {
		s += r.A.X + r.A.Y + r.B.X + r.B.Y
	}
	return s
}

// clearCreated deletes what a create round made: below suite.SmallReset
// the entities es in reverse order, one at a time, else every entity all
// matches, in one batch. It returns es emptied.
func clearCreated(w *ecs.World, all ecs.Matcher, es []ecs.Entity, n int) []ecs.Entity {
	if n < suite.SmallReset && len(es) > 0 {
		for i := len(es) - 1; i >= 0; i-- {
			w.Despawn(es[i])
		}
	} else {
		w.DespawnMatching(all)
	}
	return es[:0]
}

func create2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		pv := ecs.NewMap2[suite.Position, suite.Velocity](w)
		all := ecs.NewQuery1[suite.Position](w)
		spawnBatch(pv, n) // the warm-up
		w.DespawnMatching(all)
		es := make([]ecs.Entity, 0, n)
		run := func() { es = spawnEach(pv, es, n) }
		if batch {
			run = func() { spawnBatch(pv, n) }
		}
		return suite.Op{Run: run, Reset: func() { es = clearCreated(w, all, es, n) }, Check: func() float64 { return createdCheck(w) }}
	}
}

// peerCapacity is the initial capacity the suite gives the peers' worlds
// (Ark's and Arche's NewWorld(1024)).
const peerCapacity = 1024

// newSizedWorld makes a world as the peers' are made for create2_alloc:
// room for peerCapacity entities in the index and in the Position+Velocity
// table (Tessera's CapacityHint and Reserve), set up before the timing.
func newSizedWorld() (*ecs.World, *pvMap) {
	w := ecs.NewWorld()
	ecs.Register[suite.Position](w, ecs.CapacityHint(peerCapacity))
	ecs.Register[suite.Velocity](w, ecs.CapacityHint(peerCapacity))
	w.Reserve(peerCapacity)
	return w, ecs.NewMap2[suite.Position, suite.Velocity](w)
}

func create2Alloc(batch bool) suite.Workload {
	return func(n int) suite.Op {
		var (
			w  *ecs.World
			pv *pvMap
		)
		run := func() { spawnLoose(pv, n) }
		if batch {
			run = func() { spawnBatch(pv, n) }
		}
		return suite.Op{
			Run:   run,
			Reset: func() { w, pv = newSizedWorld() },
			Check: func() float64 { return createdCheck(w) },
		}
	}
}

// tenSpawner spawns entities with C1..C10 in one step each.
type tenSpawner struct {
	w   *ecs.World
	all *ecs.Query1[suite.C10]
	ten *ecs.Map10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10]
}

func newTenSpawner(w *ecs.World) *tenSpawner {
	return &tenSpawner{w: w, all: ecs.NewQuery1[suite.C10](w),
		ten: ecs.NewMap10[suite.C1, suite.C2, suite.C3, suite.C4, suite.C5, suite.C6, suite.C7, suite.C8, suite.C9, suite.C10](w)}
}

func (t *tenSpawner) spawn() ecs.Entity { return t.ten.SpawnFunc(nil) }

//go:noinline
func spawnTenEach(t *tenSpawner, es []ecs.Entity, n int) []ecs.Entity {
	for range n {
		es = append(es, t.spawn())
	}
	return es
}

// spawnTenBatch is spawnBatch with the ten types.
//
//go:noinline
func spawnTenBatch(t *tenSpawner, n int) {
	t.ten.SpawnBatchFunc(n, nil)
}

func create10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		t := newTenSpawner(w)
		spawnTenBatch(t, n) // the warm-up
		w.DespawnMatching(t.all)
		es := make([]ecs.Entity, 0, n)
		run := func() { es = spawnTenEach(t, es, n) }
		if batch {
			run = func() { spawnTenBatch(t, n) }
		}
		return suite.Op{Run: run, Reset: func() { es = clearCreated(w, t.all, es, n) }, Check: func() float64 { return float64(t.all.Count()) }}
	}
}

// --- add / remove ---

//go:noinline
func addRemoveEach(vel *ecs.Map[suite.Velocity], es []ecs.Entity) {
	for _, e := range es {
		vel.Add(e, suite.Velocity{})
	}
	for _, e := range es {
		vel.Remove(e)
	}
}

// addRemoveAll adds Velocity to every entity with Position and removes it
// from every entity with Velocity. The add goes over Position without
// Velocity: AddMatching overwrites the Velocity of entities that have one, so
// over all of Position it would fill the moved rows a second time, work
// the suite's batch add (which only moves the entities that lack it) does
// not do.
//
//go:noinline
func addRemoveAll(vel *ecs.Map[suite.Velocity], without, with ecs.Matcher) {
	vel.AddMatching(without, suite.Velocity{})
	vel.RemoveMatching(with)
}

// addRemove builds n entities with Position (and C1..C10 when large),
// Velocity in table or sparse storage.
func addRemove(batch, large, sparse bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		if sparse {
			ecs.Register[suite.Velocity](w, ecs.Sparse(), ecs.CapacityHint(n))
		}
		pos, vel := ecs.NewMap[suite.Position](w), ecs.NewMap[suite.Velocity](w)
		es := make([]ecs.Entity, n)
		t := newTenSpawner(w)
		for i := range es {
			es[i] = pos.Spawn(suite.InitialPosition(i))
			if large {
				t.ten.Add(es[i], suite.C1{}, suite.C2{}, suite.C3{}, suite.C4{}, suite.C5{}, suite.C6{}, suite.C7{}, suite.C8{}, suite.C9{}, suite.C10{})
			}
		}
		without := ecs.NewQuery1[suite.Position](w, ecs.Without(ecs.C[suite.Velocity]()))
		with := ecs.NewQuery2[suite.Position, suite.Velocity](w)
		run := func() { addRemoveEach(vel, es) }
		if batch {
			run = func() { addRemoveAll(vel, without, with) }
		}
		run() // the warm-up round
		return suite.Op{Run: run, Check: func() float64 { return float64(without.Count()) }}
	}
}

// --- deletion ---

//go:noinline
func despawnEach(w *ecs.World, es []ecs.Entity) {
	for _, e := range es {
		w.Despawn(e)
	}
}

//go:noinline
func despawnAll(w *ecs.World, q ecs.Matcher) { w.DespawnMatching(q) }

func delete2(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		pv := ecs.NewMap2[suite.Position, suite.Velocity](w)
		all := ecs.NewQuery2[suite.Position, suite.Velocity](w)
		es := make([]ecs.Entity, 0, n)
		// reset removes whatever Run left and creates the n entities: one at
		// a time below suite.SmallReset, else in one batch.
		reset := func() {
			w.DespawnMatching(all)
			es = es[:0]
			if n < suite.SmallReset {
				es = spawnEach(pv, es, n)
				return
			}
			pv.SpawnBatchFunc(n, func(e ecs.Entity, _ *suite.Position, _ *suite.Velocity) { es = append(es, e) })
		}
		reset()
		run := func() { despawnEach(w, es) }
		if batch {
			run = func() { despawnAll(w, all) }
		}
		return suite.Op{Run: run, Reset: reset, Check: func() float64 { return float64(w.Len()) }}
	}
}

func delete10(batch bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		t := newTenSpawner(w)
		es := make([]ecs.Entity, 0, n)
		reset := func() {
			w.DespawnMatching(t.all)
			es = es[:0]
			if n < suite.SmallReset {
				es = spawnTenEach(t, es, n)
				return
			}
			t.ten.SpawnBatchFunc(n, func(e ecs.Entity, _ *suite.C1, _ *suite.C2, _ *suite.C3, _ *suite.C4, _ *suite.C5,
				_ *suite.C6, _ *suite.C7, _ *suite.C8, _ *suite.C9, _ *suite.C10) {
				es = append(es, e)
			})
		}
		reset()
		run := func() { despawnEach(w, es) }
		if batch {
			run = func() { despawnAll(w, t.all) }
		}
		return suite.Op{Run: run, Reset: reset, Check: func() float64 { return float64(w.Len()) }}
	}
}
