package relations

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/features/transform"
	"github.com/yohamta/donburi/filter"

	"github.com/tessera-ecs/tessera/ecs"
)

// tesseraTransform is the transform workload in Tessera: every node holds
// Local and WorldPos, linked by the hierarchy; nodes[i] is the forest's
// node i.
type tesseraTransform struct {
	w     *ecs.World
	h     *ecs.Hierarchy
	local *ecs.Map[Local]
	world *ecs.Map[WorldPos]
	roots []ecs.Entity
	nodes []ecs.Entity
	stack []ecs.Entity
	// children is Local and WorldPos of the children of target.
	children *ecs.Query2[Local, WorldPos]
	target   ecs.TargetVar
	all      *ecs.Query2[Local, WorldPos] // every node
}

func newTesseraTransform(f *forest) *tesseraTransform {
	w := ecs.NewWorld()
	s := &tesseraTransform{w: w, h: ecs.NewHierarchy(w), local: ecs.NewMap[Local](w), world: ecs.NewMap[WorldPos](w)}
	lw := ecs.NewMap2[Local, WorldPos](w)
	s.children = ecs.NewQuery2[Local, WorldPos](w, s.h.Relation().ToVar(&s.target))
	s.all = ecs.NewQuery2[Local, WorldPos](w)
	for i, p := range f.parent {
		e := lw.Spawn(f.local[i], WorldPos{})
		if p >= 0 {
			s.h.SetParent(e, s.nodes[p])
		} else {
			s.roots = append(s.roots, e)
		}
		s.nodes = append(s.nodes, e)
	}
	return s
}

// tesseraPropagate sets every node's WorldPos, parents first: for each
// root, an explicit stack; a node popped from it has its WorldPos already,
// and its children, appended to the stack by Hierarchy.AppendChildren, get
// theirs from it and their Local (Map.Get for each).
//
//go:noinline
func tesseraPropagate(h *ecs.Hierarchy, local *ecs.Map[Local], world *ecs.Map[WorldPos], roots []ecs.Entity, stack *[]ecs.Entity) {
	st := (*stack)[:0]
	for _, r := range roots {
		*world.Get(r) = WorldPos(*local.Get(r))
		st = append(st, r)
		for len(st) > 0 {
			x := st[len(st)-1]
			st = st[:len(st)-1]
			pw := *world.Get(x)
			n := len(st)
			st = h.AppendChildren(st, x)
			for _, c := range st[n:] {
				l := local.Get(c)
				*world.Get(c) = WorldPos{pw.X + l.X, pw.Y + l.Y}
			}
		}
	}
	*stack = st
}

// tesseraPropagateQuery sets every node's WorldPos, parents first, as
// tesseraPropagate does, but reads a node's children with a query
// filtered by the hierarchy's relation with a per-pass target
// (Relation.ToVar), which hands out each child's Local and WorldPos.
//
//go:noinline
func tesseraPropagateQuery(q *ecs.Query2[Local, WorldPos], v *ecs.TargetVar, local *ecs.Map[Local], world *ecs.Map[WorldPos],
	roots []ecs.Entity, stack *[]ecs.Entity) {
	st := (*stack)[:0]
	for _, r := range roots {
		*world.Get(r) = WorldPos(*local.Get(r))
		st = append(st, r)
		for len(st) > 0 {
			x := st[len(st)-1]
			st = st[:len(st)-1]
			pw := *world.Get(x)
			v.Set(x)
			for c := range q.All() {
				*c.B = WorldPos{pw.X + c.A.X, pw.Y + c.A.Y}
				st = append(st, c.Entity)
			}
		}
	}
	*stack = st
}

// tesseraPropagateCascade sets every node's WorldPos, visiting the
// query's entities parents first with Hierarchy.Cascade and finding each
// node's parent with Hierarchy.Parent.
//
//go:noinline
func tesseraPropagateCascade(h *ecs.Hierarchy, q *ecs.Query2[Local, WorldPos], local *ecs.Map[Local], world *ecs.Map[WorldPos]) {
	for x := range h.Cascade(q) {
		l := local.Get(x)
		if p, ok := h.Parent(x); ok {
			pw := world.Get(p)
			*world.Get(x) = WorldPos{pw.X + l.X, pw.Y + l.Y}
		} else {
			*world.Get(x) = WorldPos(*l)
		}
	}
}

// tesseraPropagateDescendants sets every node's WorldPos, parents first,
// walking each root's subtree with Hierarchy.Descendants (pre-order) and
// finding each node's parent with Hierarchy.Parent.
//
//go:noinline
func tesseraPropagateDescendants(h *ecs.Hierarchy, local *ecs.Map[Local], world *ecs.Map[WorldPos], roots []ecs.Entity) {
	for _, r := range roots {
		*world.Get(r) = WorldPos(*local.Get(r))
		for x := range h.Descendants(r) {
			p, _ := h.Parent(x)
			pw, l := world.Get(p), local.Get(x)
			*world.Get(x) = WorldPos{pw.X + l.X, pw.Y + l.Y}
		}
	}
}

// arkTransform is the transform workload in Ark: every node holds Local
// and WorldPos, all but the roots arkChildOf with their parent as target.
type arkTransform struct {
	w        *ark.World
	lw       *ark.Map2[Local, WorldPos]
	world    *ark.Map[WorldPos]
	children *ark.Filter3[Local, WorldPos, arkChildOf]
	roots    []ark.Entity
	nodes    []ark.Entity
	stack    []ark.Entity
	dstack   []arkDepth
}

func newArkTransform(f *forest) *arkTransform {
	w := ark.NewWorld()
	s := &arkTransform{w: w, lw: ark.NewMap2[Local, WorldPos](w), world: ark.NewMap[WorldPos](w),
		children: ark.NewFilter3[Local, WorldPos, arkChildOf](w)}
	child := ark.NewMap3[Local, WorldPos, arkChildOf](w)
	for i, p := range f.parent {
		l := f.local[i]
		var e ark.Entity
		if p >= 0 {
			e = child.NewEntity(&l, &WorldPos{}, &arkChildOf{}, ark.RelIdx(2, s.nodes[p]))
		} else {
			e = s.lw.NewEntity(&l, &WorldPos{})
			s.roots = append(s.roots, e)
		}
		s.nodes = append(s.nodes, e)
	}
	return s
}

// arkPropagate sets every node's WorldPos, parents first: for each root,
// an explicit stack; for a node popped from it, a query filtered by the
// relation target walks its children's table, setting each child's
// WorldPos from the node's and the child's Local and pushing the child.
// Every node is queried, leaves too: nothing in Ark's API says whether an
// entity is a relation target short of a query.
//
//go:noinline
func arkPropagate(f *ark.Filter3[Local, WorldPos, arkChildOf], lw *ark.Map2[Local, WorldPos], world *ark.Map[WorldPos],
	roots []ark.Entity, stack *[]ark.Entity) {
	st := (*stack)[:0]
	for _, r := range roots {
		l, w := lw.Get(r)
		*w = WorldPos(*l)
		st = append(st, r)
		for len(st) > 0 {
			x := st[len(st)-1]
			st = st[:len(st)-1]
			pw := *world.Get(x)
			q := f.Query(ark.RelIdx(2, x))
			for q.Next() {
				l, w, _ := q.Get()
				*w = WorldPos{pw.X + l.X, pw.Y + l.Y}
				st = append(st, q.Entity())
			}
		}
	}
	*stack = st
}

// arkPropagateByDepth is arkPropagate for a forest whose leaves are all
// at depth levels-1: it queries only the nodes above them, relying on the
// workload's known shape, to show what the queries of the leaves cost.
//
//go:noinline
func arkPropagateByDepth(f *ark.Filter3[Local, WorldPos, arkChildOf], lw *ark.Map2[Local, WorldPos], world *ark.Map[WorldPos],
	roots []ark.Entity, levels int, stack *[]arkDepth) {
	st := (*stack)[:0]
	for _, r := range roots {
		l, w := lw.Get(r)
		*w = WorldPos(*l)
		st = append(st, arkDepth{r, 0})
		for len(st) > 0 {
			x := st[len(st)-1]
			st = st[:len(st)-1]
			pw := *world.Get(x.e)
			q := f.Query(ark.RelIdx(2, x.e))
			inner := x.depth+2 < levels // the children have children
			for q.Next() {
				l, w, _ := q.Get()
				*w = WorldPos{pw.X + l.X, pw.Y + l.Y}
				if inner {
					st = append(st, arkDepth{q.Entity(), x.depth + 1})
				}
			}
		}
	}
	*stack = st
}

// arkDepth is an entity on arkPropagateByDepth's stack and its depth (0
// for a root).
type arkDepth struct {
	e     ark.Entity
	depth int
}

// dbrTransform is the transform workload in donburi: every node holds
// features/transform's Transform (LocalPosition is the node's Local) and
// WorldPos, linked by that package's hierarchy.
type dbrTransform struct {
	w     dbr.World
	all   *dbr.Query
	roots []*dbr.Entry
	nodes []*dbr.Entry
	stack []*dbr.Entry
}

func newDbrTransform(f *forest) *dbrTransform {
	w := dbr.NewWorld()
	s := &dbrTransform{w: w, all: dbr.NewQuery(filter.Contains(transform.Transform, dbrWorldPos))}
	for i, p := range f.parent {
		e := w.Entry(w.Create(transform.Transform, dbrWorldPos))
		tr := transform.GetTransform(e)
		tr.LocalPosition.X, tr.LocalPosition.Y = f.local[i].X, f.local[i].Y
		if p >= 0 {
			transform.AppendChild(s.nodes[p], e, false)
		} else {
			s.roots = append(s.roots, e)
		}
		s.nodes = append(s.nodes, e)
	}
	return s
}

// dbrPropagateWorldPosition sets every node's WorldPos from
// transform.WorldPosition, donburi's own way to get it: for each entity
// of a query, a recursion up to its root.
//
//go:noinline
func dbrPropagateWorldPosition(w dbr.World, q *dbr.Query) {
	q.Each(w, func(e *dbr.Entry) {
		p := transform.WorldPosition(e)
		*dbr.Get[WorldPos](e, dbrWorldPos) = WorldPos{p.X, p.Y}
	})
}

// dbrPropagate sets every node's WorldPos, parents first, as
// tesseraPropagate does, with transform.GetChildren for the children.
//
//go:noinline
func dbrPropagate(roots []*dbr.Entry, stack *[]*dbr.Entry) {
	st := (*stack)[:0]
	for _, r := range roots {
		l := transform.GetTransform(r).LocalPosition
		*dbr.Get[WorldPos](r, dbrWorldPos) = WorldPos{l.X, l.Y}
		st = append(st, r)
		for len(st) > 0 {
			x := st[len(st)-1]
			st = st[:len(st)-1]
			pw := *dbr.Get[WorldPos](x, dbrWorldPos)
			cs, _ := transform.GetChildren(x)
			for _, c := range cs {
				l := transform.GetTransform(c).LocalPosition
				*dbr.Get[WorldPos](c, dbrWorldPos) = WorldPos{pw.X + l.X, pw.Y + l.Y}
			}
			st = append(st, cs...)
		}
	}
	*stack = st
}

// transformComparison times one pass of transform propagation over a
// forest.
func transformComparison(c Config) *Comparison {
	f := newForest(c.TransformTrees, c.TransformBranch, c.TransformLevels)
	t, a, d := newTesseraTransform(f), newArkTransform(f), newDbrTransform(f)
	return &Comparison{
		Name: "transform",
		Doc: "A forest of R trees, each a root with B children per node down to L levels (the root is level 1, the " +
			"leaves level L), every node with a local position; one pass sets every node's world position to its " +
			"parent's world position plus its local one (a root's is its local one), parents first, the propagation " +
			"of a scene graph's transforms (Bevy's transform propagation, flecs' cascade queries). Every library keeps the " +
			"roots in a slice, and nodes are spawned tree by tree, level by level. Tessera: nodes hold " +
			"Local and WorldPos in a table, linked by the hierarchy. Ark: the same " +
			"components, children with a relation component whose target is the parent. donburi: nodes hold " +
			"features/transform's Transform (LocalPosition is the local position) and a WorldPos component, linked " +
			"by that package's hierarchy.",
		Unit: "entity", PerRun: len(f.parent),
		Sizes: fmt.Sprintf("R = %s trees, B = %d, L = %d levels: %s nodes per tree, %s in all", count(c.TransformTrees), c.TransformBranch, c.TransformLevels, count(len(f.parent)/c.TransformTrees), count(len(f.parent))),
		Rows: []Row{
			{Name: "Tessera stack + AppendChildren + Map.Get", Kind: Tessera, Lib: "Tessera",
				What: "per root, an explicit stack: pop x, read its WorldPos, h.AppendChildren onto the stack, " +
					"world.Get(c) = world(x) + local.Get(c) for each new child",
				Run: func() { tesseraPropagate(t.h, t.local, t.world, t.roots, &t.stack) }},
			{Name: "Tessera stack + Query2 + Relation.ToVar", Kind: Tessera, Lib: "Tessera",
				What: "as the stack row, but a node's children come from one query made once, " +
					"ecs.NewQuery2[Local, WorldPos](w, h.Relation().ToVar(&v)): v.Set(x); for c := range q.All(): set c.B from c.A and push c.Entity",
				Run: func() { tesseraPropagateQuery(t.children, &t.target, t.local, t.world, t.roots, &t.stack) }},
			{Name: "Tessera Hierarchy.Descendants + Parent", Kind: Tessera, Lib: "Tessera",
				What: "per root, for x := range h.Descendants(root): p, _ := h.Parent(x); world.Get(x) = world.Get(p) + local.Get(x)",
				Run:  func() { tesseraPropagateDescendants(t.h, t.local, t.world, t.roots) }},
			{Name: "Tessera Hierarchy.Cascade + Parent", Kind: Tessera, Lib: "Tessera",
				What: "for x := range h.Cascade(q) over every node (parents first, by depth): world.Get(x) = world.Get(parent) + local.Get(x), or local for a root",
				Run:  func() { tesseraPropagateCascade(t.h, t.all, t.local, t.world) }},
			{Name: "Ark stack + query by relation target", Kind: Peer, Lib: "Ark",
				What: "per root, an explicit stack: pop x, read its WorldPos, q := filter3.Query(RelIdx(2, x)); for q.Next(): " +
					"set the child's WorldPos from the query's columns and push q.Entity()",
				Run: func() { arkPropagate(a.children, a.lw, a.world, a.roots, &a.stack) }},
			{Name: "Ark stack + query, leaves known", Kind: Peer, Lib: "Ark",
				Aside: "relies on the forest's known depth to skip the leaves' queries, which general code cannot",
				What:  "as the row above, but the stack holds each node's depth and the leaves (depth L-1) are never pushed or queried",
				Run:   func() { arkPropagateByDepth(a.children, a.lw, a.world, a.roots, c.TransformLevels, &a.dstack) }},
			{Name: "donburi transform.WorldPosition", Kind: Peer, Lib: "donburi",
				What: "q.Each over (Transform, WorldPos): WorldPos = transform.WorldPosition(e), which recurses up to the root",
				Run:  func() { dbrPropagateWorldPosition(d.w, d.all) }},
			{Name: "donburi stack + transform.GetChildren", Kind: Peer, Lib: "donburi",
				What: "per root, an explicit stack as Tessera's, children from transform.GetChildren, Local from transform.GetTransform",
				Run:  func() { dbrPropagate(d.roots, &d.stack) }},
		},
	}
}
