package ecs_test

// The differential harness's operations, as weighted tables of named
// operations (see diffOp).

import (
	"fmt"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

// diffOp is one kind of operation in a random choice: a name, unique across
// the harness's tables (TestDifferential fails if some operation never
// ran), a weight, and what it does.
type diffOp[F any] struct {
	name   string
	weight int
	do     F
}

// opPicker is a harness that chooses operations from diffOp tables and
// counts the runs of each (diffHarness, drHarness).
type opPicker interface {
	choose(weights ...int) int
	ranOp(name string)
}

// pickOp chooses one of ops with probability proportional to its weight,
// leaving out the ones named in skip, counts its run and returns its
// index.
func pickOp[F any](h opPicker, ops []diffOp[F], skip ...string) int {
	weights := make([]int, len(ops))
	for i, o := range ops {
		if !slices.Contains(skip, o.name) {
			weights[i] = o.weight
		}
	}
	i := h.choose(weights...)
	h.ranOp(ops[i].name)
	return i
}

// chooseWeighted returns an index with probability proportional to its
// weight, drawing one number from src.
func chooseWeighted(src diffChooser, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	r := src.intn(total)
	for i, w := range weights {
		if r < w {
			return i
		}
		r -= w
	}
	return len(weights) - 1
}

// diffOpNames lists the names of every operation of every table.
func diffOpNames() []string {
	var names []string
	for _, o := range diffTopOps {
		names = append(names, o.name)
	}
	for _, c := range diffChanges {
		names = append(names, c.name)
	}
	for _, o := range diffBodyOps {
		names = append(names, o.name)
	}
	for _, o := range diffSameOps {
		names = append(names, o.name)
	}
	return names
}

// diffTopOps are the operations made outside any iteration. Each reports
// whether it changes every entity's storage at most once, apart from the
// changes that hooks and observers defer (storageStep sees each of those),
// so that the storage signatures tell which tables and sparse sets it
// changed (see checkPins).
var diffTopOps = []diffOp[func(h *diffHarness) (exact bool)]{
	{"a structural change", 20, func(h *diffHarness) bool { h.structural(nil); return true }},
	// Compare the visited entities and values only.
	{"a passive iteration", 4, func(h *diffHarness) bool { h.iterate(false); return true }},
	// With writes, structural changes and nested loops.
	{"an active iteration", 6, func(h *diffHarness) bool { h.iterate(true); return false }},
	{"a system", 1, func(h *diffHarness) bool { h.runSystem(); return true }},
	{"misuse", 1, func(h *diffHarness) bool { h.misuse(); return true }},
	{"an escaping iteration", 1, func(h *diffHarness) bool { h.escapingIteration(); return false }},
	{"Stats and Shrink", 1, func(h *diffHarness) bool { h.statsAndShrink(); return false }},
	// Changes nothing: pins stay valid through it.
	{"Snapshot", 2, func(h *diffHarness) bool { h.takeSnapshot(); return true }},
	// Chosen only when a snapshot exists; drops every pin.
	{"Restore", 2, func(h *diffHarness) bool { h.restoreSnapshot(); return true }},
	// Change detection: a pass of a query filtered by Added or Changed.
	{"a change-filtered pass", 3, func(h *diffHarness) bool {
		k := h.src.intn(numKinds)
		if h.restores > 0 && h.restoredAt == h.step-1 && h.tracked[k] {
			h.cov[covChangeAfterRestore]++
		}
		h.kinds[k].changePass(h)
		return true
	}},
	{"MarkChanged", 1, func(h *diffHarness) bool {
		if len(h.live) > 0 {
			h.kinds[h.src.intn(numKinds)].markChanged(h, h.pickLive())
		}
		return true
	}},
}

// topOp performs one operation of diffTopOps, sometimes after pinning
// pointers, and reports whether it is exact (see diffTopOps).
func (h *diffHarness) topOp() (exact bool) {
	h.ops++
	if len(h.pins) < 4 && h.src.intn(16) == 0 {
		h.pinSome()
	}
	var skip []string
	if !h.anySave() {
		skip = append(skip, "Restore")
	}
	return diffTopOps[pickOp(h, diffTopOps, skip...)].do(h)
}

// escapingIteration runs an active iteration whose loop bodies may panic out
// of every open loop (nested ones too); the harness recovers the panic and
// calls World.Recover, which must end the open iterations and apply the
// deferred changes in order, as the model does when its iterations end.
func (h *diffHarness) escapingIteration() {
	h.escape = true
	escaped := func() (escaped bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(diffEscape); !ok {
					panic(r)
				}
				escaped = true
			}
		}()
		h.iterate(true)
		return false
	}()
	h.escape = false
	if !escaped && h.src.intn(2) == 0 {
		h.w.Recover() // nothing open: must do nothing
		return
	}
	if escaped {
		h.note("Recover", diffPair{}, h.depth)
		h.w.Recover()
		for ; h.depth > 0; h.depth-- {
			h.m.EndIteration()
		}
	}
}

// diffScale sets the weights of the structural changes from the number of
// living entities: spawns stop at diffMaxLive and are favoured below 8
// entities, despawns are favoured above 48, and changes of one entity need
// one (see structural).
type diffScale struct{ spawn, kill, one, batch, top int }

// diffChange is a structural change: its weight at a scale and what it does
// to the target entity (cur is the current entity of the innermost loop, or
// nil outside loops).
type diffChange struct {
	name   string
	weight func(s diffScale) int
	do     func(h *diffHarness, cur *diffPair)
}

var diffChanges = []diffChange{
	{"Spawn", func(s diffScale) int { return s.spawn }, func(h *diffHarness, _ *diffPair) {
		e, id := h.w.Spawn(), h.m.Spawn()
		h.pair(id, e)
		h.note("Spawn", diffPair{id, e}, 0)
	}},
	{"a spawn with components", func(s diffScale) int { return s.spawn }, func(h *diffHarness, _ *diffPair) {
		if h.src.intn(4) == 0 {
			h.kinds[h.src.intn(numKinds)].spawn1(h)
		} else {
			h.maps[h.src.intn(len(h.maps))].spawn(h)
		}
	}},
	{"MapN.SpawnFunc", func(s diffScale) int { return s.spawn / 3 }, func(h *diffHarness, _ *diffPair) {
		h.maps[h.src.intn(len(h.maps))].spawnFunc(h)
	}},
	{"MapN.SpawnBatchFunc", func(s diffScale) int { return s.spawn / 3 }, func(h *diffHarness, _ *diffPair) {
		h.maps[h.src.intn(len(h.maps))].spawnBatchFunc(h, h.src.intn(4))
	}},
	// SpawnBatch returns no handles: its entities are found with a query,
	// so it runs outside iterations only.
	{"SpawnBatch", func(s diffScale) int { return s.batch }, func(h *diffHarness, _ *diffPair) {
		if h.src.intn(4) == 0 {
			h.kinds[h.src.intn(numKinds)].spawnBatch1(h, 1+h.src.intn(4))
		} else {
			h.maps[h.src.intn(len(h.maps))].spawnBatch(h, 1+h.src.intn(4))
		}
	}},
	{"Despawn", func(s diffScale) int { return s.kill }, func(h *diffHarness, cur *diffPair) {
		p := h.target(cur)
		h.note("Despawn", p, 0)
		h.w.Despawn(p.e)
		h.m.Despawn(p.id)
	}},
	{"Map.Add", func(s diffScale) int { return 8 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.kinds[h.src.intn(numKinds)].add(h, h.target(cur), h.val())
	}},
	{"Map.Set", func(s diffScale) int { return 8 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.kinds[h.src.intn(numKinds)].set(h, h.target(cur), h.val())
	}},
	{"a write through Map.Get", func(s diffScale) int { return 3 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.kinds[h.src.intn(numKinds)].writeGet(h, h.target(cur), h.val())
	}},
	{"Map.Remove", func(s diffScale) int { return 6 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.kinds[h.src.intn(numKinds)].remove(h, h.target(cur))
	}},
	{"Map.AddEntities", func(s diffScale) int { return 2 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.kinds[h.src.intn(numKinds)].addEntities(h, h.targets(cur), h.val())
	}},
	{"Map.RemoveEntities", func(s diffScale) int { return 2 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.kinds[h.src.intn(numKinds)].removeEntities(h, h.targets(cur))
	}},
	{"MapN.Add", func(s diffScale) int { return 3 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.maps[h.src.intn(len(h.maps))].add(h, h.target(cur))
	}},
	{"MapN.Remove", func(s diffScale) int { return 2 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.maps[h.src.intn(len(h.maps))].remove(h, h.target(cur))
	}},
	{"MapN.Set", func(s diffScale) int { return 3 * s.one }, func(h *diffHarness, cur *diffPair) {
		h.maps[h.src.intn(len(h.maps))].set(h, h.target(cur))
	}},
	// MapN's batches select their entities when applied; the model has no
	// deferred multi-type batch, so they run outside iterations (the
	// generated tests of map_gen_test.go cover them inside loops).
	{"MapN.AddMatching", func(s diffScale) int { return 2 * s.top }, func(h *diffHarness, _ *diffPair) {
		h.maps[h.src.intn(len(h.maps))].addAll(h, h.queries[h.src.intn(len(h.queries))])
	}},
	{"MapN.RemoveMatching", func(s diffScale) int { return 2 * s.top }, func(h *diffHarness, _ *diffPair) {
		h.maps[h.src.intn(len(h.maps))].removeAll(h, h.queries[h.src.intn(len(h.queries))])
	}},
	{"Map.AddMatching", func(diffScale) int { return 2 }, func(h *diffHarness, _ *diffPair) {
		h.kinds[h.src.intn(numKinds)].addAll(h, h.queries[h.src.intn(len(h.queries))], h.val())
	}},
	{"Map.RemoveMatching", func(diffScale) int { return 2 }, func(h *diffHarness, _ *diffPair) {
		h.kinds[h.src.intn(numKinds)].removeAll(h, h.queries[h.src.intn(len(h.queries))])
	}},
	{"DespawnMatching", func(s diffScale) int { return max(s.kill/4, 1) }, func(h *diffHarness, _ *diffPair) {
		q := h.queries[h.src.intn(len(h.queries))]
		h.note("DespawnMatching "+q.name, diffPair{}, 0)
		if q.sparse && h.m.Count(q.mq) > 0 {
			h.cov[covDespawnAllSparseQuery]++
		}
		h.w.DespawnMatching(q.tq)
		h.m.DespawnMatching(q.mq)
	}},
}

// structural performs one structural change of diffChanges (or a write
// through Map.Get), weighted by the number of living entities; cur is the
// current entity of the innermost loop, or nil.
func (h *diffHarness) structural(cur *diffPair) {
	n := len(h.live)
	s := diffScale{spawn: 3, kill: 4, one: 1}
	switch {
	case n >= diffMaxLive:
		s.spawn = 0
	case n < 8:
		s.spawn, s.kill = 12, 1
	case n > 48:
		s.kill = 12
	}
	if n == 0 {
		s.kill, s.one = 0, 0
	}
	if h.depth == 0 {
		s.batch, s.top = s.spawn/3, 1
	}
	weights := make([]int, len(diffChanges))
	for i, c := range diffChanges {
		weights[i] = c.weight(s)
	}
	c := diffChanges[h.pick(weights...)]
	h.opRuns[c.name]++
	c.do(h, cur)
}

// iterate runs a random query in a random form and checks every visited
// entity and value against the model. When active, the loop body also writes
// through the row's pointers, makes structural changes (deferred in both
// worlds) and starts nested iterations; any loop may break early.
func (h *diffHarness) iterate(active bool) {
	q := h.queries[h.src.intn(len(h.queries))]
	form := h.src.intn(3)
	expected := h.m.Match(q.mq)
	if n := q.count(); n != len(expected) {
		h.failf("%s: Count() = %d, model %d", q.name, n, len(expected))
	}
	want := make(map[refmodel.EntityID]bool, len(expected))
	for _, id := range expected {
		want[id] = true
	}
	seen := make(map[refmodel.EntityID]bool, len(expected))
	h.note(diffFormNames[form]+" "+q.name, diffPair{}, len(expected))
	broke := false
	h.m.BeginIteration()
	h.depth++
	q.forms[form](h, func(r *diffRow) bool {
		id, ok := h.byEnt[r.e]
		switch {
		case !ok:
			h.failf("%s.%s visited %v, which the harness does not know", q.name, diffFormNames[form], r.e)
		case !want[id]:
			h.failf("%s.%s visited %v (model %d), which the model says does not match", q.name, diffFormNames[form], r.e, id)
		case seen[id]:
			h.failf("%s.%s visited %v twice", q.name, diffFormNames[form], r.e)
		}
		seen[id] = true
		for _, k := range q.terms {
			h.kinds[k].checkRow(h, r, id, q.opt[k])
		}
		h.covVisit(q, form, id)
		if !active && h.depth == 1 && len(h.pins) < 4 && h.src.intn(8) == 0 {
			// A row pointer, kept after the loop (which changes nothing).
			k := q.terms[h.src.intn(len(q.terms))]
			if h.m.HasKind(id, refmodel.Kind(k)) {
				h.addPin(diffPair{id, r.e}, id, k, r.p[k], "a "+diffFormNames[form]+" row of "+q.name)
			}
		}
		if active {
			for n := h.pick(10, 6, 3); n > 0; n-- {
				h.bodyAction(q, r, diffPair{id, r.e})
			}
		}
		if h.src.intn(16) == 0 {
			broke = true
			return false
		}
		if h.escape && h.src.intn(24) == 0 {
			panic(diffEscape{})
		}
		return true
	})
	h.depth--
	h.m.EndIteration()
	if !broke && len(seen) != len(expected) {
		h.failf("%s.%s visited %d entities, the model matches %d", q.name, diffFormNames[form], len(seen), len(expected))
	}
	if h.depth == 0 {
		h.checkAll()
	}
}

// covVisit counts the sparse situations of a visit of entity id by q.
func (h *diffHarness) covVisit(q *diffQuery, form int, id refmodel.EntityID) {
	if !q.sparse {
		return
	}
	h.cov[covChunksSparse+form]++
	if h.depth >= 2 {
		h.cov[covNestedIterSparse]++
	}
	for _, c := range [...]struct {
		on  bool
		cov int
	}{{q.mixedTerms, covMixedTerms}, {q.withSparse, covWithSparse}, {q.without, covWithoutSparse}, {q.anyOfMixed, covAnyOfMixed}} {
		if c.on {
			h.cov[c.cov]++
		}
	}
	for _, k := range q.terms {
		if q.opt[k] && h.sparse[k] {
			if h.m.HasKind(id, refmodel.Kind(k)) {
				h.cov[covOptSparseSet]++
			} else {
				h.cov[covOptSparseNil]++
			}
		}
	}
}

// diffBodyOps are what a loop body of an active iteration does with its
// current row r of q (cur is its entity). Set in init: nesting an iteration
// refers back to this table.
var diffBodyOps []diffOp[func(h *diffHarness, q *diffQuery, r *diffRow, cur diffPair)]

func init() {
	diffBodyOps = []diffOp[func(h *diffHarness, q *diffQuery, r *diffRow, cur diffPair)]{
		{"a write through the row", 6, func(h *diffHarness, q *diffQuery, r *diffRow, cur diffPair) {
			k := q.terms[h.src.intn(len(q.terms))]
			h.kinds[k].writeRow(h, r, cur.id, h.val())
		}},
		{"a deferred structural change", 10, func(h *diffHarness, _ *diffQuery, _ *diffRow, cur diffPair) {
			h.structural(&cur)
			h.checkAll()
		}},
		{"a nested iteration", 2, func(h *diffHarness, _ *diffQuery, _ *diffRow, _ diffPair) {
			if h.depth < diffMaxDepth {
				h.iterate(true)
			}
		}},
		{"Count inside an iteration", 1, func(h *diffHarness, _ *diffQuery, _ *diffRow, _ diffPair) {
			o := h.queries[h.src.intn(len(h.queries))]
			if got, want := o.count(), h.m.Count(o.mq); got != want {
				h.failf("%s: Count() inside an iteration = %d, model %d", o.name, got, want)
			}
			if h.src.intn(8) == 0 {
				h.expectPanic("Shrink inside an iteration", h.w.Shrink)
			}
		}},
		{"a same-entity sequence", 3, func(h *diffHarness, _ *diffQuery, _ *diffRow, cur diffPair) {
			h.sameEntity(&cur)
			h.checkAll()
		}},
		{"Snapshot and Restore inside an iteration", 1, func(h *diffHarness, _ *diffQuery, _ *diffRow, _ diffPair) {
			h.refuseSnapshots("an iteration", true, true)
			h.checkAll()
		}},
	}
}

func (h *diffHarness) bodyAction(q *diffQuery, r *diffRow, cur diffPair) {
	h.ops++
	diffBodyOps[pickOp(h, diffBodyOps)].do(h, q, r, cur)
}

// The changes of a same-entity sequence, as indices of diffSameOps.
const (
	sameAdd = iota
	sameSet
	sameRemove
	sameDespawn
	sameMapAdd
)

// diffSameOps are the changes of a same-entity sequence to kind k of entity
// p. Each reports whether it did anything.
var diffSameOps = []diffOp[func(h *diffHarness, p diffPair, k int) bool]{
	sameAdd:    {"Add in a same-entity sequence", 6, func(h *diffHarness, p diffPair, k int) bool { h.kinds[k].add(h, p, h.val()); return true }},
	sameSet:    {"Set in a same-entity sequence", 6, func(h *diffHarness, p diffPair, k int) bool { h.kinds[k].set(h, p, h.val()); return true }},
	sameRemove: {"Remove in a same-entity sequence", 6, func(h *diffHarness, p diffPair, k int) bool { h.kinds[k].remove(h, p); return true }},
	sameDespawn: {"Despawn in a same-entity sequence", 1, func(h *diffHarness, p diffPair, _ int) bool {
		h.note("Despawn", p, 0)
		h.w.Despawn(p.e)
		h.m.Despawn(p.id)
		return true
	}},
	// A MapN Add of a handle whose types include k.
	sameMapAdd: {"MapN.Add in a same-entity sequence", 2, func(h *diffHarness, p diffPair, k int) bool {
		var with []diffMapN
		for _, m := range h.maps {
			if m.has(k) {
				with = append(with, m)
			}
		}
		if len(with) == 0 {
			return false
		}
		with[h.src.intn(len(with))].add(h, p)
		return true
	}},
}

// sameEntity makes two to five changes in a row to one component kind of
// one entity (often the loop's current one): the awkward deferred sequences
// (remove then add, add then remove, set after remove, a change after a
// despawn) that random single changes rarely line up, each judged by
// Tessera and the model against the changes queued before it.
func (h *diffHarness) sameEntity(cur *diffPair) {
	p := h.target(cur)
	k := h.src.intn(numKinds)
	prev, despawned := -1, false
	for n := 2 + h.src.intn(4); n > 0; n-- {
		op := pickOp(h, diffSameOps)
		if !diffSameOps[op].do(h, p, k) {
			continue
		}
		if h.depth > 0 {
			added := prev == sameAdd || prev == sameSet
			switch {
			case despawned && (op == sameAdd || op == sameSet):
				h.cov[covSameDespawnChange]++
			case prev == sameRemove && op == sameAdd:
				h.cov[covSameRemoveAdd]++
			case prev == sameRemove && op == sameSet:
				h.cov[covSameRemoveSet]++
			case prev == sameRemove && op == sameMapAdd:
				h.cov[covSameMapNAfter]++
			case added && op == sameRemove:
				h.cov[covSameAddRemove]++
			case prev == sameAdd && op == sameAdd:
				h.cov[covSameAddAdd]++
			case prev == sameAdd && op == sameSet:
				h.cov[covSameAddSet]++
			case added && op == sameDespawn:
				h.cov[covSameAddDespawn]++
			}
		}
		despawned = despawned || op == sameDespawn
		prev = op
	}
}

// sameEntityCount returns how many same-entity sequences the run made
// inside iterations.
func (h *diffHarness) sameEntityCount() int {
	n := 0
	for _, c := range h.cov[covSameRemoveAdd : covSameMapNAfter+1] {
		n += c
	}
	return n
}

// runSystem runs a system in Tessera (in a random iteration form) and the
// same system as a plain function over the model's stores.
func (h *diffHarness) runSystem() {
	form := h.src.intn(3)
	var q *diffQuery
	var tBody func(id refmodel.EntityID, r *diffRow)
	var mSystem refmodel.System
	if h.src.intn(2) == 0 {
		q = h.physics
		tBody = func(_ refmodel.EntityID, r *diffRow) {
			p, v := r.p[kPos].(*diffPos), r.p[kVel].(*diffVel)
			p.X += float64(v.DX)
			p.Y += float64(v.DY)
		}
		mSystem = func(w *refmodel.World) {
			w.Each(q.mq, func(id refmodel.EntityID) bool {
				v, _ := h.vel.ms.Get(id)
				h.pos.ms.Update(id, func(p *diffPos) {
					p.X += float64(v.DX)
					p.Y += float64(v.DY)
				})
				return true
			})
		}
	} else {
		q = h.renamer
		tBody = func(_ refmodel.EntityID, r *diffRow) {
			if n := r.p[kName].(*diffName); n != nil {
				n.S = diffRename(n.S)
			}
		}
		mSystem = func(w *refmodel.World) {
			w.Each(q.mq, func(id refmodel.EntityID) bool {
				h.name.ms.Update(id, func(n *diffName) { n.S = diffRename(n.S) })
				return true
			})
		}
	}
	h.note("system "+diffFormNames[form]+" "+q.name, diffPair{}, 0)
	h.m.BeginIteration()
	h.depth++
	q.forms[form](h, func(r *diffRow) bool {
		id, ok := h.byEnt[r.e]
		if !ok || !h.m.Matches(q.mq, id) {
			h.failf("system over %s visited %v (model %d, known %v), which the model says does not match", q.name, r.e, id, ok)
		}
		for _, k := range q.terms {
			h.kinds[k].checkRow(h, r, id, q.opt[k])
		}
		tBody(id, r)
		return true
	})
	h.depth--
	h.m.EndIteration()
	h.m.Run(mSystem)
}

func diffRename(s string) string {
	if len(s) >= 8 {
		return "r"
	}
	return s + "x"
}

// misuse checks that dead handles stay dead and that misuse panics in both
// worlds without changing anything.
func (h *diffHarness) misuse() {
	if h.w.Alive(ecs.Entity{}) {
		h.failf("the zero Entity is alive")
	}
	if h.src.intn(4) == 0 {
		h.misuseStorage()
	}
	if len(h.dead) == 0 {
		return
	}
	p := h.dead[h.src.intn(len(h.dead))]
	h.note("misuse", p, 0)
	if h.src.intn(5) == 0 {
		h.expectPanic("World.Despawn of a dead entity", func() { h.w.Despawn(p.e) })
		h.expectPanic("model Despawn of a dead entity", func() { h.m.Despawn(p.id) })
		return
	}
	h.kinds[h.src.intn(numKinds)].checkDead(h, p, h.src.intn(4))
	h.maps[h.src.intn(len(h.maps))].checkDead(h, p, h.src.intn(4))
}

// misuseStorage checks that a type cannot be registered once in use, and
// that queries requiring and excluding the same type (of either storage) or
// requiring nothing are refused, in both worlds alike; none of it may change
// the world (checkAll follows).
func (h *diffHarness) misuseStorage() {
	k := h.src.intn(numKinds)
	h.note("misuse Register["+diffKindNames[k]+"]", diffPair{}, 0)
	var opts []ecs.ComponentOption
	if h.src.intn(2) == 0 {
		opts = append(opts, ecs.Sparse())
	}
	h.expectPanic("Register of a type in use", func() { diffRegisters[k](h.w, opts...) })
	j := h.src.intn(numKinds)
	var spec diffSpec
	switch h.src.intn(3) {
	case 0: // a term excluded
		spec.without = []int{k}
	case 1: // a With type excluded
		spec.with, spec.without = []int{j}, []int{j}
	case 2: // every term optional, no AnyOf
		spec.opt = []int{k}
	}
	mq := &refmodel.Query{Terms: diffKinds([]int{k}), With: diffKinds(spec.with), Without: diffKinds(spec.without),
		Optional: diffKinds(spec.opt)}
	if mq.Validate(h.m) == nil {
		h.failf("model accepts the invalid query %+v", *mq)
	}
	h.expectPanic(fmt.Sprintf("NewQuery1[%s] with an invalid filter %+v", diffKindNames[k], spec),
		func() { h.kinds[k].newQuery(h, spec) })
}
