package sched

import (
	"reflect"
	"slices"
)

// systemBuffers is one buffer of X per system of a scheduler, the part an
// [Output] (X is an emitted value) and an [EventSender] (X is an event)
// share: while a stage runs, each system appends to its own buffer with no
// lock; at the end of the stage the owner drains the stage's buffers in
// the order of record and calls discard. Emit and Send keep the check that
// may refuse an append in their own bodies: a shared method returning a
// bool made the compiler materialise it in every inlined call.
type systemBuffers[X any] struct {
	s    *Scheduler
	bufs [][]X  // per system, by registration index
	deny []bool // per system: appending panics (debug mode: the type is not declared)
	// declared is the emitted type a system must declare to append: T for
	// Emits[T], eventsOf[E] for SendsEvents[E].
	declared reflect.Type
	pointers bool // X holds pointers: spent buffers are cleared for the collector
}

// resize makes room for the scheduler's systems, and in debug mode marks
// the ones that did not declare the type.
func (b *systemBuffers[X]) resize(systems int) {
	for len(b.bufs) < systems {
		b.bufs = append(b.bufs, nil)
	}
	for len(b.deny) < systems {
		b.deny = append(b.deny, false)
	}
	if b.s.debug {
		for i, x := range b.s.systems[:systems] {
			b.deny[i] = !slices.Contains(x.decl.emits, b.declared)
		}
	}
}

// discard empties the stage's buffers, keeping their arrays.
func (b *systemBuffers[X]) discard(stage []*system) {
	for _, x := range stage {
		if b.pointers {
			clear(b.bufs[x.index])
		}
		b.bufs[x.index] = b.bufs[x.index][:0]
	}
}
