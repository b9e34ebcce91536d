package sched_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

// Blast is an event: From hit To for Power, as the sender named Who saw it.
type Blast struct {
	From, To ecs.Entity
	Power    int
	Who      string
}

// Seq is an event numbered by its sender: system Src's N-th event of tick
// Tick.
type Seq struct{ Tick, Src, N int }

// eventsRun runs a program of event senders and readers over a world of
// entities for ticks ticks on the given number of workers, and returns what
// each reader read, tick by tick, and the world's checksum after each tick.
//
// Three senders share a stage, each sending events chosen by a query over
// the entities. A reader registered before them reads the events in the
// next tick; one registered after them applies the events to Health in a
// later stage; one reads every other tick only; a reaper that despawns the
// dead sends events of its own in a later stage, which the appliers see
// next tick, and a spawner keeps the population up.
func eventsRun(t *testing.T, workers, ticks int) (reads []string, sums []uint64) {
	t.Helper()
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(workers))
	defer s.Close()
	ph := ecs.NewMap2[Pos, Health](w)
	for i := range 500 {
		r := mix(7, uint64(i))
		ph.Spawn(Pos{float64(r % 100), float64(r >> 8 % 100)}, Health{30})
	}
	health := ecs.NewMap[Health](w)
	living := ecs.NewQuery2[Pos, Health](w)
	blasts := sched.NewEventSender[Blast](s)
	early, apply, odd := blasts.NewReader(), blasts.NewReader(), blasts.NewReader()
	tick := 0
	var logEarly, logApply, logOdd strings.Builder
	record := func(b *strings.Builder, es []Blast) {
		fmt.Fprintf(b, "t%d:", tick)
		for _, e := range es {
			fmt.Fprintf(b, " %s %d>%d:%d", e.Who, e.From.Index(), e.To.Index(), e.Power)
		}
		b.WriteByte('\n')
	}

	s.AddFunc("early", func(*sched.Context) { record(&logEarly, early.Read()) }, sched.ReadsEvents[Blast]())
	for k, name := range []string{"fire-a", "fire-b", "fire-c"} {
		s.AddFunc(name, func(ctx *sched.Context) {
			var prev ecs.Entity
			for r := range living.All() {
				if mix(uint64(tick*3+k), uint64(r.Entity.Index()))%11 == 0 {
					if !prev.IsZero() {
						blasts.Send(ctx, Blast{From: prev, To: r.Entity, Power: 1 + int(r.A.X)%5, Who: name})
					}
					prev = r.Entity
				}
			}
		}, sched.Reads[Pos](), sched.Reads[Health](), sched.SendsEvents[Blast]())
	}
	s.AddFunc("apply", func(*sched.Context) {
		es := apply.Read()
		record(&logApply, es)
		for _, e := range es {
			if h, ok := health.TryGet(e.To); ok {
				h.HP -= e.Power
			}
		}
	}, sched.ReadsEvents[Blast](), sched.Writes[Health]())
	s.AddFunc("odd", func(*sched.Context) {
		if tick%2 == 1 {
			record(&logOdd, odd.Read())
		}
	}, sched.ReadsEvents[Blast]())
	s.AddFunc("reaper", func(ctx *sched.Context) {
		c := ctx.Commands()
		for r := range living.All() {
			if r.B.HP <= 0 {
				c.Despawn(r.Entity)
				blasts.Send(ctx, Blast{From: r.Entity, To: r.Entity, Power: 0, Who: "reaper"})
			}
		}
	}, sched.Reads[Pos](), sched.Reads[Health](), sched.Despawns[Pos](), sched.Despawns[Health](), sched.SendsEvents[Blast]())
	s.AddFunc("spawner", func(ctx *sched.Context) {
		c := ctx.Commands()
		n := int(mix(uint64(tick), 99) % 6)
		for i := range n {
			r := mix(uint64(tick), uint64(1000+i))
			ph.SpawnCmd(c, Pos{float64(r % 100), float64(r >> 8 % 100)}, Health{30})
		}
		blasts.Send(ctx, Blast{Power: n, Who: "spawner"})
	}, sched.Spawns(), sched.Adds[Pos](), sched.Adds[Health](), sched.ApplyAtTickEnd(), sched.SendsEvents[Blast]())

	stage := map[string]int{}
	for _, st := range s.Stats() {
		stage[st.Name] = st.Stage
	}
	if stage["fire-a"] != stage["fire-b"] || stage["fire-b"] != stage["fire-c"] ||
		stage["early"] > stage["fire-a"] || stage["apply"] <= stage["fire-c"] || stage["reaper"] <= stage["apply"] {
		t.Fatalf("unexpected plan:\n%s", s.Plan())
	}

	for tick = 0; tick < ticks; tick++ {
		s.Run()
		sums = append(sums, w.Checksum())
	}
	lines := strings.Split(strings.TrimSpace(logApply.String()), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "fire") || !strings.Contains(last, "spawner") {
		t.Fatal("the scenario is too quiet: nothing was fired in the last tick")
	}
	return []string{logEarly.String(), logApply.String(), logOdd.String()}, sums
}

// The same program reads the same events, in the same order, and leaves
// the same world after every tick with 1, 2, 4 and 8 workers.
func TestEventsDeterministicAcrossWorkers(t *testing.T) {
	ticks := 400
	if testing.Short() {
		ticks = 60
	}
	wantReads, wantSums := eventsRun(t, 1, ticks)
	if strings.Count(wantReads[1], "reaper") == 0 || strings.Count(wantReads[1], "fire-c") == 0 {
		t.Fatal("the scenario is too quiet: no reaper or fire-c events were read")
	}
	for _, workers := range []int{2, 4, 8} {
		reads, sums := eventsRun(t, workers, ticks)
		for i, name := range []string{"early", "apply", "odd"} {
			if reads[i] != wantReads[i] {
				t.Errorf("%d workers: reader %s read differently from one worker", workers, name)
			}
		}
		for k := range sums {
			if sums[k] != wantSums[k] {
				t.Errorf("%d workers: checksum after tick %d differs from one worker's", workers, k)
				break
			}
		}
	}
}

// Every reader reads every event once, in the order of record of the
// senders and then in send order: in the same tick when it comes after
// them, in the next when it comes before, and all of them when it reads
// only every third tick.
func TestEventsReadersSeeEveryEventOnceInOrder(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			w := ecs.NewWorld()
			s := sched.New(w, sched.Workers(workers))
			defer s.Close()
			ev := sched.NewEventSender[Seq](s)
			if sched.NewEventSender[Seq](s) != ev {
				t.Fatal("a second NewEventSender for one type made another sender")
			}
			before, after, rare := ev.NewReader(), ev.NewReader(), ev.NewReader()
			tick := 0
			var gotBefore, gotAfter, gotRare []Seq
			var sent []Seq // what the senders sent, in the expected order
			s.AddFunc("before", func(*sched.Context) { gotBefore = append(gotBefore, before.Read()...) }, sched.ReadsEvents[Seq]())
			for src := range 3 {
				s.AddFunc(fmt.Sprint("send", src), func(ctx *sched.Context) {
					for n := range (tick + src) % 4 {
						ev.Send(ctx, Seq{tick, src, n})
					}
				}, sched.SendsEvents[Seq]())
			}
			s.AddFunc("after", func(*sched.Context) { gotAfter = append(gotAfter, after.Read()...) }, sched.ReadsEvents[Seq]())
			s.AddFunc("rare", func(*sched.Context) {
				if tick%3 == 0 {
					gotRare = append(gotRare, rare.Read()...)
				}
			}, sched.ReadsEvents[Seq]())
			const ticks = 30
			var lastTick []Seq
			for tick = 0; tick < ticks; tick++ {
				n := len(sent)
				for src := range 3 {
					for k := range (tick + src) % 4 {
						sent = append(sent, Seq{tick, src, k})
					}
				}
				lastTick = sent[n:]
				s.Run()
			}
			if !slices.Equal(gotAfter, sent) {
				t.Errorf("the reader after the senders read\n%v\nwant\n%v", gotAfter, sent)
			}
			// The reader before the senders has not read the last tick's.
			if !slices.Equal(gotBefore, sent[:len(sent)-len(lastTick)]) {
				t.Errorf("the reader before the senders read %d events, want all but the last tick's %d", len(gotBefore), len(sent)-len(lastTick))
			}
			gotRare = append(gotRare, rare.Read()...)
			if !slices.Equal(gotRare, sent) {
				t.Errorf("the rare reader read %d events, want %d in order", len(gotRare), len(sent))
			}
			if q := ev.Queue(); q.Len() != len(lastTick) || q.Sent() != uint64(len(sent)) {
				t.Errorf("queue: Len %d, Sent %d; want %d (the before-reader's unread), %d", q.Len(), q.Sent(), len(lastTick), len(sent))
			}
		})
	}
}

// When every reader reads every tick, nothing accumulates in the queue.
func TestEventsDoNotAccumulate(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	ev := sched.NewEventSender[Seq](s)
	r1, r2 := ev.NewReader(), ev.NewReader()
	read := 0
	s.AddFunc("send", func(ctx *sched.Context) {
		for n := range 50 {
			ev.Send(ctx, Seq{N: n})
		}
	}, sched.SendsEvents[Seq]())
	s.AddFunc("r1", func(*sched.Context) { read += len(r1.Read()) }, sched.ReadsEvents[Seq]())
	s.AddFunc("r2", func(*sched.Context) { r2.Read() }, sched.ReadsEvents[Seq](), sched.After("r1"))
	for range 500 {
		s.Run()
		if n := ev.Queue().Len(); n != 0 {
			t.Fatalf("after a tick in which every reader read, the queue keeps %d events", n)
		}
	}
	if read != 500*50 {
		t.Errorf("r1 read %d events, want %d", read, 500*50)
	}
}

func TestEventsMisuse(t *testing.T) {
	t.Run("undeclared Send in debug mode", func(t *testing.T) {
		w := ecs.NewWorld()
		s := sched.New(w, sched.Debug())
		defer s.Close()
		ev := sched.NewEventSender[Seq](s)
		s.AddFunc("declared", func(ctx *sched.Context) { ev.Send(ctx, Seq{}) }, sched.SendsEvents[Seq]())
		s.AddFunc("sneaky", func(ctx *sched.Context) { ev.Send(ctx, Seq{}) }, sched.ReadsEvents[Seq]())
		testhelp.MustPanic(t, s.Run, `system "sneaky"`, "sched_test.Seq", "sched.SendsEvents[sched_test.Seq]()")
	})
	t.Run("Send inside ForEach", func(t *testing.T) {
		w := ecs.NewWorld()
		s := sched.New(w, sched.Workers(2))
		defer s.Close()
		ev := sched.NewEventSender[Seq](s)
		s.AddFunc("loop", func(ctx *sched.Context) {
			sched.ForEach(ctx, []int{1, 2, 3}, func(int) { ev.Send(ctx, Seq{}) })
		}, sched.SendsEvents[Seq]())
		testhelp.MustPanic(t, s.Run, `system "loop"`, "inside ForEach")
	})
	t.Run("ecs Send in a system", func(t *testing.T) {
		w := ecs.NewWorld()
		s := sched.New(w, sched.Workers(2))
		defer s.Close()
		q := ecs.EventsOf[Seq](w)
		s.AddFunc("direct", func(*sched.Context) { q.Send(Seq{}) })
		testhelp.MustPanic(t, s.Run, `system "direct"`, "parallel section", "sched.EventSender.Send")
	})
	t.Run("NewEventSender and NewReader in a system", func(t *testing.T) {
		w := ecs.NewWorld()
		s := sched.New(w, sched.Workers(1))
		defer s.Close()
		ev := sched.NewEventSender[Seq](s)
		s.AddFunc("maker", func(*sched.Context) { sched.NewEventSender[Blast](s) })
		testhelp.MustPanic(t, s.Run, "NewEventSender[sched_test.Blast]", "before the first Run")
		if err := s.Enable("maker", false); err != nil {
			t.Fatal(err)
		}
		s.AddFunc("reader-maker", func(*sched.Context) { ev.NewReader() })
		testhelp.MustPanic(t, s.Run, "NewReader", "before the first Run")
	})
	t.Run("Send with another scheduler's Context", func(t *testing.T) {
		w := ecs.NewWorld()
		s, other := sched.New(w, sched.Workers(1)), sched.New(ecs.NewWorld(), sched.Workers(1))
		defer s.Close()
		defer other.Close()
		ev := sched.NewEventSender[Seq](other)
		s.AddFunc("stranger", func(ctx *sched.Context) { ev.Send(ctx, Seq{}) })
		testhelp.MustPanic(t, s.Run, "another scheduler")
	})
}

// A stage that panics sends none of its events; the next tick sends its
// own as usual.
func TestEventsOfAFailedStageAreDiscarded(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	ev := sched.NewEventSender[Seq](s)
	r := ev.NewReader()
	fail := true
	s.AddFunc("send", func(ctx *sched.Context) { ev.Send(ctx, Seq{N: 1}) }, sched.SendsEvents[Seq]())
	s.AddFunc("boom", func(*sched.Context) {
		if fail {
			panic("boom")
		}
	})
	if runRecovered(s) == nil {
		t.Fatal("the system's panic was lost")
	}
	if r.Len() != 0 {
		t.Fatalf("a failed stage sent %d events", r.Len())
	}
	fail = false
	s.Run()
	if got := r.Read(); len(got) != 1 {
		t.Errorf("the tick after the failure sent %v, want one event", got)
	}
}

// Events are not components: a reader of events only is not pushed behind
// a Structural system, and the plan names the events that order a reader
// after a sender.
func TestEventsPlan(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(1))
	defer s.Close()
	ev := sched.NewEventSender[Seq](s)
	r := ev.NewReader()
	s.AddFunc("builder", func(*sched.Context) {}, sched.Structural())
	s.AddFunc("send", func(ctx *sched.Context) { ev.Send(ctx, Seq{}) }, sched.SendsEvents[Seq]())
	s.AddFunc("read", func(*sched.Context) { r.Read() }, sched.ReadsEvents[Seq]())
	stage := stageOf(s)
	if stage["builder"] != 0 || stage["send"] != 0 || stage["read"] != 1 {
		t.Errorf("stages %v, want builder and send in 0, read in 1\n%s", stage, s.Plan())
	}
	if plan := s.Plan(); !strings.Contains(plan, `read: after "send" (events sched_test.Seq)`) {
		t.Errorf("the plan does not name the events:\n%s", plan)
	}
}

// A rollback through sched: restoring a snapshot taken between ticks
// rewinds the events and cursors, so re-running gives the same reads and
// checksum.
func TestEventsRollback(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(4))
	defer s.Close()
	ev := sched.NewEventSender[Seq](s)
	r, slow := ev.NewReader(), ev.NewReader()
	tick := 0
	var got []Seq
	s.AddFunc("send", func(ctx *sched.Context) {
		for n := range tick%3 + 1 {
			ev.Send(ctx, Seq{Tick: tick, N: n})
		}
	}, sched.SendsEvents[Seq]())
	s.AddFunc("read", func(*sched.Context) { got = append(got, r.Read()...) }, sched.ReadsEvents[Seq]())
	s.AddFunc("slow", func(*sched.Context) {
		if tick%4 == 0 {
			slow.Read()
		}
	}, sched.ReadsEvents[Seq]())
	run := func(from, to int) {
		for tick = from; tick < to; tick++ {
			s.Run()
		}
	}
	run(0, 5)
	var snap ecs.Snapshot
	w.Snapshot(&snap)
	mark := len(got)
	run(5, 10)
	first, sum := slices.Clone(got[mark:]), w.Checksum()
	w.Restore(&snap)
	got = got[:mark]
	run(5, 10)
	if !slices.Equal(got[mark:], first) || w.Checksum() != sum {
		t.Errorf("re-running after a restore read %v (checksum equal: %v), want %v", got[mark:], w.Checksum() == sum, first)
	}
}
