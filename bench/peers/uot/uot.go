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
// only (the other workloads would be identical to MapId).
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

// createdSum is the sum of p.X + p.Y + v.X + v.Y over the entities of q.
func createdSum(q *view2) float64 {
	s := 0.0
	q.MapId(func(_ ecs.Id, p *suite.Position, v *suite.Velocity) { s += p.X + p.Y + v.X + v.Y })
	return s
}

// ---- queries ----

func setupQuery2(w *ecs.World, n int) {
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
	setupQuery2(w, n)
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
func sumX(q *ecs.View1[suite.Position], ids []ecs.Id) float64 {
	s := 0.0
	for _, id := range ids {
		s += q.Read(id).X
	}
	return s
}

// randomAccess reads through a View1, which keeps its component storage;
// ecs.Read and ecs.ReadPtr resolve the component type (reflection under a
// global mutex) on every call.
func randomAccess(n int) suite.Op {
	w := ecs.NewWorld()
	ids := make([]ecs.Id, n)
	for i := range ids {
		ids[i] = w.NewId()
		ecs.Write(w, ids[i], ecs.C(suite.InitialPosition(i)))
	}
	order := suite.Shuffle(n)
	shuffled := make([]ecs.Id, n)
	for k, i := range order {
		shuffled[k] = ids[i]
	}
	q := ecs.Query1[suite.Position](w)
	var sum float64
	return suite.Op{
		Run:   func() { sum = sumX(q, shuffled) },
		Check: func() float64 { return sum },
	}
}

// ---- create ----

//go:noinline
func spawn2(w *ecs.World, n int) {
	for i := range n {
		ecs.Write(w, w.NewId(), ecs.C(suite.InitialPosition(i)), ecs.C(suite.InitialVelocity(i)))
	}
}

// spawn10 writes the same boxed zero values to every entity.
//
//go:noinline
func spawn10(w *ecs.World, n int, comps []ecs.Component) {
	for range n {
		ecs.Write(w, w.NewId(), comps...)
	}
}

// deleteMatching deletes every entity that has component T.
func deleteMatching[T any](w *ecs.World) {
	var ids []ecs.Id
	ecs.Query1[T](w).MapId(func(id ecs.Id, _ *T) { ids = append(ids, id) })
	for _, id := range ids {
		ecs.Delete(w, id)
	}
}

func create2(n int) suite.Op {
	w := ecs.NewWorld()
	spawn2(w, n)
	deleteMatching[suite.Position](w)
	q := ecs.Query2[suite.Position, suite.Velocity](w)
	return suite.Op{
		Run:   func() { spawn2(w, n) },
		Reset: func() { deleteMatching[suite.Position](w) },
		Check: func() float64 { return createdSum(q) },
	}
}

func create2Alloc(n int) suite.Op {
	var w *ecs.World
	return suite.Op{
		Run:   func() { w = ecs.NewWorld(); spawn2(w, n) },
		Check: func() float64 { return createdSum(ecs.Query2[suite.Position, suite.Velocity](w)) },
	}
}

func create10(n int) suite.Op {
	w := ecs.NewWorld()
	comps := tenComps()
	spawn10(w, n, comps)
	deleteMatching[suite.C10](w)
	q := ecs.Query1[suite.C10](w)
	return suite.Op{
		Run:   func() { spawn10(w, n, comps) },
		Reset: func() { deleteMatching[suite.C10](w) },
		Check: func() float64 { return float64(q.Count()) },
	}
}

// ---- add/remove ----

// addRemoveVel adds Velocity to every entity, then removes it from every
// entity; rm holds the boxed Velocity that names the component to remove.
//
//go:noinline
func addRemoveVel(w *ecs.World, ids []ecs.Id, rm []ecs.Component) {
	for i, id := range ids {
		ecs.Write(w, id, ecs.C(suite.InitialVelocity(i)))
	}
	for _, id := range ids {
		ecs.DeleteComponent(w, id, rm...)
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
		rm := []ecs.Component{ecs.C(suite.Velocity{})}
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
