package ecs

import "unsafe"

// column holds the values of one component type for the rows of one table:
// struct-of-arrays storage. The backing memory is a Go []T made by the
// type's alloc, so it is typed memory the garbage collector scans; base keeps
// the allocation alive. A zero-size type (a tag) gets the runtime's shared
// zero-size base and takes no memory at all.
type column struct {
	base unsafe.Pointer
	size uintptr
	info *componentInfo
}

// at returns the address of row i.
func (c *column) at(i uint32) unsafe.Pointer {
	// SAFETY: i < the table's capacity, so the address lies inside the []T
	// that base points to (or is base itself for zero-size types).
	return unsafe.Add(c.base, uintptr(i)*c.size)
}
