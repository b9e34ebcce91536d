package ecs_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type ping struct{ N int }

// loadInto loads data into a new world with Position registered, after
// before has set it up; it fails the test on error.
func loadInto(t *testing.T, f saveFormat, data []byte, before func(w *ecs.World)) *ecs.World {
	t.Helper()
	back := ecs.NewWorld()
	ecs.NewMap[Position](back)
	if before != nil {
		before(back)
	}
	if err := f.load(back, data); err != nil {
		t.Fatal(err)
	}
	return back
}

// TestSaveKeepsTheChecksumWithEvents: a world that sent events, all read,
// loads to its checksum, and its queues' counts of events sent come back,
// whether the loading world makes the queue before the load or after.
func TestSaveKeepsTheChecksumWithEvents(t *testing.T) {
	for _, f := range []saveFormat{binaryFormat, jsonFormat} {
		w := ecs.NewWorld()
		ecs.NewMap[Position](w).Spawn(Position{X: 1})
		q := ecs.EventsOf[ping](w)
		r := q.NewReader()
		q.SendAll([]ping{{1}, {2}, {3}})
		if got := len(r.Read()); got != 3 {
			t.Fatalf("read %d events, want 3", got)
		}
		data := f.save(t, w)
		for _, made := range []string{"before", "after"} {
			back := loadInto(t, f, data, func(w *ecs.World) {
				if made == "before" {
					ecs.EventsOf[ping](w).NewReader()
				}
			})
			if back.Checksum() != w.Checksum() {
				t.Fatalf("queue made %s the load: the loaded world's checksum differs", made)
			}
			if sent := ecs.EventsOf[ping](back).Sent(); sent != 3 {
				t.Fatalf("queue made %s the load: Sent %d, want 3", made, sent)
			}
		}
	}
}

// TestChecksumLeavesOutEventHistory: the number of events sent and the
// events every reader has read do not count, so two worlds that agree on
// what is left to read agree on the checksum, however many events each
// sent before; what is left to read counts.
func TestChecksumLeavesOutEventHistory(t *testing.T) {
	build := func(before, unread int) *ecs.World {
		w := ecs.NewWorld()
		q := ecs.EventsOf[ping](w)
		r := q.NewReader()
		for i := range before {
			q.Send(ping{i})
		}
		r.Read()
		for i := range unread {
			q.Send(ping{100 + i})
		}
		return w
	}
	if build(0, 0).Checksum() != build(5, 0).Checksum() || build(0, 2).Checksum() != build(7, 2).Checksum() {
		t.Fatal("events every reader has read count in the checksum")
	}
	if build(3, 0).Checksum() == build(3, 1).Checksum() || build(3, 1).Checksum() == build(3, 2).Checksum() {
		t.Fatal("events left to read do not count")
	}
	if build(0, 0).Checksum() != ecs.NewWorld().Checksum() {
		t.Fatal("a queue nobody has anything to read in counts")
	}
}

// eventProgram is a small program with events whose reader runs before
// its sender in a tick, so events are left to read between ticks: produce
// sends what the entities' counters say, consume (earlier in the tick)
// reads the events of the last tick into a score, and a second reader
// lags, reading every third tick.
type eventProgram struct {
	w              *ecs.World
	pos            *ecs.Map[Position]
	score          *ping // a resource
	q              *ecs.Events[ping]
	consume, audit *ecs.EventReader[ping]
	tick           int
}

// newEventProgram sets up the program; with data, the world is loaded
// from it, the queue made before the load and the readers after it, as
// a program that loads first and then makes its systems does.
func newEventProgram(t *testing.T, f saveFormat, data []byte) *eventProgram {
	t.Helper()
	p := &eventProgram{w: ecs.NewWorld(), score: &ping{}}
	p.pos = ecs.NewMap[Position](p.w)
	ecs.AddResource(p.w, p.score)
	p.q = ecs.EventsOf[ping](p.w)
	if data != nil {
		if err := f.load(p.w, data); err != nil {
			t.Fatal(err)
		}
	} else {
		for i := range 5 {
			p.pos.Spawn(Position{X: float64(i)})
		}
	}
	p.consume, p.audit = p.q.NewReader(), p.q.NewReader()
	return p
}

func (p *eventProgram) step() {
	for _, e := range p.consume.Read() {
		p.score.N = p.score.N*31 + e.N
	}
	if p.tick%3 == 2 {
		for _, e := range p.audit.Read() {
			p.score.N ^= e.N
		}
	}
	for r := range ecs.NewQuery1[Position](p.w).All() {
		r.A.X++
		if int(r.A.X)%2 == 0 {
			p.q.Send(ping{int(r.A.X) * int(r.Entity.Index())})
		}
	}
	p.tick++
}

// TestSaveLoadContinuesWithEvents: a program saved between ticks with
// events left to read, loaded into a new world by the same program (queue
// made before the load, readers after), ticks on with the checksums, tick
// for tick, of the run that never saved; and the loaded world's checksum
// right after the load is the saved one's.
func TestSaveLoadContinuesWithEvents(t *testing.T) {
	for _, f := range []saveFormat{binaryFormat, jsonFormat} {
		for _, at := range []int{1, 3, 4, 8} {
			straight := newEventProgram(t, f, nil)
			var want []uint64
			for range at + 10 {
				straight.step()
				want = append(want, straight.w.Checksum())
			}
			first := newEventProgram(t, f, nil)
			for range at {
				first.step()
			}
			if first.q.Len() == 0 {
				t.Fatalf("tick %d: no event left to read at the save; the test tests nothing", at)
			}
			back := newEventProgram(t, f, f.save(t, first.w))
			back.tick = at
			if back.w.Checksum() != first.w.Checksum() {
				t.Fatalf("save after %d ticks: checksum after the load differs", at)
			}
			for i := at; i < at+10; i++ {
				back.step()
				if got := back.w.Checksum(); got != want[i] {
					t.Fatalf("save after %d ticks: tick %d after the load has another checksum than the straight run", at, i+1)
				}
			}
			if back.score.N != straight.score.N {
				t.Fatalf("save after %d ticks: score %d, straight %d", at, back.score.N, straight.score.N)
			}
		}
	}
}

// TestLoadGivesCursorsInOrder: readers open at the load take the saved
// cursors first, readers made after take the rest, in order; a reader
// beyond the saved ones starts at the end, and the first send drops the
// cursors no reader took, with the events only they needed.
func TestLoadGivesCursorsInOrder(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[ping](w)
	a, b, c := q.NewReader(), q.NewReader(), q.NewReader()
	q.SendAll([]ping{{1}, {2}, {3}})
	a.Read()
	q.Send(ping{4})
	b.Read()
	c.Close()
	d := q.NewReader() // caught up: trimmed from the file
	_ = d
	data := saveOf(t, w) // lags: a 1, b 0, (d 0)

	back := ecs.NewWorld()
	bq := ecs.EventsOf[ping](back)
	a2 := bq.NewReader()
	if err := back.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if a2.Len() != 1 || bq.Len() != 1 || bq.Sent() != 4 {
		t.Fatalf("after the load: reader a has %d, the queue keeps %d of %d sent; want 1, 1, 4", a2.Len(), bq.Len(), bq.Sent())
	}
	b2, extra := bq.NewReader(), bq.NewReader()
	if b2.Len() != 0 || extra.Len() != 0 {
		t.Fatalf("readers made after the load: %d and %d left, want 0 and 0", b2.Len(), extra.Len())
	}
	if got := a2.Read(); len(got) != 1 || got[0].N != 4 {
		t.Fatalf("reader a read %v, want [{4}]", got)
	}

	// A cursor no reader takes keeps its events until the first send.
	back = ecs.NewWorld()
	bq = ecs.EventsOf[ping](back)
	if err := back.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if bq.Len() != 1 {
		t.Fatalf("the queue keeps %d events for the readers to come, want 1", bq.Len())
	}
	before := back.Checksum()
	if before != w.Checksum() {
		t.Fatal("the checksum of the loaded world, no reader made, differs")
	}
	bq.Send(ping{5})
	if bq.Len() != 0 || bq.Sent() != 5 {
		t.Fatalf("after the first send: %d kept of %d sent, want 0 of 5", bq.Len(), bq.Sent())
	}
	if late := bq.NewReader(); late.Len() != 0 {
		t.Fatal("a reader made after the first send took a saved cursor")
	}
}

// TestLoadSetsEveryQueue: a file of version 2 sets every queue of the
// loading world, those it does not name included (the saved world had
// sent nothing to them); Merge leaves the world's queues alone.
func TestLoadSetsEveryQueue(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[Position](w).Spawn(Position{})
	data := saveOf(t, w)
	back := ecs.NewWorld()
	ecs.NewMap[Position](back)
	q := ecs.EventsOf[ping](back)
	r := q.NewReader()
	q.Send(ping{1})
	if err := back.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if q.Sent() != 0 || r.Len() != 0 || back.Checksum() != w.Checksum() {
		t.Fatalf("a queue the file does not name: Sent %d, reader with %d left; want 0 and 0", q.Sent(), r.Len())
	}

	src := ecs.NewWorld()
	ecs.NewMap[Position](src).Spawn(Position{})
	sq := ecs.EventsOf[ping](src)
	sq.NewReader()
	sq.SendAll([]ping{{1}, {2}})
	into := ecs.NewWorld()
	ecs.NewMap[Position](into).Spawn(Position{})
	iq := ecs.EventsOf[ping](into)
	ir := iq.NewReader()
	iq.Send(ping{9})
	for _, merge := range []func(*ecs.World) error{
		func(w *ecs.World) error { _, err := w.Merge(bytes.NewReader(saveOf(t, src))); return err },
		func(w *ecs.World) error { _, err := w.MergeJSON(bytes.NewReader(saveJSONOf(t, src))); return err },
	} {
		if err := merge(into); err != nil {
			t.Fatal(err)
		}
		if iq.Sent() != 1 || ir.Len() != 1 {
			t.Fatalf("Merge changed the world's queue: Sent %d, reader with %d left", iq.Sent(), ir.Len())
		}
	}
}

type eventWithPointer struct{ P *int }

// TestSaveEventsErrors: unread events of a type a save cannot hold make
// Save fail, naming the type (none unread: it saves); unread events of a
// type the loading world has no queue for make Load fail, naming it, and
// leave the world as it was.
func TestSaveEventsErrors(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[eventWithPointer](w)
	r := q.NewReader()
	q.Send(eventWithPointer{})
	for name, save := range map[string]func(*bytes.Buffer) error{
		"Save":     func(b *bytes.Buffer) error { return w.Save(b) },
		"SaveJSON": func(b *bytes.Buffer) error { return w.SaveJSON(b) },
	} {
		err := save(&bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "eventWithPointer") || !strings.Contains(err.Error(), "not read") {
			t.Errorf("%s with an unread event of a pointer type: %v", name, err)
		}
	}
	r.Read()
	if err := w.Save(&bytes.Buffer{}); err != nil {
		t.Fatalf("Save with every event of a pointer type read: %v", err)
	}

	src := ecs.NewWorld()
	sq := ecs.EventsOf[ping](src)
	sq.NewReader()
	sq.Send(ping{1})
	for _, f := range []saveFormat{binaryFormat, jsonFormat} {
		back := ecs.NewWorld()
		other := ecs.EventsOf[lifeEvent](back)
		other.NewReader()
		other.Send(lifeEvent{})
		before := back.Checksum()
		err := f.load(back, f.save(t, src))
		if err == nil || !strings.Contains(err.Error(), "ping") || !strings.Contains(err.Error(), "no queue of that type") {
			t.Errorf("unread events of a type without a queue: %v", err)
		}
		if back.Checksum() != before || other.Sent() != 1 {
			t.Error("the failed load changed the world")
		}
	}
}

type lifeEvent struct{ N int32 }

// TestSnapshotKeepsLoadedCursors: the cursors a load keeps for readers
// not made yet are part of a snapshot, and of the checksum.
func TestSnapshotKeepsLoadedCursors(t *testing.T) {
	w := ecs.NewWorld()
	q := ecs.EventsOf[ping](w)
	q.NewReader()
	q.SendAll([]ping{{1}, {2}})
	back := ecs.NewWorld()
	bq := ecs.EventsOf[ping](back)
	if err := back.Load(bytes.NewReader(saveOf(t, w))); err != nil {
		t.Fatal(err)
	}
	var snap ecs.Snapshot
	back.Snapshot(&snap)
	sum := back.Checksum()
	bq.Send(ping{3}) // drops the kept cursor
	if back.Checksum() == sum {
		t.Fatal("dropping the kept cursor left the checksum as it was")
	}
	back.Restore(&snap)
	if back.Checksum() != sum {
		t.Fatal("Restore did not give back the kept cursor")
	}
	if got := bq.NewReader().Read(); fmt.Sprint(got) != "[{1} {2}]" {
		t.Fatalf("the reader made after the restore read %v, want [{1} {2}]", got)
	}
}

// v2File is a save file of version 2 with the given sections' contents,
// each given its length and CRC.
func v2File(sections ...saveBytes) []byte {
	b := append(saveBytes("tessera\x00"), 2)
	for _, s := range sections {
		head := binary.LittleEndian.AppendUint64(nil, uint64(len(s)))
		b = append(append(b, head...), s...)
		b = append(b, sectionCRC(head, s)...)
	}
	return b
}

// eventsFile is a save of an empty world with one event queue section per
// content given.
func eventsFile(queues ...saveBytes) []byte {
	types := saveBytes{}.uv(0, 0, 0, 0, uint64(len(queues))) // no type; 0 tables, sparse sets, resources
	return v2File(append([]saveBytes{saveBytes{}.uv(1, 0), types}, queues...)...)
}

// TestLoadRefusesBadEventQueues: an event queue section that Save never
// writes, its CRC right, is an error naming the type and what is wrong,
// and leaves the world as it was.
func TestLoadRefusesBadEventQueues(t *testing.T) {
	name := defaultName[ping]()
	q := saveBytes{}.str(name)
	intField := structOf(schemaField{"N", kindOf(kindInt32)})
	cases := []struct {
		file []byte
		want string
	}{
		{eventsFile(q.uv(2, 1, 3, 0)), "a reader with 3 events left of 2 sent"},
		{eventsFile(q.uv(2, 1, 1, 2)), "2 events some reader has not read, where the readers have 1 left at most"},
		{eventsFile(q.uv(2, 1, 0, 0)), "a trailing reader with no events left"},
		{eventsFile(q.uv(2, 0, 0), q.uv(3, 0, 0)), "is listed twice"},
		{eventsFile(append(q.uv(2, 1, 1, 1), kindOf(kindString)...)), "was saved as string"},
		{eventsFile(append(q.uv(2, 1, 1, 1), intField...)), "ping.N was saved as int32"},
		{eventsFile(q.uv(2, 1, 1, 1)), "truncated"},
	}
	for _, c := range cases {
		w := ecs.NewWorld()
		wq := ecs.EventsOf[ping](w)
		r := wq.NewReader()
		wq.Send(ping{7})
		before := w.Checksum()
		err := w.Load(bytes.NewReader(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "event queue") {
			t.Errorf("want an error in an event queue containing %q, got %v", c.want, err)
		}
		if w.Checksum() != before || wq.Sent() != 1 || r.Len() != 1 {
			t.Errorf("the failed load (%v) changed the world", err)
		}
	}
	// The same bytes, sound, load.
	w := ecs.NewWorld()
	wq := ecs.EventsOf[ping](w)
	if err := w.Load(bytes.NewReader(eventsFile(append(q.uv(2, 2, 0, 1, 1), structOf(schemaField{"N", kindOf(kindInt64)})...).uv(9, 0, 0, 0, 0, 0, 0, 0)))); err != nil {
		t.Fatal(err)
	}
	if got := wq.NewReader().Len() + wq.NewReader().Len(); wq.Sent() != 2 || got != 1 {
		t.Fatalf("loaded: Sent %d, readers with %d events between them; want 2 and 1", wq.Sent(), got)
	}
}
