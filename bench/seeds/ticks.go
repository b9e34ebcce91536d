// Package seeds holds the benchmark suites of two public sources, run by
// cmd/compare -suite seeds: the iteration, add/remove and particle
// workloads of the dissertation "optimisations for the Entity Component
// System pattern", with Tessera's table storage,
// its sparse storage and the naive map-per-component ECS of the "super
// simple ECS" blog post; and the create / iterate / create-then-remove
// workloads of Pierre Vigier, "Entity-Component-System – Part 1" (the ECS
// of the game Vagabond), over profiles of 32, 128 and 512 component types
// (section 2).
package seeds

import (
	"runtime"
	"slices"
	"time"
)

// TickStats summarises the tick times of one run and the memory it held.
type TickStats struct {
	Ticks             int
	Mean, P99, Max    time.Duration
	HeapBytesPerAlive float64 // live heap after a forced GC, per live entity
}

// runTicks calls tick n times, timing each, and measures the heap held by
// the state (alive entities as reported by alive) afterwards.
func runTicks(n int, tick func(), alive func() int, base uint64) TickStats {
	times := make([]time.Duration, n)
	for i := range times {
		t0 := time.Now()
		tick()
		times[i] = time.Since(t0)
	}
	var total time.Duration
	for _, t := range times {
		total += t
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	st := TickStats{Ticks: n, Mean: total / time.Duration(n), P99: sorted[min(n-1, n*99/100)], Max: sorted[n-1]}
	heap := heapNow()
	if a := alive(); a > 0 {
		st.HeapBytesPerAlive = float64(heap-min(base, heap)) / float64(a)
	}
	runtime.KeepAlive(tick) // the state must still be reachable when the heap is read
	return st
}

// heapNow returns the live heap after two forced collections.
func heapNow() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
