package inspect

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// TestPageOf pages through a sequence of 30 entities with offsets and
// limits near the largest int, where offset+limit would overflow, and
// checks every page against the slice it should be.
func TestPageOf(t *testing.T) {
	w := ecs.NewWorld()
	var all []ecs.Entity
	for range 30 {
		all = append(all, w.Spawn())
	}
	const maxInt = int(^uint(0) >> 1)
	for _, c := range []struct{ offset, limit int }{
		{0, 100}, {0, 1}, {5, 10}, {25, 10}, {29, 1}, {30, 5}, {31, 5},
		{1, maxInt}, {5, maxInt}, {maxInt, maxInt}, {29, maxInt - 1},
	} {
		page, total := pageOf(slices.Values(all), c.offset, c.limit)
		lo := min(c.offset, len(all))
		hi := lo + min(len(all)-lo, c.limit)
		if total != 30 || !slices.Equal(page, all[lo:hi]) {
			t.Errorf("offset %d limit %d: %v of %d, want %v of 30", c.offset, c.limit, page, total, all[lo:hi])
		}
	}
}
