package relations

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/features/transform"
	"github.com/yohamta/donburi/filter"

	"github.com/tessera-ecs/tessera/ecs"
)

// bodyOf is entity i's Position and Velocity in the query workload.
func bodyOf(i int) (Position, Velocity) {
	return Position{X: float64(i), Y: float64(i % 100)}, Velocity{X: 1 + float64(i%3), Y: 0.5}
}

// parentOfBody is the parent, in the world with relations, of entity i >=
// parents: the entities 0..parents-1 are the parents and the others their
// children, dealt round robin.
func parentOfBody(i, parents int) int { return (i - parents) % parents }

// tesseraQueryWorld returns a Tessera world of n entities with Position
// and Velocity, spawned in order; with relations the first parents of them
// are the parents of the others in the hierarchy.
func tesseraQueryWorld(n, parents int, relations bool) *ecs.World {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = pv.Spawn(bodyOf(i))
	}
	if relations {
		h := ecs.NewHierarchy(w)
		for i := parents; i < n; i++ {
			h.SetParent(es[i], es[parentOfBody(i, parents)])
		}
	}
	return w
}

// tesseraSplitQueryWorld is tesseraQueryWorld with relations whose
// children are linked to their parents by splitChildOf, a relation split
// by target: each parent's children are a table of their own, as in Ark.
func tesseraSplitQueryWorld(n, parents int) *ecs.World {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	rel := ecs.NewRelation[splitChildOf](w, ecs.SplitByTarget())
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = pv.Spawn(bodyOf(i))
	}
	for i := parents; i < n; i++ {
		rel.Add(es[i], es[parentOfBody(i, parents)])
	}
	return w
}

// tesseraMove is one pass of p += v over q, the peer suite's query2 kernel
// (range over func).
//
//go:noinline
func tesseraMove(q *ecs.Query2[Position, Velocity]) {
	for r := range q.All() {
		r.A.X += r.B.X
		r.A.Y += r.B.Y
	}
}

// arkQueryWorld returns the Ark twin of tesseraQueryWorld: with
// relations, the children also hold arkChildOf with their parent as
// target, which puts each parent's children in a table of their own.
func arkQueryWorld(n, parents int, relations bool) *ark.World {
	w := ark.NewWorld()
	pv := ark.NewMap2[Position, Velocity](w)
	child := ark.NewMap3[Position, Velocity, arkChildOf](w)
	es := make([]ark.Entity, n)
	for i := range es {
		p, v := bodyOf(i)
		if relations && i >= parents {
			es[i] = child.NewEntity(&p, &v, &arkChildOf{}, ark.RelIdx(2, es[parentOfBody(i, parents)]))
			continue
		}
		es[i] = pv.NewEntity(&p, &v)
	}
	return w
}

// arkMoveEntities is one pass of p += v with Ark's per-entity query
// (Next and Get).
//
//go:noinline
func arkMoveEntities(f *ark.Filter2[Position, Velocity]) {
	q := f.Query()
	for q.Next() {
		p, v := q.Get()
		p.X += v.X
		p.Y += v.Y
	}
}

// arkMoveTables is one pass of p += v with Ark's per-table query
// (NextTable and GetColumns).
//
//go:noinline
func arkMoveTables(f *ark.Filter2[Position, Velocity]) {
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

// dbrQueryWorld returns the donburi twin: every entity holds Position,
// Velocity and Transform (which features/transform's hierarchy needs,
// given in both worlds); with relations the children are appended to
// their parents with transform.AppendChild, which gives them a parent
// component and their parents a children component.
func dbrQueryWorld(n, parents int, relations bool) dbr.World {
	w := dbr.NewWorld()
	es := make([]*dbr.Entry, n)
	for i := range es {
		e := w.Entry(w.Create(dbrPosition, dbrVelocity, transform.Transform))
		p, v := bodyOf(i)
		*dbr.Get[Position](e, dbrPosition), *dbr.Get[Velocity](e, dbrVelocity) = p, v
		es[i] = e
	}
	if relations {
		for i := parents; i < n; i++ {
			transform.AppendChild(es[parentOfBody(i, parents)], es[i], false)
		}
	}
	return w
}

// dbrMove is one pass of p += v with donburi's Query.Each.
//
//go:noinline
func dbrMove(w dbr.World, q *dbr.Query) {
	q.Each(w, func(e *dbr.Entry) {
		p, v := dbr.Get[Position](e, dbrPosition), dbr.Get[Velocity](e, dbrVelocity)
		p.X += v.X
		p.Y += v.Y
	})
}

// queryComparison times one pass of p += v over a world whose entities
// are parents and children, and over the same entities without relations.
func queryComparison(c Config) *Comparison {
	n, parents := c.QueryEntities, c.QueryParents
	tRel, tPlain := tesseraQueryWorld(n, parents, true), tesseraQueryWorld(n, parents, false)
	tqRel, tqPlain := ecs.NewQuery2[Position, Velocity](tRel), ecs.NewQuery2[Position, Velocity](tPlain)
	tqSplit := ecs.NewQuery2[Position, Velocity](tesseraSplitQueryWorld(n, parents))
	aRel, aPlain := arkQueryWorld(n, parents, true), arkQueryWorld(n, parents, false)
	afRel, afPlain := ark.NewFilter2[Position, Velocity](aRel), ark.NewFilter2[Position, Velocity](aPlain)
	dRel, dPlain := dbrQueryWorld(n, parents, true), dbrQueryWorld(n, parents, false)
	dq := dbr.NewQuery(filter.Contains(dbrPosition, dbrVelocity))
	return &Comparison{
		Name: "query",
		Doc: "One pass of p += v over N entities with Position and Velocity, of which P are parents of the others (child i " +
			"of the others goes to parent i mod P), against the same pass over the same entities in a world without any " +
			"relation. Tessera: the pairs live in sparse sets outside the tables, so the table the query walks is the " +
			"same in both worlds; the kernel is the peer suite's range-over-func query2. Ark: the children hold a " +
			"relation component, and Ark keeps one table per relation target, so the children are split into P tables " +
			"of (N-P)/P rows, which the query visits one by one; both of Ark's query forms are shown. donburi: every " +
			"entity holds Transform in both worlds (its hierarchy needs it); transform.AppendChild gives children a " +
			"parent component and parents a children component, three archetypes in all; its Query.Each. The ratio " +
			"that matters here is each library's time with relations over its time without.",
		Goal: "Tessera's pass with relations within 5% of its pass without",
		Unit: "entity", PerRun: n,
		Sizes: fmt.Sprintf("N = %s entities, P = %s parents, %s children each", count(n), count(parents), count((n-parents)/parents)),
		Rows: []Row{
			{Name: "Tessera Query2.All, with relations", Baseline: "Tessera Query2.All, no relations", Kind: Tessera, Lib: "Tessera", What: "for r := range q.All() { p += v }",
				Run: func() { tesseraMove(tqRel) }},
			{Name: "Tessera Query2.All, SplitByTarget relations", Baseline: "Tessera Query2.All, no relations", Kind: Tessera, Lib: "Tessera",
				What:  "the same, the children linked by a relation declared with ecs.SplitByTarget(): P tables, as in Ark",
				Aside: "the option's cost, not the default storage the goal is about",
				Run:   func() { tesseraMove(tqSplit) }},
			{Name: "Tessera Query2.All, no relations", Kind: Tessera, Lib: "Tessera", Plain: true, What: "the same, world without relations",
				Run: func() { tesseraMove(tqPlain) }},
			{Name: "Ark Query2.Get, with relations", Baseline: "Ark Query2.Get, no relations", Kind: Peer, Lib: "Ark", What: "q := filter.Query(); for q.Next() { p, v := q.Get(); p += v }",
				Run: func() { arkMoveEntities(afRel) }},
			{Name: "Ark Query2.Get, no relations", Kind: Peer, Lib: "Ark", Plain: true, What: "the same, world without relations",
				Run: func() { arkMoveEntities(afPlain) }},
			{Name: "Ark Query2.GetColumns, with relations", Baseline: "Ark Query2.GetColumns, no relations", Kind: Peer, Lib: "Ark",
				What: "q := filter.Query(); for q.NextTable() { ps, vs := q.GetColumns(); a slice loop }",
				Run:  func() { arkMoveTables(afRel) }},
			{Name: "Ark Query2.GetColumns, no relations", Kind: Peer, Lib: "Ark", Plain: true, What: "the same, world without relations",
				Run: func() { arkMoveTables(afPlain) }},
			{Name: "donburi Query.Each, with relations", Baseline: "donburi Query.Each, no relations", Kind: Peer, Lib: "donburi",
				What: "q.Each(w, func(e) { p, v := Get(e, position), Get(e, velocity); p += v })", Run: func() { dbrMove(dRel, dq) }},
			{Name: "donburi Query.Each, no relations", Kind: Peer, Lib: "donburi", Plain: true, What: "the same, world without relations",
				Run: func() { dbrMove(dPlain, dq) }},
		},
	}
}
