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
