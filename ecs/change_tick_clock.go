package ecs

// maxTickAge is how far behind the clock a change tick may fall before
// clampTicks moves it up: a quarter of the tick space, so that with clamps
// every maxTickAge/2 ticks no live tick is ever 2^31 behind the clock and
// newer stays right across the wrap of the 32-bit counter (Bevy's
// check_change_ticks does the same).
const maxTickAge = 1 << 30

// changeClock is the world's change tick (part of World). tick is what a
// change of a tracked type records (see TrackChanges), advanced when a
// filtered pass ends and when a parallel section closes. tracking says
// some type tracks changes; clampedAt is the tick of the last clampTicks.
type changeClock struct {
	tick      uint32
	clampedAt uint32
	tracking  bool
}

// advanceTick moves the change tick on by one, clamping old ticks when
// half of maxTickAge has passed since the last clamp.
func (w *World) advanceTick() {
	w.tick++
	if w.tick-w.clampedAt >= maxTickAge/2 {
		w.clampTicks()
	}
}

// clampTicks moves every change tick older than maxTickAge up to
// tick-maxTickAge: the rows' ticks, the tables' and sparse sets' newest
// ticks and the queries' last runs. Nothing that is newer than a query's
// last run becomes older, since a query's
// last run is clamped to just below the floor the rows are clamped to: a
// query idle for more than maxTickAge ticks may see as changed a value
// that changed before its last pass, never miss one that changed after.
// Complexity: O(rows of tracked types + queries), once every 2^29 ticks.
func (w *World) clampTicks() {
	now := w.tick
	w.clampedAt = now
	for _, t := range w.tables {
		for _, i := range t.tracked {
			t.columns[i].ticks.clamp(len(t.entities), now)
		}
	}
	for _, s := range w.sparse {
		if tc := s.values.ticks; tc != nil {
			tc.clamp(len(s.dense), now)
		}
	}
	floor, never := w.tickFloor(), w.neverRun()
	for _, q := range w.queries {
		if newer(floor, q.lastRun) {
			q.lastRun = never
		}
	}
}

// touchValue marks the live entity e's value of the tracked type info
// describes as changed now, if e has one.
func (w *World) touchValue(info *componentInfo, e Entity) {
	r := w.entities.lookup(e)
	if r == nil {
		return
	}
	if s := info.sparse; s != nil {
		if i := s.slotOf(e); i >= 0 {
			s.values.ticks.touch(uint32(i))
		}
		return
	}
	t := w.tableOf(r)
	if c := t.column(info.id); c >= 0 {
		t.columns[c].ticks.touch(r.row)
	}
}
