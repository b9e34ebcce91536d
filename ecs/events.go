package ecs

import (
	"fmt"
	"reflect"
	"slices"
)

// Events is a world's queue of events of type E: messages that one part of a
// program sends and others read later, such as "entity A hit entity B for 5"
// or "the level is complete". A world has at most one queue per event type,
// which [EventsOf] returns (making it on first use). Senders append with
// [Events.Send]; each reader, made with [Events.NewReader], has a cursor of
// its own and gets every event sent after it was made exactly once, in the
// order sent, however rarely it reads.
//
// Lifetime: an event lives until every open reader has read it. An event
// sent while the queue has no open reader is dropped at once (a reader made
// later starts at the end anyway). A reader that never reads, and is never
// closed, keeps every event sent after it was made: close readers that are
// done ([EventReader.Close]). The events every open reader has read are
// dropped outside parallel sections only, by Send, SendAll, Read and Close,
// once they are at least half of what the queue holds, so dropping costs
// O(1) amortised per event.
//
// Events are sequence-numbered: the n-th event sent to a queue has number
// n-1, and a reader's cursor is the number of the next event it will read
// (64-bit numbers: they never wrap). [World.Snapshot] and [World.Restore]
// save and restore the events some reader has not read and every reader's
// cursor. [World.Checksum] hashes what is left to read: the events some
// reader has not read and how many each reader that has some left has
// left. A reader with nothing to read is the program's, not the world's
// state, so making one or closing it leaves the checksum as it was; the
// number of events sent and the events every reader has read are history,
// and do not count either. Save files ([World.Save]) carry each queue's
// count of events sent, the events some reader has not read and every
// reader's cursor, which [World.Load] gives back to the loading program's
// readers in the order they are made (see [Events.NewReader]).
//
// A queue is not safe for concurrent use outside a parallel section: two
// goroutines calling Send, SendAll, Read, NewReader or Close on one queue
// at once panic ("concurrent use"; a best-effort check, as for structural
// changes) rather than lose events or read them out of order. Inside a
// parallel section, Read may be called by several goroutines at once for
// different readers; sending there panics: a system of package sched sends through
// sched.EventSender, whose per-system buffers are sent in the order of
// record at the end of the stage, so the events and their order do not
// depend on which goroutine ran first.
//
// (Bevy's Events<T> and EventReader, each event kept until every reader
// has read it.)
type Events[E any] struct {
	w       *World
	typ     reflect.Type
	buf     []E    // the events held: buf[i] has sequence number base+i
	base    uint64 // the sequence number of buf[0]
	readers []*EventReader[E]
	// pending are the cursors, in order, that a Load gave the readers
	// the saved world had beyond those this queue had open then: the
	// next readers made take them (NewReader) until an event is sent.
	pending  []uint64
	pointers bool // E holds pointers: dropped slots are cleared for the collector
	// policy says how snapshots copy events (snapshotPolicyOf, Shallow).
	policy snapshotPolicy
	plan   *hashPlan // E's hash plan for World.Checksum, built on first use
	// busy is set while Send, SendAll, Read (outside a parallel section),
	// NewReader or Close changes the queue: finding it set means another
	// goroutine is in one of them (see enter).
	busy bool
}

// EventReader reads the events of one [Events] queue that were sent after
// the reader was made, each once, in the order sent. Make one per consumer
// (a system, say) with [Events.NewReader] and keep it; one reader must not
// be used by two goroutines at once.
type EventReader[E any] struct {
	q      *Events[E]
	next   uint64 // the sequence number of the next event to read
	closed bool
}

// eventStore holds a world's event queues (part of World).
type eventStore struct {
	events []eventQueue // event queues, in creation order (EventsOf)
	// loadedSent holds, by type name, the Sent of the queues a loaded
	// file had and the world had not made yet: EventsOf starts such a
	// queue's sequence numbers there.
	loadedSent map[string]uint64
}

// EventsOf returns w's queue of events of type E, making it on first use.
// Queues are kept in the order they were made. Making one inside a parallel
// section panics: make queues before the first Run, outside systems.
// Complexity: O(event types in w), a scan of a short list.
func EventsOf[E any](w *World) *Events[E] {
	t := reflect.TypeFor[E]()
	for _, q := range w.events {
		if q.eventType() == t {
			return q.(*Events[E])
		}
	}
	if w.shared {
		panic(fmt.Sprintf("ecs: EventsOf[%v]: called inside a parallel section (a running system) for an event type the world has no queue for; make event queues once, outside systems (before the first Run), and reuse them: making one adds it to the world, a change systems running at the same time must not make", t))
	}
	q := &Events[E]{w: w, typ: t, pointers: hasPointers(t)}
	q.policy, _ = snapshotPolicyOf[E]()
	q.policy = w.reg.lift(t, q.policy)
	if sent, ok := w.loadedSent[typeName(t)]; ok {
		q.base = sent
		delete(w.loadedSent, typeName(t))
	}
	w.events = append(w.events, q)
	return q
}

// Send appends e to the queue, for the readers open now. It is not a
// structural change: it is allowed inside iterations, hooks and observers.
// Panics inside a parallel section, where systems send through
// sched.EventSender.Send with their Context. Complexity: O(1) amortised (the
// readers' cursors are checked only when the buffer is full).
func (q *Events[E]) Send(e E) {
	q.mustNotShare("Send")
	q.enter("Send")
	if q.pending != nil {
		q.dropPending()
	}
	if len(q.readers) == 0 {
		q.base++ // nobody would read it
	} else {
		if len(q.buf) == cap(q.buf) {
			q.compact() // before the append grows the buffer
		}
		q.buf = append(q.buf, e)
	}
	q.busy = false
}

// SendAll appends the events of es to the queue, in order, as Send would
// one by one. Panics inside a parallel section. Complexity: O(len(es))
// amortised, plus O(open readers).
func (q *Events[E]) SendAll(es []E) {
	q.mustNotShare("SendAll")
	q.enter("SendAll")
	if q.pending != nil {
		q.dropPending()
	}
	if len(q.readers) == 0 {
		q.base += uint64(len(es))
	} else {
		q.compact()
		q.buf = append(q.buf, es...)
	}
	q.busy = false
}

// NewReader returns a reader whose cursor is at the end of the queue: it
// reads the events sent from now on. The queue keeps each event until
// every open reader has read it, so close a reader that is no longer read.
//
// After [World.Load], the readers made before the next Send or SendAll to
// the queue are the saved world's again: the file holds the cursor of
// each reader the saved queue had open, in the order they were made; the
// readers open at the load took the first of them, and each reader made
// since takes the next, with the events it had not read. The same program
// makes its readers in the same order, whether before or after the load.
// The first Send or SendAll drops the cursors no reader took, and the
// events only they needed.
//
// Panics inside a parallel section: make readers before the first Run.
// Complexity: O(1) amortised.
func (q *Events[E]) NewReader() *EventReader[E] {
	if q.w.shared {
		panic(fmt.Sprintf("ecs: Events[%v].NewReader: called inside a parallel section (a running system); make readers once, outside systems (before the first Run), and reuse them", q.typ))
	}
	q.enter("NewReader")
	r := &EventReader[E]{q: q, next: q.end()}
	if len(q.pending) > 0 {
		r.next = q.pending[0]
		q.pending = q.pending[1:]
		if len(q.pending) == 0 {
			q.pending = nil
		}
	}
	q.readers = append(q.readers, r)
	q.busy = false
	return r
}

// Len returns the number of events some open reader has not read yet: the
// events the queue must keep (for the readers a [World.Load] expects too,
// see NewReader). It is 0 when every reader is up to date, or when there
// is no reader. Panics inside a parallel section, where readers
// may be moving their cursors ([EventReader.Len] is safe there).
// Complexity: O(open readers).
func (q *Events[E]) Len() int {
	if q.w.shared {
		panic(fmt.Sprintf("ecs: Events[%v].Len: called inside a parallel section, where readers may be moving their cursors; call it between stages or ticks, or use EventReader.Len", q.typ))
	}
	return int(q.end() - q.oldest())
}

// Sent returns the number of events sent to the queue since it was made
// (read, unread or dropped): the sequence number the next event gets.
// [World.Load] sets it to the saved queue's; [World.Checksum] leaves it
// out. Complexity: O(1).
func (q *Events[E]) Sent() uint64 { return q.end() }

// Read returns the events the reader has not read yet, in the order they
// were sent, and marks them read; nil when there are none. The slice
// aliases the queue's storage: it is valid until the next Send, SendAll,
// Read or Close on the queue outside a parallel section, or the next
// [World.Restore]; do not keep it (appending to it copies). Inside
// a parallel section, readers of one queue may read on different goroutines
// at once: Read then only reads the queue and moves the reader's own cursor.
// Outside one, it first drops the events every reader has read (see
// [Events]). Panics after [EventReader.Close]. Complexity: O(1) in a
// parallel section; outside, O(open readers) plus the amortised dropping.
func (r *EventReader[E]) Read() []E {
	q := r.q
	if r.closed {
		panic(fmt.Sprintf("ecs: EventReader[%v].Read: the reader is closed", q.typ))
	}
	if q.w.shared { // readers of one queue may read at once here
		return r.unread()
	}
	q.enter("Read")
	q.compact()
	b := r.unread()
	q.busy = false
	return b
}

// unread returns the events r has not read and moves its cursor past them.
func (r *EventReader[E]) unread() []E {
	q := r.q
	i, n := int(r.next-q.base), len(q.buf)
	r.next = q.end()
	if i == n {
		return nil
	}
	return q.buf[i:n:n]
}

// Len returns the number of events the reader has not read yet; 0 once it
// is closed. Complexity: O(1).
func (r *EventReader[E]) Len() int {
	if r.closed {
		return 0
	}
	return int(r.q.end() - r.next)
}

// Close stops the reader: the queue no longer keeps events for it, and
// Read panics from then on. Closing a closed reader does nothing. Panics
// inside a parallel section. Complexity: O(open readers) plus the dropping
// of the events no remaining reader needs.
func (r *EventReader[E]) Close() {
	if r.closed {
		return
	}
	q := r.q
	if q.w.shared {
		panic(fmt.Sprintf("ecs: EventReader[%v].Close: called inside a parallel section (a running system); close readers between ticks", q.typ))
	}
	q.enter("Close")
	r.closed = true
	if i := slices.Index(q.readers, r); i >= 0 {
		q.readers = slices.Delete(q.readers, i, i+1)
	}
	q.compact()
	q.release()
	q.busy = false
}

// minReleased is the capacity, in events, below which Close keeps the
// buffer: a program that opens and closes readers every tick would
// otherwise reallocate a small buffer each time.
const minReleased = 1024

// release gives back the buffer's memory when a Close left it large and
// mostly unused: a reader that stopped reading made it grow to hold everything
// sent since, and nothing else would shrink it before [World.Shrink]. The
// events kept move to an array of their own size (none when there are
// none), a copy of less than a quarter of the old array's length.
func (q *Events[E]) release() {
	if n := len(q.buf); cap(q.buf) > minReleased && n < cap(q.buf)/4 {
		if n == 0 {
			q.buf = nil
		} else {
			q.buf = slices.Clone(q.buf)
		}
	}
}

// end returns the sequence number the next event sent gets.
func (q *Events[E]) end() uint64 { return q.base + uint64(len(q.buf)) }

// oldest returns the lowest cursor of the open readers and of the
// readers a load expects (pending), or the end when there is none: every
// event before it has been read by every reader.
func (q *Events[E]) oldest() uint64 {
	low := q.end()
	for _, r := range q.readers {
		low = min(low, r.next)
	}
	for _, c := range q.pending {
		low = min(low, c)
	}
	return low
}

// dropPending drops the cursors a load kept for readers not made before
// the first send (see NewReader), and the events only they needed.
func (q *Events[E]) dropPending() {
	q.pending = nil
	q.compact()
}

// compact drops the events every open reader has read (all of them when
// there is no reader) if they are at least half of the buffer. Each event is
// dropped once and a compaction copies fewer events than it drops, so the
// cost is O(1) amortised per event, plus O(open readers) per call.
func (q *Events[E]) compact() {
	k := int(q.oldest() - q.base)
	if k == 0 || 2*k < len(q.buf) {
		return
	}
	n := copy(q.buf, q.buf[k:])
	if q.pointers {
		clear(q.buf[n:])
	}
	q.buf = q.buf[:n]
	q.base += uint64(k)
}

// enter marks the queue as being changed by op, panicking if it is
// already: two goroutines sending or reading one queue at once outside a
// parallel section would lose events or read them out of order. As
// World.enter does for structural changes, it is a best-effort check in
// the spirit of the Go runtime's "concurrent map writes": one load and two
// stores per call, which catches most such races (the race detector
// catches them all). The calls it marks run no user code, so they never
// nest on one goroutine; the caller clears busy when done.
func (q *Events[E]) enter(op string) {
	if q.busy {
		q.concurrentUse(op)
	}
	q.busy = true
}

// concurrentUse panics for enter finding the queue marked: a function of
// its own, so that the calls enter is inlined into stay small.
//
//go:noinline
func (q *Events[E]) concurrentUse(op string) {
	panic(fmt.Sprintf("ecs: Events[%v].%s: concurrent use: another goroutine is sending to or reading this queue at the same time; an event queue is not safe for concurrent use outside a parallel section, where systems send through sched.EventSender", q.typ, op))
}

// mustNotShare panics, naming op, inside a parallel section.
func (q *Events[E]) mustNotShare(op string) {
	if q.w.shared {
		panic(fmt.Sprintf("ecs: Events[%v].%s: called inside a parallel section (a running system); systems send through sched.EventSender.Send with their Context, whose buffers are sent in the order of record at the end of the stage", q.typ, op))
	}
}

// eventType returns E.
func (q *Events[E]) eventType() reflect.Type { return q.typ }
