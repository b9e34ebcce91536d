// Package display formats measurements for the reports that the demo
// (cmd/tessera) and the peer comparison (bench/cmd/compare) print, so that
// both show them alike.
package display

import "time"

// Round shortens a duration for display: to 10µs from a millisecond up, to
// 100ns from a microsecond up, and not at all below.
func Round(d time.Duration) time.Duration {
	switch {
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(100 * time.Nanosecond)
	}
	return d
}
