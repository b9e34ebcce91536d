//go:build race

package sched

// raceEnabled: the race detector is on, and its bookkeeping allocates, so
// allocation counts are not the program's own.
const raceEnabled = true
