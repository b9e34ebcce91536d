package relations

import "github.com/tessera-ecs/tessera/ecs"

// splitChildOf is the relation of the rows that measure ecs.SplitByTarget:
// the same pairs as the hierarchy's, stored in tables per target (Ark's
// layout) instead of two sparse sets.
type splitChildOf struct{}

// tesseraSplitChildren is the children workload in Tessera with the
// sources linked to their targets by splitChildOf, a relation split by
// target: each target's sources are one table.
type tesseraSplitChildren struct {
	w       *ecs.World
	rel     *ecs.Relation[splitChildOf]
	targets []ecs.Entity
	sources []ecs.Entity // in spawn order
	target  ecs.TargetVar
	byRel   *ecs.Query1[Position] // Position of the sources of target
}

func newTesseraSplitChildren(c Config) *tesseraSplitChildren {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	s := &tesseraSplitChildren{w: w, rel: ecs.NewRelation[splitChildOf](w, ecs.SplitByTarget())}
	s.byRel = ecs.NewQuery1[Position](w, s.rel.ToVar(&s.target))
	for i := range c.ChildTargets {
		s.targets = append(s.targets, pos.Spawn(Position{X: float64(i)}))
	}
	for k, t := range childAssignment(c.ChildTargets, c.ChildSources) {
		e := pos.Spawn(sourcePosition(k))
		s.rel.Add(e, s.targets[t])
		s.sources = append(s.sources, e)
	}
	return s
}

// tesseraSplitVisitChildren visits every target's sources through the
// Chunks form of a ToVar query over a split relation, one table per
// target, and returns how many it visited and the sum of their entity
// indices.
//
//go:noinline
func tesseraSplitVisitChildren(q *ecs.Query1[Position], v *ecs.TargetVar, targets []ecs.Entity) (n int, sum uint64) {
	for _, t := range targets {
		v.Set(t)
		for c := range q.Chunks() {
			var s uint64 // see tesseraSplitReadChunks
			for _, e := range c.Entities {
				s += uint64(e.Index())
			}
			sum += s
			n += len(c.Entities)
		}
	}
	return n, sum
}

// tesseraSplitReadChunks reads every target's sources' Position through
// the Chunks form: one chunk per target, a plain slice loop over it that
// sums into a local.
//
//go:noinline
func tesseraSplitReadChunks(q *ecs.Query1[Position], v *ecs.TargetVar, targets []ecs.Entity) (n int, sum float64) {
	for _, t := range targets {
		v.Set(t)
		for c := range q.Chunks() {
			// A local sum per chunk: the range body is a closure, and
			// sum, captured by it, would live in memory.
			s := 0.0
			for i := range c.A {
				s += c.A[i].X
			}
			sum += s
			n += len(c.A)
		}
	}
	return n, sum
}

// tesseraSplitReparent is the reparent workload with the children linked
// to their parents by splitChildOf: a move is a Relation.Set that moves
// the child's row to its new parent's table, as Ark's SetRelation does.
type tesseraSplitReparent struct {
	rel               *ecs.Relation[splitChildOf]
	parents, children []ecs.Entity
	plan              *reparentPlan
}

func newTesseraSplitReparent(c Config) *tesseraSplitReparent {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	s := &tesseraSplitReparent{rel: ecs.NewRelation[splitChildOf](w, ecs.SplitByTarget()), plan: newReparentPlan(c.ReparentChildren, c.ReparentParents)}
	for i := range c.ReparentParents {
		s.parents = append(s.parents, pos.Spawn(Position{X: float64(i)}))
	}
	for i := range c.ReparentChildren {
		e := pos.Spawn(Position{X: float64(i), Y: 1})
		s.rel.Add(e, s.parents[s.plan.parent[i]])
		s.children = append(s.children, e)
	}
	return s
}

// tesseraSplitReparentStep makes the plan's next move with Relation.Set.
//
//go:noinline
func tesseraSplitReparentStep(s *tesseraSplitReparent) {
	c, p := s.plan.next()
	s.rel.Set(s.children[c], s.parents[p], splitChildOf{})
}
