// Package address turns addresses into numbers used as data (reported) and
// into pointer arithmetic and alignment tests (not reported).
package address

import (
	"sort"
	"unsafe"

	"github.com/tessera-ecs/tessera/ecs"
)

type node struct{ v int }

func order(w *ecs.World, ns []*node) map[uintptr]int {
	sort.Slice(ns, func(i, j int) bool {
		return uintptr(unsafe.Pointer(ns[i])) < uintptr(unsafe.Pointer(ns[j])) // want `address: uintptr\(unsafe.Pointer\(...\)\) turns an address into a number; addresses change from run to run` `address: uintptr`
	})
	seen := map[uintptr]int{}
	for _, n := range ns {
		seen[uintptr(unsafe.Pointer(n))] = n.v // want `address: uintptr`
	}
	return seen
}

// Near misses: arithmetic that returns to a pointer, alignment tests.
func arith(p unsafe.Pointer, off uintptr) (unsafe.Pointer, bool) {
	q := unsafe.Pointer(uintptr(p) + off)
	q = unsafe.Pointer((uintptr(q) - off))
	aligned := uintptr(p)%8 == 0 && uintptr(q)&7 == 0
	return q, aligned
}
