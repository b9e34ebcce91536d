//go:build !race

package ecs_test

// raceEnabled: the race detector is on (see race_on_test.go).
const raceEnabled = false
