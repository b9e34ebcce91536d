package netcode

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// conn is one client's WebSocket on the server. Its reader goroutine
// checks each message's size, rate and kind and queues it; its writer
// goroutine sends what the world goroutine queued. Neither touches the
// world: the queues are the only way between them and Server.Update.
type conn struct {
	ws     *websocket.Conn
	in     chan []byte // to the world goroutine; full means a flood
	out    chan []byte // from it; full means the client is behind
	done   chan struct{}
	once   sync.Once
	closed atomic.Bool
	code   atomic.Int32 // the close code the server chose
	hello  hello
	id     ClientID
}

// minMessageRate is the least client message rate allowed, per second,
// and the burst: a client that sends its input every frame at 60 frames a
// second, and an ack after each, stays within it whatever the tick rate.
const minMessageRate = 150

// Queue bounds.
const (
	inboundQueue  = 64
	outboundQueue = 2
	writeTimeout  = 5 * time.Second
)

func newConn(ws *websocket.Conn, h hello) *conn {
	return &conn{ws: ws, in: make(chan []byte, inboundQueue), out: make(chan []byte, outboundQueue),
		done: make(chan struct{}), hello: h}
}

// close ends the connection with code and a constant reason, once. It
// does not wait for the close handshake.
func (c *conn) close(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		c.code.Store(int32(code))
		c.closed.Store(true)
		close(c.done)
		go c.ws.Close(code, reason)
	})
}

// send queues msg for the writer without blocking; false when the queue
// is full.
func (c *conn) send(msg []byte) bool {
	select {
	case c.out <- msg:
		return true
	default:
		return false
	}
}

// room reports whether the outbound queue can take a message now. Only
// the world goroutine sends, so the answer holds until it sends.
func (c *conn) room() bool { return len(c.out) < cap(c.out) }

func (c *conn) writeLoop(ctx context.Context) {
	for {
		select {
		case <-c.done:
			return
		case <-ctx.Done():
			c.close(websocket.StatusGoingAway, "server closing")
			return
		case msg := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.ws.Write(wctx, websocket.MessageBinary, msg)
			cancel()
			if err != nil {
				c.close(websocket.StatusInternalError, "write failed")
				return
			}
		}
	}
}

// bucket is a token bucket: rate tokens a second, at most burst.
type bucket struct {
	tokens, rate, burst float64
	last                time.Time
}

func newBucket(rate, burst float64, now time.Time) bucket {
	return bucket{tokens: burst, rate: rate, burst: burst, last: now}
}

// take spends n tokens, false when there are not enough.
func (b *bucket) take(n float64, now time.Time) bool {
	b.tokens = min(b.burst, b.tokens+float64(now.Sub(b.last).Seconds()*b.rate))
	b.last = now
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}

// readLoop reads client messages until the connection ends: each must be
// binary, of a known kind, well formed, and within the rate limits.
func (c *conn) readLoop(ctx context.Context, tickRate int) {
	now := time.Now()
	msgs := newBucket(float64(max(4*tickRate, minMessageRate)), minMessageRate, now)
	byteRate := newBucket(64<<10, 64<<10, now)
	for {
		typ, msg, err := c.ws.Read(ctx)
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				c.close(websocket.StatusMessageTooBig, "message too big")
			} else {
				c.close(websocket.StatusNormalClosure, "")
			}
			return
		}
		now = time.Now()
		if !msgs.take(1, now) || !byteRate.take(float64(len(msg)), now) {
			c.close(CloseRateExceeded, "rate exceeded")
			return
		}
		if typ != websocket.MessageBinary || len(msg) == 0 || !validClientMessage(msg) {
			c.close(websocket.StatusProtocolError, "malformed message")
			return
		}
		select {
		case c.in <- msg:
		default:
			c.close(CloseRateExceeded, "inbound queue full")
			return
		}
	}
}

// validClientMessage checks what can be checked without the world: the
// kind, and the framing of acks and resyncs. Inputs are decoded by the
// world goroutine, which knows the input type.
func validClientMessage(msg []byte) bool {
	switch msg[0] {
	case kindAck:
		_, err := decodeAck(msg)
		return err == nil
	case kindResync:
		return len(msg) == 1
	case kindInput:
		return true
	}
	return false
}
