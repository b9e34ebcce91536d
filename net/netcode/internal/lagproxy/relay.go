package lagproxy

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// queueLen bounds the messages read and not yet delivered in one
// direction; past it the reader waits, as a full TCP window would.
const queueLen = 1024

// relay is one client connection and its upstream connection.
type relay struct {
	index  uint64 // the connection's number, for the seeds
	ctx    context.Context
	cancel context.CancelFunc

	mu         sync.Mutex
	up, client *websocket.Conn // nil until attach
	wasCut     bool
}

func newRelay(parent context.Context, index uint64) *relay {
	ctx, cancel := context.WithCancel(parent)
	return &relay{index: index, ctx: ctx, cancel: cancel}
}

// attach records the two connections and raises their read limits; if
// the relay was cut meanwhile it closes them and returns false.
func (rl *relay) attach(up, client *websocket.Conn) bool {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if rl.wasCut {
		up.CloseNow()
		client.CloseNow()
		return false
	}
	up.SetReadLimit(ReadLimit)
	client.SetReadLimit(ReadLimit)
	rl.up, rl.client = up, client
	return true
}

// cut ends the relay at once: its context and both connections, without
// a close handshake. Safe to call more than once and from any goroutine.
func (rl *relay) cut() {
	rl.mu.Lock()
	rl.wasCut = true
	up, client := rl.up, rl.client
	rl.mu.Unlock()
	rl.cancel()
	if up != nil {
		up.CloseNow()
		client.CloseNow()
	}
}

// item is a message to deliver, or the end of its direction.
type item struct {
	due  time.Time
	typ  websocket.MessageType
	data []byte
	end  bool
	code websocket.StatusCode // with end: the close status, -1 for none
	why  string               // with end: the close reason
}

// run relays both directions and returns when both have ended.
func (rl *relay) run(cfg Config) {
	var wg sync.WaitGroup
	for _, d := range []struct {
		src, dst *websocket.Conn
		stream   uint64
	}{{rl.client, rl.up, 2 * rl.index}, {rl.up, rl.client, 2*rl.index + 1}} {
		q := make(chan item, queueLen)
		s := newSchedule(cfg, d.stream)
		wg.Add(2)
		go func() { defer wg.Done(); rl.read(d.src, s, q) }()
		go func() { defer wg.Done(); rl.write(d.dst, q) }()
	}
	wg.Wait()
}

// read reads src's messages into q, each with its due time, and last the
// way src ended.
func (rl *relay) read(src *websocket.Conn, s *schedule, q chan<- item) {
	defer close(q)
	for {
		typ, data, err := src.Read(rl.ctx)
		it := item{due: s.due(time.Now()), typ: typ, data: data}
		if err != nil {
			it.end, it.code = true, -1
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				it.code, it.why = ce.Code, ce.Reason
			}
		}
		select {
		case q <- it:
		case <-rl.ctx.Done():
			return
		}
		if it.end {
			return
		}
	}
}

// write delivers q's messages to dst at their due times, then closes dst
// as the source ended: with its status and reason, or at once when it
// had none. Once a write fails, dst is closed and the rest of q is
// drained unsent; the relay is not cut, because the failure is often the
// far side having closed, and its close status, read by the other
// direction, must still reach the near side.
func (rl *relay) write(dst *websocket.Conn, q <-chan item) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	failed := false
	for it := range q {
		if failed {
			continue
		}
		if wait := time.Until(it.due); wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-rl.ctx.Done():
				return
			}
		}
		switch {
		case !it.end:
			if dst.Write(rl.ctx, it.typ, it.data) != nil {
				// Closing dst ends the other direction's read of it, so
				// that direction delivers its end and the relay finishes.
				dst.CloseNow()
				failed = true
			}
		case it.code >= 0:
			dst.Close(it.code, it.why)
		default:
			dst.CloseNow()
		}
	}
}
