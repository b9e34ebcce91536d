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

// TestStructuralDeclarationsReachOnlyTheirTypes: a precise structural
// declaration moves only the later systems that touch the types it
// changes, where Structural moves every later system that touches any.
func TestStructuralDeclarationsReachOnlyTheirTypes(t *testing.T) {
	s := sched.New(ecs.NewWorld(), sched.Workers(1))
	noop := func() {}
	mustAdd(t, s, "spawner", noop, sched.Spawns(), sched.Adds[Pos]())
	mustAdd(t, s, "physics", noop, sched.Reads[Vel](), sched.Writes[Health]()) // no Pos: beside spawner
	mustAdd(t, s, "render", noop, sched.Reads[Pos]())                          // sees the spawns
	mustAdd(t, s, "reaper", noop, sched.Reads[Damage](), sched.Despawns[Damage](), sched.Despawns[Vel]())
	mustAdd(t, s, "tally", noop, sched.Reads[Score]())      // touches nothing reaped or added
	mustAdd(t, s, "steer", noop, sched.Reads[Vel]())        // the reaper takes Vel away
	mustAdd(t, s, "cleanup", noop, sched.Removes[Health]()) // after physics in record order only
	mustAdd(t, s, "janitor", noop, sched.Structural(), sched.ApplyAtTickEnd())
	mustAdd(t, s, "late", noop, sched.Reads[Pos](), sched.Reads[Score]()) // not reached by the janitor
	got := stageOf(s)
	want := map[string]int{"spawner": 0, "physics": 0, "render": 1, "reaper": 0, "tally": 0, "steer": 1,
		"cleanup": 0, "janitor": 0, "late": 1}
	for name, st := range want {
		if got[name] != st {
			t.Errorf("%s in stage %d, want %d\n%s", name, got[name], st, s.Plan())
		}
	}
	plan := s.Plan()
	for _, reason := range []string{
		`render: after "spawner" (structural changes to component sched_test.Pos)`,
		`steer: after "reaper" (structural changes to component sched_test.Vel)`,
	} {
		if !strings.Contains(plan, reason) {
			t.Errorf("plan does not say %q:\n%s", reason, plan)
		}
	}
	// The same systems declared Structural: every later one that touches a
	// component goes after the spawner.
	all := sched.New(ecs.NewWorld(), sched.Workers(1))
	mustAdd(t, all, "spawner", noop, sched.Structural())
	mustAdd(t, all, "physics", noop, sched.Reads[Vel](), sched.Writes[Health]())
	if st := stageOf(all)["physics"]; st != 1 {
		t.Errorf("physics after a Structural spawner in stage %d, want 1", st)
	}
}

// TestStructuralSystemsKeepTheirOrder: a later system with structural
// changes never runs in an earlier stage than an earlier one (entity ids
// are handed out in the order of record) nor than an earlier system that
// reads a type it changes.
func TestStructuralSystemsKeepTheirOrder(t *testing.T) {
	s := sched.New(ecs.NewWorld(), sched.Workers(1))
	noop := func() {}
	mustAdd(t, s, "a", noop, sched.Writes[Pos]())
	mustAdd(t, s, "b", noop, sched.Reads[Pos](), sched.Spawns()) // stage 1
	mustAdd(t, s, "c", noop, sched.Spawns())                     // not before b
	mustAdd(t, s, "d", noop, sched.Reads[Vel](), sched.Writes[Health]())
	mustAdd(t, s, "e", noop, sched.Writes[Damage]())
	mustAdd(t, s, "f", noop, sched.Removes[Damage]()) // not before e, which reads Damage; changes no type b or c does
	got := stageOf(s)
	if got["b"] != 1 || got["c"] != 1 || got["e"] != 0 || got["f"] != 0 {
		t.Fatalf("stages %v\n%s", got, s.Plan())
	}
	mustAdd(t, s, "g", noop, sched.Reads[Score]())
	mustAdd(t, s, "h", noop, sched.Despawns[Score](), sched.Reads[Damage]()) // reads what f removes: after f; g reads Score: not before g
	if st := stageOf(s)["h"]; st != 1 {
		t.Fatalf("h in stage %d, want 1\n%s", st, s.Plan())
	}
}

// TestApplyAtTickEnd: the buffer of an ApplyAtTickEnd system is applied
// after the last stage, so systems of the same tick do not see its changes
// and the next tick does; a panic in a later stage drops it.
func TestApplyAtTickEnd(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2), sched.Debug())
	defer s.Close()
	pos := ecs.NewMap[Pos](w)
	counted := ecs.NewQuery1[Pos](w)
	var seen []int
	fail := false
	mustAdd(t, s, "spawner", func(ctx *sched.Context) {
		c := ctx.Commands()
		pos.SetCmd(c, c.Spawn(), Pos{X: 1})
	}, sched.Spawns(), sched.Adds[Pos](), sched.ApplyAtTickEnd())
	mustAdd(t, s, "count", func() { seen = append(seen, counted.Count()) }, sched.Reads[Pos]())
	mustAdd(t, s, "speed", func() {
		for r := range counted.All() {
			_ = r
		}
	}, sched.Reads[Pos](), sched.Writes[Vel]())
	mustAdd(t, s, "brake", func() {
		if fail {
			panic("brake failed")
		}
	}, sched.Writes[Vel]()) // stage 1
	if got := stageOf(s); got["spawner"] != 0 || got["count"] != 0 || got["brake"] != 1 {
		t.Fatalf("stages %v\n%s", got, s.Plan())
	}
	s.Run()
	s.Run()
	if !slices.Equal(seen, []int{0, 1}) || w.Len() != 2 {
		t.Fatalf("count saw %v, %d entities; want [0 1] and 2", seen, w.Len())
	}
	fail = true
	testhelp.MustPanic(t, s.Run, "brake failed")
	if w.Len() != 2 {
		t.Fatalf("%d entities after a failed tick: the end-of-tick buffer must be dropped", w.Len())
	}
	fail = false
	s.Run()
	if w.Len() != 3 {
		t.Fatalf("%d entities after a good tick, want 3", w.Len())
	}
}

// TestPreciseDeclarationsMatchASequentialRun runs the same systems twice:
// once with precise declarations on several workers in debug-checked and
// parallel form, and once with every system in a stage of its own (a chain
// of After constraints), which is a sequential run. The worlds must hold
// the same entities with the same values after every tick.
func TestPreciseDeclarationsMatchASequentialRun(t *testing.T) {
	run := func(mode string) []string {
		w := ecs.NewWorld()
		ecs.Register[Damage](w, ecs.Sparse())
		opts := []sched.SchedulerOption{sched.Workers(2)}
		if mode == "debug" {
			opts = append(opts, sched.Debug())
		}
		s := sched.New(w, opts...)
		defer s.Close()
		pos, vel, hp, dmg := ecs.NewMap[Pos](w), ecs.NewMap[Vel](w), ecs.NewMap[Health](w), ecs.NewMap[Damage](w)
		spawn := ecs.NewMap3[Pos, Vel, Health](w)
		for i := range 20 {
			spawn.Spawn(Pos{X: float64(i)}, Vel{X: 1}, Health{HP: 3 + i%4})
		}
		movers := ecs.NewQuery2[Pos, Vel](w)
		living := ecs.NewQuery1[Health](w)
		hurt := ecs.NewQuery2[Health, Damage](w)
		tick := 0
		var prev string
		add := func(name string, f func(ctx *sched.Context), o ...sched.Option) {
			if mode == "sequential" && prev != "" {
				o = append(o, sched.After(prev))
			}
			prev = name
			s.AddFunc(name, f, o...)
		}
		add("spawner", func(ctx *sched.Context) {
			c := ctx.Commands()
			if tick%3 == 0 {
				e := c.Spawn()
				pos.SetCmd(c, e, Pos{X: float64(tick)})
				hp.SetCmd(c, e, Health{HP: 2})
			}
		}, sched.Spawns(), sched.Adds[Pos](), sched.Adds[Health]())
		add("move", func(*sched.Context) {
			for r := range movers.All() {
				r.A.X += r.B.X
			}
		}, sched.Reads[Vel](), sched.Writes[Pos]())
		add("strike", func(ctx *sched.Context) {
			c := ctx.Commands()
			for r := range living.All() {
				if (r.Entity.Index()+uint32(tick))%5 == 0 {
					dmg.SetCmd(c, r.Entity, Damage{N: 1})
				}
			}
		}, sched.Reads[Health](), sched.Adds[Damage]())
		add("wound", func(ctx *sched.Context) {
			c := ctx.Commands()
			for r := range hurt.All() {
				r.A.HP -= r.B.N
				dmg.RemoveCmd(c, r.Entity)
			}
		}, sched.Writes[Health](), sched.Reads[Damage](), sched.Removes[Damage]())
		add("reap", func(ctx *sched.Context) {
			c := ctx.Commands()
			for r := range living.All() {
				if r.A.HP <= 0 {
					c.Despawn(r.Entity)
				}
			}
		}, sched.Reads[Health](), sched.Despawns[Pos](), sched.Despawns[Vel](), sched.Despawns[Health](), sched.Despawns[Damage]())
		add("brake", func(ctx *sched.Context) {
			c := ctx.Commands()
			for r := range movers.All() {
				if r.A.X > 40 {
					vel.RemoveCmd(c, r.Entity)
				}
			}
		}, sched.Reads[Pos](), sched.Reads[Vel](), sched.Removes[Vel]())
		var states []string
		for range 30 {
			s.Run()
			tick++
			var rows []string
			for r := range ecs.NewQuery1[Pos](w).All() {
				h, _ := hp.TryGet(r.Entity)
				v, _ := vel.TryGet(r.Entity)
				d, _ := dmg.TryGet(r.Entity)
				rows = append(rows, fmt.Sprintf("%v %v %v %v %v", r.Entity, *r.A, h, v, d))
			}
			slices.Sort(rows) // iteration order may differ: tables fill in another order
			states = append(states, strings.Join(rows, "\n"))
		}
		if mode == "parallel" && stageCount(s) >= len(s.Stats()) {
			t.Errorf("precise declarations gave %d stages for %d systems\n%s", stageCount(s), len(s.Stats()), s.Plan())
		}
		return states
	}
	want := run("sequential")
	for _, mode := range []string{"parallel", "debug"} {
		got := run(mode)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s run differs from the sequential one after tick %d:\n%s\nwant\n%s", mode, i+1, got[i], want[i])
			}
		}
	}
}

func stageCount(s *sched.Scheduler) int {
	n := 0
	for _, st := range s.Stats() {
		n = max(n, st.Stage+1)
	}
	return n
}

// TestResolveSpawnsOfTheLastTick: a system spawns through a MapN's
// SpawnCmd, and on its next Update resolves the pending entities of the
// buffer the scheduler applied.
func TestResolveSpawnsOfTheLastTick(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2), sched.Debug())
	defer s.Close()
	pv, pos := ecs.NewMap2[Pos, Vel](w), ecs.NewMap[Pos](w)
	var pending []ecs.Entity
	var resolved []ecs.Entity
	mustAdd(t, s, "spawner", func(ctx *sched.Context) {
		c := ctx.Commands()
		for _, p := range pending {
			e, ok := c.Resolve(p)
			if at, has := pos.TryGet(e); !ok || !has || at.X != float64(len(resolved)) {
				t.Errorf("pending %v resolved to %v, %v", p, e, ok)
			}
			resolved = append(resolved, e)
		}
		pending = pending[:0]
		pending = append(pending, pv.SpawnCmd(c, Pos{X: float64(len(resolved))}, Vel{}))
		if _, ok := c.Resolve(pending[0]); ok {
			t.Error("a pending entity of the buffer being recorded resolved")
		}
	}, sched.Spawns(), sched.Adds[Pos](), sched.Adds[Vel](), sched.Reads[Pos]())
	for range 3 {
		s.Run()
	}
	if len(resolved) != 2 || resolved[0] == resolved[1] || w.Len() != 3 {
		t.Fatalf("resolved %v, %d entities", resolved, w.Len())
	}
}
