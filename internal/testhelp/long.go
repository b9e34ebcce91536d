package testhelp

import (
	"os"
	"testing"
)

// LongEnv names the environment variable that turns the long tests on:
// the soaks (the differential runs at full length, thousands of seeds)
// and the variants at 1,000,000 nodes. CI sets it (TESSERA_LONG=1).
// Without it, each such test runs a short variant that still covers what
// it checks, or skips, so that go test on a machine with Go alone takes
// minutes, not a quarter of an hour.
const LongEnv = "TESSERA_LONG"

// LongEnabled reports whether the long tests run: LongEnv is set to
// anything but "" or "0", and -short is not given (-short wins, so that
// the race detector's -short run stays short under CI too).
func LongEnabled() bool {
	if testing.Short() {
		return false
	}
	v := os.Getenv(LongEnv)
	return v != "" && v != "0"
}

// Long skips t, with a message naming LongEnv, unless LongEnabled.
func Long(t testing.TB) {
	t.Helper()
	if !LongEnabled() {
		t.Skipf("a long test: runs when %s=1 is set and -short is not given", LongEnv)
	}
}

// LongSize returns long when LongEnabled and short otherwise: the size of
// a test that runs at both (operations, seeds, nodes). With short it logs
// (under -v) the size it ran instead, naming LongEnv.
func LongSize(t testing.TB, short, long int) int {
	t.Helper()
	if LongEnabled() {
		return long
	}
	if short != long {
		t.Logf("%d instead of %d: the full size runs when %s=1 is set and -short is not given", short, long, LongEnv)
	}
	return short
}
