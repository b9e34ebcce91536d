package changes

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/tessera-ecs/tessera/ecs"
)

// startPosition is entity i's Position before any tick: an integer X, so
// that the value a tick writes (never an integer) tells a changed entity
// from one that was not.
func startPosition(i int) Position { return Position{X: float64(i), Y: 1} }

// changedValue is the X a tick writes: tick + 0.5, the same for every
// entity the tick changes.
func changedValue(tick int) float64 { return float64(tick) + 0.5 }

// plan is the changed workload's schedule, the same for every row: tick t
// (from 1) changes the entities i with i mod stride = t mod stride, every
// stride-th one, a different set each tick, spread evenly over the world.
type plan struct {
	n, stride int
	tick      int
}

// next moves to the next tick and returns its first changed index and the
// value it writes.
func (p *plan) next() (first int, x float64) {
	p.tick++
	return p.tick % p.stride, changedValue(p.tick)
}

// passResult is what a tick's pass found: the sum of X over the entities it
// visited and how many it visited.
type passResult struct {
	sum float64
	n   int
}

// tesseraChanged is the changed workload in Tessera: a world of n
// entities with Position, spawned in order, and the queries of the three
// ways to find the changed ones.
type tesseraChanged struct {
	plan
	pos   *ecs.Map[Position]
	dirty *ecs.Map[Dirty] // the dirty-tag form
	es    []ecs.Entity
	q     *ecs.Query1[Position]
	res   passResult
}

// The ways a Tessera row finds the changed entities.
const (
	tesseraChangedFilter = iota // Position tracks changes; a Changed query
	tesseraFullPass             // no tracking; a pass over every entity
	tesseraDirtyTag             // no tracking; a sparse tag added on change
)

func newTesseraChanged(c Config, way int) *tesseraChanged {
	w := ecs.NewWorld()
	var filters []ecs.Filter
	switch way {
	case tesseraChangedFilter:
		ecs.Register[Position](w, ecs.TrackChanges())
		filters = append(filters, ecs.Changed[Position]())
	case tesseraDirtyTag:
		ecs.Register[Dirty](w, ecs.Sparse())
		filters = append(filters, ecs.With(ecs.C[Dirty]()))
	}
	t := &tesseraChanged{plan: plan{n: c.Entities, stride: c.Stride}, pos: ecs.NewMap[Position](w), dirty: ecs.NewMap[Dirty](w),
		es: make([]ecs.Entity, c.Entities)}
	for i := range t.es {
		t.es[i] = t.pos.Spawn(startPosition(i))
	}
	t.q = ecs.NewQuery1[Position](w, filters...)
	if way == tesseraChangedFilter {
		tesseraSumChunks(t.q) // a Changed query's first pass sees every entity
	}
	return t
}

// tesseraSet is a tick's changes: Map.Set of the new value on every
// stride-th entity from first.
//
//go:noinline
func tesseraSet(pos *ecs.Map[Position], es []ecs.Entity, first, stride int, x float64) {
	for i := first; i < len(es); i += stride {
		pos.Set(es[i], Position{X: x, Y: 1})
	}
}

// tesseraSetTag is a tick's changes in the dirty-tag form: Map.Set of the
// new value, and Map.Add of the tag.
//
//go:noinline
func tesseraSetTag(pos *ecs.Map[Position], dirty *ecs.Map[Dirty], es []ecs.Entity, first, stride int, x float64) {
	for i := first; i < len(es); i += stride {
		pos.Set(es[i], Position{X: x, Y: 1})
		dirty.Add(es[i], Dirty{})
	}
}

// tesseraSumChunks sums X over q's chunks: a Changed query's chunks are
// the runs of consecutive changed rows, a plain query's its tables.
//
//go:noinline
func tesseraSumChunks(q *ecs.Query1[Position]) passResult {
	var r passResult
	for ch := range q.Chunks() {
		s := 0.0 // a local: r lives in the loop body's closure
		for i := range ch.A {
			s += ch.A[i].X
		}
		r.sum += s
		r.n += len(ch.A)
	}
	return r
}

// tesseraSumAll sums X over q's rows through Query1.All.
//
//go:noinline
func tesseraSumAll(q *ecs.Query1[Position]) passResult {
	var r passResult
	for row := range q.All() {
		r.sum += row.A.X
		r.n++
	}
	return r
}

// tesseraChangedTick is one tick of the Changed rows: the changes, then a
// pass of the Changed query, through Chunks or All.
func tesseraChangedTick(t *tesseraChanged, all bool) {
	first, x := t.next()
	tesseraSet(t.pos, t.es, first, t.stride, x)
	if all {
		t.res = tesseraSumAll(t.q)
	} else {
		t.res = tesseraSumChunks(t.q)
	}
}

// tesseraDirtyPass is the dirty-tag pass: the tagged entities' X summed,
// then every tag taken away by Map.RemoveMatching of the same query.
//
//go:noinline
func tesseraDirtyPass(q *ecs.Query1[Position], dirty *ecs.Map[Dirty]) passResult {
	r := tesseraSumChunks(q)
	dirty.RemoveMatching(q)
	return r
}

// tesseraDirtyTick is one tick of the dirty-tag row.
func tesseraDirtyTick(t *tesseraChanged) {
	first, x := t.next()
	tesseraSetTag(t.pos, t.dirty, t.es, first, t.stride, x)
	t.res = tesseraDirtyPass(t.q, t.dirty)
}

// tesseraFullTick is one tick of the full-pass row: the changes, then a
// pass over every entity.
func tesseraFullTick(t *tesseraChanged) {
	first, x := t.next()
	tesseraSet(t.pos, t.es, first, t.stride, x)
	t.res = tesseraSumChunks(t.q)
}

// arkChanged is the changed workload in Ark, which has no change
// detection: a dirty tag, a zero-size component added to each changed
// entity (a move to the table of Position+Dirty) and removed from all of
// them by a batch after the pass; or a pass over every entity.
type arkChanged struct {
	plan
	pos      *ark.Map[Position]
	dirty    *ark.Map[Dirty]
	es       []ark.Entity
	all      *ark.Filter1[Position] // every entity
	tagged   *ark.Filter1[Position] // the tagged ones
	tagBatch *ark.Filter0           // the tagged ones, for the batch removal
	res      passResult
}

func newArkChanged(c Config) *arkChanged {
	w := ark.NewWorld()
	a := &arkChanged{plan: plan{n: c.Entities, stride: c.Stride}, pos: ark.NewMap[Position](w), dirty: ark.NewMap[Dirty](w),
		es: make([]ark.Entity, c.Entities)}
	for i := range a.es {
		p := startPosition(i)
		a.es[i] = a.pos.NewEntity(&p)
	}
	a.all = ark.NewFilter1[Position](w)
	a.tagged = ark.NewFilter1[Position](w).With(ark.C[Dirty]())
	a.tagBatch = ark.NewFilter0(w).With(ark.C[Dirty]())
	return a
}

// arkSet is a tick's changes: Map.Set of the new value on every stride-th
// entity from first.
//
//go:noinline
func arkSet(pos *ark.Map[Position], es []ark.Entity, first, stride int, x float64) {
	for i := first; i < len(es); i += stride {
		pos.Set(es[i], &Position{X: x, Y: 1})
	}
}

// arkSetTag is a tick's changes in the dirty-tag form: Map.Set of the new
// value, and Map.Add of the tag.
//
//go:noinline
func arkSetTag(pos *ark.Map[Position], dirty *ark.Map[Dirty], es []ark.Entity, first, stride int, x float64) {
	tag := Dirty{}
	for i := first; i < len(es); i += stride {
		pos.Set(es[i], &Position{X: x, Y: 1})
		dirty.Add(es[i], &tag)
	}
}

// arkSum sums X over f's query, table by table (NextTable and GetColumns,
// Ark's fastest form).
//
//go:noinline
func arkSum(f *ark.Filter1[Position]) passResult {
	var r passResult
	q := f.Query()
	for q.NextTable() {
		ps := q.GetColumns()
		s := 0.0
		for i := range ps {
			s += ps[i].X
		}
		r.sum += s
		r.n += len(ps)
	}
	return r
}

// arkDirtyPass is the dirty-tag pass: the tagged entities' X summed, then
// the tag removed from all of them by Map.RemoveBatch.
//
//go:noinline
func arkDirtyPass(a *arkChanged) passResult {
	r := arkSum(a.tagged)
	a.dirty.RemoveBatch(a.tagBatch.Batch(), nil)
	return r
}

// arkDirtyTick is one tick of Ark's dirty-tag row.
func arkDirtyTick(a *arkChanged) {
	first, x := a.next()
	arkSetTag(a.pos, a.dirty, a.es, first, a.stride, x)
	a.res = arkDirtyPass(a)
}

// arkFullTick is one tick of Ark's full-pass row.
func arkFullTick(a *arkChanged) {
	first, x := a.next()
	arkSet(a.pos, a.es, first, a.stride, x)
	a.res = arkSum(a.all)
}

// floorChanged is the floor: the values in a plain slice, and a list of
// the indices written since the last pass.
type floorChanged struct {
	plan
	ps    []Position
	dirty []int32
	res   passResult
}

func newFloorChanged(c Config) *floorChanged {
	f := &floorChanged{plan: plan{n: c.Entities, stride: c.Stride}, ps: make([]Position, c.Entities),
		dirty: make([]int32, 0, c.changedPerTick())}
	for i := range f.ps {
		f.ps[i] = startPosition(i)
	}
	return f
}

// floorSet is a tick's changes: the value written by index, the index
// appended to the dirty list.
//
//go:noinline
func floorSet(ps []Position, dirty []int32, first, stride int, x float64) []int32 {
	for i := first; i < len(ps); i += stride {
		ps[i] = Position{X: x, Y: 1}
		dirty = append(dirty, int32(i))
	}
	return dirty
}

// floorPass sums X over the dirty list, and empties it.
//
//go:noinline
func floorPass(ps []Position, dirty []int32) (passResult, []int32) {
	s := 0.0
	for _, i := range dirty {
		s += ps[i].X
	}
	return passResult{s, len(dirty)}, dirty[:0]
}

// floorTick is one tick of the floor.
func floorTick(f *floorChanged) {
	first, x := f.next()
	f.dirty = floorSet(f.ps, f.dirty, first, f.stride, x)
	f.res, f.dirty = floorPass(f.ps, f.dirty)
}

// changedComparison times a tick in which every Stride-th of N entities
// gets a new Position, and a pass that finds them and sums their X.
func changedComparison(c Config) *Comparison {
	tc, tca := newTesseraChanged(c, tesseraChangedFilter), newTesseraChanged(c, tesseraChangedFilter)
	td, tf := newTesseraChanged(c, tesseraDirtyTag), newTesseraChanged(c, tesseraFullPass)
	ad, af := newArkChanged(c), newArkChanged(c)
	fl := newFloorChanged(c)
	k := c.changedPerTick()
	return &Comparison{
		Name: "changed",
		Doc: fmt.Sprintf("A world of N entities with Position{X, Y float64}, spawned in order. One tick gives a new value to "+
			"%.3g%% of them, every S-th entity from an offset that moves by one each tick (a different set each tick, "+
			"spread evenly over the world), then a pass finds the entities changed since the last pass and sums their X. "+
			"The time is the whole tick, changes and pass, the same for every row: the ways to find changes differ in "+
			"what a change costs as much as in what the pass costs. Tessera, Changed: Position is registered with "+
			"ecs.TrackChanges(), Map.Set stores the tick of the change beside the row, and the pass is a query with "+
			"ecs.Changed[Position]() (its chunks are runs of consecutive changed rows), which compares every row's tick "+
			"with the query's last pass. Tessera, dirty tag: no tracking; Map.Set and Map.Add of a zero-size tag "+
			"registered ecs.Sparse() (no table move); the pass is a query With the tag, then Map.RemoveMatching of the tags. "+
			"Ark has no change detection (no change ticks, no changed filter; its OnSetComponents observers fire on "+
			"Map.Set but keep no state a query could read), so its row is the dirty-tag pattern in Ark: Map.Set and "+
			"Map.Add of a zero-size component, which moves the entity to the table of Position+Dirty (Ark's tags are "+
			"components; it has no sparse storage), a query With the tag table by table, then Map.RemoveBatch of the "+
			"tag, which moves them back. The full-pass rows are what a system does without any of this: the same "+
			"changes, then a pass over every entity, which cannot tell the changed ones and sums all X; they are each "+
			"library's baseline, not in the peer ratio. The floor writes a plain slice by index and appends the index "+
			"to a dirty list, which the pass walks and empties.", 100/float64(c.Stride)),
		Unit: "entity of the world", PerRun: c.Entities, PerChange: k,
		Sizes: fmt.Sprintf("N = %s entities, every S = %d-th changing per tick: %s changes per tick", count(c.Entities), c.Stride, count(k)),
		Rows: []Row{
			{Name: "Tessera Changed, Query1.Chunks", Kind: Tessera, Lib: "Tessera", Baseline: "Tessera full pass, Query1.Chunks",
				What: "pos.Set(e, v) for each changed entity; then for ch := range changedQuery.Chunks() { sum X }",
				Run:  func() { tesseraChangedTick(tc, false) }},
			{Name: "Tessera Changed, Query1.All", Kind: Tessera, Lib: "Tessera", Baseline: "Tessera full pass, Query1.Chunks",
				What: "the same changes; then for r := range changedQuery.All() { sum += r.A.X }",
				Run:  func() { tesseraChangedTick(tca, true) }},
			{Name: "Tessera sparse dirty tag", Kind: Tessera, Lib: "Tessera", Baseline: "Tessera full pass, Query1.Chunks",
				What: "pos.Set(e, v); dirty.Add(e, Dirty{}) for each changed entity; then for ch := range taggedQuery.Chunks() { sum X }; dirty.RemoveMatching(taggedQuery)",
				Run:  func() { tesseraDirtyTick(td) }},
			{Name: "Tessera full pass, Query1.Chunks", Kind: Tessera, Lib: "Tessera", Plain: true,
				What: "pos.Set(e, v) for each changed entity (Position not tracked); then for ch := range q.Chunks() { sum X } over all N",
				Run:  func() { tesseraFullTick(tf) }},
			{Name: "Ark dirty tag component", Kind: Peer, Lib: "Ark", Baseline: "Ark full pass, GetColumns",
				What: "pos.Set(e, &v); dirty.Add(e, &Dirty{}) for each changed entity; then q := tagged.Query(); for q.NextTable() { sum X over q.GetColumns() }; dirty.RemoveBatch(tagFilter.Batch(), nil)",
				Run:  func() { arkDirtyTick(ad) }},
			{Name: "Ark full pass, GetColumns", Kind: Peer, Lib: "Ark", Plain: true,
				What: "pos.Set(e, &v) for each changed entity; then q := all.Query(); for q.NextTable() { sum X over q.GetColumns() } over all N",
				Run:  func() { arkFullTick(af) }},
			{Name: "plain slice + dirty index list", Kind: Floor, Lib: "plain Go",
				What: "ps[i] = v; dirty = append(dirty, i) for each changed entity; then sum ps[i].X over dirty; dirty = dirty[:0]",
				Run:  func() { floorTick(fl) }},
		},
	}
}
