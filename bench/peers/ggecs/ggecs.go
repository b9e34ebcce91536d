// Package ggecs implements the peer suite with
// github.com/marioolofo/go-gameengine-ecs: a World of user-numbered
// components, entities created with their component list, QueryCursor
// iteration and World.Component for random access.
package ggecs

import (
	gg "github.com/marioolofo/go-gameengine-ecs"

	"github.com/tessera-ecs/tessera/bench/suite"
)

// Component IDs: the library indexes components by IDs the user chooses.
const (
	posID gg.ComponentID = iota
	velID
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

// worldCap is the initial entity pool capacity of every world.
const worldCap = 1024

// Component lists, built once so that variadic calls do not allocate.
var (
	posOnly = []gg.ComponentID{posID}
	posVel  = []gg.ComponentID{posID, velID}
	tenIDs  = []gg.ComponentID{c1ID, c2ID, c3ID, c4ID, c5ID, c6ID, c7ID, c8ID, c9ID, c10ID}
	posTen  = []gg.ComponentID{posID, c1ID, c2ID, c3ID, c4ID, c5ID, c6ID, c7ID, c8ID, c9ID, c10ID}

	posMask    = gg.MakeComponentMask(posID)
	posVelMask = gg.MakeComponentMask(posID, velID)
	c10Mask    = gg.MakeComponentMask(c10ID)
	anyMask    = gg.Mask{} // an empty mask matches every entity
)

// Candidates returns the go-gameengine-ecs candidate.
func Candidates() []*suite.Candidate {
	return []*suite.Candidate{{
		Name:   "go-gameengine-ecs",
		Module: "github.com/marioolofo/go-gameengine-ecs v0.9.0",

		Query2:         query2,
		QueryFragInner: queryFragInner,
		QueryFragOuter: queryFragOuter,
		RandomAccess:   randomAccess,
		Create2:        create2,
		Create2Alloc:   create2Alloc,
		Create10:       create10,
		AddRemove:      addRemove,
		AddRemoveLarge: addRemoveLarge,
		Delete2:        func(n int) suite.Op { return deleteN(n, posVel) },
		Delete10:       func(n int) suite.Op { return deleteN(n, tenIDs) },
		CreateWorld:    createWorld,

		// The library has no batch operations: entities are created, changed
		// and removed one at a time only. Create2Batch, Create10Batch,
		// AddRemoveBatch, AddRemoveLargeBatch, Delete2Batch and
		// Delete10Batch stay nil.
	}}
}

func registerPosVel(w gg.World) {
	w.Register(gg.NewComponentRegistry[suite.Position](posID))
	w.Register(gg.NewComponentRegistry[suite.Velocity](velID))
}

// newWorld returns a world with every component of the suite registered.
func newWorld() gg.World {
	w := gg.NewWorld(worldCap)
	registerPosVel(w)
	w.Register(gg.NewComponentRegistry[suite.C1](c1ID))
	w.Register(gg.NewComponentRegistry[suite.C2](c2ID))
	w.Register(gg.NewComponentRegistry[suite.C3](c3ID))
	w.Register(gg.NewComponentRegistry[suite.C4](c4ID))
	w.Register(gg.NewComponentRegistry[suite.C5](c5ID))
	w.Register(gg.NewComponentRegistry[suite.C6](c6ID))
	w.Register(gg.NewComponentRegistry[suite.C7](c7ID))
	w.Register(gg.NewComponentRegistry[suite.C8](c8ID))
	w.Register(gg.NewComponentRegistry[suite.C9](c9ID))
	w.Register(gg.NewComponentRegistry[suite.C10](c10ID))
	return w
}

func position(w gg.World, e gg.EntityID) *suite.Position {
	return (*suite.Position)(w.Component(e, posID))
}

func velocity(w gg.World, e gg.EntityID) *suite.Velocity {
	return (*suite.Velocity)(w.Component(e, velID))
}

// setBody writes entity i's initial Position and Velocity. Component slots
// are not zeroed when reused, so values are always written explicitly.
func setBody(w gg.World, e gg.EntityID, i int) {
	*position(w, e) = suite.InitialPosition(i)
	*velocity(w, e) = suite.InitialVelocity(i)
}

// count returns the number of entities matching mask.
func count(w gg.World, mask gg.Mask) int {
	c := 0
	q := w.Query(mask)
	for q.Next() {
		c++
	}
	return c
}

// positionSum is the query checksum: p.X + p.Y over Position+Velocity.
func positionSum(w gg.World) float64 {
	s := 0.0
	q := w.Query(posVelMask)
	for q.Next() {
		p := (*suite.Position)(q.Component(posID))
		s += p.X + p.Y
	}
	return s
}

// removeAll deletes every entity of w. Entities are collected first: the
// archetypes must not change under a cursor.
func removeAll(w gg.World, buf []gg.EntityID) []gg.EntityID {
	buf = buf[:0]
	q := w.Query(anyMask)
	for q.Next() {
		buf = append(buf, q.Entity())
	}
	for _, e := range buf {
		w.RemEntity(e)
	}
	return buf[:0]
}

//go:noinline
func move(w gg.World) {
	q := w.Query(posVelMask)
	for q.Next() {
		p := (*suite.Position)(q.Component(posID))
		v := (*suite.Velocity)(q.Component(velID))
		p.X += v.X
		p.Y += v.Y
	}
}

func queryOp(w gg.World) suite.Op {
	return suite.Op{Run: func() { move(w) }, Check: func() float64 { return positionSum(w) }}
}

func query2(n int) suite.Op {
	w := newWorld()
	for range 10 * n {
		w.NewEntity(posOnly...)
	}
	for i := range n {
		setBody(w, w.NewEntity(posVel...), i)
	}
	return queryOp(w)
}

func queryFragInner(n int) suite.Op {
	w := newWorld()
	ids := make([]gg.ComponentID, 0, 7)
	for i := range n {
		ids = append(ids[:0], posID, velID)
		for b := range 5 {
			if i%32&(1<<b) != 0 {
				ids = append(ids, c1ID+gg.ComponentID(b))
			}
		}
		setBody(w, w.NewEntity(ids...), i)
	}
	return queryOp(w)
}

func queryFragOuter(n int) suite.Op {
	w := newWorld()
	for i := range n {
		setBody(w, w.NewEntity(posVel...), i)
	}
	ids := make([]gg.ComponentID, 0, 9)
	for j := range 4 * n {
		ids = append(ids[:0], posID)
		for b := range 8 {
			if j%256&(1<<b) != 0 {
				ids = append(ids, c1ID+gg.ComponentID(b))
			}
		}
		w.NewEntity(ids...)
	}
	return queryOp(w)
}

//go:noinline
func sumX(w gg.World, order []gg.EntityID) float64 {
	s := 0.0
	for _, e := range order {
		s += (*suite.Position)(w.Component(e, posID)).X
	}
	return s
}

func randomAccess(n int) suite.Op {
	w := newWorld()
	ents := make([]gg.EntityID, n)
	for i := range n {
		ents[i] = w.NewEntity(posOnly...)
		*position(w, ents[i]) = suite.InitialPosition(i)
	}
	order := make([]gg.EntityID, n)
	for k, i := range suite.Shuffle(n) {
		order[k] = ents[i]
	}
	var sum float64
	return suite.Op{Run: func() { sum = sumX(w, order) }, Check: func() float64 { return sum }}
}

// createEach creates n entities with the components ids one at a time,
// writing no values, appending each to ents.
//
//go:noinline
func createEach(w gg.World, ids []gg.ComponentID, ents []gg.EntityID, n int) []gg.EntityID {
	for range n {
		ents = append(ents, w.NewEntity(ids...))
	}
	return ents
}

// createLoose is createEach that collects nothing (create2_alloc).
//
//go:noinline
func createLoose(w gg.World, n int) {
	for range n {
		w.NewEntity(posVel...)
	}
}

// createdCheck is the create checksum: the number of entities with
// Position and Velocity plus the sum of their values.
func createdCheck(w gg.World) float64 {
	s := 0.0
	q := w.Query(posVelMask)
	for q.Next() {
		p := (*suite.Position)(q.Component(posID))
		v := (*suite.Velocity)(q.Component(velID))
		s += 1 + p.X + p.Y + v.X + v.Y
	}
	return s
}

// removeEach deletes the entities ents (unmeasured) and returns ents
// emptied.
func removeEach(w gg.World, ents []gg.EntityID) []gg.EntityID {
	for _, e := range ents {
		w.RemEntity(e)
	}
	return ents[:0]
}

// createOp prepares create2 or create10 over the components ids.
func createOp(n int, ids []gg.ComponentID, check func(gg.World) float64) suite.Op {
	w := newWorld()
	ents := removeEach(w, createEach(w, ids, make([]gg.EntityID, 0, n), n)) // the warm-up
	return suite.Op{
		Run:   func() { ents = createEach(w, ids, ents, n) },
		Reset: func() { ents = removeEach(w, ents) },
		Check: func() float64 { return check(w) },
	}
}

// create2 writes no values: every component slot of a fresh world is zero
// and no workload here writes another value into a Position or Velocity
// slot of this world.
func create2(n int) suite.Op { return createOp(n, posVel, createdCheck) }

func create2Alloc(n int) suite.Op {
	var w gg.World
	return suite.Op{
		Run: func() { createLoose(w, n) },
		Reset: func() {
			w = gg.NewWorld(worldCap)
			registerPosVel(w)
		},
		Check: func() float64 { return createdCheck(w) },
	}
}

func create10(n int) suite.Op {
	return createOp(n, tenIDs, func(w gg.World) float64 { return float64(count(w, c10Mask)) })
}

// addRemoveVel adds Velocity to every entity, writing no value, then
// removes it from every entity.
//
//go:noinline
func addRemoveVel(w gg.World, ents []gg.EntityID) {
	for _, e := range ents {
		w.AddComponent(e, velID)
	}
	for _, e := range ents {
		w.RemComponent(e, velID)
	}
}

func addRemoveOp(n int, ids []gg.ComponentID) suite.Op {
	w := newWorld()
	ents := make([]gg.EntityID, n)
	for i := range ents {
		ents[i] = w.NewEntity(ids...)
	}
	addRemoveVel(w, ents)
	return suite.Op{
		Run: func() { addRemoveVel(w, ents) },
		// No exclusion filter: with Position minus with Position+Velocity.
		Check: func() float64 { return float64(count(w, posMask) - count(w, posVelMask)) },
	}
}

func addRemove(n int) suite.Op      { return addRemoveOp(n, posOnly) }
func addRemoveLarge(n int) suite.Op { return addRemoveOp(n, posTen) }

//go:noinline
func removeEntities(w gg.World, ents []gg.EntityID) {
	for _, e := range ents {
		w.RemEntity(e)
	}
}

func deleteN(n int, ids []gg.ComponentID) suite.Op {
	w := newWorld()
	ents := make([]gg.EntityID, n)
	var buf []gg.EntityID
	fill := func() {
		buf = removeAll(w, buf)
		for i := range ents {
			ents[i] = w.NewEntity(ids...)
		}
	}
	fill()
	return suite.Op{
		Run:   func() { removeEntities(w, ents) },
		Reset: fill,
		Check: func() float64 { return float64(count(w, anyMask)) },
	}
}

//go:noinline
func newEmptyWorld() gg.World { return gg.NewWorld(worldCap) }

func createWorld(int) suite.Op {
	var w gg.World
	return suite.Op{
		Run: func() { w = newEmptyWorld() },
		Check: func() float64 {
			if w == nil {
				return -1
			}
			return 0
		},
	}
}
