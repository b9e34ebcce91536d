package sched

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type allocEvent struct{ N int }

// Warm ticks of sending and reading allocate nothing: the events every
// reader has read are dropped, so the queue's buffer never grows. The test
// drives Send and sync itself: Run allocates for its own reasons.
func TestEventsSyncDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are skewed by the race detector")
	}
	w := ecs.NewWorld()
	s := New(w, Workers(1))
	defer s.Close()
	ev := NewEventSender[allocEvent](s)
	fast, slow := ev.NewReader(), ev.NewReader()
	for range 3 {
		s.AddFunc("send"+string(rune('a'+len(s.systems))), func(*Context) {}, SendsEvents[allocEvent]())
	}
	if err := s.Build(); err != nil {
		t.Fatal(err)
	}
	stage := s.stages[0]
	if len(stage) != 3 {
		t.Fatalf("the senders are in %d stages", len(s.stages))
	}
	n, got := 0, 0
	tick := func() {
		for j, x := range stage {
			for i := range 10 + j {
				ev.Send(&x.ctx, allocEvent{i})
			}
		}
		ev.sync(stage)
		got += len(fast.Read())
		if n++; n%3 == 0 {
			got += len(slow.Read())
		}
	}
	for range 10 {
		tick()
	}
	if a := testing.AllocsPerRun(100, tick); a != 0 {
		t.Errorf("%v allocations per tick", a)
	}
	if want := n*33 + n/3*3*33; got != want { // slow reads three ticks at a time
		t.Errorf("read %d events, want %d", got, want)
	}
}
