package ecs

import (
	"fmt"
	"slices"
	"unsafe"
)

// Spawn spawns one instance of the prefab and returns its root. It fires
// the OnAdd hooks and observers a spawn of the same entities would.
// Inside an iteration, a hook or an observer, the instance's entities are
// spawned at once, empty, and receive their components and pairs when the
// outermost iteration ends, as [World.CopyEntity]'s do. Panics inside a
// parallel section. Complexity: O(components and pairs of the prefab).
func (p *Prefab) Spawn() Entity { return p.spawn("Spawn", 1, nil) }

// SpawnBatch spawns n instances of the prefab. Panics if n < 0, if n
// instances do not fit ([World.Room]: n × the prefab's entities) and
// inside a parallel section. Complexity: O(n × the prefab's components and
// pairs), with each node's rows made in one pass per table.
func (p *Prefab) SpawnBatch(n int) { p.spawn("SpawnBatch", n, nil) }

// SpawnBatchFunc spawns n instances and, when init is not nil, calls it
// once per instance, i from 0 to n-1, with the instance's entities in
// node order (inst[0] is the root; [Prefab.Node] gives the node of a
// template entity): the place for per-instance overrides, written through
// Map handles (Get, Set) after the prefab's values are in. inst is valid
// during the call only. init runs like a loop body, so structural changes
// it makes are deferred until every instance is made; hooks fire after
// init. Panics as SpawnBatch does.
func (p *Prefab) SpawnBatchFunc(n int, init func(i int, inst []Entity)) {
	p.spawn("SpawnBatchFunc", n, init)
}

// spawn makes n instances, calling init, if not nil, per instance, and
// returns the first instance's root (the zero Entity when n is 0).
func (p *Prefab) spawn(op string, n int, init func(int, []Entity)) Entity {
	w := p.w
	w.mustNotShare("Prefab."+op, nil)
	if n < 0 {
		panic(fmt.Sprintf("ecs: Prefab.%s: negative count %d", op, n))
	}
	if n == 0 {
		return Entity{}
	}
	k := len(p.nodes)
	if room := w.entities.room(); n > room/k {
		// n × k entities, compared without the product, which may overflow.
		panic(fmt.Sprintf("ecs: Prefab.%s: %d instances of %d entities do not fit: a world holds at most MaxEntities (%d) entities, and this one has room for %d more (%d alive)",
			op, n, k, MaxEntities, room, w.entities.alive))
	}
	if w.lock > 0 {
		var root Entity
		for i := range n {
			inst := make([]Entity, k)
			for j := range inst {
				inst[j] = w.Spawn()
			}
			if i == 0 {
				root = inst[0]
			}
			w.queueFunc(func(*commandBuffer) { p.fillLater(inst, i, init) })
		}
		return root
	}
	rows := make([]uint32, k)
	for j := range p.nodes {
		rows[j] = w.spawnRows(p.nodes[j].table, n)
	}
	// Read the entities once every row exists: spawnRows may grow a table
	// that two nodes share.
	ents := make([][]Entity, k)
	for j := range p.nodes {
		t := p.nodes[j].table
		ents[j] = t.entities[rows[j] : rows[j]+uint32(n) : rows[j]+uint32(n)]
	}
	p.finish(rows, ents, n, init)
	root := ents[0][0]
	p.placeSplit(ents, n)
	w.settle()
	return root
}

// placeSplit moves the instances that are sources of a split relation
// (SplitByTarget) to the tables of their targets, after the spawn and its
// hooks (and the changes those made) are done.
func (p *Prefab) placeSplit(ents [][]Entity, n int) {
	for j := range p.nodes {
		for _, sv := range p.nodes[j].sparse {
			r := sv.set.rel
			if r == nil || !r.split || sv.set.relIn {
				continue
			}
			// ents[j] may alias the rows of a table that the moves reorder.
			for _, e := range slices.Clone(ents[j][:n]) {
				r.place(e)
			}
		}
	}
}

// fillLater gives the empty entities of one deferred instance their
// components and pairs, if they all still live and are still empty.
func (p *Prefab) fillLater(inst []Entity, i int, init func(int, []Entity)) {
	w := p.w
	for _, e := range inst {
		if !w.Alive(e) || !w.isEmpty(e) {
			return
		}
	}
	rows := make([]uint32, len(inst))
	ents := make([][]Entity, len(inst))
	for j, e := range inst {
		rows[j] = w.moveEmpty(e, w.entities.at(e.index), p.nodes[j].table)
		ents[j] = inst[j : j+1 : j+1]
	}
	if init != nil {
		user := init
		init = func(_ int, inst []Entity) { user(i, inst) }
	}
	p.finish(rows, ents, 1, init)
	p.placeSplit(ents, 1)
}

// hasSparse reports whether e has a value in some sparse set.
func (w *World) hasSparse(e Entity) bool {
	for _, s := range w.sparse {
		if s.has(e) {
			return true
		}
	}
	return false
}

// finish writes the values of n instances whose node j entities are
// ents[j], at rows rows[j]... of node j's table; points their entity
// values and pairs inside the tree at the instance; runs init; and fires
// the OnAdd hooks.
func (p *Prefab) finish(rows []uint32, ents [][]Entity, n int, init func(int, []Entity)) {
	w := p.w
	if !p.planned {
		p.plan()
	}
	w.enter("Prefab.Spawn")
	w.methodsOf = "Prefab.Spawn" // Clone methods run: name it if they change w
	for _, f := range p.fanIn {
		reserveSources(f, ents, n)
	}
	for j := range p.nodes {
		p.place(&p.nodes[j], rows[j], ents[j])
	}
	for j := range p.nodes {
		p.point(j, rows[j], ents, n)
	}
	w.methodsOf = ""
	w.leave()
	// init runs as a loop body does: structural changes it makes wait, so
	// they cannot move the rows being filled in.
	w.lock++
	defer w.unlock()
	if init != nil {
		for i := range n {
			p.inst = p.inst[:0]
			for j := range ents {
				p.inst = append(p.inst, ents[j][i])
			}
			init(i, p.inst)
		}
	}
	for j := range p.nodes {
		nd := &p.nodes[j]
		w.addedRange(nd.table, rows[j], rows[j]+uint32(n), nd.infos)
	}
}

// place writes node nd's values into the rows [start, start+len(es)) of
// its table and gives the entities es its sparse values.
func (p *Prefab) place(nd *prefabNode, start uint32, es []Entity) {
	n := len(es)
	t := nd.table
	for c, v := range nd.cols {
		if v == nil {
			continue
		}
		col := &t.columns[c]
		if col.info.snap == cloneValues {
			for i := range n {
				col.info.cloneN(col.at(start+uint32(i)), v, 1)
			}
		} else {
			col.info.fillN(col.at(start), n, v)
		}
	}
	for _, sv := range nd.sparse {
		for _, e := range es {
			copyByPolicy(sv.set.info, sv.set.add(e), sv.v, 1)
		}
	}
}

// point points the entity values of node j's n instances that name a
// node of the template at the instance's entity for that node, then links
// their relation pairs, dropping those whose target has died.
func (p *Prefab) point(j int, start uint32, ents [][]Entity, n int) {
	nd := &p.nodes[j]
	t := nd.table
	slot := func(s int, i int) unsafe.Pointer {
		if s >= 0 {
			return t.columns[s].at(start + uint32(i))
		}
		return nd.sparse[-1-s].set.get(ents[j][i])
	}
	for _, f := range nd.fixes {
		for i := range n {
			// SAFETY: plan found an Entity at f.off in this slot's type.
			*(*Entity)(unsafe.Add(slot(f.slot, i), f.off)) = ents[f.node][i]
		}
	}
	for _, s := range nd.deep {
		var info *componentInfo
		if s >= 0 {
			info = t.columns[s].info
		} else {
			info = nd.sparse[-1-s].set.info
		}
		for i := range n {
			p.walks[info].rewriteSlices(slot(s, i), func(x Entity) Entity {
				if k, ok := p.index[x]; ok {
					return ents[k][i]
				}
				return x
			})
		}
	}
	for _, sv := range nd.sparse {
		if r := sv.set.rel; r != nil {
			for i := range n {
				r.linkSources(ents[j][i])
			}
		}
	}
}
