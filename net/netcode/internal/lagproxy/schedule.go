package lagproxy

import (
	"math/rand/v2"
	"time"
)

// schedule gives the delivery times of one direction of one connection:
// each message is due at max(previous due, arrival + Delay + j), with j
// uniform in [-Jitter, +Jitter] from the direction's own PCG and the delay
// never below zero, so later messages never overtake earlier ones.
type schedule struct {
	rng           *rand.Rand
	delay, jitter time.Duration
	last          time.Time // the previous due time; zero before the first
}

func newSchedule(cfg Config, stream uint64) *schedule {
	return &schedule{rng: rand.New(rand.NewPCG(cfg.Seed, stream)), delay: cfg.Delay, jitter: cfg.Jitter}
}

// due returns the delivery time of a message that arrived at arrival and
// records it as the previous one. O(1).
func (s *schedule) due(arrival time.Time) time.Time {
	d := s.delay
	if s.jitter > 0 {
		d += time.Duration(s.rng.Int64N(2*int64(s.jitter)+1)) - s.jitter
	}
	t := arrival.Add(max(d, 0))
	if t.Before(s.last) {
		t = s.last
	}
	s.last = t
	return t
}
