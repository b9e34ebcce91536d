package ecs

import "unsafe"

// DespawnMatching despawns every entity q matches. Panics if q belongs to
// another world. Complexity: O(matched tables + despawned entities x
// pointer-holding components).
func (w *World) DespawnMatching(q Matcher) {
	c := w.ownCache("DespawnMatching", q)
	if w.lock > 0 {
		w.mustNotShare("DespawnMatching", nil)
		w.queue(command{kind: cmdDespawnAll, q: c})
		return
	}
	w.despawnAll(c)
}

func (w *World) ownCache(op string, q Matcher) *queryCache {
	c := q.cache()
	if c.w != w {
		panic("ecs: " + op + ": the query belongs to another world")
	}
	return c
}

// matchedEntities lists the entities c matches, in iteration order, in a
// buffer the world reuses. Batch operations take this per-entity path when
// the query has sparse terms (not every row of a matching table matches) or
// the component is sparse (there are no columns to move).
func (w *World) matchedEntities(c *queryCache) []Entity {
	var it entityIter
	it.start(c)
	it.mark = false // a selection, not a pass
	w.scratch = w.scratch[:0]
	for it.next() {
		w.scratch = append(w.scratch, it.e)
	}
	return w.scratch
}

// addAll gives the value at v to every entity c matches: AddMatching once it
// is not deferred. Its table loop, like removeAll's, walks the matched
// tables by index up to the count at the start: moving rows may create
// tables that the query also matches, which are appended past that count and
// hold only rows already handled.
func (w *World) addAll(c *queryCache, info *componentInfo, v unsafe.Pointer) {
	// Hooks' structural changes wait for the whole batch.
	w.lock++
	defer w.unlock()
	if c.hasSparse || info.sparse != nil || info.hooks != nil {
		for _, e := range w.matchedEntities(c) {
			r := w.entities.at(e.index)
			if w.hasComponent(e, r, info) {
				p := w.componentAt("AddMatching", e, r, info)
				info.copy1(p, v)
				if info.track {
					w.touchValue(info, e)
				}
				if h := info.hooks; h != nil {
					w.runHooks(hookOnSet, info, h.onSet, e, p)
				}
				continue
			}
			p := w.addSlot(e, r, info)
			info.copy1(p, v)
			if h := info.hooks; h != nil {
				w.runHooks(hookOnAdd, info, h.onAdd, e, p)
			}
		}
		return
	}
	for i, n := 0, len(c.tables); i < n; i++ {
		src := c.tables[i]
		rows := src.len()
		if rows == 0 {
			continue
		}
		if col := src.column(info.id); col >= 0 {
			info.fillN(src.columns[col].base, int(rows), v)
			if info.track {
				src.columns[col].ticks.touchRange(0, rows)
			}
			continue
		}
		dst := w.withComponent(src, info.id)
		start := w.moveAll(src, dst)
		info.fillN(dst.columns[dst.colOf[info.id]].at(start), int(rows), v)
	}
}

// removeAll takes component id away from every entity c matches that has
// it: RemoveMatching once it is not deferred. Its table loop stops at the
// table count at the start, as addAll's does.
func (w *World) removeAll(c *queryCache, id componentID) {
	w.lock++
	defer w.unlock()
	if c.hasSparse || w.reg.infos[id].sparse != nil || w.reg.infos[id].hooks != nil {
		for _, e := range w.matchedEntities(c) {
			w.removeComponent(e, w.entities.at(e.index), id)
		}
		return
	}
	for i, n := 0, len(c.tables); i < n; i++ {
		src := c.tables[i]
		if src.len() == 0 || src.column(id) < 0 {
			continue
		}
		w.moveAll(src, w.withoutComponent(src, id))
	}
}

// addAllMany gives every entity c matches the values staged in b for the
// types of pairs (a component id and its staging slot per type):
// Map2.AddMatching and the like once not deferred. Each entity gains the
// types it lacks in one move and has the others overwritten. Without sparse
// terms in c and sparse or hooked types, a matched table's rows move as one
// run to the table with every type (none if it has them all), and each
// column is filled in one pass; otherwise each entity is handled as a
// cmdAddN is (see addMany), its OnAdd and OnSet hooks firing after its move.
// The table loop stops at the table count at the start, as addAll's does; a
// table past the first ones that rows were moved to is filled again when its
// turn comes, with the same values.
func (w *World) addAllMany(c *queryCache, b *commandBuffer, pairs []componentID) {
	w.lock++ // hooks' structural changes wait for the whole batch
	defer w.unlock()
	if c.hasSparse || w.sparseOrHooked(pairs, 2) {
		es := w.matchedEntities(c)
		w.scratch = nil // the world's buffer is es until the loop ends
		for _, e := range es {
			w.addMany(e, w.entities.at(e.index), b, pairs)
		}
		w.scratch = es[:0]
		return
	}
	for i, n := 0, len(c.tables); i < n; i++ {
		src := c.tables[i]
		rows := src.len()
		if rows == 0 {
			continue
		}
		dst := src
		for j := 0; j < len(pairs); j += 2 {
			if dst.column(pairs[j]) < 0 {
				dst = w.withComponent(dst, pairs[j])
			}
		}
		var start uint32
		if dst != src {
			start = w.moveAll(src, dst)
		}
		for j := 0; j < len(pairs); j += 2 {
			info := w.reg.infos[pairs[j]]
			col := &dst.columns[dst.column(info.id)]
			info.fillN(col.at(start), int(rows), b.staging[info.id].col.at(uint32(pairs[j+1])))
			if info.track {
				// Rows that had the type are overwritten: changed (the
				// ones that gained it were stamped added by moveAll).
				col.ticks.touchRange(start, start+rows)
			}
		}
	}
}

// removeAllMany takes the types ids away from every entity c matches, in
// one move per entity, and does nothing for the types an entity lacks:
// Map2.RemoveMatching and the like once not deferred. Without sparse terms
// in c and sparse or hooked types, a matched table's rows move as one run to
// the table without the types; otherwise each entity is handled as a
// cmdRemoveN is (see removeMany). The table loop stops at the table count at
// the start, as removeAll's does.
func (w *World) removeAllMany(c *queryCache, ids []componentID) {
	w.lock++
	defer w.unlock()
	if c.hasSparse || w.sparseOrHooked(ids, 1) {
		es := w.matchedEntities(c)
		w.scratch = nil // the world's buffer is es until the loop ends
		for _, e := range es {
			w.removeMany(e, w.entities.at(e.index), ids)
		}
		w.scratch = es[:0]
		return
	}
	for i, n := 0, len(c.tables); i < n; i++ {
		src := c.tables[i]
		if src.len() == 0 {
			continue
		}
		dst := src
		for _, id := range ids {
			if dst.column(id) >= 0 {
				dst = w.withoutComponent(dst, id)
			}
		}
		if dst != src {
			w.moveAll(src, dst)
		}
	}
}

// sparseOrHooked reports whether the type of one of every stride-th id of
// ids is sparse or has hooks: a batch over it must go entity by entity.
func (w *World) sparseOrHooked(ids []componentID, stride int) bool {
	for i := 0; i < len(ids); i += stride {
		if info := w.reg.infos[ids[i]]; info.sparse != nil || info.hooks != nil {
			return true
		}
	}
	return false
}

// unstage releases what an immediate batch staged in b from position off
// of b.multi on (pairs of a component id and its staging slot), unless the
// changes its hooks queued were applied since, which emptied b.
func (b *commandBuffer) unstage(off uint32) {
	if uint32(len(b.multi)) <= off {
		return
	}
	pairs := b.multi[off:]
	for i := len(pairs) - 2; i >= 0; i -= 2 {
		s := &b.staging[pairs[i]]
		if slot := uint32(pairs[i+1]); s.n == slot+1 {
			s.release(slot)
		}
	}
	b.multi = b.multi[:off]
}

// despawnAll despawns every entity c matches: DespawnMatching once it is not
// deferred.
func (w *World) despawnAll(c *queryCache) {
	w.lock++
	defer w.unlock()
	if c.hasSparse || w.hooked || len(w.relations) != 0 {
		es := w.matchedEntities(c)
		if len(w.relations) != 0 {
			// A RefuseDespawn target may go with its sources when the
			// batch takes them too, whatever their order.
			w.batchDying = make(map[Entity]bool, len(es))
			for _, e := range es {
				w.batchDying[e] = true
			}
			defer func() { w.batchDying = nil }()
		}
		for _, e := range es {
			// A cascade (DespawnSources) may have despawned e already.
			if r := w.entities.lookup(e); r != nil {
				w.despawn(e, r)
			}
		}
		return
	}
	w.enter("DespawnMatching")
	defer w.leave()
	for _, t := range c.tables {
		if len(w.observed) == 0 && len(w.sparse) == 0 {
			w.entities.releaseAll(t.entities)
		} else {
			for _, e := range t.entities {
				w.touch(e)
				for _, s := range w.sparse {
					s.remove(e)
				}
				w.entities.release(e.index, w.entities.at(e.index))
			}
		}
		t.clearRows()
	}
}

// moveAll appends every row of src to dst, copying the columns both have,
// empties src, and returns the first new row in dst.
func (w *World) moveAll(src, dst *table) uint32 {
	w.enter("a batch move between tables (AddMatching or RemoveMatching)")
	defer w.leave()
	n := src.len()
	start := dst.len()
	dst.reserve(start + n)
	dst.entities = append(dst.entities, src.entities...)
	for i := range dst.columns {
		col := &dst.columns[i]
		if col.size == 0 {
			continue
		}
		if j := src.column(col.id); j >= 0 {
			col.info.copyN(col.at(start), src.columns[j].base, int(n))
		}
	}
	for _, i := range dst.tracked {
		col := &dst.columns[i]
		if j := src.column(col.id); j >= 0 {
			col.ticks.carryRows(start, src.columns[j].ticks, n)
		} else {
			col.ticks.stampRows(start, n)
		}
	}
	recs, row := w.entities.recs, start
	for _, e := range dst.entities[start:] {
		r := &recs[e.index]
		r.slot, r.row = dst.slot, row
		row++
	}
	if len(w.observed) > 0 {
		for _, e := range dst.entities[start:] {
			w.touch(e)
		}
	}
	src.dropRows()
	return start
}
