package ecs_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Hit is an event: something hit Target for Amount.
type Hit struct {
	Target ecs.Entity
	Amount int
}

// Chat is an event that holds a slice and clones itself for snapshots.
type Chat struct{ Words []string }

func (c Chat) Clone() Chat { return Chat{Words: slices.Clone(c.Words)} }

// Wire is an event holding a pointer, with no Clone method.
type Wire struct{ P *int }

// Ping is an event of one number.
type Ping struct{ N int }

// seqs returns the amounts of hs: the tests send Amount = a sequence number.
func seqs(hs []Hit) []int {
	out := make([]int, len(hs))
	for i, h := range hs {
		out[i] = h.Amount
	}
	return out
}

// span returns [from, to).
func span(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// Readers that read at different rates, and one made midway, each see the
// events sent after they were made, every one once, in order.
func TestEventsEveryReaderSeesEveryEventOnceInOrder(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	if ecs.EventsOf[Hit](w) != q {
		t.Fatal("EventsOf made a second queue for one type")
	}
	q.Send(Hit{Amount: -1}) // no reader yet: dropped
	every, third, late := q.NewReader(), q.NewReader(), (*ecs.EventReader[Hit])(nil)
	never := q.NewReader() // reads only at the end
	var gotEvery, gotThird, gotLate, gotNever []int
	lateFrom := 0
	n := 0
	for round := range 300 {
		burst := round % 7 // sometimes nothing
		if round%5 == 0 {
			batch := make([]Hit, burst)
			for i := range batch {
				batch[i] = Hit{Amount: n}
				n++
			}
			q.SendAll(batch)
		} else {
			for range burst {
				q.Send(Hit{Amount: n})
				n++
			}
		}
		if round == 100 {
			late, lateFrom = q.NewReader(), n
		}
		gotEvery = append(gotEvery, seqs(every.Read())...)
		if round%3 == 0 {
			gotThird = append(gotThird, seqs(third.Read())...)
		}
		if late != nil && round%2 == 0 {
			gotLate = append(gotLate, seqs(late.Read())...)
		}
	}
	gotThird = append(gotThird, seqs(third.Read())...)
	gotLate = append(gotLate, seqs(late.Read())...)
	if never.Len() != n {
		t.Errorf("the reader that never read has %d unread, want %d", never.Len(), n)
	}
	gotNever = seqs(never.Read())
	for name, got := range map[string][]int{"every": gotEvery, "third": gotThird, "never": gotNever} {
		if !slices.Equal(got, span(0, n)) {
			t.Errorf("%s read %d events, want 0..%d in order: %v", name, len(got), n-1, got)
		}
	}
	if !slices.Equal(gotLate, span(lateFrom, n)) {
		t.Errorf("the late reader read %v, want %d..%d", gotLate, lateFrom, n-1)
	}
	if q.Sent() != uint64(n+1) {
		t.Errorf("Sent = %d, want %d (the dropped one counts)", q.Sent(), n+1)
	}
	if every.Read() != nil || q.Len() != 0 || every.Len() != 0 {
		t.Errorf("after everyone read: Read gave events, or Len %d, reader Len %d", q.Len(), every.Len())
	}
}

// With no open reader an event is dropped at once; a reader made later
// starts at the end.
func TestEventsWithoutReaderAreDropped(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	for i := range 100 {
		q.Send(Hit{Amount: i})
	}
	q.SendAll([]Hit{{Amount: 100}, {Amount: 101}})
	if held, _ := ecs.EventsHeld(q); held != 0 || q.Len() != 0 {
		t.Fatalf("without readers the queue holds %d events (Len %d)", held, q.Len())
	}
	if q.Sent() != 102 {
		t.Errorf("Sent = %d, want 102", q.Sent())
	}
	r := q.NewReader()
	if got := r.Read(); got != nil {
		t.Errorf("a new reader read %v", got)
	}
	q.Send(Hit{Amount: 7})
	r.Close()
	if held, _ := ecs.EventsHeld(q); held != 0 {
		t.Errorf("closing the only reader left %d events held", held)
	}
}

// Events every reader has read are dropped: the buffer stays the size of a
// burst, however many bursts go through it, and one slow reader keeps only
// what it has not read.
func TestEventsAreDroppedOnceEveryReaderHasRead(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	fast, slow := q.NewReader(), q.NewReader()
	const burst = 10
	maxHeld, maxRoom := 0, 0
	for round := range 2000 {
		for i := range burst {
			q.Send(Hit{Amount: round*burst + i})
		}
		fast.Read()
		if round%4 == 3 {
			slow.Read()
		}
		held, room := ecs.EventsHeld(q)
		maxHeld, maxRoom = max(maxHeld, held), max(maxRoom, room)
		if want := (round%4 + 1) * burst; round%4 != 3 && q.Len() != want {
			t.Fatalf("round %d: Len %d, want %d (the slow reader's unread)", round, q.Len(), want)
		}
	}
	// The slow reader reads every 4 bursts: at most 4 unread bursts, plus
	// at most as many read ones not dropped yet.
	if maxHeld > 8*burst || maxRoom > 16*burst {
		t.Errorf("the buffer grew to %d events held, %d room, for %d-event bursts", maxHeld, maxRoom, burst)
	}
	slow.Close()
	q.Send(Hit{})
	fast.Read()
	fast.Read() // the read one is dropped now
	if held, _ := ecs.EventsHeld(q); held != 0 || q.Len() != 0 {
		t.Errorf("after every reader read: %d held, Len %d", held, q.Len())
	}
}

// A reader that never reads keeps every event until it is closed.
func TestEventsAnUnreadReaderKeepsEverything(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	idle, busy := q.NewReader(), q.NewReader()
	for i := range 1000 {
		q.Send(Hit{Amount: i})
		busy.Read()
	}
	if held, _ := ecs.EventsHeld(q); held != 1000 || q.Len() != 1000 {
		t.Fatalf("an idle reader kept %d events (Len %d), want 1000", held, q.Len())
	}
	idle.Close()
	busy.Read()
	if held, _ := ecs.EventsHeld(q); held != 0 {
		t.Errorf("after the idle reader closed, %d events are still held", held)
	}
	if idle.Len() != 0 {
		t.Errorf("a closed reader reports %d unread", idle.Len())
	}
	idle.Close() // twice: nothing
}

// Appending to what Read returned never writes into the queue.
func TestEventsReadSliceHasNoSpareRoom(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	a, b := q.NewReader(), q.NewReader()
	for i := range 5 {
		q.Send(Hit{Amount: i}) // the buffer grows to room for 8
	}
	more := append(a.Read(), Hit{Amount: 99})
	q.Send(Hit{Amount: 5})
	if more[5].Amount != 99 || !slices.Equal(seqs(b.Read()), span(0, 6)) {
		t.Error("appending to a Read slice and sending wrote into each other")
	}
}

// Sending is not a structural change: it works inside a loop and a hook.
func TestEventsSendInsideIterationAndHook(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	r := q.NewReader()
	pos := ecs.NewMap[Position](w)
	ecs.OnAdd(w, func(e ecs.Entity, _ *Position) { q.Send(Hit{Target: e, Amount: -1}) })
	a := pos.Spawn(Position{X: 1})
	b := pos.Spawn(Position{X: 2})
	for row := range ecs.NewQuery1[Position](w).All() {
		q.Send(Hit{Target: row.Entity, Amount: int(row.A.X)})
	}
	want := []Hit{{a, -1}, {b, -1}, {a, 1}, {b, 2}}
	if got := r.Read(); !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
}

func TestEventsMisusePanics(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	r := q.NewReader()
	closed := q.NewReader()
	closed.Close()
	testhelp.MustPanic(t, func() { closed.Read() }, "EventReader[ecs_test.Hit].Read", "closed")

	w.Parallel().Begin()
	testhelp.MustPanic(t, func() { q.Send(Hit{}) }, "Events[ecs_test.Hit].Send", "parallel section", "sched.EventSender.Send")
	testhelp.MustPanic(t, func() { q.SendAll([]Hit{{}}) }, "SendAll", "parallel section")
	testhelp.MustPanic(t, func() { q.NewReader() }, "NewReader", "parallel section", "before the first Run")
	testhelp.MustPanic(t, func() { r.Close() }, "Close", "parallel section")
	testhelp.MustPanic(t, func() { q.Len() }, "Events[ecs_test.Hit].Len", "parallel section")
	testhelp.MustPanic(t, func() { ecs.EventsOf[Chat](w) }, "EventsOf[ecs_test.Chat]", "parallel section", "before the first Run")
	if ecs.EventsOf[Hit](w) != q { // an existing queue is only looked up
		t.Error("EventsOf in a parallel section returned another queue")
	}
	if got := r.Read(); got != nil {
		t.Errorf("read %v from an empty queue", got)
	}
	w.Parallel().End()
	q.Send(Hit{Amount: 1})
	if got := r.Read(); len(got) != 1 || got[0].Amount != 1 {
		t.Errorf("after the panics the reader read %v", got)
	}
}

// Inside a parallel section several goroutines read the same queue through
// their own readers at once; nothing is dropped until the section ends.
func TestEventsConcurrentReadersInParallelSection(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	readers := make([]*ecs.EventReader[Hit], 8)
	for i := range readers {
		readers[i] = q.NewReader()
	}
	got := make([][]int, len(readers))
	for tick := range 50 {
		for i := range 20 {
			q.Send(Hit{Amount: tick*20 + i})
		}
		w.Parallel().Begin()
		heldBefore, _ := ecs.EventsHeld(q)
		var wg sync.WaitGroup
		for i, r := range readers {
			if tick%(i%3+1) != 0 { // some read every tick, others every second or third
				continue
			}
			wg.Go(func() { got[i] = append(got[i], seqs(r.Read())...) })
		}
		wg.Wait()
		if held, _ := ecs.EventsHeld(q); held != heldBefore {
			t.Fatalf("tick %d: a read in a parallel section changed the buffer (%d to %d held)", tick, heldBefore, held)
		}
		w.Parallel().End()
	}
	for i, r := range readers {
		got[i] = append(got[i], seqs(r.Read())...)
		if !slices.Equal(got[i], span(0, 50*20)) {
			t.Errorf("reader %d read %d events out of order or twice", i, len(got[i]))
		}
	}
}

// A snapshot keeps the unread events and every cursor; a restore brings
// them back, moves readers made since to the restored end, empties queues
// made since, and gives back the checksum of the snapshot.
func TestEventsSnapshotRestore(t *testing.T) {
	w := ecs.NewWorld()
	hits := ecs.EventsOf[Hit](w)
	chats := ecs.EventsOf[Chat](w)
	a, b, d := hits.NewReader(), hits.NewReader(), hits.NewReader()
	cr := chats.NewReader()
	for i := range 6 {
		hits.Send(Hit{Amount: i})
	}
	a.Read() // a at 6, b at 0
	hits.Send(Hit{Amount: 6})
	words := []string{"hello"}
	chats.Send(Chat{Words: words})

	var snap ecs.Snapshot
	w.Snapshot(&snap)

	// Change everything: more events, reads, a new reader, a new queue, a
	// closed reader, and a write into the chat's slice.
	for i := 7; i < 20; i++ {
		hits.Send(Hit{Amount: i})
	}
	b.Read()
	c := hits.NewReader()
	hits.Send(Hit{Amount: 20})
	wires := ecs.EventsOf[Ping](w)
	wr := wires.NewReader()
	wires.Send(Ping{N: 1})
	got := cr.Read()
	got[0].Words[0] = "changed" // the snapshot cloned the chat: unaffected
	d.Close()

	w.Restore(&snap)
	if got := seqs(a.Read()); !slices.Equal(got, []int{6}) {
		t.Errorf("a read %v after the restore, want [6]", got)
	}
	if got := seqs(b.Read()); !slices.Equal(got, span(0, 7)) {
		t.Errorf("b read %v after the restore, want 0..6", got)
	}
	if got := c.Read(); got != nil {
		t.Errorf("a reader made after the snapshot read %v, want nothing (moved to the end)", got)
	}
	if wires.Sent() != 0 || wr.Len() != 0 {
		t.Errorf("a queue made after the snapshot: Sent %d, reader Len %d; want 0, 0", wires.Sent(), wr.Len())
	}
	if got := cr.Read(); len(got) != 1 || got[0].Words[0] != "hello" {
		t.Errorf("the chat reader read %v after the restore, want the cloned [{[hello]}]", got)
	}
	if words[0] != "changed" {
		t.Fatal("the test expects the world's chat to share the sent slice")
	}
	testhelp.MustPanic(t, func() { d.Read() }, "closed") // Close is not undone
	if hits.Sent() != 7 {
		t.Errorf("Sent after the restore = %d, want 7", hits.Sent())
	}
	// Restore again: the cursors and the cloned chat come back each time.
	r2 := chats.NewReader()
	w.Restore(&snap)
	if got := r2.Len(); got != 0 {
		t.Errorf("a reader made after the snapshot has %d unread", got)
	}
	hits.Send(Hit{Amount: 7})
	if got := seqs(b.Read()); !slices.Equal(got, span(0, 8)) {
		t.Errorf("b read %v after the second restore, want 0..7", got)
	}
	if got := cr.Read(); len(got) != 1 || got[0].Words[0] != "hello" {
		t.Errorf("the chat reader read %v after the second restore", got)
	}
}

// Restore gives back the checksum of the snapshot: events, reads and a
// queue made since are undone.
func TestEventsRestoreGivesBackTheChecksum(t *testing.T) {
	w := ecs.NewWorld()
	hits, chats := ecs.EventsOf[Hit](w), ecs.EventsOf[Chat](w)
	a, b, cr := hits.NewReader(), hits.NewReader(), chats.NewReader()
	for i := range 5 {
		hits.Send(Hit{Amount: i})
	}
	a.Read()
	chats.Send(Chat{Words: []string{"x"}})
	var snap ecs.Snapshot
	w.Snapshot(&snap)
	sum := w.Checksum()
	for i := 5; i < 9; i++ {
		hits.Send(Hit{Amount: i})
	}
	a.Read()
	b.Read()
	cr.Read()[0].Words[0] = "y"
	pings := ecs.EventsOf[Ping](w)
	pings.NewReader()
	pings.Send(Ping{N: 1})
	if w.Checksum() == sum {
		t.Fatal("the changes did not change the checksum")
	}
	w.Restore(&snap)
	if w.Checksum() != sum {
		t.Error("the checksum after Restore differs from the one at the snapshot")
	}
}

// Event types a snapshot cannot copy make CanSnapshot fail, naming them;
// Shallow allows them.
func TestEventsSnapshotRefusesReferenceTypes(t *testing.T) {
	w := ecs.NewWorld()
	ecs.EventsOf[Wire](w)
	err := w.CanSnapshot()
	if err == nil || !strings.Contains(err.Error(), "event type ecs_test.Wire") || !strings.Contains(err.Error(), "ecs.Shallow[ecs_test.Wire](w)") {
		t.Fatalf("CanSnapshot = %v, want an error naming event type ecs_test.Wire", err)
	}
	var s ecs.Snapshot
	testhelp.MustPanic(t, func() { w.Snapshot(&s) }, "ecs_test.Wire")
	ecs.Shallow[Wire](w)
	if err := w.CanSnapshot(); err != nil {
		t.Fatalf("after Shallow: %v", err)
	}
	q := ecs.EventsOf[Wire](w)
	r := q.NewReader()
	x := 5
	q.Send(Wire{P: &x})
	w.Snapshot(&s)
	r.Read()
	w.Restore(&s)
	if got := r.Read(); len(got) != 1 || got[0].P != &x {
		t.Errorf("a shallow event came back as %v", got)
	}
}

// buildEvents makes a world with two queues, made in the given order, and
// sends and reads the same events in it.
func buildEvents(hitsFirst bool, extra bool, readAll bool) *ecs.World {
	w := ecs.NewWorld()
	var hits *ecs.Events[Hit]
	var chats *ecs.Events[Chat]
	if hitsFirst {
		hits, chats = ecs.EventsOf[Hit](w), ecs.EventsOf[Chat](w)
	} else {
		chats, hits = ecs.EventsOf[Chat](w), ecs.EventsOf[Hit](w)
	}
	ecs.EventsOf[Ping](w).NewReader() // never sent to: does not count
	e := w.Spawn()
	r1, r2 := hits.NewReader(), hits.NewReader()
	chats.NewReader()
	for i := range 10 {
		hits.Send(Hit{Target: e, Amount: i})
	}
	r1.Read()
	hits.Send(Hit{Target: e, Amount: 10})
	if extra {
		hits.Send(Hit{Target: e, Amount: 11})
	}
	if readAll {
		r2.Read()
	}
	chats.Send(Chat{Words: []string{"a"}})
	return w
}

func TestEventsChecksum(t *testing.T) {
	base := buildEvents(true, false, false).Checksum()
	if got := buildEvents(false, false, false).Checksum(); got != base {
		t.Error("two worlds that made their queues in another order have different checksums")
	}
	if buildEvents(true, true, false).Checksum() == base {
		t.Error("one more event does not change the checksum")
	}
	if buildEvents(true, false, true).Checksum() == base {
		t.Error("a reader's cursor does not change the checksum")
	}
	// A cursor counts even when it is not the oldest.
	w5, w6 := ecs.NewWorld(), ecs.NewWorld()
	for i, w := range []*ecs.World{w5, w6} {
		q := ecs.EventsOf[Hit](w)
		q.NewReader() // the oldest, in both
		r := q.NewReader()
		q.SendAll([]Hit{{Amount: 1}, {Amount: 2}})
		if i == 1 {
			r.Read()
		}
	}
	if w5.Checksum() == w6.Checksum() {
		t.Error("a reader's cursor that is not the oldest does not count")
	}
	// The value of an unread event counts.
	w1, w2 := ecs.NewWorld(), ecs.NewWorld()
	for i, w := range []*ecs.World{w1, w2} {
		q := ecs.EventsOf[Hit](w)
		q.NewReader()
		q.Send(Hit{Amount: i})
	}
	if w1.Checksum() == w2.Checksum() {
		t.Error("different unread events give equal checksums")
	}
	// An event every reader has read counts only through the end's
	// sequence number: two worlds that read it agree.
	w3, w4 := ecs.NewWorld(), ecs.NewWorld()
	for i, w := range []*ecs.World{w3, w4} {
		q := ecs.EventsOf[Hit](w)
		r := q.NewReader()
		q.Send(Hit{Amount: i})
		r.Read()
	}
	if w3.Checksum() != w4.Checksum() {
		t.Error("events every reader has read still count")
	}
}

func BenchmarkEventsSendRead(b *testing.B) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[Hit](w)
	r1, r2 := q.NewReader(), q.NewReader()
	var sum int
	for b.Loop() {
		for i := range 100 {
			q.Send(Hit{Amount: i})
		}
		for _, h := range r1.Read() {
			sum += h.Amount
		}
		for _, h := range r2.Read() {
			sum -= h.Amount
		}
	}
	if sum != 0 {
		b.Fatalf("readers disagree: %d", sum)
	}
}
