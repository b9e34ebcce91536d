package lagproxy

import (
	"slices"
	"testing"
	"time"
)

func TestScheduleBounds(t *testing.T) {
	const delay, jitter = 30 * time.Millisecond, 10 * time.Millisecond
	s := newSchedule(Config{Delay: delay, Jitter: jitter, Seed: 7}, 0)
	t0 := time.Unix(1000, 0)
	lo, hi := time.Hour, time.Duration(0)
	for i := range 2000 {
		// Arrivals 100 ms apart, more than the jitter's width: no message
		// waits for the one before, so each delay is the drawn one.
		arrival := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		d := s.due(arrival).Sub(arrival)
		if d < delay-jitter || d > delay+jitter {
			t.Fatalf("message %d delayed %v, want within %v ± %v", i, d, delay, jitter)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	// 2000 uniform draws over 20 ms: both ends are reached within 1 ms.
	if lo > delay-jitter+time.Millisecond || hi < delay+jitter-time.Millisecond {
		t.Errorf("delays spread over [%v, %v], want about [%v, %v]", lo, hi, delay-jitter, delay+jitter)
	}
}

func TestScheduleKeepsOrder(t *testing.T) {
	s := newSchedule(Config{Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Seed: 7}, 0)
	t0 := time.Unix(1000, 0)
	var prev time.Time
	waited := 0
	for i := range 2000 {
		arrival := t0.Add(time.Duration(i) * time.Millisecond)
		due := s.due(arrival)
		if due.Before(prev) {
			t.Fatalf("message %d due %v before the previous one", i, due.Sub(prev))
		}
		if due.Sub(arrival) < 20*time.Millisecond {
			t.Fatalf("message %d delayed %v, under Delay-Jitter", i, due.Sub(arrival))
		}
		if due.Equal(prev) {
			waited++ // its own draw was earlier: it waits for the one before
		}
		prev = due
	}
	if waited == 0 {
		t.Error("with arrivals 1 ms apart and 20 ms of jitter, no message waited for the one before it")
	}
}

func TestScheduleSeeds(t *testing.T) {
	cfg := Config{Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Seed: 7}
	draws := func(cfg Config, stream uint64) []time.Duration {
		s := newSchedule(cfg, stream)
		t0 := time.Unix(1000, 0)
		out := make([]time.Duration, 50)
		for i := range out {
			arrival := t0.Add(time.Duration(i) * time.Second)
			out[i] = s.due(arrival).Sub(arrival)
		}
		return out
	}
	a, b := draws(cfg, 3), draws(cfg, 3)
	if !slices.Equal(a, b) {
		t.Error("the same seed and stream gave other delays")
	}
	if slices.Equal(a, draws(cfg, 4)) {
		t.Error("two streams gave the same delays")
	}
	other := cfg
	other.Seed = 8
	if slices.Equal(a, draws(other, 3)) {
		t.Error("two seeds gave the same delays")
	}
}

func TestScheduleNeverNegative(t *testing.T) {
	s := newSchedule(Config{Delay: 2 * time.Millisecond, Jitter: 10 * time.Millisecond, Seed: 1}, 0)
	t0 := time.Unix(1000, 0)
	zero := 0
	for i := range 1000 {
		arrival := t0.Add(time.Duration(i) * time.Second)
		d := s.due(arrival).Sub(arrival)
		if d < 0 || d > 12*time.Millisecond {
			t.Fatalf("message %d delayed %v, want within [0, 12ms]", i, d)
		}
		if d == 0 {
			zero++
		}
	}
	if zero == 0 {
		t.Error("Jitter above Delay never gave a zero delay")
	}
}

func TestNoLag(t *testing.T) {
	s := newSchedule(Config{}, 0)
	t0 := time.Unix(1000, 0)
	if due := s.due(t0); !due.Equal(t0) {
		t.Errorf("no Delay nor Jitter: due %v after arrival", due.Sub(t0))
	}
}
