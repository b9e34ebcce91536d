package relations

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/features/transform"

	"github.com/tessera-ecs/tessera/ecs"
)

// childAssignment returns the target of each source of the children
// workload: targets*sources sources, source k in spawn order, each target
// given exactly sources of them in a fixed shuffled order, so a target's
// sources are scattered over the world's storage as they are after play
// has spawned and despawned for a while.
func childAssignment(targets, sources int) []int32 {
	perm := permutation(targets * sources)
	out := make([]int32, len(perm))
	for k, p := range perm {
		out[k] = p / int32(sources)
	}
	return out
}

// sourcePosition is source k's Position: the sum of X over all sources is
// known, and each source's differs.
func sourcePosition(k int) Position { return Position{X: float64(k%1000) + 0.5, Y: float64(k)} }

// tesseraChildren is the children workload in Tessera: targets and
// sources with Position, the sources children of their targets in the
// hierarchy, the pairs made in the sources' spawn order.
type tesseraChildren struct {
	w       *ecs.World
	h       *ecs.Hierarchy
	pos     *ecs.Map[Position]
	targets []ecs.Entity
	sources []ecs.Entity // in spawn order
	buf     []ecs.Entity
	target  ecs.TargetVar
	byRel   *ecs.Query1[Position] // Position of the sources of target
}

func newTesseraChildren(c Config) *tesseraChildren {
	w := ecs.NewWorld()
	s := &tesseraChildren{w: w, h: ecs.NewHierarchy(w), pos: ecs.NewMap[Position](w)}
	s.byRel = ecs.NewQuery1[Position](w, s.h.Relation().ToVar(&s.target))
	for i := range c.ChildTargets {
		s.targets = append(s.targets, s.pos.Spawn(Position{X: float64(i)}))
	}
	for k, t := range childAssignment(c.ChildTargets, c.ChildSources) {
		e := s.pos.Spawn(sourcePosition(k))
		s.h.SetParent(e, s.targets[t])
		s.sources = append(s.sources, e)
	}
	return s
}

// tesseraVisitChildren visits every target's children, read into a
// reused slice by Hierarchy.AppendChildren, and returns how many it
// visited and the sum of their entity indices.
//
//go:noinline
func tesseraVisitChildren(h *ecs.Hierarchy, targets []ecs.Entity, buf *[]ecs.Entity) (n int, sum uint64) {
	b := *buf
	for _, t := range targets {
		b = h.AppendChildren(b[:0], t)
		for _, e := range b {
			sum += uint64(e.Index())
		}
		n += len(b)
	}
	*buf = b
	return n, sum
}

// tesseraReadChildren visits every target's children as
// tesseraVisitChildren does and reads each child's Position through
// Map.Get; it returns how many it visited and the sum of their X.
//
//go:noinline
func tesseraReadChildren(h *ecs.Hierarchy, pos *ecs.Map[Position], targets []ecs.Entity, buf *[]ecs.Entity) (n int, sum float64) {
	b := *buf
	for _, t := range targets {
		b = h.AppendChildren(b[:0], t)
		for _, e := range b {
			sum += pos.Get(e).X
		}
		n += len(b)
	}
	*buf = b
	return n, sum
}

// tesseraQueryChildren visits every target's children with one query
// filtered by the hierarchy's relation with a per-pass target
// (Relation.ToVar), and reads each child's Position from the query; it
// returns how many it visited and the sum of their X.
//
//go:noinline
func tesseraQueryChildren(q *ecs.Query1[Position], v *ecs.TargetVar, targets []ecs.Entity) (n int, sum float64) {
	for _, t := range targets {
		v.Set(t)
		for r := range q.All() {
			sum += r.A.X
			n++
		}
	}
	return n, sum
}

// arkChildren is the children workload in Ark: targets with Position,
// sources with Position and the arkChildOf relation to their target.
type arkChildren struct {
	w       *ark.World
	targets []ark.Entity
	sources []ark.Entity
	byRel   *ark.Filter1[arkChildOf]
	read    *ark.Filter2[Position, arkChildOf]
}

func newArkChildren(c Config) *arkChildren {
	w := ark.NewWorld()
	s := &arkChildren{w: w, byRel: ark.NewFilter1[arkChildOf](w), read: ark.NewFilter2[Position, arkChildOf](w)}
	pos := ark.NewMap[Position](w)
	child := ark.NewMap2[Position, arkChildOf](w)
	for i := range c.ChildTargets {
		s.targets = append(s.targets, pos.NewEntity(&Position{X: float64(i)}))
	}
	for k, t := range childAssignment(c.ChildTargets, c.ChildSources) {
		p := sourcePosition(k)
		s.sources = append(s.sources, child.NewEntity(&p, &arkChildOf{}, ark.RelIdx(1, s.targets[t])))
	}
	return s
}

// arkVisitChildren visits every target's sources with a query filtered by
// the relation's target, Ark's way to find them, and returns how many it
// visited and the sum of their entity ids.
//
//go:noinline
func arkVisitChildren(f *ark.Filter1[arkChildOf], targets []ark.Entity) (n int, sum uint64) {
	for _, t := range targets {
		q := f.Query(ark.RelIdx(0, t))
		for q.Next() {
			sum += uint64(q.Entity().ID())
			n++
		}
	}
	return n, sum
}

// arkReadChildren visits every target's sources with a query filtered by
// the target and reads each one's Position from the query; it returns how
// many it visited and the sum of their X.
//
//go:noinline
func arkReadChildren(f *ark.Filter2[Position, arkChildOf], targets []ark.Entity) (n int, sum float64) {
	for _, t := range targets {
		q := f.Query(ark.RelIdx(1, t))
		for q.Next() {
			p, _ := q.Get()
			sum += p.X
			n++
		}
	}
	return n, sum
}

// dbrChildren is the children workload in donburi: targets and sources
// with Transform (LocalPosition holding the Position of the other
// libraries), the sources children of their targets in features/transform's
// hierarchy.
type dbrChildren struct {
	w       dbr.World
	targets []*dbr.Entry
	sources []*dbr.Entry
}

func newDbrChildren(c Config) *dbrChildren {
	w := dbr.NewWorld()
	s := &dbrChildren{w: w}
	for i := range c.ChildTargets {
		e := w.Entry(w.Create(transform.Transform))
		transform.GetTransform(e).LocalPosition.X = float64(i)
		s.targets = append(s.targets, e)
	}
	for k, t := range childAssignment(c.ChildTargets, c.ChildSources) {
		e := w.Entry(w.Create(transform.Transform))
		p := sourcePosition(k)
		tr := transform.GetTransform(e)
		tr.LocalPosition.X, tr.LocalPosition.Y = p.X, p.Y
		transform.AppendChild(s.targets[t], e, false)
		s.sources = append(s.sources, e)
	}
	return s
}

// dbrVisitChildren visits every target's children from
// transform.GetChildren and returns how many it visited and the sum of
// their entity ids.
//
//go:noinline
func dbrVisitChildren(targets []*dbr.Entry) (n int, sum uint64) {
	for _, t := range targets {
		cs, _ := transform.GetChildren(t)
		for _, e := range cs {
			sum += uint64(e.Id())
		}
		n += len(cs)
	}
	return n, sum
}

// dbrReadChildren visits every target's children from
// transform.GetChildren and reads each one's Transform; it returns how
// many it visited and the sum of their LocalPosition.X.
//
//go:noinline
func dbrReadChildren(targets []*dbr.Entry) (n int, sum float64) {
	for _, t := range targets {
		cs, _ := transform.GetChildren(t)
		for _, e := range cs {
			sum += transform.GetTransform(e).LocalPosition.X
		}
		n += len(cs)
	}
	return n, sum
}

// childrenDoc is what both children comparisons share in their text.
const childrenDoc = "T targets with S sources each (T x S sources, spawned one after another; each target's S sources are a " +
	"fixed random choice among them, so they are scattered over the storage, as after a while of play). " +
	"One round visits, for every target, all of its sources. Tessera: the sources are the target's children " +
	"in the hierarchy; Hierarchy.AppendChildren appends them to a reused slice (a copy of the target's list, " +
	"held in a sparse set). Ark: sources hold a relation component whose target is the target, so a target's " +
	"sources are one table; a query filtered by the relation target (Filter.Query(RelIdx(i, target)), Ark's way " +
	"to find them) walks it, and allocates the relation list it is given. donburi: transform.GetChildren returns " +
	"the parent's list of entries (features/transform's hierarchy; every node holds a Transform)."

// childrenComparison times visiting every target's sources, reading
// only the handles.
func childrenComparison(c Config) *Comparison {
	t, a, d := newTesseraChildren(c), newArkChildren(c), newDbrChildren(c)
	sp := newTesseraSplitChildren(c)
	return &Comparison{
		Name: "children",
		Doc: childrenDoc + " Here a visit reads the source's handle only (each library's entity id is added to a sum), " +
			"so the row times the walk of the lists themselves.",
		Unit: "visited source", PerRun: c.ChildTargets * c.ChildSources,
		Sizes: fmt.Sprintf("T = %s targets, S = %s sources each", count(c.ChildTargets), count(c.ChildSources)),
		Rows: []Row{
			{Name: "Tessera Hierarchy.AppendChildren", Kind: Tessera, Lib: "Tessera",
				What: "for each target: buf = h.AppendChildren(buf[:0], t), then sum += e.Index() over buf",
				Run:  func() { tesseraVisitChildren(t.h, t.targets, &t.buf) }},
			{Name: "Tessera Query1.Chunks + ToVar, SplitByTarget", Kind: Tessera, Lib: "Tessera",
				What: "sources linked by a relation declared with ecs.SplitByTarget(); q := ecs.NewQuery1[Position](w, rel.ToVar(&v)) made once; for each target: v.Set(t); for c := range q.Chunks() { s += e.Index() over c.Entities; sum += s }",
				Run:  func() { tesseraSplitVisitChildren(sp.byRel, &sp.target, sp.targets) }},
			{Name: "Ark query by relation target", Kind: Peer, Lib: "Ark",
				What: "for each target: q := filter1.Query(RelIdx(0, t)); for q.Next() { sum += q.Entity().ID() }",
				Run:  func() { arkVisitChildren(a.byRel, a.targets) }},
			{Name: "donburi transform.GetChildren", Kind: Peer, Lib: "donburi",
				What: "for each target: cs, _ := transform.GetChildren(t); sum += e.Id() over cs",
				Run:  func() { dbrVisitChildren(d.targets) }},
		},
	}
}

// childrenReadComparison times visiting every target's sources and
// reading each one's Position.
func childrenReadComparison(c Config) *Comparison {
	t, a, d := newTesseraChildren(c), newArkChildren(c), newDbrChildren(c)
	sp := newTesseraSplitChildren(c)
	return &Comparison{
		Name: "children_read",
		Doc: childrenDoc + " Here a visit also reads the source's Position (donburi: its Transform) and adds X to a sum: " +
			"Tessera looks each child up with Map.Get (the entity index, then the row of its table, in spawn order, so " +
			"scattered), or walks a query filtered by the relation with a target variable (Relation.ToVar: one query " +
			"for every target, flecs' query variables), which walks the target's list of sources and, for each, looks it up in " +
			"the entity index and checks that it holds the relation (a lookup in the relation's sparse set); with a relation " +
			"declared ecs.SplitByTarget() (Ark's layout), the same query walks the target's table, in the per-entity form or " +
			"one chunk per target; Ark reads the table the query walks, contiguous for each target.",
		Unit: "visited source", PerRun: c.ChildTargets * c.ChildSources,
		Sizes: fmt.Sprintf("T = %s targets, S = %s sources each", count(c.ChildTargets), count(c.ChildSources)),
		Rows: []Row{
			{Name: "Tessera Hierarchy.AppendChildren + Map.Get", Kind: Tessera, Lib: "Tessera",
				What: "for each target: buf = h.AppendChildren(buf[:0], t), then sum += pos.Get(e).X over buf",
				Run:  func() { tesseraReadChildren(t.h, t.pos, t.targets, &t.buf) }},
			{Name: "Tessera Query1 + Relation.ToVar", Kind: Tessera, Lib: "Tessera",
				What: "q := ecs.NewQuery1[Position](w, h.Relation().ToVar(&v)) made once; for each target: v.Set(t); for r := range q.All() { sum += r.A.X }",
				Run:  func() { tesseraQueryChildren(t.byRel, &t.target, t.targets) }},
			{Name: "Tessera Query1.All + ToVar, SplitByTarget", Kind: Tessera, Lib: "Tessera",
				What: "as the row above, the relation declared with ecs.SplitByTarget()",
				Run:  func() { tesseraQueryChildren(sp.byRel, &sp.target, sp.targets) }},
			{Name: "Tessera Query1.Chunks + ToVar, SplitByTarget", Kind: Tessera, Lib: "Tessera",
				What: "as the row above; for c := range q.Chunks() { s := 0.0; s += c.A[i].X over c.A; sum += s }",
				Run:  func() { tesseraSplitReadChunks(sp.byRel, &sp.target, sp.targets) }},
			{Name: "Ark query by relation target", Kind: Peer, Lib: "Ark",
				What: "for each target: q := filter2.Query(RelIdx(1, t)); for q.Next() { p, _ := q.Get(); sum += p.X }",
				Run:  func() { arkReadChildren(a.read, a.targets) }},
			{Name: "donburi transform.GetChildren", Kind: Peer, Lib: "donburi",
				What: "for each target: cs, _ := transform.GetChildren(t); sum += transform.GetTransform(e).LocalPosition.X over cs",
				Run:  func() { dbrReadChildren(d.targets) }},
		},
	}
}
