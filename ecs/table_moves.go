package ecs

import (
	"fmt"
	"slices"
	"unsafe"
)

// addedRows fires the OnAdd hooks of infos for rows [start, len) of t, the
// rows a batch just made, with the world locked for the whole batch.
func (w *World) addedRows(t *table, start uint32, infos []*componentInfo) {
	w.addedRange(t, start, t.len(), infos)
}

// addedRange is addedRows for rows [start, end) of t.
func (w *World) addedRange(t *table, start, end uint32, infos []*componentInfo) {
	if !w.hooked {
		return
	}
	w.lock++
	for i := start; i < end; i++ {
		e := t.entities[i]
		for _, info := range infos {
			if h := info.hooks; h != nil && len(h.onAdd) > 0 {
				// The record is read again for each hook (see addedAll).
				w.runHooks(hookOnAdd, info, h.onAdd, e, w.componentAt("SpawnBatch", e, w.entities.at(e.index), info))
			}
		}
	}
	w.unlock()
}

func (w *World) removeComponent(e Entity, r *record, id componentID) {
	info := w.reg.infos[id]
	if info.hooks != nil {
		w.removeHooked(e, r, info)
		return
	}
	if s := info.sparse; s != nil {
		w.enter("Remove")
		s.remove(e)
		w.leave()
		return
	}
	src := w.tableOf(r)
	if src.column(id) < 0 {
		return
	}
	w.move(e, r, w.withoutComponent(src, id))
}

// removeMany takes the types ids that the live entity e (record r) has
// away from it, in a single table move, and does nothing for the types e
// lacks. The OnRemove hooks of the types e has run first, in the order of
// ids, while e still has all of them; the count stays raised until the move
// is made, so the changes the hooks make wait for it and observers settle
// once: e moves once, never through the tables in between, whose pointers
// stay valid.
func (w *World) removeMany(e Entity, r *record, ids []componentID) {
	if _, _, locked := w.exchangeMove(e, r, ids, nil, 1); locked {
		w.unlock()
		return
	}
	w.settle()
}

// removeHooked is removeComponent for a type with hooks: OnRemove runs
// first, and changes it makes wait for the removal.
func (w *World) removeHooked(e Entity, r *record, info *componentInfo) {
	if !w.hasComponent(e, r, info) {
		return
	}
	w.removingE, w.removingIDs = e, append(w.removingIDs[:0], info.id)
	locked := w.removing(info, e, w.componentAt("Remove", e, r, info))
	w.removingE = Entity{}
	r = w.entities.at(e.index) // the hooks may have spawned: the index may have moved
	if s := info.sparse; s != nil {
		s.remove(e)
	} else {
		w.move(e, r, w.withoutComponent(w.tableOf(r), info.id))
	}
	if locked {
		w.unlock()
	}
}

// missingComponent is the panic message of an access to a component e
// lacks; while changes are deferred, it says so (the add may be queued).
func missingComponent(w *World, op string, e Entity, info *componentInfo) string {
	return fmt.Sprintf("ecs: %s[%v]: entity %v does not have the component%s", op, info.typ, e, w.openLoopNote())
}

// spawnTable checks that ids are distinct and returns the table of exactly
// those types, with their infos and their columns in it, in the order of ids.
func (w *World) spawnTable(op string, ids []componentID) (*table, []*componentInfo, []int32) {
	checkDistinct(w, op, ids)
	var sorted []componentID
	for _, id := range ids {
		if w.reg.infos[id].sparse == nil {
			sorted = append(sorted, id)
		}
	}
	slices.Sort(sorted)
	t := w.tableFor(sorted)
	infos := make([]*componentInfo, len(ids))
	cols := make([]int32, len(ids))
	for i, id := range ids {
		infos[i] = w.reg.infos[id]
		cols[i] = t.column(id)
	}
	return t, infos, cols
}

// spawnRows creates n entities in table t, growing the entity index and t
// once, and returns the first of their rows. Their component values are
// zero or stale and must be written by the caller.
func (w *World) spawnRows(t *table, n int) uint32 {
	w.enter("SpawnBatch")
	defer w.leave()
	w.entities.reserve(n)
	start := t.len()
	t.reserve(start + uint32(n))
	t.entities = t.entities[:start+uint32(n)]
	if len(t.tracked) > 0 {
		t.stampRows(start, uint32(n))
	}
	for i := range uint32(n) {
		e, r := w.entities.alloc()
		t.entities[start+i] = e
		r.slot, r.row = t.slot, start+i
		w.touch(e)
	}
	return start
}

// fill sets every element of s to v.
func fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}

// addSlot gives the live entity e (record r), which lacks the component
// info describes, a slot for it: a move to the table with the component, or
// an entry in its sparse set. It returns the slot's address; the value there
// is zero or stale and the caller writes it.
func (w *World) addSlot(e Entity, r *record, info *componentInfo) unsafe.Pointer {
	if info.sparse != nil {
		w.enter("Add")
		p := info.sparse.add(e)
		w.leave()
		return p
	}
	dst := w.withComponent(w.tableOf(r), info.id)
	row := w.move(e, r, dst)
	return dst.columns[dst.colOf[info.id]].at(row)
}

// hasComponent reports whether the live entity e (record r) has the
// component info describes, in either storage.
func (w *World) hasComponent(e Entity, r *record, info *componentInfo) bool {
	if info.sparse != nil {
		return info.sparse.has(e)
	}
	return w.tableOf(r).column(info.id) >= 0
}

// spawnSlot returns where to write the value of a component of a just
// spawned entity e (row of t): its column when col >= 0, otherwise a new
// slot in the type's sparse set.
func spawnSlot(e Entity, t *table, row uint32, col int32, info *componentInfo) unsafe.Pointer {
	if col >= 0 {
		return t.columns[col].at(row)
	}
	return info.sparse.add(e)
}

// putSlot returns where to write the value of a component of the live
// entity e (row of t, its table): its column when col >= 0, otherwise its
// slot in the type's sparse set, the one it has if had, else a new one.
func putSlot(e Entity, t *table, row uint32, col int32, info *componentInfo, had bool) unsafe.Pointer {
	if col >= 0 {
		if had && info.track {
			t.columns[col].ticks.touch(row)
		}
		return t.columns[col].at(row)
	}
	if had {
		if info.track {
			info.w.touchValue(info, e)
		}
		return info.sparse.get(e)
	}
	return info.sparse.add(e)
}

// componentAt returns the address of the live entity e's component of the
// type info describes, or panics naming op, the type and e.
func (w *World) componentAt(op string, e Entity, r *record, info *componentInfo) unsafe.Pointer {
	if info.sparse == nil {
		t := w.tableOf(r)
		if c := t.column(info.id); c >= 0 {
			return t.columns[c].at(r.row)
		}
	} else if p := info.sparse.get(e); p != nil {
		return p
	}
	panic(missingComponent(w, op, e, info))
}
