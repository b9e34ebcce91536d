package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// eventQueue is an Events[E] seen by the world without knowing E: what
// snapshots and checksums need.
type eventQueue interface {
	eventType() reflect.Type
	// refused reports whether snapshots cannot copy E.
	refused() bool
	// saveTo saves the queue into *st, reusing the state it holds.
	saveTo(st *any)
	// restoreFrom puts back what st saved; a nil st means the queue did
	// not exist then.
	restoreFrom(st any)
	// hashTo hashes the queue, if some reader has events left to read.
	hashTo(h *stateHash)
	// saveState returns what a save file holds of the queue
	// (save_events.go).
	saveState() savedEvents
	// loadState puts a loaded file's state of the queue in place: sent
	// events so far, the lags of the saved readers in the order they were
	// made, and the unread events (a []E, or nil for none).
	loadState(sent uint64, lags []uint64, unread any)
}

// eventsState is a snapshot's copy of one Events[E].
type eventsState[E any] struct {
	base    uint64 // the sequence number of events[0]: the oldest cursor then
	end     uint64
	events  []E // the events some reader had not read, copies of the snapshot's own
	readers []*EventReader[E]
	cursors []uint64 // parallel to readers
	pending []uint64 // the queue's pending cursors (see NewReader)
}

func (q *Events[E]) refused() bool { return q.policy == refuseValues }

func (q *Events[E]) saveTo(st *any) {
	s, _ := (*st).(*eventsState[E])
	if s == nil {
		s = &eventsState[E]{}
		*st = s
	}
	s.base, s.end = q.oldest(), q.end()
	s.events = q.copyEvents(s.events, q.buf[s.base-q.base:])
	s.readers = append(s.readers[:0], q.readers...)
	s.cursors = s.cursors[:0]
	for _, r := range q.readers {
		s.cursors = append(s.cursors, r.next)
	}
	s.pending = append(s.pending[:0], q.pending...)
}

// restoreFrom puts back the events and cursors st saved. Readers made
// since the snapshot move to the restored end; readers closed since stay
// closed, and the events only they needed are dropped.
func (q *Events[E]) restoreFrom(st any) {
	s, _ := st.(*eventsState[E])
	if s == nil {
		s = &eventsState[E]{}
	}
	q.buf = q.copyEvents(q.buf, s.events)
	q.base = s.base
	q.pending = nil
	if len(s.pending) > 0 {
		q.pending = slices.Clone(s.pending)
	}
	for _, r := range q.readers {
		r.next = s.end
		if i := slices.Index(s.readers, r); i >= 0 {
			r.next = s.cursors[i]
		}
	}
	q.compact()
}

// copyEvents makes dst a copy of src, reusing dst's array, with the copy
// policy of snapshots: Clone for a Cloner, a plain copy otherwise. Slots
// dst no longer uses are cleared when E holds pointers.
func (q *Events[E]) copyEvents(dst, src []E) []E {
	old := len(dst)
	dst = slices.Grow(dst[:0], len(src))[:len(src)]
	if q.policy == cloneValues {
		for i := range src {
			dst[i] = any(&src[i]).(Cloner[E]).Clone()
		}
	} else {
		copy(dst, src)
	}
	if q.pointers && old > len(src) { // dst kept its array: len(src) <= old <= cap
		clear(dst[len(src):old])
	}
	return dst
}

// hashTo hashes what the queue holds for its readers: its type name, how
// many events each reader that has some left to read has left (in the
// order the readers were made, then the cursors a load keeps for readers
// not made yet, see NewReader), and the events from the oldest of them.
// A reader with nothing left to read does not count: it is the
// program's, not the state's, so a reader made since a snapshot (which
// Restore moves to the end) or one closed once it had read everything
// leaves the checksum as it was. Nor does the number of events sent, nor
// the events every reader has read: they are history, which a save file
// does not keep, and a queue no reader has anything left in hashes as
// nothing, like an empty table.
func (q *Events[E]) hashTo(h *stateHash) {
	end, oldest := q.end(), q.oldest()
	behind := 0
	for _, r := range q.readers {
		if r.next < end {
			behind++
		}
	}
	for _, c := range q.pending {
		if c < end {
			behind++
		}
	}
	if behind == 0 {
		return
	}
	if q.plan == nil {
		q.plan = newHashPlan(q.typ)
	}
	h.str(typeName(q.typ))
	h.word(uint64(behind))
	for _, r := range q.readers {
		if r.next < end {
			h.word(end - r.next)
		}
	}
	for _, c := range q.pending {
		if c < end {
			h.word(end - c)
		}
	}
	unread := q.buf[oldest-q.base:]
	h.word(uint64(len(unread)))
	for i := range unread {
		// SAFETY: &unread[i] is a live E, and q.typ, the type of q.plan, is E.
		h.value(q.plan, unsafe.Pointer(&unread[i]))
	}
}

// snapshotEvents saves every event queue of w into s, in creation order.
func (w *World) snapshotEvents(s *Snapshot) {
	for len(s.events) < len(w.events) {
		s.events = append(s.events, nil)
	}
	for i, q := range w.events {
		q.saveTo(&s.events[i])
	}
}

// restoreEvents puts back the event queues s saved; a queue made since is
// emptied and its sequence numbers start again from 0.
func (w *World) restoreEvents(s *Snapshot) {
	for i, q := range w.events {
		var st any
		if i < len(s.events) {
			st = s.events[i]
		}
		q.restoreFrom(st)
	}
}

// refusedEvents returns the error of CanSnapshot for the first event queue
// (in creation order) whose type snapshots cannot copy, or nil.
func (w *World) refusedEvents() error {
	for _, q := range w.events {
		if q.refused() {
			return fmt.Errorf("%s", refusedMessage("Snapshot", "event", q.eventType()))
		}
	}
	return nil
}

// hashEvents hashes the event queues in which some reader has events left
// to read, in the order of their type names, so the order in which queues
// were made does not count.
func (w *World) hashEvents(h *stateHash) {
	qs := slices.Clone(w.events)
	slices.SortStableFunc(qs, func(a, b eventQueue) int {
		return strings.Compare(typeName(a.eventType()), typeName(b.eventType()))
	})
	for _, q := range qs {
		q.hashTo(h)
	}
}
