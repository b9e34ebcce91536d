package ecs

import "fmt"

// CheckZeroTails returns an error naming the first table of w whose rows
// past its length are not all zero (the zero tail, see table), or nil.
// For the differential test, which runs outside the package.
func CheckZeroTails(w *World) error {
	for _, t := range w.tables {
		if !t.zeroTail() {
			return fmt.Errorf("table %d %v: rows [%d, %d) are not zero", t.id, w.typeList(t.ids, 1), max(t.len(), t.dirty), t.capacity)
		}
	}
	return nil
}

// CheckSplitTables returns an error naming the first living entity whose
// table is not the one of its target in a split relation (SplitByTarget),
// or nil: the invariant relation.place keeps.
func CheckSplitTables(w *World) error {
	for _, t := range w.tables {
		for _, e := range t.entities {
			for _, r := range w.relations {
				if !r.split {
					continue
				}
				var want Entity
				if ts := r.targets(e); len(ts) > 0 {
					want = ts[0]
				}
				if got := t.pairTarget(r); got != want {
					return fmt.Errorf("%s: entity %v is in table %d of target %v, its target is %v", r.name(), e, t.id, got, want)
				}
			}
		}
	}
	return nil
}

// TableCount returns the number of tables of w, empty ones included.
func TableCount(w *World) int { return len(w.tables) }

// SkipAllocsUnderRelocate skips an allocation test under the
// tessera_relocate build tag, which moves the entity index on every spawn.
func SkipAllocsUnderRelocate(t interface{ Skip(...any) }) {
	if relocateOnAlloc {
		t.Skip("tessera_relocate moves the entity index on every spawn: allocation counts mean nothing")
	}
}
