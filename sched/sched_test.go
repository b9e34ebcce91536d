package sched_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

type Pos struct{ X, Y float64 }
type Vel struct{ X, Y float64 }
type Health struct{ HP int }
type Damage struct{ N int }
type Score struct{ N int }

// mustAdd registers sys, a System, a func(*sched.Context) or a func(), with
// the entry point that fits it.
func mustAdd(t *testing.T, s *sched.Scheduler, name string, sys any, opts ...sched.Option) {
	t.Helper()
	switch f := sys.(type) {
	case sched.System:
		s.Add(name, f, opts...)
	case func(*sched.Context):
		s.AddFunc(name, f, opts...)
	case func():
		s.AddFunc(name, func(*sched.Context) { f() }, opts...)
	default:
		t.Fatalf("mustAdd: %T is not a system", sys)
	}
}

func stageOf(s *sched.Scheduler) map[string]int {
	m := map[string]int{}
	for _, st := range s.Stats() {
		m[st.Name] = st.Stage
	}
	return m
}

func TestStagesGroupSystemsThatDoNotConflict(t *testing.T) {
	s := sched.New(ecs.NewWorld(), sched.Workers(1))
	noop := func() {}
	mustAdd(t, s, "move", noop, sched.Reads[Vel](), sched.Writes[Pos]())
	mustAdd(t, s, "regen", noop, sched.Writes[Health]())
	mustAdd(t, s, "drag", noop, sched.Writes[Vel]())   // reads/writes Vel: after move
	mustAdd(t, s, "render", noop, sched.Reads[Pos]())  // after move
	mustAdd(t, s, "radar", noop, sched.Reads[Pos]())   // beside render
	mustAdd(t, s, "hurt", noop, sched.Emits[Health]()) // beside regen: outputs merge after its writes
	mustAdd(t, s, "burn", noop, sched.Emits[Health]()) // beside hurt: emitters share
	mustAdd(t, s, "show", noop, sched.Reads[Health]()) // after regen and the emitters
	mustAdd(t, s, "scorer", noop, sched.Emits[Score]())
	mustAdd(t, s, "board", noop, sched.Reads[Score]()) // must see scorer's merged outputs
	mustAdd(t, s, "spawner", noop, sched.Structural()) // touches no component: stage 0
	mustAdd(t, s, "reaper", noop, sched.Structural(), sched.Writes[Health]())
	mustAdd(t, s, "tick", noop, sched.WritesResource[sched.Time]())
	mustAdd(t, s, "clock", noop, sched.ReadsResource[sched.Time]())
	if err := s.Build(); err != nil {
		t.Fatal(err)
	}
	got := stageOf(s)
	want := map[string]int{"move": 0, "regen": 0, "drag": 1, "render": 1, "radar": 1, "hurt": 0, "burn": 0,
		"show": 1, "scorer": 0, "board": 1, "spawner": 1, "reaper": 2, "tick": 0, "clock": 1}
	// spawner is structural and touches no component: it may share a stage
	// with the systems before it but not run before any of them (drag is in
	// stage 1). reaper writes Health after show reads it, and comes after
	// spawner, whose changes it must see.
	for name, st := range want {
		if got[name] != st {
			t.Errorf("%s in stage %d, want %d\n%s", name, got[name], st, s.Plan())
		}
	}
	plan := s.Plan()
	for _, part := range []string{"14 systems in 3 stages", `drag: after "move" (component sched_test.Vel)`,
		`reaper: after "show" (component sched_test.Health)`, `spawner: with or after "drag" (effects applied in the order of record)`, `board: after "scorer" (outputs for component sched_test.Score)`, `clock: after "tick" (resource sched.Time)`} {
		if !strings.Contains(plan, part) {
			t.Errorf("plan lacks %q:\n%s", part, plan)
		}
	}
}

func TestBeforeAndAfterConstraints(t *testing.T) {
	s := sched.New(ecs.NewWorld(), sched.Workers(1))
	var order []string
	rec := func(name string) func() { return func() { order = append(order, name) } }
	mustAdd(t, s, "a", rec("a"))
	mustAdd(t, s, "b", rec("b"), sched.After("c"))
	mustAdd(t, s, "c", rec("c"))
	mustAdd(t, s, "d", rec("d"), sched.Before("a"))
	s.Run()
	// The order of record is the earliest registered system whose
	// constraints are met, each time: c, b (now free), d, a; one worker runs
	// the stages in turn, each in the order of record.
	if want := "c d b a"; strings.Join(order, " ") != want {
		t.Fatalf("ran %v, want %s\n%s", order, want, s.Plan())
	}
	st := stageOf(s)
	if !(st["d"] < st["a"] && st["c"] < st["b"]) {
		t.Fatalf("constraints not reflected in stages: %v", st)
	}

	s2 := sched.New(ecs.NewWorld())
	mustAdd(t, s2, "x", func() {}, sched.After("y"))
	mustAdd(t, s2, "y", func() {}, sched.After("x"))
	if err := s2.Build(); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle: got %v", err)
	}
	s3 := sched.New(ecs.NewWorld())
	mustAdd(t, s3, "x", func() {}, sched.Before("nope"))
	if err := s3.Build(); err == nil || !strings.Contains(err.Error(), `Before("nope")`) {
		t.Fatalf("unknown name: got %v", err)
	}
	testhelp.MustPanic(t, s3.Run, "nope")
}

type counter struct{ n int }

func (c *counter) Update(*sched.Context) { c.n++ }

func TestAddPanicsOnRegistrationMistakes(t *testing.T) {
	s := sched.New(ecs.NewWorld())
	c := &counter{}
	s.Add("count", c)
	noop := func(*sched.Context) {}
	testhelp.MustPanic(t, func() { s.AddFunc("count", noop) }, `sched: AddFunc: a system named "count" is already registered`)
	testhelp.MustPanic(t, func() { s.Add("again", c) }, `sched: Add "again": this system is already registered as "count"`)
	testhelp.MustPanic(t, func() { s.Add("nil", nil) }, `sched: Add "nil": nil system`)
	testhelp.MustPanic(t, func() { s.Add("nil-pointer", (*counter)(nil)) }, `sched: Add "nil-pointer": nil system`)
	testhelp.MustPanic(t, func() { s.AddFunc("nil-func", nil) }, `sched: AddFunc "nil-func": nil system`)
	testhelp.MustPanic(t, func() { s.AddFunc("", noop) }, "sched: AddFunc: empty system name")
	testhelp.MustPanic(t, func() { s.AddFunc("nil-option", noop, nil) }, `sched: AddFunc "nil-option": nil option`)
	// A value that is not a pointer may be registered twice under two names.
	s.Add("twice", sched.Func(noop))
	s.Add("twice-more", sched.Func(noop))
	s.Close()
	testhelp.MustPanic(t, func() { s.AddFunc("late", noop) }, `sched: AddFunc "late": the scheduler is closed`)
	if got := len(s.Stats()); got != 3 {
		t.Fatalf("%d systems registered, want 3 (the refused ones must leave no trace)", got)
	}
}

// TestStageRunsInParallel: two systems of one stage wait for each other,
// which only finishes if they run at the same time.
func TestStageRunsInParallel(t *testing.T) {
	s := sched.New(ecs.NewWorld(), sched.Workers(2))
	defer s.Close()
	var wg sync.WaitGroup
	wg.Add(2)
	meet := func() {
		wg.Done()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			panic("the other system of the stage did not run alongside")
		}
	}
	mustAdd(t, s, "left", meet, sched.Reads[Pos]())
	mustAdd(t, s, "right", meet, sched.Reads[Pos]())
	s.Run()
}

func TestCommandsApplyAtStageEndInOrder(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	pos := ecs.NewMap[Pos](w)
	q := ecs.NewQuery1[Pos](w)
	var seen []int
	mustAdd(t, s, "spawnA", func(ctx *sched.Context) {
		c := ctx.Commands()
		pos.SetCmd(c, c.Spawn(), Pos{X: 1})
	}, sched.Structural())
	mustAdd(t, s, "spawnB", func(ctx *sched.Context) {
		c := ctx.Commands()
		pos.SetCmd(c, c.Spawn(), Pos{X: 2})
	}, sched.Structural())
	mustAdd(t, s, "count", func(ctx *sched.Context) {
		for r := range q.All() {
			seen = append(seen, int(r.A.X))
		}
		testhelp.MustPanic(t, func() { ctx.World().Spawn() }, "Spawn", "parallel section")
	}, sched.Reads[Pos]())
	s.Run()
	if fmt.Sprint(seen) != "[1 2]" {
		t.Fatalf("the stage after saw %v, want [1 2] (A's entity first)", seen)
	}
	if w.Parallel().Active() || w.Len() != 2 {
		t.Fatalf("after Run: in parallel %v, %d entities", w.Parallel().Active(), w.Len())
	}
}

func TestDebugModeChecksAccess(t *testing.T) {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Pos](w), ecs.NewMap[Vel](w)
	e := pos.Spawn(Pos{})
	vel.Set(e, Vel{})
	ecs.AddResource(w, &Score{})
	q := ecs.NewQuery1[Vel](w)
	filtered := ecs.NewQuery1[Pos](w, ecs.Without(ecs.C[Vel]()))
	score := ecs.NewResource[Score](w)
	out := func(s *sched.Scheduler) *sched.Output[Health] { return sched.NewOutput[Health](s, nil) }
	cases := []struct {
		name string
		sys  func(o *sched.Output[Health]) func(ctx *sched.Context)
		opts []sched.Option
		msg  []string
	}{
		{"query", func(*sched.Output[Health]) func(*sched.Context) {
			return func(*sched.Context) {
				for range q.All() {
				}
			}
		}, []sched.Option{sched.Reads[Pos]()}, []string{`system "query" reads component sched_test.Vel (query)`, "sched.Reads[sched_test.Vel]()"}},
		{"set", func(*sched.Output[Health]) func(*sched.Context) {
			return func(*sched.Context) { pos.Set(e, Pos{}) }
		}, []sched.Option{sched.Reads[Pos]()}, []string{`system "set" writes component sched_test.Pos (Set)`, "sched.Writes[sched_test.Pos]()"}},
		{"cmd", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { vel.RemoveCmd(ctx.Commands(), e) }
		}, nil, []string{`system "cmd" removes component sched_test.Vel (RemoveCmd) without declaring it`, "sched.Removes[sched_test.Vel]()"}},
		{"structural-needs-writes", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { vel.SetCmd(ctx.Commands(), e, Vel{}) }
		}, []sched.Option{sched.Structural()}, []string{`system "structural-needs-writes" adds component sched_test.Vel (SetCmd)`, "sched.Adds[sched_test.Vel]()", "sched.Structural() with sched.Writes[sched_test.Vel]()"}},
		{"wrong-add", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { vel.SetCmd(ctx.Commands(), e, Vel{}) }
		}, []sched.Option{sched.Adds[Pos](), sched.Removes[Vel]()}, []string{`adds component sched_test.Vel`, "sched.Adds[sched_test.Vel]()"}},
		{"spawn", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { ctx.Commands().Spawn() }
		}, []sched.Option{sched.Adds[Pos]()}, []string{`system "spawn" spawns entities (Spawn)`, "sched.Spawns()"}},
		{"despawn-undeclared", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { ctx.Commands().Despawn(e) }
		}, []sched.Option{sched.Spawns()}, []string{`system "despawn-undeclared" despawns entities (Despawn)`, "sched.Despawns[T]()"}},
		{"despawn-missing-type", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { ctx.Commands().Despawn(e) }
		}, []sched.Option{sched.Despawns[Pos]()}, []string{`system "despawn-missing-type" despawns an entity with component sched_test.Vel (Despawn)`, "sched.Despawns[sched_test.Vel]()"}},
		{"filter", func(*sched.Output[Health]) func(*sched.Context) {
			return func(*sched.Context) {
				for range filtered.All() {
				}
			}
		}, []sched.Option{sched.Reads[Pos]()}, []string{`system "filter" reads component sched_test.Vel (query filter)`, "sched.Reads[sched_test.Vel]()"}},
		{"resource", func(*sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { ecs.GetResource[Score](ctx.World()) }
		}, nil, []string{`system "resource" reads resource sched_test.Score (GetResource)`, "sched.ReadsResource[sched_test.Score]()"}},
		{"resource-handle", func(*sched.Output[Health]) func(*sched.Context) {
			return func(*sched.Context) { score.Get().N++ }
		}, []sched.Option{sched.Reads[Pos]()}, []string{`system "resource-handle" reads resource sched_test.Score (Resource.Get)`, "sched.ReadsResource[sched_test.Score]()"}},
		{"resource-handle-set", func(*sched.Output[Health]) func(*sched.Context) {
			return func(*sched.Context) { score.Set(&Score{N: 1}) }
		}, []sched.Option{sched.ReadsResource[Score]()}, []string{`system "resource-handle-set" writes resource sched_test.Score (Resource.Set)`, "sched.WritesResource[sched_test.Score]()"}},
		{"emit", func(o *sched.Output[Health]) func(*sched.Context) {
			return func(ctx *sched.Context) { o.Emit(ctx, e, Health{1}) }
		}, []sched.Option{sched.Writes[Pos]()}, []string{`system "emit" emits outputs for component sched_test.Health (Emit)`, "sched.Emits[sched_test.Health]()"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sched.New(w, sched.Debug())
			mustAdd(t, s, c.name, c.sys(out(s)), c.opts...)
			testhelp.MustPanic(t, s.Run, c.msg...)
			if w.Parallel().Active() {
				t.Fatal("the world was left in a parallel section")
			}
			pos.Get(e) // the checker is gone: no panic outside the scheduler
		})
	}
	// Declared accesses pass.
	s := sched.New(w, sched.Debug())
	o := out(s)
	mustAdd(t, s, "ok", func(ctx *sched.Context) {
		for range q.All() {
		}
		pos.Set(e, Pos{X: 3})
		ecs.GetResource[Score](ctx.World())
		o.Emit(ctx, e, Health{5})
	}, sched.Reads[Vel](), sched.Writes[Pos](), sched.ReadsResource[Score](), sched.Emits[Health]())
	var spawned ecs.Entity
	mustAdd(t, s, "reshape", func(ctx *sched.Context) {
		c := ctx.Commands()
		vel.RemoveCmd(c, e)
		p := c.Spawn()
		pos.SetCmd(c, p, Pos{X: 1})
		spawned = p
	}, sched.Removes[Vel](), sched.Spawns(), sched.Adds[Pos]())
	mustAdd(t, s, "old-style", func(ctx *sched.Context) {
		pos.SetCmd(ctx.Commands(), e, Pos{X: 3})
	}, sched.Structural(), sched.Writes[Pos]())
	s.Run()
	if got, _ := ecs.NewMap[Health](w).TryGet(e); got == nil || got.HP != 5 {
		t.Fatalf("emitted health not applied: %v", got)
	}
	if vel.Has(e) || spawned.Index() != 0 || w.Len() != 2 {
		t.Fatalf("declared structural changes not applied: vel %v, %d entities", vel.Has(e), w.Len())
	}
	// Despawns checks every type of the entity.
	ds := sched.New(w, sched.Debug())
	mustAdd(t, ds, "reaper", func(ctx *sched.Context) { ctx.Commands().Despawn(e) },
		sched.Despawns[Pos](), sched.Despawns[Health]())
	ds.Run()
	if w.Alive(e) {
		t.Fatal("despawn not applied")
	}
}

func TestOutputsMergeInSystemThenEmissionOrder(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(4))
	defer s.Close()
	hp := ecs.NewMap[Health](w)
	a := hp.Spawn(Health{100})
	b := w.Spawn() // no Health yet: the first emitted value starts the fold
	dead := hp.Spawn(Health{1})
	w.Despawn(dead)
	recycled := w.Spawn() // reuses dead's index with a new generation
	if recycled.Index() != dead.Index() {
		t.Fatal("the test needs the index to be recycled")
	}
	sum := sched.NewOutput(s, func(cur, next Health) Health { return Health{cur.HP + next.HP} })
	var trace []string
	last := sched.NewOutput(s, func(cur, next Score) Score { trace = append(trace, fmt.Sprint(next.N)); return next })
	mustAdd(t, s, "first", func(ctx *sched.Context) {
		sum.Emit(ctx, a, Health{-10})
		sum.Emit(ctx, b, Health{7})
		sum.Emit(ctx, dead, Health{-1})
		last.Emit(ctx, a, Score{1})
		last.Emit(ctx, a, Score{2})
	}, sched.Emits[Health](), sched.Emits[Score]())
	mustAdd(t, s, "second", func(ctx *sched.Context) {
		sum.Emit(ctx, a, Health{-5})
		sum.Emit(ctx, b, Health{3})
		last.Emit(ctx, a, Score{3})
	}, sched.Emits[Health](), sched.Emits[Score]())
	s.Run()
	if got := hp.Get(a).HP; got != 85 {
		t.Errorf("a: %d, want 100-10-5", got)
	}
	if got := hp.Get(b).HP; got != 10 {
		t.Errorf("b: %d, want 7+3", got)
	}
	if hp.Has(recycled) || sum.Dropped() != 1 || sum.Applied() != 4 { // values: a's two, b's two
		t.Errorf("recycled has health %v, dropped %d, applied %d", hp.Has(recycled), sum.Dropped(), sum.Applied())
	}
	// a had no Score: the fold starts from 1, then merges 2 and 3 in order.
	if got := ecs.NewMap[Score](w).Get(a).N; got != 3 || strings.Join(trace, ",") != "2,3" {
		t.Errorf("score %d, merge saw %v", got, trace)
	}
}

func TestEnableStatsAndLifeCycle(t *testing.T) {
	s := sched.New(ecs.NewWorld(), sched.Workers(2))
	life := &lifeCycle{}
	c := &counter{}
	mustAdd(t, s, "life", life)
	mustAdd(t, s, "count", c)
	s.Run()
	if err := s.Enable("count", false); err != nil {
		t.Fatal(err)
	}
	if err := s.Enable("nope", false); err == nil {
		t.Fatal("Enable of an unknown system succeeded")
	}
	s.Run()
	s.Run()
	if c.n != 1 || life.inits != 1 || life.updates != 3 {
		t.Fatalf("count ran %d times, life: %d inits, %d updates", c.n, life.inits, life.updates)
	}
	if !strings.Contains(s.Plan(), "count [disabled]") {
		t.Fatalf("plan does not show the disabled system:\n%s", s.Plan())
	}
	for _, st := range s.Stats() {
		if st.Name == "life" && (st.Runs != 3 || st.Max < st.Last || st.Max < st.Mean || st.Total < st.Max) {
			t.Fatalf("inconsistent stats %+v", st)
		}
		if st.Name == "count" && (st.Runs != 1 || st.Enabled) {
			t.Fatalf("count stats %+v", st)
		}
	}
	s.Close()
	if life.finals != 1 {
		t.Fatalf("Finalize ran %d times", life.finals)
	}
	testhelp.MustPanic(t, s.Run, "closed")
}

type lifeCycle struct{ inits, updates, finals int }

func (l *lifeCycle) Init(*sched.Context)     { l.inits++ }
func (l *lifeCycle) Update(*sched.Context)   { l.updates++ }
func (l *lifeCycle) Finalize(*sched.Context) { l.finals++ }

func TestSystemPanicIsReportedWithItsName(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	pos := ecs.NewMap[Pos](w)
	mustAdd(t, s, "calm", func(ctx *sched.Context) { pos.SetCmd(ctx.Commands(), ctx.Commands().Spawn(), Pos{}) }, sched.Structural())
	mustAdd(t, s, "angry", func() { panic("boom") })
	func() {
		defer func() {
			var p *sched.Panic
			r := recover()
			if err, ok := r.(error); !ok || !errors.As(err, &p) || p.Where != `system "angry"` || p.Value != "boom" {
				t.Fatalf("recovered %v", r)
			}
		}()
		s.Run()
	}()
	if w.Parallel().Active() || w.IsIterating() || w.Len() != 0 {
		t.Fatalf("after the panic: parallel %v, iterating %v, %d entities (the stage's buffers must be dropped)",
			w.Parallel().Active(), w.IsIterating(), w.Len())
	}
}

func TestForEachSplitsChunks(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(4))
	defer s.Close()
	pv := ecs.NewMap2[Pos, Vel](w)
	for i := range 10_000 {
		pv.Spawn(Pos{}, Vel{X: float64(i)})
	}
	q := ecs.NewQuery2[Pos, Vel](w)
	var chunks []ecs.Chunk2[Pos, Vel]
	mustAdd(t, s, "move", func(ctx *sched.Context) {
		chunks = q.AppendChunks(chunks[:0], 512)
		sched.ForEach(ctx, chunks, func(c ecs.Chunk2[Pos, Vel]) {
			for i := range c.A {
				c.A[i].X += c.B[i].X
			}
		})
	}, sched.Reads[Vel](), sched.Writes[Pos]())
	s.Run()
	s.Run()
	if len(chunks) != 20 {
		t.Fatalf("%d chunks, want 20", len(chunks))
	}
	for r := range q.All() {
		if r.A.X != 2*r.B.X {
			t.Fatalf("entity %v: x %v after two ticks with velocity %v", r.Entity, r.A.X, r.B.X)
		}
	}
	mustAdd(t, s, "fail", func(ctx *sched.Context) {
		sched.ForEach(ctx, []int{0, 1, 2}, func(i int) {
			if i == 2 {
				panic("item two")
			}
		})
	})
	testhelp.MustPanic(t, s.Run, `system "fail", item 2 panicked: item two`)
}

func TestFixedLoop(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(1))
	var ticks []sched.Time
	mustAdd(t, s, "clock", func(ctx *sched.Context) {
		ticks = append(ticks, *ecs.GetResource[sched.Time](ctx.World()))
	}, sched.ReadsResource[sched.Time]())
	l := sched.NewFixedLoop(s, 10*time.Millisecond)
	if n := l.Advance(25 * time.Millisecond); n != 2 {
		t.Fatalf("25ms ran %d ticks, want 2", n)
	}
	if n := l.Advance(5 * time.Millisecond); n != 1 {
		t.Fatalf("the 5ms carried over plus 5ms ran %d ticks, want 1", n)
	}
	l.MaxSteps = 3
	if n := l.Advance(time.Second); n != 3 {
		t.Fatalf("a 1s stall ran %d ticks, want MaxSteps=3", n)
	}
	if n := l.Advance(9 * time.Millisecond); n != 0 {
		t.Fatalf("after a stall the backlog must be dropped; ran %d", n)
	}
	last := ticks[len(ticks)-1]
	if len(ticks) != 6 || last.Tick != 6 || last.DT != 0.01 || last.Elapsed < 0.0599 || last.Elapsed > 0.0601 {
		t.Fatalf("%d ticks, last %+v", len(ticks), last)
	}
	testhelp.MustPanic(t, func() { sched.NewFixedLoop(s, 0) }, "positive")
}

// TestEffectsFollowTheOrderOfRecord: outputs and structural changes of a
// system registered later never reach a system registered earlier, even
// when they do not conflict and could have gone to an earlier stage.
func TestEffectsFollowTheOrderOfRecord(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	pos, hp := ecs.NewMap[Pos](w), ecs.NewMap[Health](w)
	var es []ecs.Entity
	for range 3 {
		e := pos.Spawn(Pos{})
		hp.Set(e, Health{1})
		es = append(es, e)
	}
	q := ecs.NewQuery1[Pos](w)
	sum := sched.NewOutput(s, func(cur, next Health) Health { return Health{cur.HP + next.HP} })
	seen := 0
	mustAdd(t, s, "a", func() {}, sched.Writes[Pos]())
	mustAdd(t, s, "b", func() { // stage 1: after a
		seen = q.Count()
		for _, e := range es {
			hp.Set(e, Health{10})
		}
	}, sched.Reads[Pos](), sched.Writes[Health]())
	mustAdd(t, s, "c", func(ctx *sched.Context) { // emits: never before b
		for _, e := range es {
			sum.Emit(ctx, e, Health{5})
		}
	}, sched.Emits[Health]())
	mustAdd(t, s, "d", func(ctx *sched.Context) { // structural: never before b
		ctx.Commands().Despawn(es[0])
	}, sched.Structural())
	s.Run()
	if seen != 3 || hp.Get(es[1]).HP != 15 || w.Alive(es[0]) {
		t.Fatalf("b saw %d entities, health %d (want 3 and 10+5), es[0] alive %v\n%s",
			seen, hp.Get(es[1]).HP, w.Alive(es[0]), s.Plan())
	}
}

func TestPanicWhileApplyingDropsTheStage(t *testing.T) {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	pos := ecs.NewMap[Pos](w)
	boom := true
	ecs.OnAdd(w, func(ecs.Entity, *Pos) {
		if boom {
			boom = false
			panic("hook")
		}
	})
	mustAdd(t, s, "spawn", func(ctx *sched.Context) {
		c := ctx.Commands()
		pos.SetCmd(c, c.Spawn(), Pos{})
	}, sched.Structural())
	testhelp.MustPanic(t, s.Run, "hook")
	s.Run()
	if w.Parallel().Active() || w.Len() != 2 {
		t.Fatalf("after a panicking and a clean tick: %d entities (want 2), in parallel %v", w.Len(), w.Parallel().Active())
	}
}

func TestEmitAndCommandsRefusedInsideForEach(t *testing.T) {
	w := ecs.NewWorld()
	e := ecs.NewMap[Health](w).Spawn(Health{})
	for _, workers := range []int{1, 2} {
		s := sched.New(w, sched.Workers(workers))
		out := sched.NewOutput[Health](s, nil)
		mustAdd(t, s, "emit", func(ctx *sched.Context) {
			sched.ForEach(ctx, []int{1, 2}, func(i int) { out.Emit(ctx, e, Health{i}) })
		}, sched.Emits[Health]())
		testhelp.MustPanic(t, s.Run, `system "emit"`, "Emit[sched_test.Health] called inside ForEach")
		s.Enable("emit", false)
		mustAdd(t, s, "cmds", func(ctx *sched.Context) {
			sched.ForEach(ctx, []int{1, 2}, func(int) { ctx.Commands() })
		}, sched.Structural())
		testhelp.MustPanic(t, s.Run, "Commands called inside ForEach")
		s.Close()
	}
}
