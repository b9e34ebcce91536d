package ecs

import (
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type lifeHit struct{ N int }

// A reader made or closed between a snapshot and its restore leaves the
// checksum as it was at the snapshot: readers with nothing left to read
// are the program's, not the world's state. A reader's position among the
// events still counts.
func TestEventReadersMadeOrClosedSinceASnapshotKeepTheChecksum(t *testing.T) {
	for _, since := range []string{"made", "closed"} {
		w := NewWorld()
		q := EventsOf[lifeHit](w)
		behind, done := q.NewReader(), q.NewReader()
		for i := range 5 {
			q.Send(lifeHit{i})
		}
		done.Read()
		var snap Snapshot
		w.Snapshot(&snap)
		sum := w.Checksum()

		var late *EventReader[lifeHit]
		if since == "made" {
			late = q.NewReader() // Restore moves it to the end
			q.Send(lifeHit{5})
			late.Read()
		} else {
			done.Close() // caught up at the snapshot
		}
		w.Restore(&snap)
		if got := w.Checksum(); got != sum {
			t.Fatalf("checksum %x after Restore with a reader %s since the snapshot, want %x", got, since, sum)
		}
		if behind.Len() != 5 || (late != nil && late.Len() != 0) {
			t.Fatalf("after Restore: the reader behind has %d events, want 5 (and none for one made since)", behind.Len())
		}
		// The cursors of readers with events left still count.
		behind.Read()
		if w.Checksum() == sum {
			t.Fatal("a reader reading its events did not change the checksum")
		}
	}
}

// Closing the reader that kept a queue's events gives their memory back
// at once, not at the next World.Shrink.
func TestClosingTheLaggingReaderFreesTheBuffer(t *testing.T) {
	w := NewWorld()
	q := EventsOf[lifeHit](w)
	lagging, current := q.NewReader(), q.NewReader()
	for i := range 100000 {
		q.Send(lifeHit{i})
		if i%1000 == 0 {
			current.Read()
		}
	}
	current.Read()
	if cap(q.buf) < 100000 {
		t.Fatalf("the lagging reader kept a buffer of %d, want all 100000 events", cap(q.buf))
	}
	lagging.Close()
	if cap(q.buf) != 0 {
		t.Fatalf("after closing the lagging reader the buffer holds room for %d events, want none", cap(q.buf))
	}
	// With a few events still unread by the other reader, the buffer
	// shrinks to them.
	for i := range 10 {
		q.Send(lifeHit{i})
	}
	other := q.NewReader()
	for i := range 50000 {
		q.Send(lifeHit{i})
	}
	current.Read()
	q.Send(lifeHit{-1})
	other.Close()
	if got := cap(q.buf); got > 4 {
		t.Fatalf("after the close, a buffer of capacity %d for 1 unread event", got)
	}
	if r := current.Read(); len(r) != 1 || r[0].N != -1 {
		t.Fatalf("the remaining reader read %v, want the one event sent after its last read", r)
	}
}

// Operations that need a settled world name another goroutine, not a
// hook, when the only trace they find is a structural change in progress,
// and mention it otherwise.
func TestBusyWorldMessagesNameAnotherGoroutine(t *testing.T) {
	w := NewWorld()
	w.mutating = true // what another goroutine's Spawn looks like from here
	var s Snapshot
	testhelp.MustPanic(t, func() { w.Snapshot(&s) }, "Snapshot", "concurrent structural change", "another goroutine")
	w.mutating = false
	NewMap[lifeHit](w).Spawn(lifeHit{1})
	for range NewQuery1[lifeHit](w).All() {
		msg := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			w.Snapshot(&s)
			return ""
		}()
		if !strings.Contains(msg, "inside an iteration") || !strings.Contains(msg, "another goroutine") {
			t.Fatalf("Snapshot inside a loop: %q, want the loop named and another goroutine mentioned", msg)
		}
	}
}
