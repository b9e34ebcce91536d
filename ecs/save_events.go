package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// A save file (version 2) holds, per event queue anything was sent to, in
// the order of the event types' names: the type's name, the number of
// events sent, the lag of each reader the queue had open (the events it
// had left to read, in the order the readers were made, without the
// trailing readers that had none left) and the events some reader had not
// read, oldest first, with their schema. A reader is the program's, not
// the world's: Load gives the saved cursors to the loading world's
// readers of the queue in the order they were made, the readers made
// after the load included (see Events.NewReader).

// savedEvents is what a save file holds of one event queue.
type savedEvents struct {
	name   string       // the event type's name (typeName)
	typ    reflect.Type // nil for a queue the world has not made (loadedSent)
	sent   uint64
	lags   []uint64       // per saved reader, in the order made: events it has left
	unread unsafe.Pointer // the first event some reader has not read
	n      int            // how many events from unread
	codec  *valueCodec    // of typ, set by savePlan when n > 0
}

func (q *Events[E]) saveState() savedEvents {
	end := q.end()
	st := savedEvents{name: typeName(q.typ), typ: q.typ, sent: end}
	for _, r := range q.readers {
		st.lags = append(st.lags, end-r.next)
	}
	for _, c := range q.pending {
		st.lags = append(st.lags, end-c)
	}
	for len(st.lags) > 0 && st.lags[len(st.lags)-1] == 0 {
		st.lags = st.lags[:len(st.lags)-1]
	}
	if oldest := q.oldest(); oldest < end {
		unread := q.buf[oldest-q.base:]
		// SAFETY: the pointer is to the first of the len(unread) Es of q.buf,
		// which it keeps alive; Save encodes them (write) before the world can
		// send again, and q.typ, the type of the codec, is E.
		st.unread, st.n = unsafe.Pointer(unsafe.SliceData(unread)), len(unread)
	}
	return st
}

func (q *Events[E]) loadState(sent uint64, lags []uint64, unread any) {
	vals, _ := unread.([]E)
	if q.pointers {
		clear(q.buf)
	}
	q.buf = vals // decoded for this queue alone
	q.base = sent - uint64(len(vals))
	for i, r := range q.readers {
		r.next = sent
		if i < len(lags) {
			r.next = sent - lags[i]
		}
	}
	q.pending = nil
	for i := len(q.readers); i < len(lags); i++ {
		q.pending = append(q.pending, sent-lags[i])
	}
}

// savedEventQueues returns what a save holds of w's event queues: those
// anything was sent to, and those a load gave a count of sent events
// before the world made them (loadedSent), in the order of their names.
// A queue with events some reader has not read needs a type a save can
// hold: otherwise the error names it.
func (w *World) savedEventQueues() ([]savedEvents, error) {
	var out []savedEvents
	for _, q := range w.events {
		st := q.saveState()
		if st.sent == 0 {
			continue
		}
		if st.n > 0 {
			s, err := schemaOf(st.typ)
			if err != nil {
				return nil, fmt.Errorf("ecs: Save: event type %v, with %d events a reader has not read: %v (read them before the save, or close the readers)", st.typ, st.n, err)
			}
			st.codec = newValueCodec(st.typ, s)
		}
		out = append(out, st)
	}
	for name, sent := range w.loadedSent {
		out = append(out, savedEvents{name: name, sent: sent})
	}
	slices.SortFunc(out, func(a, b savedEvents) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// write appends the queue's part of a save file.
func (st *savedEvents) write(e *encoder) {
	e.str(st.name)
	e.uvarint(st.sent)
	e.uvarint(uint64(len(st.lags)))
	for _, lag := range st.lags {
		e.uvarint(lag)
	}
	e.uvarint(uint64(st.n))
	if st.n > 0 {
		e.schema(st.codec.s)
		st.codec.values(e, st.unread, st.n)
	}
}

// loadEvents is an event queue of a file, matched to w's queue of the
// type of that name (nil when w has not made it).
type loadEvents struct {
	name   string
	q      eventQueue
	sent   uint64
	lags   []uint64
	unread any // a []E of the queue's type, or nil
}

// eventQueuesByName returns w's event queues by their types' names.
func (w *World) eventQueuesByName() map[string]eventQueue {
	m := make(map[string]eventQueue, len(w.events))
	for _, q := range w.events {
		m[typeName(q.eventType())] = q
	}
	return m
}

// decodeEvents reads one event queue of the file into img: its events are
// read into a new []E of the type of w's queue of that name, which must
// exist when there are some. Merge reads past it.
func (w *World) decodeEvents(d *decoder, img *loadImage, queues map[string]eventQueue) {
	if d.merge {
		d.skipSection() // Merge leaves w's events alone
		return
	}
	name := d.str()
	sent := d.uvarint()
	le := loadEvents{name: name, q: queues[name], sent: sent}
	var most uint64
	for range d.count(1) {
		lag := d.uvarint()
		if d.err != nil {
			return
		}
		if lag > sent {
			d.fail("event type %q: a reader with %d events left of %d sent", name, lag, sent)
			return
		}
		most = max(most, lag)
		le.lags = append(le.lags, lag)
	}
	n := d.count(0)
	if d.err != nil {
		return
	}
	if uint64(n) != most {
		d.fail("event type %q: %d events some reader has not read, where the readers have %d left at most", name, n, most)
		return
	}
	if len(le.lags) > 0 && le.lags[len(le.lags)-1] == 0 {
		d.fail("event type %q: a trailing reader with no events left", name)
		return
	}
	for _, other := range img.events {
		if other.name == name {
			d.fail("event type %q is listed twice", name)
			return
		}
	}
	if n > 0 {
		if le.q == nil {
			d.fail("event type %q: %d events some reader has not read, and this world has no queue of that type; make it (EventsOf, or the systems that send or read the events) before Load", name, n)
			return
		}
		t := le.q.eventType()
		s := d.schema(0)
		if d.err != nil {
			return
		}
		c, err := newLoadCodec(s, t, t.String())
		if err != nil {
			d.fail("event type %q: %v", name, err)
			return
		}
		if !d.spendElems(n, t.Size()) {
			return
		}
		v := reflect.MakeSlice(reflect.SliceOf(t), n, n)
		c.values(d, w, v.UnsafePointer(), n)
		le.unread = v.Interface()
	}
	img.events = append(img.events, le)
}

// fillEvents puts the event queues of a loaded file in place: each queue
// of the file takes its state, each other queue of w is emptied with its
// count of events sent at 0, as the saved world had it, and the count of
// a queue w has not made waits for EventsOf. A file of version 1 holds no
// events: w's queues stay as they were.
func (w *World) fillEvents(img *loadImage) {
	if !img.eventsSaved {
		return
	}
	w.loadedSent = nil
	filled := map[eventQueue]bool{}
	for _, le := range img.events {
		if le.q == nil {
			if w.loadedSent == nil {
				w.loadedSent = map[string]uint64{}
			}
			w.loadedSent[le.name] = le.sent
			continue
		}
		le.q.loadState(le.sent, le.lags, le.unread)
		filled[le.q] = true
	}
	for _, q := range w.events {
		if !filled[q] {
			q.loadState(0, nil, nil)
		}
	}
}
