package display

import (
	"testing"
	"time"
)

func TestRound(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{0, 0},
		{999 * time.Nanosecond, 999 * time.Nanosecond},
		{time.Microsecond + 49*time.Nanosecond, time.Microsecond},
		{123_456 * time.Nanosecond, 123_500 * time.Nanosecond},
		{time.Millisecond + 4_999*time.Nanosecond, time.Millisecond},
		{1_234_567_890 * time.Nanosecond, 1_234_570_000 * time.Nanosecond},
	} {
		if got := Round(c.in); got != c.want {
			t.Errorf("Round(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
