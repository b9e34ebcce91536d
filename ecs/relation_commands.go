package ecs

// Deferred relation changes, from the world's own queue (inside
// iterations, hooks and observers) or from a Commands buffer: each checks,
// when it is applied, that its entities still live, and does nothing if
// one does not, as a deferred Add of a component does.

// applyChange applies a deferred Add (v nil) or Set.
func (rel *Relation[T]) applyChange(op string, e, t Entity, v *T) {
	w := rel.r.w
	if w.Alive(e) && w.Alive(t) && !w.despawningNow(e) && !w.despawningNow(t) {
		rel.changeNow(op, e, t, v)
	}
}

// applyRemove applies a deferred Remove.
func (rel *Relation[T]) applyRemove(e, t Entity) {
	if rel.r.w.Alive(e) {
		rel.removeNow(e, t)
	}
}

// applyRemoveTargets applies a deferred RemoveTargets.
func (rel *Relation[T]) applyRemoveTargets(e Entity) {
	if rel.r.w.Alive(e) {
		rel.removeTargetsNow(e)
	}
}

// resolve turns a pending entity of b (Commands.Spawn) into the entity
// its Apply made; other entities are returned as they are.
func (b *commandBuffer) resolve(e Entity) Entity {
	if e.index == 0 && e.gen != 0 && int(e.gen) <= len(b.spawned) {
		return b.spawned[e.gen-1]
	}
	return e
}

// recordFunc records fn in c.
func (c *Commands) recordFunc(fn func(*commandBuffer)) {
	c.buf.funcs = append(c.buf.funcs, fn)
	c.push(command{kind: cmdFunc, slot: uint32(len(c.buf.funcs) - 1)})
}

// AddCmd records Add(e, t) in c, for [World.Apply]; e and t may be
// pending entities of c. When applied it does nothing if either is dead
// by then, and panics as Add does for a second target of an exclusive
// relation or a cycle. Panics now when e or t is neither alive nor
// pending, or c belongs to another world. Each recorded relation change
// allocates a small closure.
func (rel *Relation[T]) AddCmd(c *Commands, e, t Entity) { rel.recordChange(c, "AddCmd", e, t, nil) }

// SetCmd records Set(e, t, v) in c, as AddCmd does Add.
func (rel *Relation[T]) SetCmd(c *Commands, e, t Entity, v T) {
	rel.recordChange(c, "SetCmd", e, t, &v)
}

func (rel *Relation[T]) recordChange(c *Commands, op string, e, t Entity, v *T) {
	r := rel.r
	c.check(AddAccess, r.name()+"."+op, e, r.w, r.out.info)
	c.check(AddAccess, r.name()+"."+op+" (target)", t, r.w, r.in.info)
	c.recordFunc(func(b *commandBuffer) { rel.applyChange(op, b.resolve(e), b.resolve(t), v) })
}

// RemoveCmd records Remove(e, t) in c; when applied it does nothing if e
// is dead by then or has no such pair.
func (rel *Relation[T]) RemoveCmd(c *Commands, e, t Entity) {
	r := rel.r
	c.check(RemoveAccess, r.name()+".RemoveCmd", e, r.w, r.out.info)
	c.recordFunc(func(b *commandBuffer) { rel.applyRemove(b.resolve(e), b.resolve(t)) })
}

// RemoveTargetsCmd records RemoveTargets(e) in c.
func (rel *Relation[T]) RemoveTargetsCmd(c *Commands, e Entity) {
	r := rel.r
	c.check(RemoveAccess, r.name()+".RemoveTargetsCmd", e, r.w, r.out.info)
	c.recordFunc(func(b *commandBuffer) { rel.applyRemoveTargets(b.resolve(e)) })
}
