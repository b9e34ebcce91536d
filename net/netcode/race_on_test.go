//go:build race

package netcode

// raceEnabled: the race detector slows every goroutine several times, so
// timing-bound tests allow for it.
const raceEnabled = true
