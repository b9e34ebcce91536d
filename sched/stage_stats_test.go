package sched_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// TestStageStatsTimesEachPhase checks that StageStats splits each stage
// into its parallel section, its merge and its buffer application, and
// times the tick end's buffers apart: each phase is given work that takes
// a known least time.
func TestStageStatsTimesEachPhase(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Pos](w)
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	const n = 20_000
	slowMerge := func(cur, next Score) Score {
		time.Sleep(time.Millisecond)
		return Score{cur.N + next.N}
	}
	scores := sched.NewOutput(s, slowMerge)
	e := ecs.NewMap[Score](w).Spawn(Score{})
	s.AddFunc("sleep", func(*sched.Context) { time.Sleep(3 * time.Millisecond) })
	s.AddFunc("score", func(ctx *sched.Context) { scores.Emit(ctx, e, Score{1}); scores.Emit(ctx, e, Score{2}) },
		sched.Emits[Score]())
	s.AddFunc("spawn", func(ctx *sched.Context) {
		c := ctx.Commands()
		for range n {
			pos.SpawnCmd(c, Pos{1, 2})
		}
	}, sched.Spawns(), sched.Adds[Pos]())
	s.AddFunc("late", func(ctx *sched.Context) {
		c := ctx.Commands()
		for range n {
			pos.SpawnCmd(c, Pos{3, 4})
		}
	}, sched.Spawns(), sched.Adds[Pos](), sched.ApplyAtTickEnd())
	s.AddFunc("read", func(*sched.Context) {}, sched.Reads[Pos](), sched.Reads[Score]())
	const ticks = 3
	for range ticks {
		s.Run()
	}
	st := s.StageStats()
	if len(st) != 3 || !st[2].TickEnd || st[0].TickEnd || st[1].TickEnd {
		t.Fatalf("StageStats: %d entries %+v, want 2 stages and the tick end", len(st), st)
	}
	if want := []string{"sleep", "score", "spawn", "late"}; !slices.Equal(st[0].Systems, want) {
		t.Fatalf("stage 0 systems %v, want %v", st[0].Systems, want)
	}
	if want := []string{"late"}; !slices.Equal(st[2].Systems, want) {
		t.Fatalf("tick end systems %v, want %v", st[2].Systems, want)
	}
	for _, x := range st {
		if x.Runs != ticks {
			t.Fatalf("stage %d ran %d times, want %d", x.Stage, x.Runs, ticks)
		}
	}
	s0 := st[0]
	if s0.Run.Last < 3*time.Millisecond || s0.Run.Mean < 3*time.Millisecond || s0.Run.Total < ticks*3*time.Millisecond {
		t.Fatalf("stage 0 Run %+v: shorter than its sleeping system", s0.Run)
	}
	if s0.Merge.Last < 2*time.Millisecond || s0.Merge.Max < s0.Merge.Last {
		t.Fatalf("stage 0 Merge %+v: shorter than two slow merges", s0.Merge)
	}
	if s0.Apply.Last <= 0 || st[2].Apply.Last <= 0 {
		t.Fatalf("Apply of stage 0 %v and of the tick end %v: %d spawns each took no time", s0.Apply, st[2].Apply, n)
	}
	if st[1].Merge.Total >= s0.Merge.Total {
		t.Fatalf("stage 1 merged nothing but took %v, stage 0 %v", st[1].Merge.Total, s0.Merge.Total)
	}
	if st[2].Run != (sched.PhaseTime{}) || st[2].Merge != (sched.PhaseTime{}) {
		t.Fatalf("the tick end has a Run %v or Merge %v", st[2].Run, st[2].Merge)
	}
	if got := w.Len(); got != 1+2*ticks*n {
		t.Fatalf("%d entities, want %d", got, 1+2*ticks*n)
	}
}

// TestSyncShare checks the share of Merge and Apply in all phases, the tick
// end's Apply included, and 0 for no time.
func TestSyncShare(t *testing.T) {
	ms := func(d int) sched.PhaseTime { return sched.PhaseTime{Total: time.Duration(d) * time.Millisecond} }
	stages := []sched.StageStats{
		{Run: ms(6), Merge: ms(1), Apply: ms(1)},
		{Run: ms(8), Apply: ms(2)},
		{TickEnd: true, Apply: ms(2)},
	}
	if got := sched.SyncShare(stages); got != 0.3 { // (1+1+2+2) / 20
		t.Fatalf("SyncShare %v, want 0.3", got)
	}
	if got := sched.SyncShare(nil); got != 0 {
		t.Fatalf("SyncShare of nothing %v, want 0", got)
	}
}
