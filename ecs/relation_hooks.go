package ecs

// pairEvent is a pair made (add) or removed, waiting for the relation's
// hooks to run at the next settle.
type pairEvent struct {
	r    *relation
	add  bool
	e, t Entity
}

// pairHookQueue holds the pairs made or removed whose relation hooks have
// not run yet (part of World): settle fires them (firePairEvents).
type pairHookQueue struct {
	pairEvents []pairEvent // pairs made or removed, for pair hooks (see settle)
	pairBuf    []pairEvent // firePairEvents' second buffer
}

// OnAdd registers fn to run once for each pair of the relation made from
// then on, with its source and target: by Add, by Set to a new target (an
// exclusive Set that replaces a target reports the old pair to OnRemove
// first), by a command buffer, by [World.CopyEntity] and by a [Prefab]'s
// spawns. Loading a save, merging one and restoring a snapshot fire no
// hook, as for components.
//
// Pair hooks run when the operation that made the pair is complete (after
// a whole cascade, after the deferred changes of a loop are applied), in
// the order the pairs were made, before the enter and leave observers of
// the same changes: flecs' observers of pair events, Bevy's relationship
// hooks. They run like loop bodies: reads see the world as the operation
// left it, and structural changes they make are deferred and applied
// after them (their own pairs' hooks run in the next round, bounded by
// [MaxCascadeRounds]). By the time a hook runs, the pair may be gone
// again (made and removed by the same loop): check with [Relation.Has].
// Panics when fn is nil and inside a parallel section. Zero cost for a
// relation with no hook.
func (rel *Relation[T]) OnAdd(fn func(source, target Entity)) {
	rel.r.mustHook("OnAdd", fn)
	rel.r.onAdd = append(rel.r.onAdd, fn)
}

// OnRemove registers fn to run once for each pair of the relation removed
// from then on, with its source and target: by Remove, RemoveTargets, an
// exclusive Set that replaces the target, the despawn of the source, and
// the despawn of the target under [RemovePairs] (under [DespawnSources],
// the sources' own despawns remove the pairs). It runs as [Relation.OnAdd]
// hooks do, after the operation is complete, so either entity may be dead
// by then (check with [World.Alive]). Panics as OnAdd does.
func (rel *Relation[T]) OnRemove(fn func(source, target Entity)) {
	rel.r.mustHook("OnRemove", fn)
	rel.r.onRemove = append(rel.r.onRemove, fn)
}

func (r *relation) mustHook(op string, fn func(source, target Entity)) {
	r.w.mustNotShare(r.name()+"."+op, nil)
	if fn == nil {
		panic("ecs: " + r.name() + "." + op + ": nil hook")
	}
}

// added records that the pair (e, t) was made, for OnAdd hooks.
func (r *relation) added(e, t Entity) {
	if len(r.onAdd) != 0 {
		r.w.pairEvents = append(r.w.pairEvents, pairEvent{r, true, e, t})
	}
}

// removed records that the pair (e, t) was removed, for OnRemove hooks.
func (r *relation) removed(e, t Entity) {
	if len(r.onRemove) != 0 {
		r.w.pairEvents = append(r.w.pairEvents, pairEvent{r, false, e, t})
	}
}

// firePairEvents runs the hooks of the pair events recorded so far, in
// order, with the world locked by the caller. Events recorded meanwhile
// wait for the next round.
func (w *World) firePairEvents() {
	events := w.pairEvents
	w.pairEvents, w.pairBuf = w.pairBuf[:0], events
	for _, ev := range events {
		hooks := ev.r.onRemove
		if ev.add {
			hooks = ev.r.onAdd
		}
		for _, f := range hooks {
			f(ev.e, ev.t)
		}
	}
}
