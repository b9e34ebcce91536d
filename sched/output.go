package sched

import (
	"cmp"
	"fmt"
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
// When a Set of T is a plain write (T has no OnSet hook:
// [ecs.ParallelControl.SetIsPlainWrite]), the values for entities that have
// a T are folded straight into the component, buffer by buffer in the order
// of record, each in emission order; no sorting or grouping is needed, and
// the merge is one pass over the buffers (BenchmarkOutputMerge and
// BenchmarkOutputDirect compare it with writing the same values directly).
// Then the entities that gain T are added, one [ecs.Map.Add] each, in the
// order in which they first received a value. When T has OnSet hooks, every
// entity is updated with one [ecs.Map.Set] or Add, in that first-value
// order. That order depends only on what the systems emitted, never on the
// number of workers. An entity updated by Set or Add starts its fold from
// its value at that moment, and its values are dropped if it has died
// meanwhile (a hook fired by an earlier update may have despawned it).
//
// With [LastWins] as the merge, or [Sum] or [Max] on a type whose kind is
// a number, the in-place fold runs a loop written out for the merge,
// which adds (compares, stores) in T's own arithmetic instead of calling
// the merge function per value. With several workers and a few thousand
// values in a stage it also runs on every worker: the components are
// shared out by the memory block they lie in, and each worker folds the
// values of its own blocks, buffer by buffer in the order of record, so
// every entity's values are folded in the same order, and the world comes
// out the same, as with one worker. A merge function of the program's own
// may keep state, so it is always called on one goroutine, in the order
// above. Name the built-in merge where T is concrete (Sum[Heat], not
// Sum[T] inside a generic function of the program's, which the compiler
// wraps in a closure of that function): a wrapped one takes the general
// path, with the same result.
//
// The merge function must not change the world: it may run while pointers
// into component storage are held.
//
// Systems that emit to T declare [Emits][T]; emitters share stages, and a
// system that reads or writes T runs in a later stage and sees the merged
// values.
type Output[T any] struct {
	// The values emitted, per system; declared is T.
	systemBuffers[emitted[T]]
	m     *ecs.Map[T]
	typ   reflect.Type // T
	merge func(current, next T) T

	// The merge's working state, kept between syncs so that a warm sync
	// does not allocate.
	rest   []emitted[T]    // the values that need grouping
	slots  []outSlot       // by entity index: the group of the index's handle
	stamp  uint32          // the current sync's mark in slots
	groups []outGroup      // in first-emission order
	later  []laterValue[T] // the values, with their groups
	sorted []T             // the values, grouped by group

	// kernel: merge is a built-in one (builtinMerge) with its loops
	// written out for T; the in-place fold may then also be split over
	// the workers (foldParallel) into shares. Nil for other merges.
	kernel    *foldKernel[T]
	stageBufs [][]emitted[T] // the stage's buffers, in the order of record
	pieces    []foldPiece    // the first pass's items
	ptrs      [][]*T         // per stage buffer: each value's component, or nil
	pieceRest [][]emitted[T] // per piece: the values for entities without T
	applies   []foldCount    // per share

	// emitters: per system, the item emitters of its ForEachEmit calls.
	emitters [][]Emitter[T]

	dropped int
	applied int
}

// outSlot ties an entity index to its group in one sync. A slot whose stamp
// is not the current sync's is empty, so slots need no clearing between
// syncs.
type outSlot struct {
	stamp uint32
	group int32
}

// outGroup is one entity's values in one sync.
type outGroup struct {
	e ecs.Entity
	n int32 // values in the group
	// end is where the group's values end in sorted: the counting sort
	// advances it from the group's start.
	end int32
}

// laterValue is a value and its group.
type laterValue[T any] struct {
	group int32
	v     T
}

type emitted[T any] struct {
	e ecs.Entity
	v T
}

// resize makes room for the scheduler's systems.
func (o *Output[T]) resize(systems int) {
	o.systemBuffers.resize(systems)
	for len(o.emitters) < systems {
		o.emitters = append(o.emitters, nil)
	}
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
	m := ecs.NewMap[T](s.w)
	t := reflect.TypeFor[T]()
	o := &Output[T]{systemBuffers: systemBuffers[emitted[T]]{s: s, declared: t, pointers: holdsPointers(t)}, m: m, typ: t, merge: merge,
		kernel: kernelFor[T](builtinMerge(merge))}
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
// system's own buffer. Panics inside a [ForEach] of the system (whose items
// emit through [ForEachEmit]), and in debug
// mode unless the system declared [Emits][T]. A value for a pending entity
// of a Commands buffer is dropped and counted like one for a dead entity.
func (o *Output[T]) Emit(ctx *Context, e ecs.Entity, v T) {
	// Small enough to inline: the checks that can panic cost a load each
	// (deny is filled in debug mode only), and the panic value formats its
	// message only when printed.
	i := ctx.sys.index
	if ctx.s != o.s || o.deny[i] || ctx.splitting.Load() > 0 {
		panic(&emitError{ctx, o.s, o.typ, o.deny})
	}
	b := &o.bufs[i]
	*b = append(*b, emitted[T]{e, v})
}

// emitError is the panic of an Emit that is not allowed.
type emitError struct {
	ctx   *Context
	owner *Scheduler // the output's
	t     reflect.Type
	deny  []bool // the output's, by system index
}

func (e *emitError) Error() string {
	name := e.ctx.sys.name
	switch {
	case e.ctx.s != e.owner:
		return fmt.Sprintf("sched: system %q: Emit[%v] into an Output of another scheduler; make the Output with the system's own scheduler", name, e.t)
	case e.deny[e.ctx.sys.index]:
		return accessError(name, "emits outputs for", "component "+e.t.String(), "Emit", "sched.Emits["+e.t.String()+"]()")
	}
	return fmt.Sprintf("sched: system %q: Emit[%v] called inside ForEach; emit from the items through sched.ForEachEmit, or collect per item and emit after it", name, e.t)
}

// Dropped returns how many emitted values targeted entities that were dead
// when their stage ended, since the output was made.
func (o *Output[T]) Dropped() int { return o.dropped }

// Applied returns how many emitted values have been folded into a live
// entity's component since the output was made; Applied + Dropped is the
// number of values emitted in stages that completed.
func (o *Output[T]) Applied() int { return o.applied }

// sync merges the outputs of the stage's systems into the world.
//
// It sorts nothing (stable-sorting all the values by entity, as it once did,
// took most of the time of a tick that routed its deltas through an Output).
// When a Set of T is a plain write, nothing in the merge changes the world's
// structure, so whether an entity has T holds throughout: the values for the
// entities that have it are folded straight into the component through the
// pointer TryGet gives, buffer by buffer in the order of record, each in
// emission order, which is each entity's fold order (syncInPlace). The values
// for the others (entities that gain T, dead ones), or all of them when Set
// runs hooks, are grouped by entity (group) and applied with Set or Add, one
// call per entity, in first-emission order (applyGroups).
func (o *Output[T]) sync(stage []*system) {
	// If a hook or the merge function panics, the stage fails: its values
	// count neither as applied nor as dropped.
	applied, dropped, done := o.applied, o.dropped, false
	defer func() {
		if !done {
			o.applied, o.dropped = applied, dropped
		}
	}()
	o.syncStage(stage)
	done = true
}

func (o *Output[T]) syncStage(stage []*system) {
	if o.s.w.Parallel().SetIsPlainWrite(ecs.C[T]()) {
		o.syncInPlace(stage)
		return
	}
	rest := o.rest[:0]
	for _, x := range stage {
		rest = append(rest, o.bufs[x.index]...)
	}
	o.discard(stage)
	o.group(rest)
	o.release(rest)
}

// syncInPlace is sync when a Set of T is a plain write. With a built-in
// merge, several workers and enough values, the fold is split over the
// workers (foldParallel).
func (o *Output[T]) syncInPlace(stage []*system) {
	rest := o.rest[:0]
	if o.kernel != nil && o.s.workers > 1 {
		bufs, n := o.stageBufs[:0], 0
		for _, x := range stage {
			bufs = append(bufs, o.bufs[x.index])
			n += len(o.bufs[x.index])
		}
		if n >= parallelFoldMin {
			rest = o.foldParallel(bufs)
		} else {
			for _, b := range bufs {
				rest = o.foldInPlace(b, rest)
			}
		}
		clear(bufs)
		o.stageBufs = bufs[:0]
	} else {
		for _, x := range stage {
			rest = o.foldInPlace(o.bufs[x.index], rest)
		}
	}
	o.discard(stage)
	if len(rest) > 0 {
		o.group(rest)
	}
	o.release(rest)
}

// release keeps rest's array for the next sync, cleared if T holds
// pointers.
func (o *Output[T]) release(rest []emitted[T]) {
	if o.pointers {
		clear(rest)
	}
	o.rest = rest[:0]
}

// foldInPlace folds the values of one buffer into the entities that have
// T, and appends the others to rest.
func (o *Output[T]) foldInPlace(buf []emitted[T], rest []emitted[T]) []emitted[T] {
	m, merge, before := o.m, o.merge, len(rest)
	if k := o.kernel; k != nil {
		rest = k.inPlace(m, buf, rest)
		o.applied += len(buf) - (len(rest) - before)
		return rest
	}
	for i := range buf {
		it := &buf[i]
		p, ok := m.TryGet(it.e)
		if !ok {
			rest = append(rest, *it)
			continue
		}
		*p = merge(*p, it.v)
	}
	o.applied += len(buf) - (len(rest) - before)
	return rest
}

// group groups vals by entity and applies each group with one Set or Add,
// in the order of the groups' first values. The slot array maps an entity
// index to its group for this sync (a stamp per sync spares clearing it);
// a counting sort by group lines the values up. Each group is checked
// against the world as it is when its turn comes: a hook fired by an
// earlier group's Set or Add may have despawned it, or given it T.
func (o *Output[T]) group(vals []emitted[T]) {
	o.stamp++
	if o.stamp == 0 { // wrapped: stale stamps could match again
		clear(o.slots)
		o.stamp = 1
	}
	stamp, slots := o.stamp, o.slots
	groups, later := o.groups[:0], o.later[:0]
	for _, it := range vals {
		idx := it.e.Index()
		if int(idx) >= len(slots) {
			slots = o.growSlots(idx)
		}
		sl := &slots[idx]
		if sl.stamp != stamp {
			sl.stamp, sl.group = stamp, int32(len(groups))
			groups = append(groups, outGroup{e: it.e})
		}
		g := &groups[sl.group]
		if g.e != it.e {
			// Two handles with one index: at most one is alive. Values of
			// a dead handle are dropped when its group's turn comes, so a
			// handle that differs from the group's gets a group of its own.
			sl.group = int32(len(groups))
			groups = append(groups, outGroup{e: it.e})
			g = &groups[sl.group]
		}
		g.n++
		later = append(later, laterValue[T]{sl.group, it.v})
	}
	var end int32
	for i := range groups {
		groups[i].end = end // the group's start, until the values are placed
		end += groups[i].n
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
		vs := sorted[g.end-g.n : g.end]
		if p, has := m.TryGet(g.e); has {
			v := *p
			for _, x := range vs {
				v = o.merge(v, x)
			}
			m.Set(g.e, v)
			o.applied += len(vs)
			continue
		}
		if !w.Alive(g.e) {
			o.dropped += len(vs)
			continue
		}
		v := vs[0]
		for _, x := range vs[1:] {
			v = o.merge(v, x)
		}
		m.Add(g.e, v)
		o.applied += len(vs)
	}
	if o.pointers {
		clear(later)
		clear(sorted)
	}
	o.groups, o.later, o.sorted = groups[:0], later[:0], sorted[:0]
}

// growSlots makes slots long enough for entity index idx and returns them.
func (o *Output[T]) growSlots(idx uint32) []outSlot {
	n := int(idx) + 1
	// Slots past the length were never written (slots never shrink), so
	// they are empty.
	o.slots = slices.Grow(o.slots, n-len(o.slots))[:n]
	return o.slots
}
