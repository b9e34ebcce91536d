package ecs

import "fmt"

// SetChangeTick sets w's change tick, as if that many ticks had passed,
// for the tests of the wrap: call it on a new world, before anything has
// a tick.
func SetChangeTick(w *World, t uint32) {
	w.tick, w.clampedAt = t, t
	for _, q := range w.queries {
		q.lastRun = t - maxTickAge - 1
	}
}

// ChangeTick returns w's change tick.
func ChangeTick(w *World) uint32 { return w.tick }

// SkipTicks moves w's change tick on by n, clamping old ticks on the way
// as passes would: what n passes that change nothing do, in O(n / 2^28)
// clamps rather than n steps.
func SkipTicks(w *World, n uint64) {
	const step = maxTickAge / 4
	for n > 0 {
		d := min(n, step)
		w.tick += uint32(d)
		n -= d
		if w.tick-w.clampedAt >= maxTickAge/2 {
			w.clampTicks()
		}
	}
}

// CheckChangeTicks returns an error naming the first tracked column of w
// whose summaries disagree with its rows (a row's tick newer than the
// column's newest, or than its sparse block's), whose added tick is newer
// than its changed tick, or whose tick is newer than the clock; or nil.
func CheckChangeTicks(w *World) error {
	check := func(where string, tc *tickColumn, rows int) error {
		for i := range rows {
			a, c := tc.added[i], tc.changed[i]
			switch {
			case newer(a, c):
				return fmt.Errorf("%s row %d: added %d is newer than changed %d", where, i, a, c)
			case newer(c, tc.lastChanged.Load()):
				return fmt.Errorf("%s row %d: changed %d is newer than the column's newest %d", where, i, c, tc.lastChanged.Load())
			case newer(a, tc.lastAdded.Load()):
				return fmt.Errorf("%s row %d: added %d is newer than the column's newest %d", where, i, a, tc.lastAdded.Load())
			case newer(c, w.tick):
				return fmt.Errorf("%s row %d: changed %d is newer than the clock %d", where, i, c, w.tick)
			case tc.blocks != nil && newer(c, tc.blocks[i>>tickBlockBits].Load()):
				return fmt.Errorf("%s row %d: changed %d is newer than its block's %d", where, i, c, tc.blocks[i>>tickBlockBits].Load())
			}
		}
		return nil
	}
	for _, t := range w.tables {
		for _, i := range t.tracked {
			if err := check(fmt.Sprintf("table %d column %v", t.id, t.columns[i].info.typ), t.columns[i].ticks, len(t.entities)); err != nil {
				return err
			}
		}
	}
	for _, s := range w.sparse {
		if tc := s.values.ticks; tc != nil {
			if err := check(fmt.Sprintf("sparse set %v", s.info.typ), tc, len(s.dense)); err != nil {
				return err
			}
		}
	}
	return nil
}
