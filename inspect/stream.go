package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// sample is one tick's figures, for the summary, the charts and the stream.
type sample struct {
	Tick     uint64  `json:"tick"`
	TickNs   int64   `json:"tickNs"`
	Entities int     `json:"entities"`
	SystemNs []int64 `json:"systemNs"` // parallel to the stream's systems
	seq      uint64  // 1 for the first sample recorded
	at       time.Time
}

// samples is a ring of the latest ticks' samples, written by the loop and
// read by the stream's handlers, under mu.
type samples struct {
	mu      sync.Mutex
	ring    []sample
	seq     uint64   // samples recorded
	systems []string // the scheduler's systems, in the order of record
	notify  chan struct{}
}

func (s *samples) init(n int) {
	s.ring = make([]sample, n)
	s.notify = make(chan struct{})
}

// record keeps the figures of the tick that started at start and took d.
// Runs on the loop's goroutine after the tick. Complexity: O(systems).
func (in *Inspector) record(start time.Time, d time.Duration) {
	smp := sample{Tick: in.tick(), TickNs: d.Nanoseconds(), Entities: in.w.Len(), at: start.Add(d)}
	var names []string
	if in.s != nil {
		stats := in.s.Stats()
		smp.SystemNs = make([]int64, len(stats))
		for i, st := range stats {
			smp.SystemNs[i] = st.Last.Nanoseconds()
		}
		if len(in.samples.systems) != len(stats) {
			for _, st := range stats {
				names = append(names, st.Name)
			}
		}
	}
	s := &in.samples
	s.mu.Lock()
	if names != nil {
		s.systems = names
	}
	s.seq++
	smp.seq = s.seq
	s.ring[s.seq%uint64(len(s.ring))] = smp
	close(s.notify)
	s.notify = make(chan struct{})
	s.mu.Unlock()
}

// since returns the samples recorded after seq, oldest first (as many as
// the ring still holds), the system names, and a channel closed at the
// next sample.
func (s *samples) since(seq uint64) ([]sample, []string, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := max(seq+1, s.seq+1-min(s.seq, uint64(len(s.ring))))
	out := make([]sample, 0, s.seq+1-first)
	for q := first; q <= s.seq; q++ {
		out = append(out, s.ring[q%uint64(len(s.ring))])
	}
	return out, s.systems, s.notify
}

// tickTime is the summary's tick figures over the ring: the latest tick's
// time, the mean and maximum, and the ticks completed in the last second.
type tickTime struct {
	LastNs int64 `json:"lastNs"`
	MeanNs int64 `json:"meanNs"`
	MaxNs  int64 `json:"maxNs"`
}

func (s *samples) summary(now time.Time) (tt tickTime, perSecond float64) {
	smps, _, _ := s.since(0)
	if len(smps) == 0 {
		return tt, 0
	}
	var sum int64
	for _, smp := range smps {
		sum += smp.TickNs
		tt.MaxNs = max(tt.MaxNs, smp.TickNs)
		if now.Sub(smp.at) <= time.Second {
			perSecond++
		}
	}
	tt.LastNs = smps[len(smps)-1].TickNs
	tt.MeanNs = sum / int64(len(smps))
	if first, last := smps[0].at, smps[len(smps)-1].at; now.Sub(first) < time.Second && len(smps) > 1 && last.After(first) {
		// The ring holds less than the last second: rate over its span.
		perSecond = float64(len(smps)-1) / last.Sub(first).Seconds()
	}
	return tt, perSecond
}

// streamEvent is the data of one "tick" event of the stream.
type streamEvent struct {
	Systems []string `json:"systems"`
	Samples []sample `json:"samples"`
}

// streamInterval is the shortest time between two events of a stream, so a
// fast loop does not flood the browser: each event carries every sample
// since the previous one.
const streamInterval = 100 * time.Millisecond

// stream answers GET /api/stream: server-sent events named "tick", first
// with the samples the ring holds, then with each new batch, until the
// client goes away. It reads the ring only, never the world. Each event
// is written and flushed under a write deadline WriteTimeout ahead, lifted
// between events, so a reader that stalls is cut off and one that keeps
// reading is not, however long the stream lasts.
func (in *Inspector) stream(rw http.ResponseWriter, r *http.Request) {
	if !flushes(rw) {
		writeError(rw, errorf(http.StatusInternalServerError, "streaming is not supported by this server"))
		return
	}
	rc := http.NewResponseController(rw)
	// send writes one event (or the header alone, for nil) under its
	// deadline; deadlines are ignored where the server has none.
	send := func(data []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(in.writeTimeout))
		if data == nil {
			rw.WriteHeader(http.StatusOK)
		} else if _, err := fmt.Fprintf(rw, "event: tick\ndata: %s\n\n", data); err != nil {
			return false
		}
		if err := rc.Flush(); err != nil {
			return false
		}
		_ = rc.SetWriteDeadline(time.Time{})
		return true
	}
	h := rw.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	if !send(nil) {
		return
	}
	var last uint64
	for {
		smps, systems, next := in.samples.since(last)
		if len(smps) > 0 {
			data, _ := json.Marshal(streamEvent{systems, smps})
			if !send(data) {
				return
			}
			last = smps[len(smps)-1].seq
		}
		select {
		case <-r.Context().Done():
			return
		case <-next:
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(streamInterval):
		}
	}
}

// flushes reports whether rw, or a writer it wraps (the Unwrap method
// http.ResponseController follows), can flush.
func flushes(rw http.ResponseWriter) bool {
	for {
		switch w := rw.(type) {
		case http.Flusher, interface{ FlushError() error }:
			return true
		case interface{ Unwrap() http.ResponseWriter }:
			rw = w.Unwrap()
		default:
			return false
		}
	}
}
