package relations

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/features/transform"

	"github.com/tessera-ecs/tessera/ecs"
)

// tesseraReparent is the reparent workload in Tessera: parents and
// children with Position, linked by the hierarchy.
type tesseraReparent struct {
	w                 *ecs.World
	h                 *ecs.Hierarchy
	parents, children []ecs.Entity
	plan              *reparentPlan
}

func newTesseraReparent(c Config) *tesseraReparent {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	s := &tesseraReparent{w: w, h: ecs.NewHierarchy(w), plan: newReparentPlan(c.ReparentChildren, c.ReparentParents)}
	for i := range c.ReparentParents {
		s.parents = append(s.parents, pos.Spawn(Position{X: float64(i)}))
	}
	for i := range c.ReparentChildren {
		e := pos.Spawn(Position{X: float64(i), Y: 1})
		s.h.SetParent(e, s.parents[s.plan.parent[i]])
		s.children = append(s.children, e)
	}
	return s
}

// tesseraReparentStep makes the plan's next move with Hierarchy.SetParent.
//
//go:noinline
func tesseraReparentStep(s *tesseraReparent) {
	c, p := s.plan.next()
	s.h.SetParent(s.children[c], s.parents[p])
}

// arkReparent is the reparent workload in Ark: parents with Position,
// children with Position and the arkChildOf relation to their parent.
type arkReparent struct {
	w                 *ark.World
	rel               *ark.Map[arkChildOf]
	parents, children []ark.Entity
	plan              *reparentPlan
}

func newArkReparent(c Config) *arkReparent {
	w := ark.NewWorld()
	s := &arkReparent{w: w, rel: ark.NewMap[arkChildOf](w), plan: newReparentPlan(c.ReparentChildren, c.ReparentParents)}
	pos := ark.NewMap[Position](w)
	child := ark.NewMap2[Position, arkChildOf](w)
	for i := range c.ReparentParents {
		s.parents = append(s.parents, pos.NewEntity(&Position{X: float64(i)}))
	}
	for i := range c.ReparentChildren {
		e := child.NewEntity(&Position{X: float64(i), Y: 1}, &arkChildOf{}, ark.RelIdx(1, s.parents[s.plan.parent[i]]))
		s.children = append(s.children, e)
	}
	return s
}

// arkReparentStep makes the plan's next move with Map.SetRelation, which
// moves the child to the table of its new target.
//
//go:noinline
func arkReparentStep(s *arkReparent) {
	c, p := s.plan.next()
	s.rel.SetRelation(s.children[c], s.parents[p])
}

// dbrReparent is the reparent workload in donburi: parents and children
// with features/transform's Transform, linked by its hierarchy.
type dbrReparent struct {
	w                 dbr.World
	parents, children []*dbr.Entry
	plan              *reparentPlan
}

func newDbrReparent(c Config) *dbrReparent {
	w := dbr.NewWorld()
	s := &dbrReparent{w: w, plan: newReparentPlan(c.ReparentChildren, c.ReparentParents)}
	for i := range c.ReparentParents {
		e := w.Entry(w.Create(transform.Transform))
		transform.GetTransform(e).LocalPosition.X = float64(i)
		s.parents = append(s.parents, e)
	}
	for i := range c.ReparentChildren {
		e := w.Entry(w.Create(transform.Transform))
		transform.GetTransform(e).LocalPosition.X = float64(i)
		transform.AppendChild(s.parents[s.plan.parent[i]], e, false)
		s.children = append(s.children, e)
	}
	return s
}

// dbrReparentStep makes the plan's next move with transform.ChangeParent.
//
//go:noinline
func dbrReparentStep(s *dbrReparent) {
	c, p := s.plan.next()
	transform.ChangeParent(s.children[c], s.parents[p], false)
}

// reparentComparison times moving one child to another parent.
func reparentComparison(c Config) *Comparison {
	t, a, d := newTesseraReparent(c), newArkReparent(c), newDbrReparent(c)
	sp := newTesseraSplitReparent(c)
	return &Comparison{
		Name: "reparent",
		Doc: "N children spread over M parents (child i starts under parent i mod M); one operation moves one child " +
			"to another parent: the children move in a fixed shuffled order, each from its parent p to parent " +
			"(p + s) mod M with s the least stride of at least M/3 prime to M, so each cycle of N moves leaves every " +
			"parent with as many children as it had. Every library follows the same plan. Tessera: parents and " +
			"children hold Position, linked by the hierarchy (the ChildOf relation, whose pairs live in two sparse " +
			"sets and move no table row); Hierarchy.SetParent unlinks the child from its old parent's list (a search " +
			"from the end of about N/M entries) and appends it to the new one's. Ark: children hold Position and a " +
			"relation component whose target is the parent, so each parent's children are a table of their own; " +
			"Map.SetRelation moves the child's row to its new parent's table. donburi: every node holds " +
			"features/transform's Transform (donburi's hierarchy is part of that package); transform.ChangeParent " +
			"rebuilds the old parent's child list without the child and removes and adds the child's parent " +
			"component, two archetype moves.",
		Unit: "operation", PerRun: 1,
		Sizes: fmt.Sprintf("N = %s children, M = %s parents", count(c.ReparentChildren), count(c.ReparentParents)),
		Rows: []Row{
			{Name: "Tessera Hierarchy.SetParent", Kind: Tessera, Lib: "Tessera", What: "h.SetParent(child, newParent)",
				Run: func() { tesseraReparentStep(t) }},
			{Name: "Tessera Relation.Set, SplitByTarget", Kind: Tessera, Lib: "Tessera",
				What: "rel.Set(child, newParent, v) on a relation declared with ecs.SplitByTarget(): the child's row moves to its new parent's table",
				Run:  func() { tesseraSplitReparentStep(sp) }},
			{Name: "Ark Map.SetRelation", Kind: Peer, Lib: "Ark", What: "childOf.SetRelation(child, newParent)",
				Run: func() { arkReparentStep(a) }},
			{Name: "donburi transform.ChangeParent", Kind: Peer, Lib: "donburi",
				What: "transform.ChangeParent(child, newParent, false)", Run: func() { dbrReparentStep(d) }},
		},
	}
}
