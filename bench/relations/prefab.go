package relations

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/tessera-ecs/tessera/ecs"
)

// prefabKids is the number of children of the prefab workload's root.
const prefabKids = 3

// tesseraPrefab is the prefab workload in Tessera: a prefab of a root
// with Position, Velocity, Local and WorldPos and three children with
// Position and Local, linked by the hierarchy; its template is despawned
// once the prefab is made.
type tesseraPrefab struct {
	w     *ecs.World
	h     *ecs.Hierarchy
	p     *ecs.Prefab
	all   *ecs.Query1[Position]
	root  *ecs.Map4[Position, Velocity, Local, WorldPos]
	child *ecs.Map2[Position, Local]
	roots []ecs.Entity // the by-hand row's buffer
	n     int
}

func newTesseraPrefab(c Config) *tesseraPrefab {
	w := ecs.NewWorld()
	s := &tesseraPrefab{w: w, h: ecs.NewHierarchy(w), all: ecs.NewQuery1[Position](w),
		root: ecs.NewMap4[Position, Velocity, Local, WorldPos](w), child: ecs.NewMap2[Position, Local](w), n: c.PrefabInstances}
	r := s.root.Spawn(Position{1, 2}, Velocity{3, 4}, Local{1, 2}, WorldPos{1, 2})
	for i := range prefabKids {
		s.h.SetParent(s.child.Spawn(Position{float64(i), 1}, Local{float64(i), -1}), r)
	}
	s.p = ecs.NewPrefab(w, r)
	w.Despawn(r)
	return s
}

// reset despawns every instance (the tables keep their capacity).
func (s *tesseraPrefab) reset() { s.w.DespawnMatching(s.all) }

// tesseraPrefabSpawn spawns n instances of the prefab in one batch.
//
//go:noinline
func tesseraPrefabSpawn(p *ecs.Prefab, n int) { p.SpawnBatch(n) }

// tesseraHandSpawn spawns the same entities without a prefab: the roots
// in one batch, then each root's children one by one, each given its
// parent.
//
//go:noinline
func tesseraHandSpawn(s *tesseraPrefab) {
	s.roots = s.roots[:0]
	s.root.SpawnBatchFunc(s.n, func(e ecs.Entity, p *Position, v *Velocity, l *Local, wp *WorldPos) {
		*p, *v, *l, *wp = Position{1, 2}, Velocity{3, 4}, Local{1, 2}, WorldPos{1, 2}
		s.roots = append(s.roots, e)
	})
	for _, r := range s.roots {
		for i := range prefabKids {
			s.h.SetParent(s.child.Spawn(Position{float64(i), 1}, Local{float64(i), -1}), r)
		}
	}
}

// arkPrefab is the prefab workload's entities made in Ark, which has no
// prefabs: the roots in one batch, then each root's children in a batch
// of their own, since an Ark batch has one relation target.
type arkPrefab struct {
	w     *ark.World
	all   *ark.Filter0
	root  *ark.Map4[Position, Velocity, Local, WorldPos]
	child *ark.Map3[Position, Local, arkChildOf]
	byPar *ark.Filter1[arkChildOf]
	roots []ark.Entity
	n     int
}

func newArkPrefab(c Config) *arkPrefab {
	w := ark.NewWorld()
	return &arkPrefab{w: w, all: ark.NewFilter0(w), root: ark.NewMap4[Position, Velocity, Local, WorldPos](w),
		child: ark.NewMap3[Position, Local, arkChildOf](w), byPar: ark.NewFilter1[arkChildOf](w), n: c.PrefabInstances}
}

// reset removes every entity.
func (s *arkPrefab) reset() { s.w.RemoveEntities(s.all.Batch(), nil) }

// arkBatchSpawn makes the roots with Map4.NewBatchFn and each root's
// children with one Map3.NewBatchFn whose relation target is the root,
// setting each child's values as the prefab's are.
//
//go:noinline
func arkBatchSpawn(s *arkPrefab) {
	s.roots = s.roots[:0]
	s.root.NewBatchFn(s.n, func(e ark.Entity, p *Position, v *Velocity, l *Local, wp *WorldPos) {
		*p, *v, *l, *wp = Position{1, 2}, Velocity{3, 4}, Local{1, 2}, WorldPos{1, 2}
		s.roots = append(s.roots, e)
	})
	for _, r := range s.roots {
		i := 0
		s.child.NewBatchFn(prefabKids, func(_ ark.Entity, p *Position, l *Local, _ *arkChildOf) {
			*p, *l = Position{float64(i), 1}, Local{float64(i), -1}
			i++
		}, ark.RelIdx(2, r))
	}
}

// prefabComparison times spawning N instances of a prefab, a root with
// four components and three children, against Ark's batch creation of
// the same entities; the instances are despawned before each run,
// outside the timing.
func prefabComparison(c Config) *Comparison {
	t, hand, a := newTesseraPrefab(c), newTesseraPrefab(c), newArkPrefab(c)
	return &Comparison{
		Name: "prefab",
		Doc: "N instances of a prefab: a root with Position, Velocity, Local and WorldPos and three children with " +
			"Position and Local, each child linked to its root, every value set as the template's; one operation makes " +
			"all N instances (4N entities). Before each operation the instances of the previous one are despawned, " +
			"outside the timing, so the tables are warm. Tessera: ecs.NewPrefab captured a template (then despawned); " +
			"Prefab.SpawnBatch(N) makes each node's N rows in one pass per table and links the children by the " +
			"hierarchy; a second row makes the same entities by hand (Map4.SpawnBatchFunc for the roots, then " +
			"Map2.Spawn and Hierarchy.SetParent per child). Ark v0.8.3 has no prefabs: Map4.NewBatchFn makes the " +
			"roots, then one Map3.NewBatchFn of three children per root with the root as relation target (an Ark " +
			"batch has one target, and each target's children are a table of their own).",
		Unit: "instance", PerRun: c.PrefabInstances,
		Sizes: fmt.Sprintf("N = %s instances of %d entities", count(c.PrefabInstances), 1+prefabKids),
		Goal:  "ahead of Ark's batch creation",
		Rows: []Row{
			{Name: "Tessera Prefab.SpawnBatch", Kind: Tessera, Lib: "Tessera", What: "p.SpawnBatch(N)",
				Reset: t.reset, Run: func() { tesseraPrefabSpawn(t.p, t.n) }},
			{Name: "Tessera by hand", Kind: Tessera, Lib: "Tessera", Aside: "Tessera without a prefab, for scale",
				What:  "roots.SpawnBatchFunc(N, ...), then per child kids.Spawn(...) and h.SetParent(child, root)",
				Reset: hand.reset, Run: func() { tesseraHandSpawn(hand) }},
			{Name: "Ark NewBatchFn", Kind: Peer, Lib: "Ark",
				What:  "roots.NewBatchFn(N, ...), then per root kids.NewBatchFn(3, ..., RelIdx(2, root))",
				Reset: a.reset, Run: func() { arkBatchSpawn(a) }},
		},
	}
}
