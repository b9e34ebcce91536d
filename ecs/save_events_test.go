package ecs_test

import (
	"bytes"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// TestSaveCarriesNoEvents pins what Load's doc says of events: a loaded
// world's queues start empty with Sent at 0, so its checksum equals the
// saved world's until the saved world sends an event, and not after,
// even when every event was read.
func TestSaveCarriesNoEvents(t *testing.T) {
	type ping struct{ N int }
	w := ecs.NewWorld()
	ecs.NewMap[Position](w).Spawn(Position{X: 1})
	q := ecs.EventsOf[ping](w)
	r := q.NewReader()
	load := func() *ecs.World {
		t.Helper()
		var file bytes.Buffer
		if err := w.Save(&file); err != nil {
			t.Fatal(err)
		}
		back := ecs.NewWorld()
		ecs.NewMap[Position](back)
		if err := back.Load(&file); err != nil {
			t.Fatal(err)
		}
		return back
	}
	if back := load(); back.Checksum() != w.Checksum() {
		t.Fatal("no event sent: the loaded world's checksum differs")
	}
	q.Send(ping{1})
	if got := len(r.Read()); got != 1 {
		t.Fatalf("read %d events, want 1", got)
	}
	back := load()
	if back.Checksum() == w.Checksum() {
		t.Fatal("an event was sent: the checksums should differ, as Sent does")
	}
	if sent := ecs.EventsOf[ping](back).Sent(); sent != 0 || q.Sent() != 1 {
		t.Fatalf("Sent: loaded %d, saved %d; want 0 and 1", sent, q.Sent())
	}
}
