package relations

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/features/transform"

	"github.com/tessera-ecs/tessera/ecs"
)

// tesseraCascade is the cascade workload in Tessera: a tree of entities
// with Position linked by the hierarchy, rebuilt by reset, and bystanders
// that stay.
type tesseraCascade struct {
	w      *ecs.World
	h      *ecs.Hierarchy
	pos    *ecs.Map[Position]
	parent []int32 // the tree's shape
	nodes  []ecs.Entity
}

func newTesseraCascade(c Config) *tesseraCascade {
	w := ecs.NewWorld()
	s := &tesseraCascade{w: w, h: ecs.NewHierarchy(w), pos: ecs.NewMap[Position](w),
		parent: heapTree(c.CascadeNodes, c.CascadeBranch), nodes: make([]ecs.Entity, c.CascadeNodes)}
	for i := range c.CascadeBystanders {
		s.pos.Spawn(Position{X: float64(i)})
	}
	return s
}

// reset builds the tree, despawning the old one first if it still lives.
func (s *tesseraCascade) reset() {
	if s.w.Alive(s.nodes[0]) {
		s.w.Despawn(s.nodes[0])
	}
	for i, p := range s.parent {
		s.nodes[i] = s.pos.Spawn(Position{X: float64(i)})
		if p >= 0 {
			s.h.SetParent(s.nodes[i], s.nodes[p])
		}
	}
}

// tesseraCascadeDespawn despawns the root: ChildOf's DespawnSources
// policy despawns the whole tree, children before parents.
//
//go:noinline
func tesseraCascadeDespawn(w *ecs.World, root ecs.Entity) { w.Despawn(root) }

// arkCascade is the cascade workload in Ark: the tree's nodes hold
// Position, all but the root the arkChildOf relation to their parent.
type arkCascade struct {
	w        *ark.World
	pos      *ark.Map[Position]
	child    *ark.Map2[Position, arkChildOf]
	byParent *ark.Filter1[arkChildOf]
	parent   []int32
	nodes    []ark.Entity
	order    []ark.Entity // the walk's buffers
	parents  []ark.Entity
}

func newArkCascade(c Config) *arkCascade {
	w := ark.NewWorld()
	s := &arkCascade{w: w, pos: ark.NewMap[Position](w), child: ark.NewMap2[Position, arkChildOf](w),
		byParent: ark.NewFilter1[arkChildOf](w), parent: heapTree(c.CascadeNodes, c.CascadeBranch),
		nodes: make([]ark.Entity, c.CascadeNodes)}
	for i := range c.CascadeBystanders {
		s.pos.NewEntity(&Position{X: float64(i)})
	}
	return s
}

// reset builds the tree, removing the old one first if it still lives.
func (s *arkCascade) reset() {
	if !s.nodes[0].IsZero() && s.w.Alive(s.nodes[0]) {
		arkDespawnTree(s.w, s.byParent, s.nodes[0], &s.order)
	}
	for i, p := range s.parent {
		v := Position{X: float64(i)}
		if p < 0 {
			s.nodes[i] = s.pos.NewEntity(&v)
			continue
		}
		s.nodes[i] = s.child.NewEntity(&v, &arkChildOf{}, ark.RelIdx(1, s.nodes[p]))
	}
}

// arkWalkTree appends root and every entity below it to (*order)[:0],
// level by level, each node's children found by a query filtered by the
// relation target.
func arkWalkTree(f *ark.Filter1[arkChildOf], root ark.Entity, order *[]ark.Entity) []ark.Entity {
	o := append((*order)[:0], root)
	for i := 0; i < len(o); i++ {
		q := f.Query(ark.RelIdx(0, o[i]))
		for q.Next() {
			o = append(o, q.Entity())
		}
	}
	*order = o
	return o
}

// arkDespawnTree removes root and everything below it: Ark removes only
// the entity it is given (its children lose the relation, keeping a zero
// target), so the subtree is walked by hand and removed children first,
// one RemoveEntity per node.
//
//go:noinline
func arkDespawnTree(w *ark.World, f *ark.Filter1[arkChildOf], root ark.Entity, order *[]ark.Entity) {
	o := arkWalkTree(f, root, order)
	for i := len(o) - 1; i >= 0; i-- {
		w.RemoveEntity(o[i])
	}
}

// arkDespawnTreeBatch removes root and everything below it: the subtree
// is walked by hand as in arkDespawnTree, noting the nodes that have
// children, then, deepest first, each such node's children go in one
// World.RemoveEntities over the batch of its relation target, and the
// root last.
//
//go:noinline
func arkDespawnTreeBatch(w *ark.World, f *ark.Filter1[arkChildOf], root ark.Entity, order, parents *[]ark.Entity) {
	o, ps := append((*order)[:0], root), (*parents)[:0]
	for i := 0; i < len(o); i++ {
		q := f.Query(ark.RelIdx(0, o[i]))
		n := len(o)
		for q.Next() {
			o = append(o, q.Entity())
		}
		if len(o) > n {
			ps = append(ps, o[i])
		}
	}
	for i := len(ps) - 1; i >= 0; i-- {
		w.RemoveEntities(f.Batch(ark.RelIdx(0, ps[i])), nil)
	}
	w.RemoveEntity(root)
	*order, *parents = o, ps
}

// dbrCascade is the cascade workload in donburi: the tree's nodes hold
// Transform, linked by features/transform's hierarchy.
type dbrCascade struct {
	w      dbr.World
	parent []int32
	nodes  []*dbr.Entry
}

func newDbrCascade(c Config) *dbrCascade {
	w := dbr.NewWorld()
	s := &dbrCascade{w: w, parent: heapTree(c.CascadeNodes, c.CascadeBranch), nodes: make([]*dbr.Entry, c.CascadeNodes)}
	for i := range c.CascadeBystanders {
		transform.GetTransform(w.Entry(w.Create(transform.Transform))).LocalPosition.X = float64(i)
	}
	return s
}

// reset builds the tree, removing the old one first if it still lives.
func (s *dbrCascade) reset() {
	if s.nodes[0] != nil && s.nodes[0].Valid() {
		transform.RemoveRecursive(s.nodes[0])
	}
	for i, p := range s.parent {
		e := s.w.Entry(s.w.Create(transform.Transform))
		transform.GetTransform(e).LocalPosition.X = float64(i)
		if p >= 0 {
			transform.AppendChild(s.nodes[p], e, false)
		}
		s.nodes[i] = e
	}
}

// dbrCascadeDespawn removes the root and its subtree with
// transform.RemoveRecursive (a recursive walk of the children lists).
//
//go:noinline
func dbrCascadeDespawn(root *dbr.Entry) { transform.RemoveRecursive(root) }

// cascadeComparison times despawning the root of a tree, which despawns
// the whole tree; the tree is rebuilt before each despawn, untimed.
func cascadeComparison(c Config) *Comparison {
	t, a, d := newTesseraCascade(c), newArkCascade(c), newDbrCascade(c)
	abatch := newArkCascade(c)
	return &Comparison{
		Name: "cascade",
		Doc: "A tree of N nodes in which node i > 0 is a child of node (i-1)/B (each inner node has B children, filled " +
			"level by level), beside a few bystander entities outside it; one operation despawns the root, which must " +
			"despawn the whole tree and nothing else. Before each operation the tree is built again, outside the " +
			"timing (the time per round comes from the monotonic clock around the despawn alone). Tessera: the nodes " +
			"hold Position, linked by the hierarchy; World.Despawn(root) cascades by ChildOf's DespawnSources policy " +
			"(a depth-first walk with an explicit stack, children before parents). Ark v0.8.3 does not cascade: " +
			"removing a relation target only resets its sources' relation to the zero target, so its rows walk the " +
			"subtree by hand, each node's children from a query filtered by the relation target, then remove it " +
			"children first, one RemoveEntity per node or one RemoveEntities batch per parent. donburi: " +
			"transform.RemoveRecursive(root) (every node holds a Transform).",
		Unit: "despawned entity", PerRun: c.CascadeNodes,
		Sizes: fmt.Sprintf("N = %s nodes, B = %d, %d levels, %s bystanders", count(c.CascadeNodes), c.CascadeBranch, treeLevels(c.CascadeNodes, c.CascadeBranch), count(c.CascadeBystanders)),
		Rows: []Row{
			{Name: "Tessera World.Despawn (cascade)", Kind: Tessera, Lib: "Tessera", What: "w.Despawn(root)",
				Reset: t.reset, Run: func() { tesseraCascadeDespawn(t.w, t.nodes[0]) }},
			{Name: "Ark walk + RemoveEntity", Kind: Peer, Lib: "Ark",
				What:  "the subtree listed level by level with filter.Query(RelIdx(0, node)), then w.RemoveEntity of each, last first",
				Reset: a.reset, Run: func() { arkDespawnTree(a.w, a.byParent, a.nodes[0], &a.order) }},
			{Name: "Ark walk + RemoveEntities", Kind: Peer, Lib: "Ark",
				What:  "the subtree listed as above, then w.RemoveEntities(filter.Batch(RelIdx(0, p)), nil) for each node p that has children, deepest first, and w.RemoveEntity(root)",
				Reset: abatch.reset, Run: func() {
					arkDespawnTreeBatch(abatch.w, abatch.byParent, abatch.nodes[0], &abatch.order, &abatch.parents)
				}},
			{Name: "donburi transform.RemoveRecursive", Kind: Peer, Lib: "donburi", What: "transform.RemoveRecursive(root)",
				Reset: d.reset, Run: func() { dbrCascadeDespawn(d.nodes[0]) }},
		},
	}
}
