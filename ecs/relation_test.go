package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Pair types of the relation tests.
type (
	likes  struct{ W int } // Multi, RemovePairs, with a value
	guards struct{}        // exclusive, RefuseDespawn
)

// relModel is the reference for the relation tests: which entities live,
// and each relation's pairs as ordered lists per source (targets) and per
// target (sources).
type relModel struct {
	alive   map[ecs.Entity]bool
	targets map[string]map[ecs.Entity][]ecs.Entity
	sources map[string]map[ecs.Entity][]ecs.Entity
	values  map[[2]ecs.Entity]int // likes' values
}

func newRelModel() *relModel {
	m := &relModel{alive: map[ecs.Entity]bool{}, targets: map[string]map[ecs.Entity][]ecs.Entity{},
		sources: map[string]map[ecs.Entity][]ecs.Entity{}, values: map[[2]ecs.Entity]int{}}
	for _, k := range []string{"child", "likes", "guards"} {
		m.targets[k], m.sources[k] = map[ecs.Entity][]ecs.Entity{}, map[ecs.Entity][]ecs.Entity{}
	}
	return m
}

func (m *relModel) add(k string, e, t ecs.Entity) {
	m.targets[k][e] = append(m.targets[k][e], t)
	m.sources[k][t] = append(m.sources[k][t], e)
}

func (m *relModel) drop(k string, e, t ecs.Entity) {
	del := func(s []ecs.Entity, x ecs.Entity) []ecs.Entity {
		i := slices.Index(s, x)
		if i < 0 {
			return s
		}
		return slices.Delete(s, i, i+1)
	}
	m.targets[k][e] = del(m.targets[k][e], t)
	m.sources[k][t] = del(m.sources[k][t], e)
	if k == "likes" {
		delete(m.values, [2]ecs.Entity{e, t})
	}
}

// subtree lists e and everything below it through child.
func (m *relModel) subtree(e ecs.Entity) []ecs.Entity {
	out := []ecs.Entity{e}
	for i := 0; i < len(out); i++ {
		out = append(out, m.sources["child"][out[i]]...)
	}
	return out
}

// despawn applies the policies: child cascades, likes drops pairs,
// guards refuses (reported as false, nothing changed).
func (m *relModel) despawn(e ecs.Entity) bool {
	dead := m.subtree(e)
	in := map[ecs.Entity]bool{}
	for _, x := range dead {
		in[x] = true
	}
	for _, x := range dead {
		for _, s := range m.sources["guards"][x] {
			if !in[s] {
				return false
			}
		}
	}
	for _, x := range dead {
		for _, k := range []string{"child", "likes", "guards"} {
			for _, t := range slices.Clone(m.targets[k][x]) {
				m.drop(k, x, t)
			}
			for _, s := range slices.Clone(m.sources[k][x]) {
				m.drop(k, s, x)
			}
		}
		delete(m.alive, x)
	}
	return true
}

// relWorld is the world under test with its three relations.
type relWorld struct {
	w      *ecs.World
	h      *ecs.Hierarchy
	likes  *ecs.Relation[likes]
	guards *ecs.Relation[guards]
	pos    *ecs.Map[mergePos]
}

func newRelWorld() *relWorld {
	w := ecs.NewWorld()
	return &relWorld{w: w, h: ecs.NewHierarchy(w), likes: ecs.NewRelation[likes](w, ecs.Multi()),
		guards: ecs.NewRelation[guards](w, ecs.OnTargetDespawn(ecs.RefuseDespawn)), pos: ecs.NewMap[mergePos](w)}
}

// check compares every list of every living entity with the model, and
// the two sides of each relation with each other.
func (rw *relWorld) check(t *testing.T, m *relModel, step int) {
	t.Helper()
	if rw.w.Len() != len(m.alive) {
		t.Fatalf("step %d: %d alive, model %d", step, rw.w.Len(), len(m.alive))
	}
	lists := map[string][2]func(ecs.Entity) []ecs.Entity{
		"child":  {func(e ecs.Entity) []ecs.Entity { return rw.h.Relation().Targets(e) }, rw.h.Children},
		"likes":  {rw.likes.Targets, rw.likes.Sources},
		"guards": {rw.guards.Targets, rw.guards.Sources},
	}
	for e := range m.alive {
		if !rw.w.Alive(e) {
			t.Fatalf("step %d: %v dead, model alive", step, e)
		}
		for k, f := range lists {
			if got, want := f[0](e), m.targets[k][e]; !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("step %d: %s targets of %v: %v, model %v", step, k, e, got, want)
			}
			if got, want := f[1](e), m.sources[k][e]; !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("step %d: %s sources of %v: %v, model %v", step, k, e, got, want)
			}
			for _, x := range f[0](e) {
				if !rw.w.Alive(x) || !slices.Contains(f[1](x), e) {
					t.Fatalf("step %d: %s: %v targets %v, which is dead or does not list it", step, k, e, x)
				}
			}
		}
		for _, x := range m.targets["likes"][e] {
			if got := rw.likes.Value(e, x).W; got != m.values[[2]ecs.Entity{e, x}] {
				t.Fatalf("step %d: likes value of (%v, %v): %d, model %d", step, e, x, got, m.values[[2]ecs.Entity{e, x}])
			}
		}
	}
}

// TestRelationsAgainstModel runs random changes to three relations (the
// hierarchy, a Multi relation with values, a RefuseDespawn relation),
// immediately and deferred inside an iteration, and compares every list
// with the model after every step.
func TestRelationsAgainstModel(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 15))
		rw, m := newRelWorld(), newRelModel()
		var live []ecs.Entity
		pick := func() ecs.Entity { return live[r.IntN(len(live))] }
		for step := range 600 {
			live = live[:0]
			for e := range m.alive {
				live = append(live, e)
			}
			slices.SortFunc(live, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
			op := r.IntN(13)
			if len(live) < 2 {
				op = 0
			}
			switch op {
			case 0, 1:
				e := rw.pos.Spawn(mergePos{X: float64(step)})
				m.alive[e] = true
			case 2: // despawn
				e := pick()
				want := m.despawn(e)
				msg := panicOf(func() { rw.w.Despawn(e) })
				if want == (msg != "") {
					t.Fatalf("seed %d step %d: despawn %v: panic %q, model allows %v", seed, step, e, msg, want)
				}
			case 3, 4: // reparent, maybe into a cycle
				c, p := pick(), pick()
				cycle := slices.Contains(m.subtree(c), p)
				msg := panicOf(func() { rw.h.SetParent(c, p) })
				if cycle != (msg != "") {
					t.Fatalf("seed %d step %d: SetParent(%v, %v): panic %q, cycle %v", seed, step, c, p, msg, cycle)
				}
				if !cycle && !slices.Equal(m.targets["child"][c], []ecs.Entity{p}) {
					if old := m.targets["child"][c]; len(old) > 0 {
						m.drop("child", c, old[0])
					}
					m.add("child", c, p)
				}
			case 5:
				c := pick()
				rw.h.RemoveParent(c)
				if old := m.targets["child"][c]; len(old) > 0 {
					m.drop("child", c, old[0])
				}
			case 6, 7: // likes: set a value (adds the pair when absent)
				e, x, v := pick(), pick(), r.IntN(100)
				rw.likes.Set(e, x, likes{v})
				if !slices.Contains(m.targets["likes"][e], x) {
					m.add("likes", e, x)
				}
				m.values[[2]ecs.Entity{e, x}] = v
			case 8:
				e, x := pick(), pick()
				rw.likes.Remove(e, x)
				m.drop("likes", e, x)
			case 9: // guards: exclusive Add refuses a second target
				e, x := pick(), pick()
				has := len(m.targets["guards"][e]) > 0 && m.targets["guards"][e][0] != x
				msg := panicOf(func() { rw.guards.Add(e, x) })
				if has != (msg != "") {
					t.Fatalf("seed %d step %d: guards.Add(%v, %v): panic %q, has another %v", seed, step, e, x, msg, has)
				}
				if !has && len(m.targets["guards"][e]) == 0 {
					m.add("guards", e, x)
				}
			case 10:
				e := pick()
				rw.guards.RemoveTargets(e)
				for _, x := range slices.Clone(m.targets["guards"][e]) {
					m.drop("guards", e, x)
				}
			case 11: // the same changes, deferred inside an iteration
				e, x, v := pick(), pick(), r.IntN(100)
				first := true
				for range ecs.NewQuery1[mergePos](rw.w).All() {
					if !first {
						break
					}
					first = false
					rw.likes.Remove(e, x)
					rw.likes.Set(e, x, likes{v})
					rw.likes.Remove(e, x)
					rw.likes.Set(e, x, likes{v + 1})
					had := slices.Contains(m.targets["likes"][e], x)
					if v, ok := rw.likes.TryValue(e, x); ok != had || ok && v.W != m.values[[2]ecs.Entity{e, x}] {
						t.Fatalf("deferred changes were applied inside the loop")
					}
				}
				m.drop("likes", e, x)
				m.add("likes", e, x)
				m.values[[2]ecs.Entity{e, x}] = v + 1
			case 12: // a despawn inside an iteration, applied at its end
				e := pick()
				if !m.despawn(e) {
					break // refused: tested immediately in case 2
				}
				for range ecs.NewQuery1[mergePos](rw.w).All() {
					rw.w.Despawn(e)
					if !rw.w.Alive(e) {
						t.Fatalf("a deferred despawn was applied inside the loop")
					}
					break
				}
			}
			rw.check(t, m, step)
		}
	}
}

// TestHierarchyWalks checks Parent, Children, AppendChildren, Ancestors,
// Descendants, Root and Depth on a small tree.
func TestHierarchyWalks(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	root, a, b, a1, a2, b1 := w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn(), w.Spawn()
	h.SetParent(a, root)
	h.SetParent(b, root)
	h.SetParent(a1, a)
	h.SetParent(a2, a)
	h.SetParent(b1, b)
	if got := h.AppendChildren([]ecs.Entity{b1}, a); !slices.Equal(got, []ecs.Entity{b1, a1, a2}) {
		t.Fatalf("AppendChildren([b1], a) = %v, want b1 then a's children in order", got)
	}
	if got := slices.Collect(h.Descendants(root)); !slices.Equal(got, []ecs.Entity{a, a1, a2, b, b1}) {
		t.Fatalf("Descendants(root) = %v", got)
	}
	if got := slices.Collect(h.Ancestors(a2)); !slices.Equal(got, []ecs.Entity{a, root}) {
		t.Fatalf("Ancestors(a2) = %v", got)
	}
	if h.Root(b1) != root || h.Depth(b1) != 2 || h.Depth(root) != 0 {
		t.Fatalf("Root(b1) = %v, Depth(b1) = %d", h.Root(b1), h.Depth(b1))
	}
	h.SetParent(a, b) // reparent a subtree
	if got := h.Children(root); !slices.Equal(got, []ecs.Entity{b}) {
		t.Fatalf("root's children after the reparent: %v", got)
	}
	if got := slices.Collect(h.Descendants(root)); !slices.Equal(got, []ecs.Entity{b, b1, a, a1, a2}) {
		t.Fatalf("Descendants(root) after the reparent = %v", got)
	}
	if msg := panicOf(func() { h.SetParent(root, a1) }); !strings.Contains(msg, "cycle") {
		t.Fatalf("making the root a child of its descendant: %q", msg)
	}
	w.Despawn(a)
	if w.Alive(a1) || w.Alive(a2) || !w.Alive(b1) {
		t.Fatalf("despawning a: a1 %v a2 %v b1 %v alive", w.Alive(a1), w.Alive(a2), w.Alive(b1))
	}
	if got := h.Children(b); !slices.Equal(got, []ecs.Entity{b1}) {
		t.Fatalf("b's children after despawning a: %v", got)
	}
}

// TestCascadeOrder: a cascade despawns children before parents, and a
// parent's OnRemove hook still sees... its children gone and its parent
// alive.
func TestCascadeOrder(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	type node struct{ N int }
	var order []int
	ecs.OnRemove(w, func(e ecs.Entity, n *node) {
		order = append(order, n.N)
		if p, ok := h.Parent(e); ok && !w.Alive(p) {
			t.Errorf("node %d's parent is dead when its hook runs", n.N)
		}
	})
	nodes := ecs.NewMap[node](w)
	root := nodes.Spawn(node{0})
	c1, c2 := nodes.Spawn(node{1}), nodes.Spawn(node{2})
	g := nodes.Spawn(node{3})
	h.SetParent(c1, root)
	h.SetParent(c2, root)
	h.SetParent(g, c1)
	w.Despawn(root)
	if want := []int{2, 3, 1, 0}; !slices.Equal(order, want) {
		t.Fatalf("despawn order %v, want %v (children first, last child first)", order, want)
	}
	if w.Len() != 0 {
		t.Fatalf("%d entities left", w.Len())
	}
}

// TestDeepTreeCascade: a chain 100,000 deep despawns from its root
// without recursion, and Root and Depth walk it.
func TestDeepTreeCascade(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	root := w.Spawn()
	last := root
	for range n {
		e := w.Spawn()
		h.SetParent(e, last)
		last = e
	}
	if h.Root(last) != root || h.Depth(last) != n {
		t.Fatalf("Root %v Depth %d", h.Root(last), h.Depth(last))
	}
	w.Despawn(root)
	if w.Len() != 0 {
		t.Fatalf("%d entities left after the cascade", w.Len())
	}
}

// TestRefuseDespawn: despawning a guarded target panics naming both
// entities and changes nothing.
func TestRefuseDespawn(t *testing.T) {
	rw := newRelWorld()
	a, b := rw.w.Spawn(), rw.w.Spawn()
	rw.guards.Add(a, b)
	msg := panicOf(func() { rw.w.Despawn(b) })
	if !strings.Contains(msg, b.String()) || !strings.Contains(msg, a.String()) || !strings.Contains(msg, "RefuseDespawn") {
		t.Fatalf("panic %q", msg)
	}
	if !rw.w.Alive(b) || !rw.guards.Has(a, b) {
		t.Fatal("a refused despawn changed the world")
	}
	rw.w.Despawn(a)
	rw.w.Despawn(b) // no source left
	if rw.w.Len() != 0 {
		t.Fatal("entities left")
	}
}

// TestRelationMisuse: dead entities, entities of another world and a
// cycle panic with the relation and entity in the message.
func TestRelationMisuse(t *testing.T) {
	rw := newRelWorld()
	other := ecs.NewWorld()
	a, b := rw.w.Spawn(), rw.w.Spawn()
	dead := rw.w.Spawn()
	rw.w.Despawn(dead)
	for name, fn := range map[string]func(){
		"dead source":   func() { rw.likes.Add(dead, a) },
		"dead target":   func() { rw.likes.Add(a, dead) },
		"foreign":       func() { rw.likes.Add(a, other.Spawn()) },
		"self parent":   func() { rw.h.SetParent(a, a) },
		"targets dead":  func() { rw.likes.Targets(dead) },
		"value no pair": func() { rw.likes.Value(a, b) },
	} {
		if msg := panicOf(fn); !strings.Contains(msg, "Relation[") {
			t.Errorf("%s: panic %q", name, msg)
		}
	}
	if rw.likes.Has(dead, a) || rw.likes.HasTargets(dead) {
		t.Error("Has on a dead entity")
	}
}

// relationScene builds a world with a tree, Multi pairs with values and a
// guarded pair, and returns it with its entities.
func relationScene() (*relWorld, []ecs.Entity) {
	rw := newRelWorld()
	var es []ecs.Entity
	for i := range 12 {
		es = append(es, rw.pos.Spawn(mergePos{X: float64(i)}))
	}
	for i := 1; i < 12; i++ {
		rw.h.SetParent(es[i], es[(i-1)/2])
	}
	for i := range 12 {
		rw.likes.Set(es[i], es[(i*5)%12], likes{i})
		rw.likes.Set(es[i], es[(i*7+1)%12], likes{-i})
	}
	rw.guards.Add(es[3], es[9])
	rw.w.Despawn(es[11]) // leaves a free index and a dropped pair behind
	return rw, es[:11]
}

// describeRelations renders every relation list of es in rw.
func describeRelations(rw *relWorld, es []ecs.Entity, ref func(ecs.Entity) ecs.Entity) string {
	var b strings.Builder
	for _, e := range es {
		e = ref(e)
		fmt.Fprintf(&b, "%v parent", e)
		if p, ok := rw.h.Parent(e); ok {
			fmt.Fprintf(&b, " %v", p)
		}
		fmt.Fprintf(&b, " children %v likes %v", rw.h.Children(e), rw.likes.Targets(e))
		for _, x := range rw.likes.Targets(e) {
			fmt.Fprintf(&b, " %d", rw.likes.Value(e, x).W)
		}
		fmt.Fprintf(&b, " liked by %v guards %v\n", rw.likes.Sources(e), rw.guards.Targets(e))
	}
	return b.String()
}

// TestRelationsSnapshotAndSave: relations live in the world's state, so
// a restore gives them back, the checksum sees them, and a save loads
// (and merges) them with the references between entities intact.
func TestRelationsSnapshotAndSave(t *testing.T) {
	rw, es := relationScene()
	want := describeRelations(rw, es, same)
	sum := rw.w.Checksum()
	if err := rw.w.CanSnapshot(); err != nil {
		t.Fatal(err)
	}
	var s ecs.Snapshot
	rw.w.Snapshot(&s)
	rw.h.SetParent(es[1], es[2])
	rw.likes.Set(es[0], es[4], likes{99})
	if rw.w.Checksum() == sum {
		t.Fatal("changing pairs left the checksum as it was")
	}
	rw.w.Despawn(es[2])
	rw.w.Restore(&s)
	if got := describeRelations(rw, es, same); got != want || rw.w.Checksum() != sum {
		t.Fatalf("after the restore:\n%s\nwant:\n%s", got, want)
	}

	var file strings.Builder
	if err := rw.w.Save(&file); err != nil {
		t.Fatal(err)
	}
	loaded := newRelWorld()
	if err := loaded.w.Load(strings.NewReader(file.String())); err != nil {
		t.Fatal(err)
	}
	// The loaded world's handles have its tag: find them by index.
	byIndex := map[uint32]ecs.Entity{}
	for r := range ecs.NewQuery1[mergePos](loaded.w).All() {
		byIndex[r.Entity.Index()] = r.Entity
	}
	inLoaded := func(e ecs.Entity) ecs.Entity { return byIndex[e.Index()] }
	if got := describeRelations(loaded, es, inLoaded); got != want || loaded.w.Checksum() != sum {
		t.Fatalf("after the load:\n%s\nwant:\n%s", got, want)
	}

	dst := newRelWorld()
	dst.w.Spawn()
	dst.w.Spawn()
	mp, err := dst.w.Merge(strings.NewReader(file.String()))
	if err != nil {
		t.Fatal(err)
	}
	mapped := func(e ecs.Entity) ecs.Entity { n, _ := mp.Get(e); return n }
	// Render the source world with its entities renamed to the merged ones.
	var renamed strings.Builder
	for _, e := range es {
		n := mapped(e)
		fmt.Fprintf(&renamed, "%v parent", n)
		if p, ok := rw.h.Parent(e); ok {
			fmt.Fprintf(&renamed, " %v", mapped(p))
		}
		fmt.Fprintf(&renamed, " children %v likes %v", mapAll(rw.h.Children(e), mapped), mapAll(rw.likes.Targets(e), mapped))
		for _, x := range rw.likes.Targets(e) {
			fmt.Fprintf(&renamed, " %d", rw.likes.Value(e, x).W)
		}
		fmt.Fprintf(&renamed, " liked by %v guards %v\n", mapAll(rw.likes.Sources(e), mapped), mapAll(rw.guards.Targets(e), mapped))
	}
	if got := describeRelations(dst, es, mapped); got != renamed.String() {
		t.Fatalf("after the merge:\n%s\nwant:\n%s", got, renamed.String())
	}
}

func mapAll(es []ecs.Entity, f func(ecs.Entity) ecs.Entity) []ecs.Entity {
	if es == nil {
		return nil
	}
	out := make([]ecs.Entity, len(es))
	for i, e := range es {
		out[i] = f(e)
	}
	return out
}

// TestRelationQueries: To, ToVar, AsSource and AsTarget in the three
// iteration forms, with a table term and a sparse term, against the
// relation's own lists.
func TestRelationQueries(t *testing.T) {
	rw, es := relationScene()
	heat := ecs.NewMap[mergeHeat](rw.w)
	for i, e := range es {
		if i%3 == 0 {
			heat.Set(e, mergeHeat{V: int32(i)})
		}
	}
	child := rw.h.Relation()
	forms := func(q *ecs.Query1[mergePos]) [3][]ecs.Entity {
		var out [3][]ecs.Entity
		for r := range q.All() {
			out[0] = append(out[0], r.Entity)
		}
		for c := range q.Chunks() {
			out[1] = append(out[1], c.Entities...)
		}
		for cur := q.Iter(); cur.Next(); {
			out[2] = append(out[2], cur.Entity())
		}
		return out
	}
	check := func(name string, q *ecs.Query1[mergePos], want []ecs.Entity) {
		t.Helper()
		for i, got := range forms(q) {
			if !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("%s, form %d: %v, want %v", name, i, got, want)
			}
		}
		if n := q.Count(); n != len(want) {
			t.Fatalf("%s: Count %d, want %d", name, n, len(want))
		}
	}
	for _, p := range es {
		check(fmt.Sprint("children of ", p), ecs.NewQuery1[mergePos](rw.w, child.To(p)), rw.h.Children(p))
		check(fmt.Sprint("likers of ", p), ecs.NewQuery1[mergePos](rw.w, rw.likes.To(p)), rw.likes.Sources(p))
		var hot []ecs.Entity
		for _, s := range rw.likes.Sources(p) {
			if heat.Has(s) {
				hot = append(hot, s)
			}
		}
		check(fmt.Sprint("heated likers of ", p), ecs.NewQuery1[mergePos](rw.w, rw.likes.To(p), ecs.With(ecs.C[mergeHeat]())), hot)
	}
	var v ecs.TargetVar
	q := ecs.NewQuery1[mergePos](rw.w, child.ToVar(&v))
	check("unset variable", q, nil)
	if !v.Get().IsZero() {
		t.Fatalf("a zero TargetVar holds %v", v.Get())
	}
	for _, p := range es {
		v.Set(p)
		if v.Get() != p {
			t.Fatalf("TargetVar.Get after Set(%v) = %v", p, v.Get())
		}
		check(fmt.Sprint("variable children of ", p), q, rw.h.Children(p))
	}
	// Two To filters: entities that like both es[0] and es[5].
	var both []ecs.Entity
	for _, s := range rw.likes.Sources(es[0]) {
		if rw.likes.Has(s, es[5]) {
			both = append(both, s)
		}
	}
	check("likers of both", ecs.NewQuery1[mergePos](rw.w, rw.likes.To(es[0]), rw.likes.To(es[5])), both)

	var roots, parents []ecs.Entity
	for r := range ecs.NewQuery1[mergePos](rw.w).All() {
		if _, ok := rw.h.Parent(r.Entity); !ok {
			roots = append(roots, r.Entity)
		}
		if rw.h.NumChildren(r.Entity) > 0 {
			parents = append(parents, r.Entity)
		}
	}
	check("roots", ecs.NewQuery1[mergePos](rw.w, ecs.Without(child.AsSource())), roots)
	slices.SortFunc(parents, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	gotParents := slices.Collect(func(yield func(ecs.Entity) bool) {
		for r := range ecs.NewQuery1[mergePos](rw.w, ecs.With(child.AsTarget())).All() {
			if !yield(r.Entity) {
				return
			}
		}
	})
	slices.SortFunc(gotParents, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	if !slices.Equal(gotParents, parents) {
		t.Fatalf("parents: %v, want %v", gotParents, parents)
	}

	// A To query follows the relation as it changes, and its observers
	// see entities enter and leave.
	target := es[2]
	q2 := ecs.NewQuery1[mergePos](rw.w, child.To(target))
	var events []string
	q2.OnEnter(func(e ecs.Entity) { events = append(events, "enter "+e.String()) })
	q2.OnLeave(func(e ecs.Entity) { events = append(events, "leave "+e.String()) })
	mover := es[10]
	rw.h.SetParent(mover, target)
	rw.h.SetParent(mover, es[0])
	if want := []string{"enter " + mover.String(), "leave " + mover.String()}; !slices.Equal(events, want) {
		t.Fatalf("observer events %v, want %v", events, want)
	}
	// A batch over a To query: despawn target's children (and, by the
	// cascade, theirs).
	kids := rw.h.Children(target)
	rw.w.DespawnMatching(q2)
	for _, k := range kids {
		if rw.w.Alive(k) {
			t.Fatalf("child %v of %v survived DespawnMatching", k, target)
		}
	}
	if rw.h.NumChildren(target) != 0 {
		t.Fatal("the target still has children")
	}
}

// TestRelationCommands: relation changes recorded in a Commands buffer,
// with pending entities, apply in order at World.Apply; a change whose
// entity died before the Apply does nothing.
func TestRelationCommands(t *testing.T) {
	rw := newRelWorld()
	child := rw.h.Relation()
	root := rw.w.Spawn()
	doomed := rw.w.Spawn()
	c := rw.w.NewCommands()
	a, b := c.Spawn(), c.Spawn()
	child.SetCmd(c, a, root, ecs.ChildOf{})
	child.AddCmd(c, b, a)
	rw.likes.SetCmd(c, b, root, likes{7})
	rw.likes.SetCmd(c, doomed, root, likes{1})
	rw.likes.AddCmd(c, root, b)
	rw.likes.RemoveCmd(c, root, b)
	rw.guards.AddCmd(c, root, doomed)
	rw.guards.RemoveTargetsCmd(c, root)
	if rw.h.NumChildren(root) != 0 {
		t.Fatal("recording changed the world")
	}
	rw.w.Despawn(doomed)
	rw.w.Apply(c)
	ra, _ := c.Resolve(a)
	rb, _ := c.Resolve(b)
	if got := rw.h.Children(root); !slices.Equal(got, []ecs.Entity{ra}) {
		t.Fatalf("root's children %v, want [%v]", got, ra)
	}
	if got := rw.h.Children(ra); !slices.Equal(got, []ecs.Entity{rb}) {
		t.Fatalf("a's children %v, want [%v]", got, rb)
	}
	if got := rw.likes.Sources(root); !slices.Equal(got, []ecs.Entity{rb}) || rw.likes.Value(rb, root).W != 7 {
		t.Fatalf("root's likers %v", got)
	}
	if rw.likes.HasTargets(root) || rw.guards.HasTargets(root) {
		t.Fatal("the removals were not applied")
	}
	if msg := panicOf(func() { child.AddCmd(c, doomed, root) }); !strings.Contains(msg, "not alive") {
		t.Fatalf("recording a dead entity: %q", msg)
	}
}
