package main

import (
	"fmt"
	"io"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/display"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// rollbackRun plays the demo in rollback netcode's worst case (GGPO's and
// GGRS' sessions when every remote input arrives k ticks late): after every
// tick it rolls the world back k ticks and simulates them again, saving a
// snapshot after every tick it runs, first or again.
type rollbackRun struct {
	k     int
	sc    scenario.Scenario
	ring  *ecs.SnapshotRing
	saves *tickLog // time of each save
	backs *tickLog // time of each restore
	again *tickLog // time of each tick simulated again
}

func newRollbackRun(sc scenario.Scenario, k int) *rollbackRun {
	r := &rollbackRun{k: k, sc: sc, ring: ecs.NewSnapshotRing(k + 1),
		saves: newTickLog(), backs: newTickLog(), again: newTickLog()}
	r.save(0) // the state before the first tick
	return r
}

func (r *rollbackRun) save(tick uint64) {
	t0 := time.Now()
	r.ring.Save(r.sc.World(), tick)
	r.saves.add(time.Since(t0))
}

// afterTick saves tick, which has just run, and once k ticks are held
// behind it rolls back k ticks and runs them again.
func (r *rollbackRun) afterTick(tick uint64) {
	r.save(tick)
	if tick < uint64(r.k) {
		return
	}
	t0 := time.Now()
	if err := r.ring.Rollback(r.sc.World(), tick-uint64(r.k)); err != nil {
		panic(err) // the ring is k+1 deep: it always holds the tick
	}
	r.backs.add(time.Since(t0))
	for t := tick - uint64(r.k) + 1; t <= tick; t++ {
		t1 := time.Now()
		r.sc.Tick()
		r.again.add(time.Since(t1))
		r.save(t)
	}
}

// print reports the rollback work: saves and restores per tick, and the
// ticks simulated again.
func (r *rollbackRun) print(w io.Writer, ticks int) {
	fmt.Fprintf(w, "rollback:         %d ticks back after every tick: %d ticks simulated again (mean %v)\n",
		r.k, r.again.n, display.Round(r.again.mean()))
	fmt.Fprintf(w, "snapshot save:    mean %v  max %v  (%d saves, %.1f per tick)\n",
		display.Round(r.saves.mean()), display.Round(r.saves.max), r.saves.n, float64(r.saves.n)/float64(ticks))
	if r.backs.n > 0 {
		fmt.Fprintf(w, "snapshot restore: mean %v  max %v  (%d restores)\n",
			display.Round(r.backs.mean()), display.Round(r.backs.max), r.backs.n)
	}
}
