package ecs

// savedTicks is a snapshot's copy of one tickColumn (see TrackChanges): the
// added and changed ticks of its rows, its newest ticks and, for a sparse
// set, the newest tick of each block that holds rows. A restore puts them
// back, so that the Added and Changed filters of a re-simulation see what
// they saw the first time.
type savedTicks struct {
	added, changed         []uint32
	lastAdded, lastChanged uint32
	blocks                 []uint32
}

// save copies the ticks of tc's first n rows into st, reusing its buffers.
func (st *savedTicks) save(tc *tickColumn, n int) {
	st.added = append(st.added[:0], tc.added[:n]...)
	st.changed = append(st.changed[:0], tc.changed[:n]...)
	st.lastAdded, st.lastChanged = tc.lastAdded.Load(), tc.lastChanged.Load()
	st.blocks = st.blocks[:0]
	if tc.blocks != nil {
		for i := range (n + 1<<tickBlockBits - 1) >> tickBlockBits {
			st.blocks = append(st.blocks, tc.blocks[i].Load())
		}
	}
}

// restore puts back the ticks st saved into tc's first rows, which tc must
// have room for. The blocks past the saved rows hold no row: they get the
// tick floor, below every live tick.
func (tc *tickColumn) restore(st *savedTicks, floor uint32) {
	copy(tc.added, st.added)
	copy(tc.changed, st.changed)
	tc.lastAdded.Store(st.lastAdded)
	tc.lastChanged.Store(st.lastChanged)
	for i := range tc.blocks {
		b := floor
		if i < len(st.blocks) {
			b = st.blocks[i]
		}
		tc.blocks[i].Store(b)
	}
}

// forget makes tc the ticks of a column with no rows: its newest ticks and
// its blocks' get the tick floor, so that a tick the clock has not reached
// yet stays nowhere after a restore.
func (tc *tickColumn) forget(floor uint32) {
	tc.lastAdded.Store(floor)
	tc.lastChanged.Store(floor)
	for i := range tc.blocks {
		tc.blocks[i].Store(floor)
	}
}

// tickFloor returns a tick no live tick is older than (see clampTicks).
func (w *World) tickFloor() uint32 { return w.clampedAt - maxTickAge }

// neverRun returns the last run of a query that has seen nothing: every
// live tick is newer.
func (w *World) neverRun() uint32 { return w.tickFloor() - 1 }

// snapshotClock saves w's change clock and every query's last pass into s.
func (w *World) snapshotClock(s *Snapshot) {
	s.tick, s.clampedAt = w.tick, w.clampedAt
	s.lastRuns = s.lastRuns[:0]
	for _, q := range w.queries {
		s.lastRuns = append(s.lastRuns, q.lastRun)
	}
}

// restoreClock puts back the change clock s saved and each query's last
// pass then; a query made since s was taken has seen nothing, as it had
// then.
func (w *World) restoreClock(s *Snapshot) {
	w.tick, w.clampedAt = s.tick, s.clampedAt
	for i, q := range w.queries {
		if i < len(s.lastRuns) {
			q.lastRun = s.lastRuns[i]
		} else {
			q.lastRun = w.neverRun()
		}
	}
}
