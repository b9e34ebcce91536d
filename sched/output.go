package sched

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// Output carries values emitted for component type T during the Run phase
// of a stage (the Run/Sync design of a student game engine's parallel
// lock-free ECS): instead of writing a component, a system emits (entity,
// value) pairs into its own buffer, with no lock and no contention. At the
// end of the stage (the Sync phase) the outputs of the stage's systems are
// grouped by entity and folded into the entity's component with the merge
// function, in the order of record of the systems and then in emission
// order: starting from the entity's current value, or from the first
// emitted value when it has no T (the component is then added). Outputs to
// entities that are dead by then are dropped and counted
// ([Output.Dropped]); an entity's generation is part of its handle, so a
// value is never applied to a recycled id.
//
// Different entities are updated in the order in which they first received
// a value (the systems in the order of record, each one's emissions in
// order), not in entity-index order; this order depends only on what the
// systems emitted, never on the number of workers. When a Set of T is a
// plain write (T has no OnSet hook: [ecs.Map.SetIsPlainWrite]), the
// entities that already have a T are merged in place, in that order, while
// the outputs are grouped; the entities that gain T ([ecs.Map.Add]) follow,
// in the same order. When T has OnSet hooks, every entity is updated with
// [ecs.Map.Set] or Add in that order. An entity updated by Set or Add
// starts its fold from its value at that moment, and its values are
// dropped if it has died meanwhile (a hook fired by an earlier update may
// have despawned it).
//
// The merge function must not change the world: it may run while pointers
// into component storage are held.
//
// Systems that emit to T declare [Emits][T]; emitters share stages, and a
// system that reads or writes T runs in a later stage and sees the merged
// values.
type Output[T any] struct {
	s     *Scheduler
	m     *ecs.Map[T]
	typ   reflect.Type
	merge func(current, next T) T
	bufs  [][]emitted[T] // per system, by registration index

	// The merge's working state, kept between syncs so that a warm sync
	// does not allocate.
	slots  []outSlot     // by entity index: the group of the index's live handle
	stamp  uint32        // the current sync's mark in slots
	groups []outGroup[T] // in first-emission order
	later  []laterValue[T]
	sorted []T // later's values, grouped by group

	dropped int
	applied int
}

// outSlot ties an entity index to its group in one sync. A slot whose stamp
// is not the current sync's is empty, so slots need no clearing between
// syncs.
type outSlot struct {
	stamp uint32
	group int32 // -1 while no live handle with this index has had a value
}

// outGroup is the merge state of one live entity in one sync.
type outGroup[T any] struct {
	e ecs.Entity
	p *T    // e's T, merged into in place; nil when the group is applied later
	n int32 // values in later (groups applied later)
	// end is where the group's values end in sorted: the counting sort
	// advances it from the group's start.
	end int32
}

// laterValue is a value for a group applied after the grouping walk.
type laterValue[T any] struct {
	group int32
	v     T
}

type emitted[T any] struct {
	e ecs.Entity
	v T
}

// syncer is an Output seen by the scheduler.
type syncer interface {
	resize(systems int)
	sync(stage []*system)
	discard(stage []*system)
}

// NewOutput returns an output channel for T in s's world, with the given
// merge function; nil means [LastWins]. Make outputs before the first Run,
// outside systems.
func NewOutput[T any](s *Scheduler, merge func(current, next T) T) *Output[T] {
	if merge == nil {
		merge = LastWins[T]
	}
	o := &Output[T]{s: s, m: ecs.NewMap[T](s.w), typ: reflect.TypeFor[T](), merge: merge}
	o.resize(len(s.systems))
	s.outputs = append(s.outputs, o)
	return o
}

// LastWins is the default merge: the value emitted last (by the latest
// system in the order of record, then the latest emission) wins.
func LastWins[T any](_, next T) T { return next }

// Sum is a merge that adds the emitted values to the current one: deltas.
func Sum[T cmp.Ordered](current, next T) T { return current + next }

// Max is a merge that keeps the largest value.
func Max[T cmp.Ordered](current, next T) T { return max(current, next) }

// Emit records v for e's T from the calling system. Cost: an append to the
// system's own buffer. Panics inside a [ForEach] of the system, and in debug
// mode unless the system declared [Emits][T]. A value for a pending entity
// of a Commands buffer is dropped and counted like one for a dead entity.
func (o *Output[T]) Emit(ctx *Context, e ecs.Entity, v T) {
	// The checks that can panic are out of line: the common path is one
	// test and an append.
	if ctx.s.debug || ctx.splitting.Load() > 0 {
		ctx.checkEmitAt(o.typ)
	}
	b := &o.bufs[ctx.sys.index]
	*b = append(*b, emitted[T]{e, v})
}

// Dropped returns how many emitted values targeted entities that were dead
// when their stage ended, since the output was made.
func (o *Output[T]) Dropped() int { return o.dropped }

// Applied returns how many merged values have been applied: one per entity
// per stage in which it received outputs.
func (o *Output[T]) Applied() int { return o.applied }

func (o *Output[T]) resize(systems int) {
	for len(o.bufs) < systems {
		o.bufs = append(o.bufs, nil)
	}
}

func (o *Output[T]) discard(stage []*system) {
	for _, x := range stage {
		clear(o.bufs[x.index])
		o.bufs[x.index] = o.bufs[x.index][:0]
	}
}

// sync merges the outputs of the stage's systems into the world.
//
// Grouping needs no sort (it used to be a stable sort of all the values by
// entity: 71% of the CPU of a tick that routed 33,000 deltas through an
// Output). The walk goes over the buffers in the order of record, each in
// emission order, and looks each value's entity index up in slots: the
// first value for a live entity opens its group, later ones fold into it.
// When Set is a plain write, a group whose entity has T is merged in place
// through the pointer TryGet gave: nothing in the walk changes the world's
// structure, so the pointer stays valid. The other groups keep their
// values; a counting sort by group lines them up, and they are applied with
// Set or Add in group order, each checked again against the world as it is
// by then.
func (o *Output[T]) sync(stage []*system) {
	o.stamp++
	if o.stamp == 0 { // wrapped: stale stamps could match again
		clear(o.slots)
		o.stamp = 1
	}
	w := o.s.w
	inPlace := o.m.SetIsPlainWrite()
	groups, later := o.groups[:0], o.later[:0]
	for _, x := range stage {
		buf := o.bufs[x.index]
		groups, later = o.walk(w, buf, inPlace, groups, later)
		clear(buf)
		o.bufs[x.index] = buf[:0]
	}
	if len(later) > 0 {
		o.applyLater(groups, later)
	}
	clear(groups) // the pointers into component storage must not outlive the sync
	o.groups, o.later = groups[:0], later[:0]
}

// walk groups the values of one system's buffer, in emission order (see
// sync).
func (o *Output[T]) walk(w *ecs.World, buf []emitted[T], inPlace bool, groups []outGroup[T], later []laterValue[T]) ([]outGroup[T], []laterValue[T]) {
	stamp, m, merge, slots := o.stamp, o.m, o.merge, o.slots
	applied, dropped := 0, 0
	for i := range buf {
		it := &buf[i]
		idx := it.e.Index()
		if int(idx) >= len(slots) {
			slots = o.growSlots(idx)
		}
		sl := &slots[idx]
		if sl.stamp == stamp && sl.group >= 0 {
			g := &groups[sl.group]
			switch {
			case g.e != it.e:
				// Another handle with this index is alive, so this one
				// is dead.
				dropped++
			case g.p != nil:
				*g.p = merge(*g.p, it.v)
			default:
				g.n++
				later = append(later, laterValue[T]{sl.group, it.v})
			}
			continue
		}
		// The first value for this handle, or one for a handle whose index
		// so far only had dead handles.
		sl.stamp, sl.group = stamp, -1
		p, has := m.TryGet(it.e)
		if !has && !w.Alive(it.e) {
			dropped++
			continue
		}
		sl.group = int32(len(groups))
		if has && inPlace {
			*p = merge(*p, it.v)
			groups = append(groups, outGroup[T]{e: it.e, p: p})
			applied++
			continue
		}
		groups = append(groups, outGroup[T]{e: it.e, n: 1})
		later = append(later, laterValue[T]{sl.group, it.v})
	}
	o.applied += applied
	o.dropped += dropped
	return groups, later
}

// applyLater applies the groups that were not merged in place, in group
// order: each from its entity's value at that moment (Set), or from its
// first value when the entity has no T (Add); an entity a hook has
// despawned meanwhile has its values dropped.
func (o *Output[T]) applyLater(groups []outGroup[T], later []laterValue[T]) {
	var end int32
	for i := range groups {
		if g := &groups[i]; g.p == nil {
			g.end = end // the group's start, until the values are placed
			end += g.n
		}
	}
	sorted := slices.Grow(o.sorted[:0], len(later))[:len(later)]
	for _, l := range later {
		g := &groups[l.group]
		sorted[g.end] = l.v
		g.end++
	}
	m, w := o.m, o.s.w
	for i := range groups {
		g := &groups[i]
		if g.p != nil {
			continue
		}
		vs := sorted[g.end-g.n : g.end]
		if p, has := m.TryGet(g.e); has {
			o.applied++
			v := *p
			for _, x := range vs {
				v = o.merge(v, x)
			}
			m.Set(g.e, v)
			continue
		}
		if !w.Alive(g.e) {
			o.dropped += len(vs)
			continue
		}
		o.applied++
		v := vs[0]
		for _, x := range vs[1:] {
			v = o.merge(v, x)
		}
		m.Add(g.e, v)
	}
	clear(later)
	clear(sorted)
	o.sorted = sorted[:0]
}

// growSlots makes slots long enough for entity index idx and returns them.
func (o *Output[T]) growSlots(idx uint32) []outSlot {
	n := int(idx) + 1
	// Slots past the length were never written (slots never shrink), so
	// they are empty.
	o.slots = slices.Grow(o.slots, n-len(o.slots))[:n]
	return o.slots
}
