package ecs

import "fmt"

// SnapshotRing keeps the snapshots of a world's last few ticks, for
// rollback: a fixed-step loop saves into it after every tick, and when a
// late input shows that a past tick went wrong, rolls back to the last tick
// it trusts and simulates forward again (the rollback netcode of GGPO and
// GGRS, whose sessions keep a ring of saved frames as deep as the longest
// prediction). Tick numbers are the caller's: any increasing sequence, such
// as sched.Time's Tick.
//
// A rollback puts change detection back with the rest (see
// [World.Restore]): in the ticks simulated again, systems that filter on
// [Added] or [Changed] see what they saw the first time.
//
// The ring reuses its snapshots' buffers, so once every slot has been
// filled, saving allocates nothing unless the world grows. Its memory is
// depth times the world's live data. Not safe for concurrent use.
type SnapshotRing struct {
	snaps []Snapshot
	ticks []uint64
	head  int // the slot the next Save writes
	n     int // slots holding a snapshot
}

// NewSnapshotRing returns a ring that holds the snapshots of the last depth
// ticks saved. Panics if depth < 1. To roll back k ticks from the newest,
// the ring must hold k+1: the tick to return to and the k after it.
func NewSnapshotRing(depth int) *SnapshotRing {
	if depth < 1 {
		panic(fmt.Sprintf("ecs: NewSnapshotRing: depth %d; want 1 or more", depth))
	}
	return &SnapshotRing{snaps: make([]Snapshot, depth), ticks: make([]uint64, depth)}
}

// Depth returns how many ticks the ring holds at most.
func (r *SnapshotRing) Depth() int { return len(r.snaps) }

// Len returns how many ticks the ring holds now.
func (r *SnapshotRing) Len() int { return r.n }

// Save takes a snapshot of w as the state at the end of tick, replacing the
// oldest one when the ring is full. Ticks must increase from one Save to the
// next (after a Rollback, the next tick is the one rolled back to plus
// one). Panics as [World.Snapshot] does, or if tick is not above the newest
// tick held. Complexity: that of World.Snapshot.
func (r *SnapshotRing) Save(w *World, tick uint64) {
	if newest, ok := r.Newest(); ok && tick <= newest {
		panic(fmt.Sprintf("ecs: SnapshotRing.Save: tick %d is not after the newest tick held, %d; roll back first to save an earlier tick again", tick, newest))
	}
	if r.n == len(r.snaps) {
		// The oldest tick's slot is about to be overwritten: stop holding
		// it first, so a Clone that panics halfway cannot leave a
		// half-written snapshot under its old tick.
		r.n--
	}
	w.Snapshot(&r.snaps[r.head])
	r.ticks[r.head] = tick
	r.head = (r.head + 1) % len(r.snaps)
	r.n++
}

// Rollback restores w to the snapshot of tick and forgets the ticks after
// it, so the loop goes on by saving tick+1. It returns an error, and
// changes nothing, when the ring does not hold tick (too old, or never
// saved): the error names the ticks it holds. Panics as [World.Restore]
// does. Complexity: that of World.Restore.
func (r *SnapshotRing) Rollback(w *World, tick uint64) error {
	oldest, ok := r.Oldest()
	newest, _ := r.Newest()
	if !ok || tick < oldest || tick > newest {
		if !ok {
			return fmt.Errorf("ecs: SnapshotRing.Rollback: tick %d is not held; the ring is empty", tick)
		}
		return fmt.Errorf("ecs: SnapshotRing.Rollback: tick %d is not held; the ring holds ticks %d to %d", tick, oldest, newest)
	}
	for k := range r.n { // newest first
		i := r.slot(k)
		if r.ticks[i] != tick {
			continue
		}
		w.Restore(&r.snaps[i])
		r.n -= k
		r.head = (i + 1) % len(r.snaps)
		return nil
	}
	return fmt.Errorf("ecs: SnapshotRing.Rollback: tick %d was not saved; the ring holds ticks %d to %d with gaps", tick, oldest, newest)
}

// Oldest returns the oldest tick held, and false when the ring is empty.
func (r *SnapshotRing) Oldest() (uint64, bool) {
	if r.n == 0 {
		return 0, false
	}
	return r.ticks[r.slot(r.n-1)], true
}

// Newest returns the newest tick held, and false when the ring is empty.
func (r *SnapshotRing) Newest() (uint64, bool) {
	if r.n == 0 {
		return 0, false
	}
	return r.ticks[r.slot(0)], true
}

// slot returns the slot of the k-th newest snapshot (0: the newest).
func (r *SnapshotRing) slot(k int) int {
	d := len(r.snaps)
	return ((r.head-1-k)%d + d) % d
}

// At returns the snapshot the ring holds of tick, or nil when it does not
// hold it. The snapshot stays the ring's: read it ([Diff], or
// [World.Restore] of a copy of the world's state first), do not take into
// it; a later Save may overwrite it, and a Rollback past it forgets it.
// Complexity: O(ticks held).
func (r *SnapshotRing) At(tick uint64) *Snapshot {
	for k := range r.n {
		if i := r.slot(k); r.ticks[i] == tick {
			return &r.snaps[i]
		}
	}
	return nil
}

// Ticks appends the ticks the ring holds to dst, oldest first, and returns
// it. Complexity: O(ticks held).
func (r *SnapshotRing) Ticks(dst []uint64) []uint64 {
	for k := r.n - 1; k >= 0; k-- {
		dst = append(dst, r.ticks[r.slot(k)])
	}
	return dst
}
