package testhelp

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// skipRecorder stands in for a *testing.T: it keeps what Long and
// LongSize skip with and log, and stops the goroutine on Skipf as the
// real one does.
type skipRecorder struct {
	testing.TB
	skipped string
	logs    []string
}

func (r *skipRecorder) Helper() {}

func (r *skipRecorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *skipRecorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// run calls f with a fresh recorder on a goroutine of its own, so that
// Skipf can end it, and returns the recorder.
func (r *skipRecorder) run(f func(t testing.TB)) *skipRecorder {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestLong(t *testing.T) {
	for _, c := range []struct {
		name, value string
		set, want   bool
	}{
		{"unset", "", false, false},
		{"empty", "", true, false},
		{"zero", "0", true, false},
		{"one", "1", true, true},
		{"yes", "yes", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(LongEnv, c.value) // restored when the subtest ends
			if !c.set {
				os.Unsetenv(LongEnv)
			}
			want := c.want && !testing.Short() // -short wins
			if got := LongEnabled(); got != want {
				t.Errorf("%s=%q set %v: LongEnabled() = %v, want %v", LongEnv, c.value, c.set, got, want)
			}

			r := (&skipRecorder{}).run(func(t testing.TB) { Long(t) })
			if skipped := r.skipped != ""; skipped == want {
				t.Errorf("Long skipped %v (%q); want a skip exactly when the long tests are off", skipped, r.skipped)
			}
			if r.skipped != "" && !strings.Contains(r.skipped, "TESSERA_LONG=1") {
				t.Errorf("the skip %q does not say how to run the test", r.skipped)
			}

			var size int
			r = (&skipRecorder{}).run(func(t testing.TB) { size = LongSize(t, 7, 70) })
			switch {
			case want && (size != 70 || len(r.logs) != 0):
				t.Errorf("LongSize(7, 70) with the long tests on: %d, logs %q; want 70 and no log", size, r.logs)
			case !want && (size != 7 || len(r.logs) != 1 || !strings.Contains(r.logs[0], "7 instead of 70") || !strings.Contains(r.logs[0], "TESSERA_LONG=1")):
				t.Errorf("LongSize(7, 70) with the long tests off: %d, logs %q; want 7 and a log naming the variable", size, r.logs)
			}
			if r.skipped != "" {
				t.Errorf("LongSize skipped: %q", r.skipped)
			}
			r = (&skipRecorder{}).run(func(t testing.TB) { size = LongSize(t, 5, 5) })
			if size != 5 || len(r.logs) != 0 {
				t.Errorf("LongSize(5, 5): %d, logs %q; want 5 and no log (nothing was cut)", size, r.logs)
			}
		})
	}
}
