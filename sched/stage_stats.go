package sched

import "time"

// PhaseTime is the timing of one phase of a stage over the ticks that ran
// it: the latest, the largest, the sum and the mean (Total / the stage's
// Runs).
type PhaseTime struct {
	Last, Mean, Max, Total time.Duration
}

// add records one run of the phase.
func (p *PhaseTime) add(d time.Duration) {
	p.Last = d
	p.Total += d
	p.Max = max(p.Max, d)
}

// mean returns p with Mean filled in for runs runs.
func (p PhaseTime) mean(runs int64) PhaseTime {
	if runs > 0 {
		p.Mean = p.Total / time.Duration(runs)
	}
	return p
}

// StageStats is the timing of one stage, split into the parts of a tick
// that Amdahl's law cares about: Run is the stage's parallel section,
// from its first system's start to its last one's end (idle workers and
// the barrier included); Merge and Apply are its Sync phase, which runs
// on the goroutine that called [Scheduler.Run] while the other workers
// wait: outputs folded and events sent (Merge), then command buffers
// applied (Apply). The entry with TickEnd set is the end of the tick,
// where the [ApplyAtTickEnd] buffers are applied: only its Apply counts.
// [Scheduler.StageStats] returns one per stage; the sum of Merge and
// Apply over a tick, divided by the tick's time, is the share of the
// tick that more workers cannot shorten (the Sync phase of the Run/Sync
// design, a student game engine's parallel lock-free ECS).
type StageStats struct {
	Stage   int      // from 0; for the tick end, the number of stages
	TickEnd bool     // the entry of the ApplyAtTickEnd buffers
	Systems []string // the stage's systems, in the order of record
	Runs    int64    // ticks that ran the stage
	Run     PhaseTime
	Merge   PhaseTime
	Apply   PhaseTime
}

// stageTimes is a stage's running record, kept by runStage.
type stageTimes struct {
	runs              int64
	run, merge, apply PhaseTime
}

// StageStats returns the timing of every stage, in order, then of the end
// of the tick when any system applies its buffer there. Call it between
// ticks. Complexity: O(systems).
func (s *Scheduler) StageStats() []StageStats {
	if !s.built {
		_ = s.Build()
	}
	out := make([]StageStats, 0, len(s.stages)+1)
	for k, st := range s.stages {
		t := s.stageTimes[k]
		out = append(out, StageStats{Stage: k, Systems: systemNames(st), Runs: t.runs,
			Run: t.run.mean(t.runs), Merge: t.merge.mean(t.runs), Apply: t.apply.mean(t.runs)})
	}
	if len(s.atTickEnd) > 0 {
		t := s.tickEndTimes
		out = append(out, StageStats{Stage: len(s.stages), TickEnd: true, Systems: systemNames(s.atTickEnd),
			Runs: t.runs, Apply: t.apply.mean(t.runs)})
	}
	return out
}

func systemNames(xs []*system) []string {
	names := make([]string, len(xs))
	for i, x := range xs {
		names[i] = x.name
	}
	return names
}

// SyncShare returns the share of the time in stages, from 0 to 1, spent in
// their Sync phases (Merge and Apply, the tick end's included): the part of
// a tick that runs on one goroutine whatever the number of workers, and so
// a floor under the serial fraction of Amdahl's law. It returns 0 when no
// time was recorded. Complexity: O(len(stages)).
func SyncShare(stages []StageStats) float64 {
	var all, sync time.Duration
	for _, st := range stages {
		all += st.Run.Total + st.Merge.Total + st.Apply.Total
		sync += st.Merge.Total + st.Apply.Total
	}
	if all == 0 {
		return 0
	}
	return float64(sync) / float64(all)
}
