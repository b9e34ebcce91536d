// Package wallclock reads the wall clock in world code (reported) and in
// the frame loop and timing code around it (not reported).
package wallclock

import (
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type Age struct{ Born time.Time }

func register(s *sched.Scheduler) {
	s.AddFunc("age", func(ctx *sched.Context) {
		_ = time.Now() // want `wallclock: time.Now in world code reads the wall clock, which differs between runs and machines, so whatever it feeds does too; advance simulated time by the fixed step instead`
	})
}

type ager struct{ start time.Time }

func (a *ager) Update(ctx *sched.Context) {
	_ = time.Since(a.start) // want `wallclock: time.Since in world code`
	_ = time.Until(a.start) // want `wallclock: time.Until in world code`
	select {
	case <-time.After(time.Millisecond): // want `wallclock: time.After in world code`
	default:
	}
}

func setup(w *ecs.World) {
	t := time.NewTicker(time.Second) // want `wallclock: time.NewTicker in world code`
	t.Stop()
	ecs.OnAdd(w, func(e ecs.Entity, a *Age) {
		a.Born = time.Now() // want `wallclock: time.Now in world code`
	})
}

// Near misses: the frame loop feeds real time to FixedLoop.Advance, which
// turns it into whole fixed steps, and timing code measures a run.
func frames(loop *sched.FixedLoop, s *sched.Scheduler) time.Duration {
	last := time.Now()
	for range 3 {
		now := time.Now()
		loop.Advance(now.Sub(last))
		last = now
	}
	start := time.Now()
	time.Sleep(time.Millisecond)
	return time.Since(start)
}
