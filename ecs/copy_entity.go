package ecs

import "unsafe"

// CopyEntity spawns a new entity with a copy of every component e has, in
// either storage, and returns it. Values are copied by the rules of
// [World.Snapshot]: a plain copy for types without references and for
// types declared [Shallow], the type's Clone method for a [Cloner], so
// the clone shares no mutable memory with e; a type with references and
// neither makes CopyEntity panic, naming it, before anything changes. The
// clone gets e's relation pairs as a source (a clone of a child is a
// sibling, with the same parent; a Multi pair keeps its value), not the
// pairs that have e as their target: e's children stay e's. OnAdd hooks
// fire for each component, and enter observers, as for a spawn. Entity
// values inside the components are copied as they are; [Prefab] rewrites
// those that point into a tree.
//
// Inside an iteration, a hook or an observer the clone is spawned at once,
// empty, so the handle is usable, and it receives copies of e's
// components, as they are then, when the outermost iteration ends (if
// both still live and the clone has no component by then), in order with
// the other deferred changes. Panics if e
// is not alive or belongs to another world, and inside a parallel section.
// Complexity: O(e's components + e's pairs), the cost of a spawn of that
// many components. (Bevy's EntityCommands::clone_and_spawn; flecs'
// ecs_clone; the name is Ark's World.CopyEntity.)
func (w *World) CopyEntity(e Entity) Entity {
	w.mustNotShare("CopyEntity", nil)
	r := w.entities.lookup(e)
	if r == nil {
		panic(w.deadMessage("CopyEntity", e, nil))
	}
	w.mustClone("CopyEntity", e, r)
	c := w.Spawn()
	if w.lock > 0 {
		w.queueFunc(func(*commandBuffer) {
			// c may have received components meanwhile (a change made
			// between a panic in the loop and Recover): it is left as
			// it is rather than filled over them.
			if w.Alive(e) && w.Alive(c) && w.isEmpty(c) {
				w.cloneInto(c, e)
			}
		})
		return c
	}
	w.cloneInto(c, e)
	w.settle()
	return c
}

// mustClone panics, naming the type, when one of e's components cannot be
// copied by the snapshot rules (see refusedMessage), and tells the access
// checker, if any, that each is read.
func (w *World) mustClone(op string, e Entity, r *record) {
	check := func(info *componentInfo) {
		if info.snap == refuseValues {
			panic(refusedComponentMessage(op, info))
		}
		if w.checked {
			w.checkComponent(info, false, op)
		}
	}
	t := w.tableOf(r)
	for i := range t.columns {
		check(t.columns[i].info)
	}
	for _, s := range w.sparse {
		if s.has(e) && !s.relIn {
			check(s.info)
		}
	}
}

// cloneInto gives c, a live entity with no components, copies of the
// components and source pairs of the live entity e, then fires the OnAdd
// hooks of each. The caller settles observers.
func (w *World) cloneInto(c, e Entity) {
	rc := w.entities.at(c.index)
	t := w.tableOf(w.entities.at(e.index))
	row := w.moveEmpty(c, rc, t)
	w.enter("CopyEntity")
	w.methodsOf = "World.CopyEntity" // Clone methods run: name it if they change w
	src := w.entities.at(e.index).row
	infos := make([]*componentInfo, 0, len(t.columns)+4)
	for i := range t.columns {
		col := &t.columns[i]
		if col.size != 0 {
			copyByPolicy(col.info, col.at(row), col.at(src), 1)
		}
		infos = append(infos, col.info)
	}
	for _, s := range w.sparse {
		if s.get(e) == nil || s.relIn {
			continue
		}
		dst := s.add(c)
		// s.add may have grown the set: read e's slot after it.
		copyByPolicy(s.info, dst, s.get(e), 1)
		if r := s.rel; r != nil {
			r.linkSources(c) // e's targets all live: every pair is kept
		}
		infos = append(infos, s.info)
	}
	w.methodsOf = ""
	w.leave()
	if w.hooked {
		w.addedAll(c, infos, 0)
	}
}

// copyByPolicy copies n values of the type info describes from src to dst
// as snapshots do: through the type's Clone method, or plainly.
func copyByPolicy(info *componentInfo, dst, src unsafe.Pointer, n int) {
	if info.snap == cloneValues {
		info.cloneN(dst, src, n)
		return
	}
	info.copyN(dst, src, n)
}

// linkSources records the source e, whose pair values were just copied,
// among its targets' sources, after dropping the pairs whose target has
// died (a prefab's pair to an entity outside its tree); used by CopyEntity
// and prefab spawns.
func (r *relation) linkSources(e Entity) {
	p := r.out.get(e)
	if r.exclusive {
		// SAFETY: p points to a relOne[T], whose first field is an Entity.
		t := *(*Entity)(p)
		if !r.w.Alive(t) {
			r.out.remove(e)
			return
		}
		r.addSource(t, e)
		r.added(e, t)
		return
	}
	// SAFETY: p points to a relMany[T], whose first field is a []Entity.
	ts := (*[]Entity)(p)
	for i := len(*ts) - 1; i >= 0; i-- {
		if !r.w.Alive((*ts)[i]) {
			r.dropAt(p, i)
		}
	}
	if len(*ts) == 0 {
		r.out.remove(e)
		return
	}
	for _, t := range *ts {
		r.addSource(t, e)
		r.added(e, t)
	}
}

// moveEmpty moves e, which has no component (record r), to table dst and
// returns its row there. No value is copied; none is needed, and dst may
// be the empty table e is in.
func (w *World) moveEmpty(e Entity, r *record, dst *table) uint32 {
	if w.tableOf(r) == dst {
		return r.row
	}
	return w.move(e, r, dst)
}

// isEmpty reports whether the live entity e has no component in either
// storage.
func (w *World) isEmpty(e Entity) bool {
	return w.tableOf(w.entities.at(e.index)) == w.empty && !w.hasSparse(e)
}
