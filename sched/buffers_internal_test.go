package sched

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type (
	namedEvent struct{ Name string }
	namedTag   struct{ Name string }
)

// The per-system buffers of an EventSender and of an Output, once their
// stage is synced, are empty and hold no pointer the collector would
// keep alive through their arrays, which they keep for the next stage.
func TestSpentBuffersAreCleared(t *testing.T) {
	w := ecs.NewWorld()
	s := New(w, Workers(1))
	defer s.Close()
	e := ecs.NewMap[namedTag](w).Spawn(namedTag{})
	ev := NewEventSender[namedEvent](s)
	r := ev.NewReader()
	o := NewOutput[namedTag](s, nil)
	s.AddFunc("both", func(*Context) {}, SendsEvents[namedEvent](), Emits[namedTag]())
	if err := s.Build(); err != nil {
		t.Fatal(err)
	}
	if !ev.pointers || !o.pointers {
		t.Fatalf("pointers: events %v, output %v; both types hold a string", ev.pointers, o.pointers)
	}
	stage := s.stages[0]
	x := stage[0]
	ev.Send(&x.ctx, namedEvent{"a"})
	ev.Send(&x.ctx, namedEvent{"b"})
	o.Emit(&x.ctx, e, namedTag{"c"})
	events, emitted := ev.bufs[x.index][:2], o.bufs[x.index][:1]
	ev.sync(stage)
	o.sync(stage)
	if got := r.Read(); len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Errorf("read %v, want a and b", got)
	}
	if len(ev.bufs[x.index]) != 0 || len(o.bufs[x.index]) != 0 {
		t.Errorf("buffers hold %d events and %d values after sync", len(ev.bufs[x.index]), len(o.bufs[x.index]))
	}
	if events[0].Name != "" || events[1].Name != "" || emitted[0].v.Name != "" {
		t.Errorf("spent arrays still hold %q, %q and %q", events[0].Name, events[1].Name, emitted[0].v.Name)
	}
}
