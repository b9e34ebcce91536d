package sched

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// Output carries values emitted for component type T during the Run phase
// of a stage (seed 003): instead of writing a component, a system emits
// (entity, value) pairs into its own buffer, with no lock and no contention.
// At the end of the stage (the Sync phase) the outputs of the stage's
// systems are grouped by entity, ordered by system (in the order of record)
// and then by emission order, and folded into the entity's component with
// the merge function: starting from the entity's current value, or from
// the first emitted value when it has no T (the component is then added).
// Outputs to entities that are dead by then are dropped and counted
// ([Output.Dropped]); an entity's generation is part of its handle, so a
// value is never applied to a recycled id.
//
// Systems that emit to T declare [Emits][T]; emitters share stages, and a
// system that reads or writes T runs in a later stage and sees the merged
// values.
type Output[T any] struct {
	s       *Scheduler
	m       *ecs.Map[T]
	typ     reflect.Type
	merge   func(current, next T) T
	bufs    [][]emitted[T] // per system, by registration index
	scratch []emitted[T]
	dropped int
	applied int
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
	if ctx.s.debug {
		ctx.checkEmit(o.typ)
	}
	if ctx.splitting.Load() > 0 {
		panic(fmt.Sprintf("sched: system %q: Emit[%v] called inside ForEach; collect per item and emit after it", ctx.sys.name, o.typ))
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
func (o *Output[T]) sync(stage []*system) {
	all := o.scratch[:0]
	for _, x := range stage {
		all = append(all, o.bufs[x.index]...)
	}
	o.discard(stage)
	if len(all) == 0 {
		o.scratch = all
		return
	}
	// A stable sort by entity keeps system order, then emission order,
	// within each entity.
	slices.SortStableFunc(all, func(a, b emitted[T]) int {
		if c := cmp.Compare(a.e.Index(), b.e.Index()); c != 0 {
			return c
		}
		return cmp.Compare(a.e.Generation(), b.e.Generation())
	})
	w := o.s.w
	for i := 0; i < len(all); {
		e := all[i].e
		j := i + 1
		for j < len(all) && all[j].e == e {
			j++
		}
		group := all[i:j]
		i = j
		if !w.Alive(e) {
			o.dropped += len(group)
			continue
		}
		o.applied++
		if cur, ok := o.m.TryGet(e); ok {
			v := *cur
			for _, g := range group {
				v = o.merge(v, g.v)
			}
			o.m.Set(e, v)
			continue
		}
		v := group[0].v
		for _, g := range group[1:] {
			v = o.merge(v, g.v)
		}
		o.m.Add(e, v)
	}
	clear(all)
	o.scratch = all[:0]
}
