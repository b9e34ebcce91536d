package relations

import (
	"slices"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
	"github.com/yohamta/donburi/features/transform"
	"github.com/yohamta/donburi/filter"

	"github.com/tessera-ecs/tessera/ecs"
)

// testConfig is small enough for a test and still has several children per
// parent, levels in every tree and a tree deeper than two.
func testConfig() Config {
	return Config{
		ReparentChildren: 300, ReparentParents: 30,
		ChildTargets: 40, ChildSources: 25,
		CascadeNodes: 121, CascadeBranch: 3, CascadeBystanders: 7,
		QueryEntities: 3_000, QueryParents: 300,
		TransformTrees: 3, TransformBranch: 4, TransformLevels: 4,
		PrefabInstances: 50,
	}
}

// TestReparentSameWork makes the same moves in every library, a cycle and
// a half, and checks after each third of the way that every child has the
// plan's parent in each, and every parent the plan's number of children.
func TestReparentSameWork(t *testing.T) {
	c := testConfig()
	tw, aw, dw := newTesseraReparent(c), newArkReparent(c), newDbrReparent(c)
	sw := newTesseraSplitReparent(c)
	arkChildren := ark.NewFilter1[arkChildOf](aw.w)
	steps := c.ReparentChildren * 3 / 2
	for round := range 3 {
		for range steps / 3 {
			tesseraReparentStep(tw)
			tesseraSplitReparentStep(sw)
			arkReparentStep(aw)
			dbrReparentStep(dw)
		}
		want := tw.plan.counts()
		if !slices.Equal(want, aw.plan.counts()) || !slices.Equal(want, dw.plan.counts()) {
			t.Fatalf("round %d: the plans diverged", round)
		}
		moved := 0
		for i, e := range tw.children {
			p := tw.plan.parent[i]
			if p != int32(i%c.ReparentParents) {
				moved++
			}
			if got, _ := tw.h.Parent(e); got != tw.parents[p] {
				t.Fatalf("round %d: Tessera child %d has parent %v, want %v", round, i, got, tw.parents[p])
			}
			if got, _ := sw.rel.Target(sw.children[i]); got != sw.parents[p] {
				t.Fatalf("round %d: Tessera SplitByTarget child %d has target %v, want %v", round, i, got, sw.parents[p])
			}
			if got := aw.rel.GetRelation(aw.children[i]); got != aw.parents[p] {
				t.Fatalf("round %d: Ark child %d has target %v, want %v", round, i, got, aw.parents[p])
			}
			if got, ok := transform.GetParent(dw.children[i]); !ok || got != dw.parents[p] {
				t.Fatalf("round %d: donburi child %d has another parent", round, i)
			}
		}
		if moved == 0 {
			t.Fatalf("round %d: no child is away from its first parent", round)
		}
		for p, n := range want {
			q := arkChildren.Query(ark.RelIdx(0, aw.parents[p]))
			an := q.Count()
			q.Close()
			dc, _ := transform.GetChildren(dw.parents[p])
			if sn := sw.rel.NumSources(sw.parents[p]); sn != n {
				t.Fatalf("round %d: parent %d has %d sources in Tessera SplitByTarget, want %d", round, p, sn, n)
			}
			if tn := tw.h.NumChildren(tw.parents[p]); tn != n || an != n || len(dc) != n {
				t.Fatalf("round %d: parent %d has %d children in Tessera, %d in Ark, %d in donburi; want %d", round, p, tn, an, len(dc), n)
			}
		}
	}
}

// TestReparentPlanCycles checks that a whole cycle of moves gives every
// parent back its first number of children, and that moves change them
// on the way.
func TestReparentPlanCycles(t *testing.T) {
	p := newReparentPlan(1000, 100)
	start := p.counts()
	uneven := false
	for k := range 1000 {
		p.next()
		if k == 499 && !slices.Equal(p.counts(), start) {
			uneven = true
		}
	}
	if !uneven {
		t.Error("half way through a cycle every parent has its first count")
	}
	if !slices.Equal(p.counts(), start) {
		t.Errorf("after a cycle: %v, want %v", p.counts(), start)
	}
}

// TestChildrenSameWork checks that every library visits every source
// exactly once per round, through its target: the same count, each
// library's own ids, the same sum of positions, and per target the sources
// it was given.
func TestChildrenSameWork(t *testing.T) {
	c := testConfig()
	tw, aw, dw := newTesseraChildren(c), newArkChildren(c), newDbrChildren(c)
	sw := newTesseraSplitChildren(c)
	total := c.ChildTargets * c.ChildSources
	var tIDs, aIDs, dIDs, sIDs uint64
	wantX := 0.0
	for k := range total {
		sIDs += uint64(sw.sources[k].Index())
		tIDs += uint64(tw.sources[k].Index())
		aIDs += uint64(aw.sources[k].ID())
		dIDs += uint64(dw.sources[k].Id())
		wantX += sourcePosition(k).X
	}
	if n, s := tesseraVisitChildren(tw.h, tw.targets, &tw.buf); n != total || s != tIDs {
		t.Errorf("Tessera visited %d sources, id sum %d; want %d, %d", n, s, total, tIDs)
	}
	if n, s := tesseraSplitVisitChildren(sw.byRel, &sw.target, sw.targets); n != total || s != sIDs {
		t.Errorf("Tessera SplitByTarget visited %d sources, id sum %d; want %d, %d", n, s, total, sIDs)
	}
	if n, s := arkVisitChildren(aw.byRel, aw.targets); n != total || s != aIDs {
		t.Errorf("Ark visited %d sources, id sum %d; want %d, %d", n, s, total, aIDs)
	}
	if n, s := dbrVisitChildren(dw.targets); n != total || s != dIDs {
		t.Errorf("donburi visited %d sources, id sum %d; want %d, %d", n, s, total, dIDs)
	}
	for name, got := range map[string]func() (int, float64){
		"Tessera":       func() (int, float64) { return tesseraReadChildren(tw.h, tw.pos, tw.targets, &tw.buf) },
		"Tessera ToVar": func() (int, float64) { return tesseraQueryChildren(tw.byRel, &tw.target, tw.targets) },
		"Tessera split": func() (int, float64) { return tesseraQueryChildren(sw.byRel, &sw.target, sw.targets) },
		"Tessera split chunks": func() (int, float64) {
			return tesseraSplitReadChunks(sw.byRel, &sw.target, sw.targets)
		},
		"Ark":     func() (int, float64) { return arkReadChildren(aw.read, aw.targets) },
		"donburi": func() (int, float64) { return dbrReadChildren(dw.targets) },
	} {
		if n, x := got(); n != total || x != wantX {
			t.Errorf("%s read %d sources, X sum %v; want %d, %v", name, n, x, total, wantX)
		}
	}
	// Per target, each library lists exactly the sources given to it.
	assign := childAssignment(c.ChildTargets, c.ChildSources)
	for ti := range c.ChildTargets {
		var want []int
		for k, a := range assign {
			if int(a) == ti {
				want = append(want, k)
			}
		}
		var tGot, aGot, dGot []int
		for _, e := range tw.h.Children(tw.targets[ti]) {
			tGot = append(tGot, slices.Index(tw.sources, e))
		}
		q := aw.byRel.Query(ark.RelIdx(0, aw.targets[ti]))
		for q.Next() {
			aGot = append(aGot, slices.Index(aw.sources, q.Entity()))
		}
		cs, _ := transform.GetChildren(dw.targets[ti])
		for _, e := range cs {
			dGot = append(dGot, slices.Index(dw.sources, e))
		}
		slices.Sort(aGot) // Ark's table order is not the pairs' order
		if !slices.Equal(tGot, want) || !slices.Equal(aGot, want) || !slices.Equal(dGot, want) {
			t.Fatalf("target %d: sources %v (Tessera), %v (Ark), %v (donburi); want %v", ti, tGot, aGot, dGot, want)
		}
	}
}

// arkLen counts the entities of an Ark world of the cascade workload (all
// of them hold Position).
func arkLen(w *ark.World) int {
	q := ark.NewFilter1[Position](w).Query()
	defer q.Close()
	return q.Count()
}

// TestCascadeSameWork builds each library's tree, checks its shape,
// despawns its root and checks that exactly the tree went, three times
// over (the second build replaces a tree that still lives).
func TestCascadeSameWork(t *testing.T) {
	c := testConfig()
	tw, aw, ab, dw := newTesseraCascade(c), newArkCascade(c), newArkCascade(c), newDbrCascade(c)
	nodes, by := c.CascadeNodes, c.CascadeBystanders
	for round := range 3 {
		tw.reset()
		aw.reset()
		ab.reset()
		dw.reset()
		if round == 1 { // build over a living tree
			tw.reset()
			aw.reset()
			ab.reset()
			dw.reset()
		}
		var order []ark.Entity
		if n := len(slices.Collect(tw.h.Descendants(tw.nodes[0]))); n != nodes-1 || tw.w.Len() != nodes+by {
			t.Fatalf("round %d: Tessera tree of %d descendants in %d entities", round, n, tw.w.Len())
		}
		for _, s := range []*arkCascade{aw, ab} {
			if n := len(arkWalkTree(s.byParent, s.nodes[0], &order)); n != nodes || arkLen(s.w) != nodes+by {
				t.Fatalf("round %d: Ark tree of %d nodes in %d entities", round, n, arkLen(s.w))
			}
		}
		if n := dbrSubtree(dw.nodes[0]); n != nodes || dw.w.Len() != nodes+by {
			t.Fatalf("round %d: donburi tree of %d nodes in %d entities", round, n, dw.w.Len())
		}
		if got, _ := tw.h.Parent(tw.nodes[nodes-1]); got != tw.nodes[(nodes-2)/c.CascadeBranch] {
			t.Fatalf("round %d: the last node's parent is %v", round, got)
		}

		tesseraCascadeDespawn(tw.w, tw.nodes[0])
		arkDespawnTree(aw.w, aw.byParent, aw.nodes[0], &aw.order)
		arkDespawnTreeBatch(ab.w, ab.byParent, ab.nodes[0], &ab.order, &ab.parents)
		dbrCascadeDespawn(dw.nodes[0])
		if tw.w.Len() != by || arkLen(aw.w) != by || arkLen(ab.w) != by || dw.w.Len() != by {
			t.Fatalf("round %d: after the despawn %d (Tessera), %d and %d (Ark), %d (donburi) entities live; want %d",
				round, tw.w.Len(), arkLen(aw.w), arkLen(ab.w), dw.w.Len(), by)
		}
		for i := range nodes {
			if tw.w.Alive(tw.nodes[i]) || aw.w.Alive(aw.nodes[i]) || ab.w.Alive(ab.nodes[i]) || dw.nodes[i].Valid() {
				t.Fatalf("round %d: node %d survived the despawn of its root", round, i)
			}
		}
	}
}

// dbrSubtree counts e and the entries below it in donburi's hierarchy.
func dbrSubtree(e *dbr.Entry) int {
	n := 1
	cs, _ := transform.GetChildren(e)
	for _, c := range cs {
		n += dbrSubtree(c)
	}
	return n
}

// TestQuerySameWork runs every query kernel once on each library's two
// worlds and checks that each moved every entity by its velocity, and that
// the worlds with relations have them.
func TestQuerySameWork(t *testing.T) {
	c := testConfig()
	n, parents := c.QueryEntities, c.QueryParents
	want := 0.0
	for i := range n {
		p, v := bodyOf(i)
		want += p.X + v.X + p.Y + v.Y
	}
	sw := tesseraSplitQueryWorld(n, parents)
	tesseraMove(ecs.NewQuery2[Position, Velocity](sw))
	s, tables := 0.0, 0
	for c := range ecs.NewQuery2[Position, Velocity](sw).Chunks() {
		tables++
		for i := range c.A {
			s += c.A[i].X + c.A[i].Y
		}
	}
	if s != want || tables != parents+1 {
		t.Errorf("Tessera SplitByTarget: sum %v over %d tables, want %v over %d", s, tables, want, parents+1)
	}
	for _, rel := range []bool{true, false} {
		tw := tesseraQueryWorld(n, parents, rel)
		tesseraMove(ecs.NewQuery2[Position, Velocity](tw))
		s := 0.0
		for r := range ecs.NewQuery2[Position, Velocity](tw).All() {
			s += r.A.X + r.A.Y
		}
		if s != want {
			t.Errorf("Tessera (relations %v): sum %v, want %v", rel, s, want)
		}
		h := ecs.NewHierarchy(tw)
		var first ecs.Entity
		for r := range ecs.NewQuery2[Position, Velocity](tw).All() {
			first = r.Entity
			break
		}
		if got, wantN := h.NumChildren(first), map[bool]int{true: (n - parents) / parents, false: 0}[rel]; got != wantN {
			t.Errorf("Tessera (relations %v): the first entity has %d children, want %d", rel, got, wantN)
		}

		for _, tables := range []bool{false, true} {
			aw := arkQueryWorld(n, parents, rel)
			f := ark.NewFilter2[Position, Velocity](aw)
			if tables {
				arkMoveTables(f)
			} else {
				arkMoveEntities(f)
			}
			s, q := 0.0, f.Query()
			for q.Next() {
				p, _ := q.Get()
				s += p.X + p.Y
			}
			if s != want {
				t.Errorf("Ark (relations %v, tables %v): sum %v, want %v", rel, tables, s, want)
			}
			cq := ark.NewFilter1[arkChildOf](aw).Query()
			if got, wantN := cq.Count(), map[bool]int{true: n - parents, false: 0}[rel]; got != wantN {
				t.Errorf("Ark (relations %v): %d children, want %d", rel, got, wantN)
			}
			cq.Close()
		}

		dw := dbrQueryWorld(n, parents, rel)
		dq := dbr.NewQuery(filter.Contains(dbrPosition, dbrVelocity))
		dbrMove(dw, dq)
		s, kids := 0.0, 0
		dq.Each(dw, func(e *dbr.Entry) {
			p := dbr.Get[Position](e, dbrPosition)
			s += p.X + p.Y
			if cs, ok := transform.GetChildren(e); ok {
				kids += len(cs)
			}
		})
		if s != want || kids != map[bool]int{true: n - parents, false: 0}[rel] {
			t.Errorf("donburi (relations %v): sum %v, %d children; want %v, %d", rel, s, kids, want, n-parents)
		}
	}
}

// TestTransformSameWork runs every propagation once from zeroed world
// positions and checks each node's against the answer computed in plain
// Go, bit for bit.
func TestTransformSameWork(t *testing.T) {
	c := testConfig()
	f := newForest(c.TransformTrees, c.TransformBranch, c.TransformLevels)
	if len(f.parent) != 3*(1+4+16+64) {
		t.Fatalf("the forest has %d nodes", len(f.parent))
	}
	want := f.worlds()
	if want[len(want)-1] == (WorldPos{}) || want[len(want)-1] == WorldPos(f.local[len(want)-1]) {
		t.Fatal("a leaf's world position does not depend on its parents")
	}
	tw, aw, dw := newTesseraTransform(f), newArkTransform(f), newDbrTransform(f)
	check := func(name string, run func(), get func(i int) WorldPos, zero func(i int)) {
		t.Helper()
		for i := range want {
			zero(i)
		}
		run()
		for i := range want {
			if got := get(i); got != want[i] {
				t.Fatalf("%s: node %d at %v, want %v", name, i, got, want[i])
			}
		}
	}
	tGet := func(i int) WorldPos { return *tw.world.Get(tw.nodes[i]) }
	tZero := func(i int) { *tw.world.Get(tw.nodes[i]) = WorldPos{} }
	check("Tessera stack", func() { tesseraPropagate(tw.h, tw.local, tw.world, tw.roots, &tw.stack) }, tGet, tZero)
	check("Tessera ToVar", func() { tesseraPropagateQuery(tw.children, &tw.target, tw.local, tw.world, tw.roots, &tw.stack) }, tGet, tZero)
	check("Tessera Descendants", func() { tesseraPropagateDescendants(tw.h, tw.local, tw.world, tw.roots) }, tGet, tZero)
	check("Tessera Cascade", func() { tesseraPropagateCascade(tw.h, tw.all, tw.local, tw.world) }, tGet, tZero)
	check("Ark", func() { arkPropagate(aw.children, aw.lw, aw.world, aw.roots, &aw.stack) },
		func(i int) WorldPos { return *aw.world.Get(aw.nodes[i]) }, func(i int) { *aw.world.Get(aw.nodes[i]) = WorldPos{} })
	check("Ark, leaves known", func() { arkPropagateByDepth(aw.children, aw.lw, aw.world, aw.roots, c.TransformLevels, &aw.dstack) },
		func(i int) WorldPos { return *aw.world.Get(aw.nodes[i]) }, func(i int) { *aw.world.Get(aw.nodes[i]) = WorldPos{} })
	dGet := func(i int) WorldPos { return *dbr.Get[WorldPos](dw.nodes[i], dbrWorldPos) }
	dZero := func(i int) { *dbr.Get[WorldPos](dw.nodes[i], dbrWorldPos) = WorldPos{} }
	check("donburi WorldPosition", func() { dbrPropagateWorldPosition(dw.w, dw.all) }, dGet, dZero)
	check("donburi stack", func() { dbrPropagate(dw.roots, &dw.stack) }, dGet, dZero)
}

// TestEveryRowRuns builds the quick suite and runs every row twice (with
// its reset where it has one), as the driver does, and checks the rows'
// bookkeeping.
func TestEveryRowRuns(t *testing.T) {
	s, err := NewSuite(Quick(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Comparisons) != len(Names()) {
		t.Fatalf("%d comparisons, want %d", len(s.Comparisons), len(Names()))
	}
	for _, c := range s.Comparisons {
		if c.PerRun < 1 || c.Unit == "" || c.Doc == "" {
			t.Errorf("%s: unit %q per run %d", c.Name, c.Unit, c.PerRun)
		}
		names := map[string]bool{}
		tessera, peer := false, false
		for _, r := range c.Rows {
			names[r.Name] = true
			tessera = tessera || r.Kind == Tessera && !r.Plain && r.Aside == ""
			peer = peer || r.Kind == Peer && !r.Plain && r.Aside == ""
			for range 2 {
				if r.Reset != nil {
					r.Reset()
				}
				r.Run()
			}
		}
		if !tessera || !peer {
			t.Errorf("%s: a Tessera row %v, a peer row %v", c.Name, tessera, peer)
		}
		for _, r := range c.Rows {
			if r.Baseline != "" && !names[r.Baseline] {
				t.Errorf("%s: %s names a baseline %q that is not a row", c.Name, r.Name, r.Baseline)
			}
		}
	}
	if _, err := NewSuite(Quick(), "("); err == nil {
		t.Error("a bad expression was accepted")
	}
	if s, _ := NewSuite(Quick(), "^cascade$"); len(s.Comparisons) != 1 {
		t.Error("picking one comparison did not")
	}
	bad := Quick()
	bad.ReparentParents = 1
	if _, err := NewSuite(bad, ""); err == nil {
		t.Error("one parent accepted")
	}
}

// TestPrefabSameWork runs each prefab kernel twice, resetting between,
// and checks that each library made N roots of four components with three
// children each, with the template's values.
func TestPrefabSameWork(t *testing.T) {
	c := testConfig()
	n := c.PrefabInstances
	tp, hand, ap := newTesseraPrefab(c), newTesseraPrefab(c), newArkPrefab(c)
	rootsOf := ecs.NewQuery4[Position, Velocity, Local, WorldPos](tp.w)
	handRoots := ecs.NewQuery4[Position, Velocity, Local, WorldPos](hand.w)
	for round := range 2 {
		tp.reset()
		hand.reset()
		ap.reset()
		tesseraPrefabSpawn(tp.p, n)
		tesseraHandSpawn(hand)
		arkBatchSpawn(ap)
		for _, x := range []struct {
			name  string
			w     *ecs.World
			h     *ecs.Hierarchy
			child *ecs.Map2[Position, Local]
			q     *ecs.Query4[Position, Velocity, Local, WorldPos]
		}{{"prefab", tp.w, tp.h, tp.child, rootsOf}, {"by hand", hand.w, hand.h, hand.child, handRoots}} {
			if x.w.Len() != 4*n {
				t.Fatalf("round %d: Tessera %s: %d entities, want %d", round, x.name, x.w.Len(), 4*n)
			}
			roots := 0
			for r := range x.q.All() {
				roots++
				if *r.B != (Velocity{3, 4}) {
					t.Fatalf("Tessera %s: root velocity %v", x.name, *r.B)
				}
				kids := x.h.Children(r.Entity)
				if len(kids) != prefabKids {
					t.Fatalf("Tessera %s: root with %d children", x.name, len(kids))
				}
				for i, k := range kids {
					if p, l := x.child.Get(k); *p != (Position{float64(i), 1}) || *l != (Local{float64(i), -1}) {
						t.Fatalf("Tessera %s: child %d holds %v %v", x.name, i, *p, *l)
					}
				}
			}
			if roots != n {
				t.Fatalf("Tessera %s: %d roots, want %d", x.name, roots, n)
			}
		}
		if arkLen(ap.w) != 4*n || len(ap.roots) != n {
			t.Fatalf("round %d: Ark: %d entities, %d roots", round, arkLen(ap.w), len(ap.roots))
		}
		for _, r := range ap.roots {
			q := ap.byPar.Query(ark.RelIdx(0, r))
			kids := 0
			for q.Next() {
				kids++
			}
			if kids != prefabKids {
				t.Fatalf("Ark: root with %d children", kids)
			}
		}
	}
}
