package sched

import (
	"fmt"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// Time is the world resource a [FixedLoop] keeps up to date before every
// tick: the tick number (from 1), the fixed step and the simulated time so
// far, both in seconds. Systems that read it declare
// ReadsResource[sched.Time]().
type Time struct {
	Tick    uint64
	DT      float64 // seconds per tick
	Elapsed float64 // seconds simulated, this tick included
}

// FixedLoop runs a scheduler at a fixed time step (the fixed-timestep game
// loop): real time is accumulated and spent in whole steps, so the
// simulation advances the same way whatever the frame rate, and ticks are
// numbered and timed identically on every run.
type FixedLoop struct {
	s        *Scheduler
	dt       time.Duration
	acc      time.Duration
	time     *Time
	MaxSteps int // most ticks one Advance runs (default 8), so a stall cannot snowball
}

// NewFixedLoop returns a loop that runs s once per dt of real time, and
// gives s's world a *Time resource (its own, if the world has one already).
// Panics if dt <= 0.
func NewFixedLoop(s *Scheduler, dt time.Duration) *FixedLoop {
	if dt <= 0 {
		panic(fmt.Sprintf("sched: NewFixedLoop: the time step must be positive, got %v", dt))
	}
	t := ecs.GetResource[Time](s.w)
	if t == nil {
		t = &Time{}
		ecs.AddResource(s.w, t)
	}
	t.DT = dt.Seconds()
	return &FixedLoop{s: s, dt: dt, time: t, MaxSteps: 8}
}

// Step runs one tick, advancing the Time resource first.
func (l *FixedLoop) Step() {
	l.time.Tick++
	l.time.DT = l.dt.Seconds()
	l.time.Elapsed = float64(l.time.Tick) * l.time.DT
	l.s.Run()
}

// Run runs n ticks back to back.
func (l *FixedLoop) Run(n int) {
	for range n {
		l.Step()
	}
}

// Advance adds real, the real time since the last call, and runs as many
// whole steps as the accumulated time allows, up to MaxSteps; time beyond
// that is dropped. It returns the number of ticks run.
func (l *FixedLoop) Advance(real time.Duration) int {
	l.acc += real
	n := 0
	for l.acc >= l.dt && n < max(l.MaxSteps, 1) {
		l.acc -= l.dt
		l.Step()
		n++
	}
	if n == max(l.MaxSteps, 1) && l.acc >= l.dt {
		l.acc %= l.dt
	}
	return n
}

// Time returns the loop's Time resource.
func (l *FixedLoop) Time() *Time { return l.time }
