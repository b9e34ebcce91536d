package changes

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"

	"github.com/tessera-ecs/tessera/ecs"
)

// readSums is what the two readers of a tick read: each one's sum of
// Amount and count of events.
type readSums struct {
	a, b   float64
	na, nb int
}

// hits returns the n events every row sends in a tick, made once: the
// senders copy them, so no row pays for computing them.
func hits(n int) []Hit {
	out := make([]Hit, n)
	for i := range out {
		out[i] = hitOf(i)
	}
	return out
}

// tesseraEvents is the events workload in Tessera: the world's queue of
// Hit events and two readers.
type tesseraEvents struct {
	q      *ecs.Events[Hit]
	r1, r2 *ecs.EventReader[Hit]
	src    []Hit
	sums   readSums
}

func newTesseraEvents(n int) *tesseraEvents {
	q := ecs.EventsOf[Hit](ecs.NewWorld())
	return &tesseraEvents{q: q, r1: q.NewReader(), r2: q.NewReader(), src: hits(n)}
}

// tesseraRead reads r's unread events and returns the sum of their
// Amount and their number.
func tesseraRead(r *ecs.EventReader[Hit]) (float64, int) {
	es := r.Read()
	s := 0.0
	for i := range es {
		s += es[i].Amount
	}
	return s, len(es)
}

// tesseraSendRead is one tick: Events.Send of each event, then both
// readers read them all.
//
//go:noinline
func tesseraSendRead(t *tesseraEvents) {
	for _, h := range t.src {
		t.q.Send(h)
	}
	t.sums.a, t.sums.na = tesseraRead(t.r1)
	t.sums.b, t.sums.nb = tesseraRead(t.r2)
}

// tesseraSendAllRead is one tick with the events sent by one
// Events.SendAll of the tick's slice.
//
//go:noinline
func tesseraSendAllRead(t *tesseraEvents) {
	t.q.SendAll(t.src)
	t.sums.a, t.sums.na = tesseraRead(t.r1)
	t.sums.b, t.sums.nb = tesseraRead(t.r2)
}

// arkEvents is the events workload in Ark, whose custom events carry an
// entity and no value, and call the observers registered for them when
// emitted. In the component form the event is emitted for a mailbox
// entity whose Hit component holds the value, and the observers are
// Observe1[Hit], handed the mailbox's Hit; in the beside form the value is
// left in a variable the observers read, and the event is emitted for the
// zero entity to observers of no component.
type arkEvents struct {
	ev   ark.Event
	box  ark.Entity
	val  *Hit // the mailbox's Hit (component form), or the variable (beside)
	src  []Hit
	sums readSums
}

func newArkEvents(n int, beside bool) *arkEvents {
	w := ark.NewWorld()
	a := &arkEvents{src: hits(n)}
	if beside {
		a.val = new(Hit)
		a.ev = w.Event(arkHitEvent)
		ark.Observe(arkHitEvent).Do(func(ark.Entity) { a.sums.a += a.val.Amount; a.sums.na++ }).Register(w)
		ark.Observe(arkHitEvent).Do(func(ark.Entity) { a.sums.b += a.val.Amount; a.sums.nb++ }).Register(w)
		return a
	}
	m := ark.NewMap1[Hit](w)
	a.box = m.NewEntity(&Hit{})
	a.val = m.Get(a.box) // no structural change follows: the pointer stays valid
	a.ev = w.Event(arkHitEvent).For(ark.C[Hit]())
	ark.Observe1[Hit](arkHitEvent).Do(func(_ ark.Entity, h *Hit) { a.sums.a += h.Amount; a.sums.na++ }).Register(w)
	ark.Observe1[Hit](arkHitEvent).Do(func(_ ark.Entity, h *Hit) { a.sums.b += h.Amount; a.sums.nb++ }).Register(w)
	return a
}

// arkEmit is one tick: for each event, its value goes where the observers
// read it and the event is emitted, which calls both observers.
//
//go:noinline
func arkEmit(a *arkEvents) {
	a.sums = readSums{}
	for _, h := range a.src {
		*a.val = h
		a.ev.Emit(a.box)
	}
}

// dbrEvents is the events workload in donburi: the typed event bus of its
// features/events package, with two subscribers. Publish queues an event;
// ProcessEvents hands each queued event to every subscriber.
type dbrEvents struct {
	w    dbr.World
	src  []Hit
	sums readSums
}

func newDbrEvents(n int) *dbrEvents {
	d := &dbrEvents{w: dbr.NewWorld(), src: hits(n)}
	dbrHitEvent.Subscribe(d.w, func(_ dbr.World, h Hit) { d.sums.a += h.Amount; d.sums.na++ })
	dbrHitEvent.Subscribe(d.w, func(_ dbr.World, h Hit) { d.sums.b += h.Amount; d.sums.nb++ })
	return d
}

// dbrPublishProcess is one tick: Publish of each event, then
// ProcessEvents.
//
//go:noinline
func dbrPublishProcess(d *dbrEvents) {
	d.sums = readSums{}
	for _, h := range d.src {
		dbrHitEvent.Publish(d.w, h)
	}
	dbrHitEvent.ProcessEvents(d.w)
}

// floorEvents is the floor: a slice the senders append to and two index
// cursors, the slice emptied once both have read everything.
type floorEvents struct {
	buf    []Hit
	c1, c2 int
	src    []Hit
	sums   readSums
}

func newFloorEvents(n int) *floorEvents { return &floorEvents{src: hits(n)} }

// floorRead reads buf from the cursor c on and returns the sum of Amount,
// the number read and the new cursor.
func floorRead(buf []Hit, c int) (float64, int, int) {
	s := 0.0
	for _, h := range buf[c:] {
		s += h.Amount
	}
	return s, len(buf) - c, len(buf)
}

// floorSendRead is one tick: append each event, then both cursors read to
// the end.
//
//go:noinline
func floorSendRead(f *floorEvents) {
	if f.c1 == len(f.buf) && f.c2 == len(f.buf) {
		f.buf, f.c1, f.c2 = f.buf[:0], 0, 0
	}
	//lint:ignore S1011 one append per event, as senders send one at a time
	for _, h := range f.src {
		f.buf = append(f.buf, h)
	}
	f.sums.a, f.sums.na, f.c1 = floorRead(f.buf, f.c1)
	f.sums.b, f.sums.nb, f.c2 = floorRead(f.buf, f.c2)
}

// eventsComparison times a tick of n events of 16 bytes, each sent once
// and read by two readers that sum a field.
func eventsComparison(c Config) *Comparison {
	n := c.Events
	te, tea := newTesseraEvents(n), newTesseraEvents(n)
	ac, ab := newArkEvents(n, false), newArkEvents(n, true)
	de := newDbrEvents(n)
	fe := newFloorEvents(n)
	return &Comparison{
		Name: "events",
		Doc: "One tick sends N events of a 16-byte struct (Hit{Amount, Angle float64}), and two readers each read all of " +
			"them and sum Amount. The events of a tick are a slice made once, which every row copies from: one call per " +
			"event, except Tessera's SendAll row, which hands the queue the whole slice in one call (a bulk copy, which is " +
			"why it can beat the floor's one append per event). Tessera: the world's queue of Hit events (ecs.EventsOf) and two EventReaders; the readers pull the " +
			"unread events as a slice when their system runs, and the queue drops what both have read (Bevy's Events " +
			"with a cursor per reader). Ark: custom events (an EventRegistry's event type, World.Event, Event.Emit) carry " +
			"an entity and no value, and call every matching observer inside Emit, so the value travels in a component " +
			"of the entity the event is emitted for (Ark's way: observers of one component are handed it), or beside, " +
			"in a variable the observers read; two observers each sum. donburi: its features/events typed event bus " +
			"(events.NewEventType[Hit], Publish queues, ProcessEvents calls every subscriber for each queued event), two " +
			"subscribers. Ark's and donburi's readers are callbacks the library calls; Tessera's read a slice. The floor " +
			"appends to a plain slice and reads it with two index cursors.",
		Unit: "event", PerRun: n,
		Sizes: fmt.Sprintf("N = %s events per tick, 2 readers", count(n)),
		Rows: []Row{
			{Name: "Tessera Events.Send + 2 EventReader.Read", Kind: Tessera, Lib: "Tessera",
				What: "for each event: q.Send(h); then for each reader: for _, h := range r.Read() { sum += h.Amount }",
				Run:  func() { tesseraSendRead(te) }},
			{Name: "Tessera Events.SendAll + 2 EventReader.Read", Kind: Tessera, Lib: "Tessera",
				What: "q.SendAll(tick's events); then the same two reads",
				Run:  func() { tesseraSendAllRead(tea) }},
			{Name: "Ark Event.Emit + 2 Observe1[Hit], value in a component", Kind: Peer, Lib: "Ark",
				What: "for each event: *mailboxHit = h; ev.Emit(mailbox), which calls both observers: func(e, h *Hit) { sum += h.Amount }",
				Run:  func() { arkEmit(ac) }},
			{Name: "Ark Event.Emit + 2 Observe, value beside", Kind: Peer, Lib: "Ark",
				What: "for each event: cur = h; ev.Emit(zero entity), which calls both observers: func(e) { sum += cur.Amount }",
				Run:  func() { arkEmit(ab) }},
			{Name: "donburi events Publish + ProcessEvents, 2 subscribers", Kind: Peer, Lib: "donburi",
				What: "for each event: evt.Publish(w, h); then evt.ProcessEvents(w), which calls both subscribers for each: func(w, h Hit) { sum += h.Amount }",
				Run:  func() { dbrPublishProcess(de) }},
			{Name: "plain slice + 2 cursors", Kind: Floor, Lib: "plain Go",
				What: "for each event: buf = append(buf, h); then each cursor sums buf[c:] and moves to the end; buf emptied when both are at the end",
				Run:  func() { floorSendRead(fe) }},
		},
	}
}
