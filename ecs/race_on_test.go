//go:build race

package ecs_test

// raceEnabled: the race detector is on, and sync.Pool drops what is put
// in it at random, so allocation counts through a pool are not exact.
const raceEnabled = true
