package ecs

// Restore puts w back in the state s holds, which [World.Snapshot] took of
// w. Afterwards w is the world it was then in every way a program can
// observe: which handles are alive, Len, the ids the next spawns return
// (generations and free list included), the iteration order of every query,
// component values, sparse sets, resources (the pointer [GetResource]
// returns and the value it points to; a resource added since is gone, one
// removed since is back) and the entity counts of [World.Stats]. Enter and
// leave observers count as members exactly the entities that matched then,
// so the next change fires the observers it would have fired then. Change
// detection is put back too: each tracked value's added and changed ticks,
// the world's change clock and every query's last pass, so that the
// [Added] and [Changed] filters of the passes after the restore see what
// they saw after the snapshot, and a rollback that simulates the same
// ticks again gives the same world.
//
// Restore fires no hook and no observer, and keeps what the world learned
// since: component types, tables, queries, observers and capacity (so Stats
// may list more tables, empty ones, and larger capacities). A query made
// since the snapshot had not run then: its next pass sees every value, as
// its first pass would have. Pointers to
// components taken before the restore must not be used after it. A
// snapshot may be restored any number of times; values of [Cloner] types
// are cloned again each time, so the world never shares them with s.
//
// If a Clone method panics, w is left partly restored: Restore again (s is
// unchanged) to repair it. Panics if s is empty, incomplete (a Clone
// method panicked while it was taken) or was taken of another world, and
// inside an iteration, a hook, an observer or a parallel section. Complexity:
// O(live rows and sparse values now and in s + entity indices handed out +
// tables + queries), plus a pass over each observed query's entities.
func (w *World) Restore(s *Snapshot) {
	w.mustBeSettled("Restore")
	switch {
	case s == nil || s.w == nil:
		panic("ecs: Restore: the snapshot is empty; fill it with World.Snapshot first")
	case s.w != w:
		panic("ecs: Restore: the snapshot was taken of another world; a snapshot restores only the world it came from")
	case !s.complete:
		panic("ecs: Restore: the snapshot is incomplete: a Clone method panicked while World.Snapshot filled it; take it again")
	}
	w.beginMethods("Restore") // Clone methods run
	defer w.endMethods()
	w.restoreIndex(s)
	w.restoreClock(s) // first: the tick floor is the snapshot's
	floor := w.tickFloor()
	for _, t := range w.tables {
		if t.id < len(s.tables) {
			t.restore(&s.tables[t.id], floor)
		} else {
			t.restore(nil, floor) // made since the snapshot: empty then
		}
	}
	for i, sp := range w.sparse {
		if i < len(s.sparse) {
			sp.restore(&s.sparse[i], floor)
		} else {
			sp.restore(nil, floor)
		}
	}
	w.restoreResources(s)
	w.restoreEvents(s)
	w.touched = w.touched[:0]
	w.recountMembers()
}

// recountMembers makes each observed query's members the entities that
// match it now, without firing its observers: after a restore or a load,
// whose changes no observer sees.
func (w *World) recountMembers() {
	for _, c := range w.observed {
		c.recountMembers()
	}
}

// recountMembers makes c's members the entities that match c now.
func (c *queryCache) recountMembers() {
	c.sub.members.clearAll()
	var it entityIter
	it.start(c)
	it.mark = false
	for it.next() {
		c.sub.members.set(componentID(it.e.index))
	}
}

// restoreIndex puts back the entity index s saved. Indices handed out since
// become never-used ones again (zero records).
func (w *World) restoreIndex(s *Snapshot) {
	x := &w.entities
	if x.next > s.next {
		clear(x.recs[s.next:x.next])
	}
	copy(x.recs, s.recs)
	x.next, x.alive = s.next, s.alive
	x.free = append(x.free[:0], s.free...)
}

// restore makes t's rows those st saved, or no rows when st is nil, with
// the change ticks st saved; floor is the restored clock's tick floor.
func (t *table) restore(st *tableState, floor uint32) {
	old := len(t.entities)
	var n int
	if st != nil {
		n = len(st.entities)
	}
	t.entities = t.entities[:0]
	if uint32(n) > t.capacity {
		t.reserve(uint32(n)) // fresh zero columns: nothing stale is left
	} else {
		for _, i := range t.pointerCols {
			col := &t.columns[i]
			if old > n {
				// Let the collector have what the dropped rows referenced.
				col.info.clearN(col.at(uint32(n)), old-n)
			}
		}
		t.dirty = max(t.dirty, uint32(old))
	}
	if st == nil {
		for _, i := range t.tracked {
			t.columns[i].ticks.forget(floor)
		}
		return
	}
	for i := range t.columns {
		col := &t.columns[i]
		copyForSnapshot(col.info, col.base, st.cols[i].base, n)
	}
	t.entities = append(t.entities, st.entities...)
	for k, i := range t.tracked {
		t.columns[i].ticks.restore(&st.ticks[k], floor)
	}
}

// restore makes s's entities, values and change ticks those st saved, or
// none when st is nil; floor is the restored clock's tick floor. The page
// entries of the entities it holds now are cleared first, then set for the
// saved ones.
func (s *sparseSet) restore(st *sparseState, floor uint32) {
	for _, e := range s.dense {
		s.setEntry(e.index, 0)
	}
	old := len(s.dense)
	s.dense = s.dense[:0]
	var n int
	if st != nil {
		n = len(st.dense)
	}
	s.grow(uint32(n))
	if !s.info.pointerFree && old > n {
		s.info.clearN(s.values.at(uint32(n)), old-n)
	}
	tc := s.values.ticks
	if st == nil {
		if tc != nil {
			tc.forget(floor)
		}
		return
	}
	copyForSnapshot(s.info, s.values.base, st.values.base, n)
	s.dense = append(s.dense, st.dense...)
	for i, e := range s.dense {
		s.setEntry(e.index, uint32(i)+1)
	}
	if tc != nil {
		tc.restore(&st.ticks, floor)
	}
}

// setEntry sets the page entry of entity index i to v (a dense slot + 1, or
// 0 for none), giving a page back to the pool once no entry uses it.
func (s *sparseSet) setEntry(i uint32, v uint32) {
	p := int(i >> sparsePageBits)
	if v == 0 && (p >= len(s.pages) || s.pages[p] == nil) {
		return
	}
	page := s.page(i)
	entry := &page.slot[i&(sparsePageSize-1)]
	switch {
	case *entry == 0 && v != 0:
		page.used++
	case *entry != 0 && v == 0:
		page.used--
	}
	*entry = v
	if page.used == 0 {
		s.pages[p] = nil
		s.pool = append(s.pool, page)
	}
}

// clearAll unsets every bit, keeping the memory.
func (b bitset) clearAll() { clear(b) }
