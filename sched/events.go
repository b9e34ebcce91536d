package sched

import (
	"fmt"
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// EventSender lets the systems of a [Scheduler] send events of type E to the
// world's queue ([ecs.EventsOf]) while they run. A system sends into a buffer
// of its own, with no lock; at the end of the stage the buffers are sent to
// the queue in the order of record of the systems, each in the order its
// events were sent (with the stage's outputs, before its command buffers
// are applied), so the queue's order is the same with one worker or many.
// Readers are [ecs.EventReader] values, made before the first Run with
// [EventSender.NewReader] and read in systems, where any number of them may
// read at once.
//
// Declare [SendsEvents][E] on the systems that send and [ReadsEvents][E] on
// the systems that read. Senders may share a stage. A reader registered
// after a sender (in the order of record) runs in a later stage and reads
// the events of the same tick; a reader registered before every sender
// never runs in a later stage than they do, and reads their events in the
// next tick. Either way every reader reads every event once, in order (see
// [ecs.Events] for how long events are kept). An EventSender is not a
// queue: it stands in front of the world's [ecs.Events] of E, which holds
// the events.
type EventSender[E any] struct {
	// The events sent, per system; declared is eventsOf[E], the
	// declarations' marker.
	systemBuffers[E]
	q   *ecs.Events[E]
	typ reflect.Type // E
}

// eventsOf stands for the events of type E in the declarations of
// [SendsEvents] and [ReadsEvents]: it goes into the emitted and read types,
// so the planner places senders and readers as it places emitters of an
// [Output] and the systems that read the output's type. No component has
// this type.
type eventsOf[E any] struct{}

// eventTypeName names the events a marker stands for, in messages.
func (eventsOf[E]) eventTypeName() string { return reflect.TypeFor[E]().String() }

// eventMarker is implemented by every eventsOf[E].
type eventMarker interface{ eventTypeName() string }

var eventMarkerType = reflect.TypeFor[eventMarker]()

// SendsEvents declares that the system sends events of type E through an
// [EventSender]. Senders of one type may share a stage; their events reach
// the queue at the end of it, in the order of record. Debug mode makes Send
// panic in a system that did not declare it.
func SendsEvents[E any]() Option {
	return func(d *decl) { d.emits = appendType(d.emits, reflect.TypeFor[eventsOf[E]]()) }
}

// ReadsEvents declares that the system reads events of type E through an
// [ecs.EventReader]. A reader registered after a sender runs in a later
// stage than it and reads the events it sent in the same tick; a reader
// registered before it reads them in the next tick.
func ReadsEvents[E any]() Option {
	return func(d *decl) { d.reads = appendType(d.reads, reflect.TypeFor[eventsOf[E]]()) }
}

// NewEventSender returns the sender of events of type E for s's world, making
// the world's queue if it has none; a second call for the same type returns
// the same EventSender. Make it before the first Run, outside systems; it
// panics inside a running tick.
func NewEventSender[E any](s *Scheduler) *EventSender[E] {
	if s.w.Parallel().Active() {
		panic(fmt.Sprintf("sched: NewEventSender[%v]: called inside a running system; make it before the first Run", reflect.TypeFor[E]()))
	}
	for _, o := range s.outputs {
		if ev, ok := o.(*EventSender[E]); ok {
			return ev
		}
	}
	q := ecs.EventsOf[E](s.w)
	t := reflect.TypeFor[E]()
	ev := &EventSender[E]{systemBuffers: systemBuffers[E]{s: s, declared: reflect.TypeFor[eventsOf[E]](), pointers: holdsPointers(t)}, q: q, typ: t}
	ev.resize(len(s.systems))
	s.outputs = append(s.outputs, ev)
	return ev
}

// Send records e from the calling system; it reaches the queue at the end
// of the system's stage. Cost: an append to the system's own buffer. Panics
// inside a [ForEach] of the system, and in debug mode unless the system
// declared [SendsEvents][E].
func (ev *EventSender[E]) Send(ctx *Context, e E) {
	i := ctx.sys.index
	if ctx.s != ev.s || ev.deny[i] || ctx.splitting.Load() > 0 {
		panic(&sendError{ctx, ev.s, ev.typ, ev.deny})
	}
	ev.bufs[i] = append(ev.bufs[i], e)
}

// NewReader returns a reader of the queue whose cursor is at its end (see
// [ecs.Events.NewReader]). Make readers before the first Run.
func (ev *EventSender[E]) NewReader() *ecs.EventReader[E] { return ev.q.NewReader() }

// Queue returns the world's queue of events of type E.
func (ev *EventSender[E]) Queue() *ecs.Events[E] { return ev.q }

// sendError is the panic of a Send that is not allowed.
type sendError struct {
	ctx   *Context
	owner *Scheduler // the EventSender's
	t     reflect.Type
	deny  []bool // the EventSender's, by system index
}

func (e *sendError) Error() string {
	name := e.ctx.sys.name
	switch {
	case e.ctx.s != e.owner:
		return fmt.Sprintf("sched: system %q: Send[%v] through an EventSender of another scheduler; make the EventSender with the system's own scheduler", name, e.t)
	case e.deny[e.ctx.sys.index]:
		return fmt.Sprintf("sched: system %q sends events %v (Send) without declaring it; add sched.SendsEvents[%v]() to its options", name, e.t, e.t)
	}
	return fmt.Sprintf("sched: system %q: Send[%v] called inside ForEach; collect per item and send after it", name, e.t)
}

// sync sends the stage's buffers to the queue, in the order of record.
func (ev *EventSender[E]) sync(stage []*system) {
	for _, x := range stage {
		if b := ev.bufs[x.index]; len(b) > 0 {
			ev.q.SendAll(b)
		}
	}
	ev.discard(stage)
}

// holdsPointers reports whether values of t hold pointers of any kind.
func holdsPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array:
		return t.Len() > 0 && holdsPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.Pointer, reflect.UnsafePointer, reflect.Slice, reflect.Map, reflect.Chan,
		reflect.Func, reflect.Interface, reflect.String:
		return true
	}
	return false
}

// isComponent reports whether t, a type of a declaration, is a component
// type rather than the marker of [SendsEvents] and [ReadsEvents].
func isComponent(t reflect.Type) bool { return !t.Implements(eventMarkerType) }

// emitReason is the reason of the stage plan for a system placed after one
// that emits t: "outputs for component T", or "events E" for the marker of
// [SendsEvents] and [ReadsEvents].
func emitReason(t reflect.Type) string {
	if !isComponent(t) {
		return "events " + reflect.Zero(t).Interface().(eventMarker).eventTypeName()
	}
	return "outputs for component " + t.String()
}
