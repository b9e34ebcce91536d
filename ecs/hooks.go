package ecs

import "unsafe"

// hookFunc is a hook with its component type erased.
type hookFunc func(e Entity, v unsafe.Pointer)

// componentHooks holds the hooks of one component type, in registration
// order.
type componentHooks struct {
	onAdd, onSet, onRemove []hookFunc
}

// hookState is the world's side of component hooks (part of World): whether
// any change has listeners, and the hook calls in progress with the
// despawn or removal whose OnRemove hooks they are.
type hookState struct {
	notify bool        // hooked or observed: structural changes have listeners
	hooked bool        // some component type has hooks
	frames []hookFrame // hook calls in progress, outermost first
	dying  Entity      // the entity whose despawn is running its OnRemove hooks
	// removingE is the entity whose removal of the types removingIDs is
	// running its OnRemove hooks: changes the hooks make to those types
	// are judged as after the removal.
	removingE   Entity
	removingIDs []componentID
}

// OnAdd registers fn to run whenever an entity gains a T, by any path:
// Add, a Set that adds, spawning with T, a batch, or a deferred change
// being applied. fn receives the entity and its new value, already written.
//
// Hooks run in registration order. Like loop bodies, they may make
// structural changes, which are deferred until the operation that fired the
// hook (a whole batch, or the whole set of deferred changes being applied)
// is complete. Complexity of firing: O(hooks) per added component; a type
// without hooks pays one nil test. (Observers: flecs' OnAdd, EnTT's
// on_construct; onManagedEntityAdded in Pierre Vigier,
// "Entity-Component-System – Part 1", the ECS of the game Vagabond.)
func OnAdd[T any](w *World, fn func(e Entity, v *T)) {
	w.mustNotShare("OnAdd", nil)
	h := w.hooksOf(idOf[T](&w.reg))
	// SAFETY: the hooks of T's id are only run with the address of a T
	// (World.added, overwritten and removing pass the value's slot).
	h.onAdd = append(h.onAdd, func(e Entity, p unsafe.Pointer) { fn(e, (*T)(p)) })
}

// OnSet registers fn to run whenever Set (or a deferred add, or AddMatching)
// overwrites the T an entity already has. Writes through pointers are not
// seen. Rules as for [OnAdd].
func OnSet[T any](w *World, fn func(e Entity, v *T)) {
	w.mustNotShare("OnSet", nil)
	h := w.hooksOf(idOf[T](&w.reg))
	// SAFETY: as in OnAdd.
	h.onSet = append(h.onSet, func(e Entity, p unsafe.Pointer) { fn(e, (*T)(p)) })
}

// OnRemove registers fn to run whenever an entity loses its T, by any path:
// Remove, despawning the entity (which fires OnRemove for each component it
// has), a batch, or a deferred change being applied. fn runs before the
// removal, so the value and the entity's other components can still be read.
// Rules as for [OnAdd].
func OnRemove[T any](w *World, fn func(e Entity, v *T)) {
	w.mustNotShare("OnRemove", nil)
	h := w.hooksOf(idOf[T](&w.reg))
	// SAFETY: as in OnAdd.
	h.onRemove = append(h.onRemove, func(e Entity, p unsafe.Pointer) { fn(e, (*T)(p)) })
}

func (w *World) hooksOf(id componentID) *componentHooks {
	info := w.reg.infos[id]
	if info.hooks == nil {
		info.hooks = new(componentHooks)
	}
	w.hooked, w.notify = true, true
	return info.hooks
}

// added fires the OnAdd hooks of info for e's value at v.
func (w *World) added(info *componentInfo, e Entity, v unsafe.Pointer) {
	if h := info.hooks; h != nil && len(h.onAdd) > 0 {
		w.lock++
		w.runHooks(hookOnAdd, info, h.onAdd, e, v)
		w.unlock()
	}
}

// overwritten marks e's value at v of a tracked type changed and fires the
// OnSet hooks of info for it.
func (w *World) overwritten(info *componentInfo, e Entity, v unsafe.Pointer) {
	if info.track {
		w.touchValue(info, e)
	}
	w.setHooks(info, e, v)
}

// setHooks is overwritten without the change mark, for a caller that has
// marked the row itself.
func (w *World) setHooks(info *componentInfo, e Entity, v unsafe.Pointer) {
	if h := info.hooks; h != nil && len(h.onSet) > 0 {
		// A Set in a parallel section fires OnSet too: the count is left
		// alone there, as by every pass.
		epoch := w.lockPass(nil)
		w.runHooks(hookOnSet, info, h.onSet, e, v)
		w.unlockPass(epoch)
	}
}

// removing fires the OnRemove hooks of info for e's value at v. It leaves
// the world locked when it returns true: the caller removes the component
// and then calls unlock, so changes the hooks made wait for the removal.
func (w *World) removing(info *componentInfo, e Entity, v unsafe.Pointer) bool {
	h := info.hooks
	if h == nil || len(h.onRemove) == 0 {
		return false
	}
	w.lock++
	w.runHooks(hookOnRemove, info, h.onRemove, e, v)
	return true
}

// despawning fires OnRemove for every component of the live entity e
// (record r). It leaves the world locked when it returns true, like
// removing.
func (w *World) despawning(e Entity, r *record) bool {
	locked := false
	w.dying = e // changes the hooks make to e are judged as after the despawn
	defer func() { w.dying = Entity{} }()
	t, row := w.tableOf(r), r.row // r may move when a hook spawns; e's row cannot
	for _, col := range t.columns {
		if h := col.info.hooks; h != nil && len(h.onRemove) > 0 {
			if !locked {
				w.lock++
				locked = true
			}
			w.runHooks(hookOnRemove, col.info, h.onRemove, e, col.at(row))
		}
	}
	for _, s := range w.sparse {
		if h := s.info.hooks; h != nil && len(h.onRemove) > 0 {
			if p := s.get(e); p != nil {
				if !locked {
					w.lock++
					locked = true
				}
				w.runHooks(hookOnRemove, s.info, h.onRemove, e, p)
			}
		}
	}
	return locked
}

// spawned tells the listeners that e was spawned into its table with the
// components infos describe: enter/leave observers, then OnAdd hooks.
func (w *World) spawned(e Entity, infos []*componentInfo) {
	w.touch(e)
	if w.hooked {
		w.addedAll(e, infos, 0)
	}
	w.settle()
}

// addedAll fires, for each of infos in the order given, the OnSet hooks of
// those marked in had (the i-th by bit i: the live entity e had it and it
// was overwritten) and the OnAdd hooks of the others (e just gained them),
// with the world locked for all of them.
func (w *World) addedAll(e Entity, infos []*componentInfo, had uint16) {
	w.lock++
	for i, info := range infos {
		h := info.hooks
		if h == nil {
			continue
		}
		kind, hooks := hookOnAdd, h.onAdd
		if had&(1<<i) != 0 {
			kind, hooks = hookOnSet, h.onSet
		}
		if len(hooks) > 0 {
			// The record is read again for each hook: one that ran before may
			// have spawned and moved the index.
			w.runHooks(kind, info, hooks, e, w.componentAt("Spawn", e, w.entities.at(e.index), info))
		}
	}
	w.unlock()
}
