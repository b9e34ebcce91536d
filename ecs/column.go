package ecs

import "unsafe"

// column holds the values of one component type for the rows of one table:
// struct-of-arrays storage. The backing memory is a Go []T made by the
// type's alloc, so it is typed memory the garbage collector scans; base keeps
// the allocation alive. A zero-size type (a tag) gets the runtime's shared
// zero-size base and takes no memory at all.
type column struct {
	base  unsafe.Pointer
	size  uintptr
	id    componentID
	words copyPlan // info.words, kept here to save a load per row move
	info  *componentInfo
	// ticks are the change ticks of a tracked type (TrackChanges), nil
	// for every other type and outside tables and sparse sets.
	ticks *tickColumn
}

func newColumn(info *componentInfo, capacity int) column {
	return column{base: info.alloc(capacity), size: info.size, id: info.id, words: info.words, info: info}
}

// at returns the address of row i.
func (c *column) at(i uint32) unsafe.Pointer {
	// SAFETY: i < the table's capacity, so the address lies inside the []T
	// that base points to (or is base itself for zero-size types).
	return unsafe.Add(c.base, uintptr(i)*c.size)
}

// copyValue copies one value of c's type from src to dst. Small
// pointer-free types are copied inline as machine words, which saves an
// indirect call on every row move; the rest use the typed copy1.
func (c *column) copyValue(dst, src unsafe.Pointer) {
	if !c.words.copyWords(dst, src) {
		c.info.copy1(dst, src)
	}
}

// isZero reports whether every byte of *v is zero: then a new row, which
// the zero tail already holds zero (see table), needs no write. The size
// and alignment are constants of T's shape, so the switch folds to a
// compare of one to four words for the common component sizes; other sizes
// scan the bytes. Note that -0.0 is not zero here: its sign bit is set.
func isZero[T any](v *T) bool {
	size, align := unsafe.Sizeof(*v), unsafe.Alignof(*v)
	// SAFETY: p is v's address; each case below reads exactly the size
	// bytes of *v, with word loads only when T is 8-byte aligned.
	p := unsafe.Pointer(v)
	switch {
	case size == 0:
		return true
	case align >= 8 && size == 8:
		return *(*uint64)(p) == 0
	case align >= 8 && size == 16:
		return *(*[2]uint64)(p) == [2]uint64{}
	case align >= 8 && size == 24:
		return *(*[3]uint64)(p) == [3]uint64{}
	case align >= 8 && size == 32:
		return *(*[4]uint64)(p) == [4]uint64{}
	}
	for _, b := range unsafe.Slice((*byte)(p), size) {
		if b != 0 {
			return false
		}
	}
	return true
}
