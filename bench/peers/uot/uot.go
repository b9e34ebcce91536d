// Package uot adapts github.com/unitoftime/ecs to the peer suite.
//
// The library has no batch operations (its CommandQueue only buffers
// single-entity writes and applies them one by one), so every batch
// workload is left nil.
package uot

import (
	"github.com/unitoftime/ecs"

	"github.com/tessera-ecs/tessera/bench/suite"
)

const module = "github.com/unitoftime/ecs v0.0.3"

// Candidates returns two variants: "MapId", the library's documented
// per-entity callback, implementing every workload it can do, and
// "MapSlices", its slice-per-archetype iteration, for the query workloads
// only (the other workloads would be identical to MapId). go-ecs-benchmarks
// has MapId only; MapSlices is an extra row.
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{
		{
			Name: "unitoftime/ecs", Module: module, Variant: "MapId",
			Query2:         query(setupQuery2, moveMapId),
			QueryFragInner: query(setupFragInner, moveMapId),
			QueryFragOuter: query(setupFragOuter, moveMapId),
			RandomAccess:   randomAccess,
			Create2:        create2,
			Create2Alloc:   create2Alloc,
			Create10:       create10,
			AddRemove:      addRemove(false),
			AddRemoveLarge: addRemove(true),
			Delete2:        deleteAll(false),
			Delete10:       deleteAll(true),
			CreateWorld:    createWorld,
			// No batch API: Create2Batch, Create10Batch, AddRemoveBatch,
			// AddRemoveLargeBatch, Delete2Batch and Delete10Batch stay nil.
		},
		{
			Name: "unitoftime/ecs", Module: module, Variant: "MapSlices",
			Query2:         query(setupQuery2, moveSlices),
			QueryFragInner: query(setupFragInner, moveSlices),
			QueryFragOuter: query(setupFragOuter, moveSlices),
		},
	}
}

type view2 = ecs.View2[suite.Position, suite.Velocity]

// tenComps are the boxed zero values of C1..C10.
func tenComps() []ecs.Component {
	return []ecs.Component{
		ecs.C(suite.C1{}), ecs.C(suite.C2{}), ecs.C(suite.C3{}), ecs.C(suite.C4{}), ecs.C(suite.C5{}),
		ecs.C(suite.C6{}), ecs.C(suite.C7{}), ecs.C(suite.C8{}), ecs.C(suite.C9{}), ecs.C(suite.C10{}),
	}
}

// posSum is the sum of p.X + p.Y over the entities of q.
func posSum(q *view2) float64 {
	s := 0.0
	q.MapId(func(_ ecs.Id, p *suite.Position, _ *suite.Velocity) { s += p.X + p.Y })
	return s
}

// ---- queries ----

// setupQuery2 creates 10n Position-only entities, then the n bodies.
func setupQuery2(w *ecs.World, n int) {
	for range 10 * n {
		ecs.Write(w, w.NewId(), ecs.C(suite.Position{}))
	}
	setupBodies(w, n)
}

func setupBodies(w *ecs.World, n int) {
	for i := range n {
		ecs.Write(w, w.NewId(), ecs.C(suite.InitialPosition(i)), ecs.C(suite.InitialVelocity(i)))
	}
}

func setupFragInner(w *ecs.World, n int) {
	extra := tenComps()[:5]
	comps := make([]ecs.Component, 0, 7)
	for i := range n {
		comps = append(comps[:0], ecs.C(suite.InitialPosition(i)), ecs.C(suite.InitialVelocity(i)))
		for b := range extra {
			if i%32&(1<<b) != 0 {
				comps = append(comps, extra[b])
			}
		}
		ecs.Write(w, w.NewId(), comps...)
	}
}

func setupFragOuter(w *ecs.World, n int) {
	setupBodies(w, n)
	extra := tenComps()[:8]
	comps := make([]ecs.Component, 0, 9)
	for j := range 4 * n {
		comps = append(comps[:0], ecs.C(suite.InitialPosition(n+j)))
		for b := range extra {
			if j%256&(1<<b) != 0 {
				comps = append(comps, extra[b])
			}
		}
		ecs.Write(w, w.NewId(), comps...)
	}
}

func query(setup func(*ecs.World, int), move func(*view2)) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		setup(w, n)
		q := ecs.Query2[suite.Position, suite.Velocity](w)
		return suite.Op{
			Run:   func() { move(q) },
			Check: func() float64 { return posSum(q) },
		}
	}
}

//go:noinline
func moveMapId(q *view2) {
	q.MapId(func(_ ecs.Id, p *suite.Position, v *suite.Velocity) {
		p.X += v.X
		p.Y += v.Y
	})
}

// moveSlices skips holes (slots of deleted or moved entities, whose id is
// InvalidEntity), which MapSlices passes on.
//
//go:noinline
func moveSlices(q *view2) {
	//lint:ignore SA1019 the library's fastest iteration, measured as its own variant
	q.MapSlices(func(ids []ecs.Id, ps []suite.Position, vs []suite.Velocity) {
		ps, vs = ps[:len(ids)], vs[:len(ids)]
		for i, id := range ids {
			if id == ecs.InvalidEntity {
				continue
			}
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	})
}

// ---- random access ----

//go:noinline
func sumX(w *ecs.World, ids []ecs.Id) float64 {
	s := 0.0
	for _, id := range ids {
		s += ecs.ReadPtr[suite.Position](w, id).X
	}
	return s
}

// randomAccess reads with ecs.ReadPtr, as go-ecs-benchmarks does (it
// resolves the component type on every call), from entities that have
// Position and Velocity, as go-ecs-benchmarks creates them.
func randomAccess(n int) suite.Op {
	w := ecs.NewWorld()
	ids := make([]ecs.Id, n)
	for i := range ids {
		ids[i] = w.NewId()
		ecs.Write(w, ids[i], ecs.C(suite.InitialPosition(i)), ecs.C(suite.Velocity{}))
	}
	shuffled := make([]ecs.Id, n)
	for k, i := range suite.Shuffle(n) {
		shuffled[k] = ids[i]
	}
	var sum float64
	return suite.Op{
		Run:   func() { sum = sumX(w, shuffled) },
		Check: func() float64 { return sum },
	}
}

// ---- create ----

// twoComps are the boxed zero Position and Velocity every created entity
// gets.
func twoComps() []ecs.Component {
	return []ecs.Component{ecs.C(suite.Position{}), ecs.C(suite.Velocity{})}
}

// spawn creates n entities with comps, one at a time, appending each to
// ids.
//
//go:noinline
func spawn(w *ecs.World, comps []ecs.Component, ids []ecs.Id, n int) []ecs.Id {
	for range n {
		id := w.NewId()
		ecs.Write(w, id, comps...)
		ids = append(ids, id)
	}
	return ids
}

// spawnLoose is spawn that collects nothing (create2_alloc).
//
//go:noinline
func spawnLoose(w *ecs.World, comps []ecs.Component, n int) {
	for range n {
		ecs.Write(w, w.NewId(), comps...)
	}
}

// deleteAllOf deletes the entities ids.
func deleteAllOf(w *ecs.World, ids []ecs.Id) []ecs.Id {
	for _, id := range ids {
		ecs.Delete(w, id)
	}
	return ids[:0]
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(q *view2) float64 {
	s := 0.0
	q.MapId(func(_ ecs.Id, p *suite.Position, v *suite.Velocity) { s += 1 + p.X + p.Y + v.X + v.Y })
	return s
}

// createOp prepares create2 or create10 with comps.
func createOp(n int, comps []ecs.Component, check func(*ecs.World) float64) suite.Op {
	w := ecs.NewWorld()
	ids := deleteAllOf(w, spawn(w, comps, make([]ecs.Id, 0, n), n)) // the warm-up
	return suite.Op{
		Run:   func() { ids = spawn(w, comps, ids, n) },
		Reset: func() { ids = deleteAllOf(w, ids) },
		Check: func() float64 { return check(w) },
	}
}

func create2(n int) suite.Op {
	return createOp(n, twoComps(), func(w *ecs.World) float64 {
		return createdCheck(ecs.Query2[suite.Position, suite.Velocity](w))
	})
}

func create2Alloc(n int) suite.Op {
	var w *ecs.World
	comps := twoComps()
	return suite.Op{
		Run:   func() { spawnLoose(w, comps, n) },
		Reset: func() { w = ecs.NewWorld() },
		Check: func() float64 { return createdCheck(ecs.Query2[suite.Position, suite.Velocity](w)) },
	}
}

func create10(n int) suite.Op {
	return createOp(n, tenComps(), func(w *ecs.World) float64 {
		return float64(ecs.Query1[suite.C10](w).Count())
	})
}

// ---- add/remove ----

// addRemoveVel adds a zero Velocity to every entity, then removes it from
// every entity; rm is the boxed Velocity that names the component to
// remove.
//
//go:noinline
func addRemoveVel(w *ecs.World, ids []ecs.Id, rm ecs.Component) {
	for _, id := range ids {
		ecs.Write(w, id, ecs.C(suite.Velocity{}))
	}
	for _, id := range ids {
		ecs.DeleteComponent(w, id, rm)
	}
}

func addRemove(large bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		comps := []ecs.Component{nil}
		if large {
			comps = append(comps, tenComps()...)
		}
		ids := make([]ecs.Id, n)
		for i := range ids {
			ids[i] = w.NewId()
			comps[0] = ecs.C(suite.InitialPosition(i))
			ecs.Write(w, ids[i], comps...)
		}
		rm := ecs.C(suite.Velocity{})
		addRemoveVel(w, ids, rm) // warm-up
		q := ecs.Query1[suite.Position](w, ecs.Without(suite.Velocity{}))
		return suite.Op{
			Run:   func() { addRemoveVel(w, ids, rm) },
			Check: func() float64 { return float64(q.Count()) },
		}
	}
}

// ---- delete ----

//go:noinline
func deleteIds(w *ecs.World, ids []ecs.Id) {
	for _, id := range ids {
		ecs.Delete(w, id)
	}
}

func deleteAll(ten bool) suite.Workload {
	return func(n int) suite.Op {
		w := ecs.NewWorld()
		var comps []ecs.Component
		if ten {
			comps = tenComps()
		}
		ids := make([]ecs.Id, n)
		live := false
		fill := func() {
			for i := range ids {
				ids[i] = w.NewId()
				if ten {
					ecs.Write(w, ids[i], comps...)
				} else {
					ecs.Write(w, ids[i], ecs.C(suite.InitialPosition(i)), ecs.C(suite.InitialVelocity(i)))
				}
			}
			live = true
		}
		fill()
		return suite.Op{
			Run: func() { deleteIds(w, ids); live = false },
			Reset: func() {
				if !live {
					fill()
				}
			},
			Check: func() float64 {
				c := 0
				for _, id := range ids {
					if w.Exists(id) {
						c++
					}
				}
				return float64(c)
			},
		}
	}
}

// ---- world ----

func createWorld(int) suite.Op {
	var w *ecs.World
	return suite.Op{
		Run: func() { w = ecs.NewWorld() },
		Check: func() float64 {
			if w == nil {
				return -1
			}
			return 0
		},
	}
}
