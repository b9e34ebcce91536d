package sched_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type stPos struct{ X, Y float64 }
type stVel struct{ X, Y float64 }
type stScore struct{ Total int64 }

// stWorld is a small simulation: n bodies that move and bounce, a score
// resource, one spawn every 5 ticks and one despawn every 7. leak, when
// set, is called by the move system with its tick count, a count kept
// outside the world (the classic sync-test failure): what it returns is
// added to the first body's Y.
func stWorld(t *testing.T, workers, n int, leak func(calls int) float64) (*sched.Scheduler, *sched.FixedLoop, []ecs.Entity) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[stPos, stVel](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = pv.Spawn(stPos{float64(i), 0}, stVel{1, float64(i%7) - 3})
	}
	ecs.AddResource(w, &stScore{})
	bodies := ecs.NewQuery2[stPos, stVel](w)
	s := sched.New(w, sched.Workers(workers))
	t.Cleanup(s.Close)
	calls := 0
	s.AddFunc("move", func(ctx *sched.Context) {
		dt := ecs.GetResource[sched.Time](ctx.World()).DT
		for r := range bodies.All() {
			r.A.X += float64(r.B.X * dt)
			r.A.Y += float64(r.B.Y * dt)
		}
		calls++
		if leak != nil {
			p, _ := pv.Get(es[0])
			p.Y += leak(calls)
		}
	}, sched.Reads[stVel](), sched.Writes[stPos](), sched.ReadsResource[sched.Time]())
	s.AddFunc("bounce", func(ctx *sched.Context) {
		for r := range bodies.All() {
			if r.A.Y < -10 || r.A.Y > 10 {
				r.B.Y = -r.B.Y
			}
		}
	}, sched.Reads[stPos](), sched.Writes[stVel]())
	s.AddFunc("score", func(ctx *sched.Context) {
		ecs.GetResource[stScore](ctx.World()).Total += int64(bodies.Count())
	}, sched.Reads[stPos](), sched.WritesResource[stScore]())
	s.AddFunc("churn", func(ctx *sched.Context) {
		tick := ecs.GetResource[sched.Time](ctx.World()).Tick
		c := ctx.Commands()
		if tick%5 == 0 {
			e := c.Spawn()
			pv.SetCmd(c, e, stPos{0, float64(tick)}, stVel{1, 1})
		}
		if tick%7 == 0 {
			var last ecs.Entity
			for r := range bodies.All() {
				last = r.Entity
			}
			c.Despawn(last)
		}
	}, sched.Reads[stPos](), sched.ReadsResource[sched.Time](), sched.Structural())
	loop := sched.NewFixedLoop(s, time.Second/60)
	return s, loop, es
}

func TestSyncTestPassesADeterministicSimulation(t *testing.T) {
	for _, workers := range []int{1, 2} {
		for _, k := range []int{1, 3, 8} {
			plain, plainLoop, _ := stWorld(t, workers, 300, nil)
			s, loop, _ := stWorld(t, workers, 300, nil)
			st := sched.NewSyncTest(s, k)
			for range 40 {
				plainLoop.Step()
				if err := st.Step(loop.Step); err != nil {
					t.Fatalf("workers %d, k %d: %v", workers, k, err)
				}
			}
			if st.Ticks() != 40 || loop.Time().Tick != 40 {
				t.Fatalf("workers %d, k %d: %d ticks, Time.Tick %d; want 40", workers, k, st.Ticks(), loop.Time().Tick)
			}
			// The sync test leaves the world where a plain run would be.
			if r := ecs.Diff(plain.World(), s.World(), 5); !r.Equal() {
				t.Fatalf("workers %d, k %d: the sync-tested world differs from a plain run:\n%v", workers, k, &r)
			}
		}
	}
}

// TestSyncTestNamesTheLeak keeps a count outside the world that a system
// adds to a component: the re-run differs, and the error names the tick,
// the component, the system that writes it, the entity and the field.
func TestSyncTestNamesTheLeak(t *testing.T) {
	s, loop, es := stWorld(t, 2, 200, func(calls int) float64 {
		if calls == 12 {
			return 0.5
		}
		return 0
	})
	st := sched.NewSyncTest(s, 2)
	var err error
	for range 30 {
		if err = st.Step(loop.Step); err != nil {
			break
		}
	}
	var se *sched.SyncError
	if !errors.As(err, &se) {
		t.Fatalf("no sync error after 30 ticks: %v", err)
	}
	// With k = 2, step n runs tick n and then ticks n-1 and n again
	// (step 1 runs tick 1 only; step 2 runs 2, then 1 and 2): calls 1, 2,
	// 3, 4 are ticks 1, 2, 1, 2; calls 5, 6, 7 are 3, 2, 3; 8, 9, 10 are
	// 4, 3, 4; 11, 12 are 5 and tick 4 run again, which gets the half.
	if se.Tick != 4 || se.Back != 2 {
		t.Fatalf("tick %d back %d; want tick 4 back 2\n%v", se.Tick, se.Back, err)
	}
	if len(se.Parts) != 1 || se.Parts[0].Name != "github.com/tessera-ecs/tessera/sched_test.stPos" {
		t.Fatalf("parts %v, want stPos only", se.Parts)
	}
	if ws := se.Writers[se.Parts[0].Name]; len(ws) != 2 || ws[0] != "move" || ws[1] != "churn" {
		t.Fatalf("writers %v, want move and churn (structural)", ws)
	}
	d := se.Report.Differences
	if len(d) != 1 || d[0].Entity != es[0] || d[0].Field != "Y" {
		t.Fatalf("report:\n%v", &se.Report)
	}
	msg := err.Error()
	for _, want := range []string{"tick 4 ", "sched_test.stPos", "written by move, churn", "entity " + es[0].String(), "field Y"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

// TestSyncTestNamesAResource leaks into a resource through a system that
// declares writing it.
func TestSyncTestNamesAResource(t *testing.T) {
	s, loop, _ := stWorld(t, 1, 50, nil)
	calls := 0
	s.AddFunc("bonus", func(ctx *sched.Context) {
		calls++
		ecs.GetResource[stScore](ctx.World()).Total += int64(calls)
	}, sched.WritesResource[stScore]())
	st := sched.NewSyncTest(s, 1)
	err := st.Step(loop.Step)
	var se *sched.SyncError
	if !errors.As(err, &se) {
		t.Fatalf("no sync error: %v", err)
	}
	if se.Tick != 1 || len(se.Parts) != 1 || se.Parts[0].Kind != ecs.PartResource {
		t.Fatalf("tick %d, parts %v; want tick 1, the score resource", se.Tick, se.Parts)
	}
	if ws := se.Writers[se.Parts[0].Name]; len(ws) != 2 || ws[0] != "score" || ws[1] != "bonus" {
		t.Fatalf("writers %v, want score and bonus", ws)
	}
	if d := se.Report.Differences; len(d) != 1 || d[0].Field != "Total" || d[0].Part != ecs.PartResource {
		t.Fatalf("report:\n%v", &se.Report)
	}
}

func TestNewSyncTestRefusesNoRollback(t *testing.T) {
	s, _, _ := stWorld(t, 1, 1, nil)
	for _, k := range []int{0, -1, sched.MaxSyncTestBack + 1, math.MaxInt} {
		func() {
			defer func() {
				want := fmt.Sprintf("sched: NewSyncTest: %d ticks back; want 1 to %d", k, sched.MaxSyncTestBack)
				if r := recover(); r != want {
					t.Fatalf("panic %v, want %q", r, want)
				}
			}()
			sched.NewSyncTest(s, k)
		}()
	}
}

type stNoClone struct{ L []int }

// TestSyncTestRefusesWorldsSnapshotsCannotTake: a type that holds a slice
// without a Clone method stops the first Step with the snapshot's message,
// before any tick runs.
func TestSyncTestRefusesWorldsSnapshotsCannotTake(t *testing.T) {
	s, loop, es := stWorld(t, 1, 3, nil)
	ecs.NewMap[stNoClone](s.World()).Set(es[0], stNoClone{L: []int{1}})
	st := sched.NewSyncTest(s, 2)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "stNoClone") || !strings.Contains(r.(string), "Clone") {
			t.Fatalf("panic %v, want the snapshot's message naming stNoClone", r)
		}
		if loop.Time().Tick != 0 {
			t.Fatalf("a tick ran (Time.Tick %d) before the refusal", loop.Time().Tick)
		}
	}()
	_ = st.Step(loop.Step)
}
