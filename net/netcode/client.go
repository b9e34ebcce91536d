package netcode

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"
	"github.com/tessera-ecs/tessera/ecs"
)

// ClientOptions configure Dial.
type ClientOptions struct {
	// Token is the server's token, sent in the hello (not in a header: a
	// browser's WebSocket cannot set one).
	Token string
	// Header is sent with the upgrade request by native clients (Origin,
	// for a server that checks it); a wasm client's browser sets its own
	// and this is ignored.
	Header http.Header
	// MaxEntities bounds the server entity indices the client accepts.
	// Default DefaultMaxEntities.
	MaxEntities int
}

// Client is one connection to a Server, with the world it replicates
// into. The world belongs to the goroutine that calls Update; a reader and
// a writer goroutine move messages between the socket and bounded queues.
type Client struct {
	ws     *websocket.Conn
	rules  *Rules
	mirror *mirror
	id     ClientID
	rate   int
	joined uint64 // the server's tick when it welcomed the client
	in     chan []byte
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	errMu sync.Mutex
	err   error

	stats      ClientStats
	bytes      atomic.Uint64
	resyncSent bool
}

// ClientStats are a client's counters since it connected.
type ClientStats struct {
	States     uint64 // States applied
	Bytes      uint64 // bytes of States received
	LastBytes  int    // bytes of the last State applied
	Checked    uint64 // States that carried a view checksum
	Mismatches uint64 // of those, the ones whose checksum differed from the world's
	Resets     uint64 // States that rebuilt the view
}

// errClosed is the error of a Client whose connection ended without a
// close status.
var errClosed = errors.New("netcode: connection closed")

// Dial connects to the server at url (ws:// or wss://) and replicates its
// world into w, whose component types the rules name. It returns once the
// server welcomed the client, or an error: the dial failed, or the server
// refused the hello (a *CloseError with the server's code). Cancel ctx to
// abandon the dial; the connection outlives it.
func Dial(ctx context.Context, url string, w *ecs.World, rules *Rules, opts ClientOptions) (*Client, error) {
	if len(rules.rules) == 0 {
		return nil, errNoRules
	}
	if opts.MaxEntities == 0 {
		opts.MaxEntities = DefaultMaxEntities
	}
	ws, _, err := websocket.Dial(ctx, url, dialOptions(opts))
	if err != nil {
		return nil, fmt.Errorf("netcode: Dial: %w", err)
	}
	h := hello{version: ProtocolVersion, fingerprint: rules.Fingerprint(), token: opts.Token}
	if err := ws.Write(ctx, websocket.MessageBinary, h.append(nil)); err != nil {
		ws.CloseNow()
		return nil, fmt.Errorf("netcode: Dial: %w", closeError(err))
	}
	ws.SetReadLimit(maxServerMessage)
	_, msg, err := ws.Read(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, fmt.Errorf("netcode: Dial: %w", closeError(err))
	}
	wel, err := decodeWelcome(msg)
	if err != nil || wel.client == 0 || wel.client > 1<<32-1 {
		ws.Close(websocket.StatusProtocolError, "bad welcome")
		return nil, fmt.Errorf("netcode: Dial: %w", errMessage)
	}
	if wel.maxMessage > 0 && wel.maxMessage < maxServerMessage {
		ws.SetReadLimit(int64(wel.maxMessage))
	}
	c := &Client{ws: ws, rules: rules, mirror: newMirror(w, rules.rules, opts.MaxEntities),
		id: ClientID(wel.client), rate: int(wel.tickRate), joined: wel.tick, in: make(chan []byte, inboundQueue), out: make(chan []byte, inboundQueue)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.wg.Add(2)
	go c.readLoop()
	go c.writeLoop()
	return c, nil
}

// CloseError is how a connection ended: the close code and reason the
// peer sent (see the Close constants and the WebSocket codes, such as
// 1009 for a message too big).
type CloseError struct {
	Code   int
	Reason string
}

// Error names the close code and the reason the peer gave.
func (e *CloseError) Error() string {
	return fmt.Sprintf("netcode: closed with %d (%s)", e.Code, e.Reason)
}

// closeError turns the library's close error into a *CloseError.
func closeError(err error) error {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return &CloseError{Code: int(ce.Code), Reason: ce.Reason}
	}
	return err
}

func (c *Client) fail(err error) {
	c.errMu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.errMu.Unlock()
	c.cancel()
}

// Err returns why the connection ended, or nil while it is open.
func (c *Client) Err() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

func (c *Client) readLoop() {
	defer c.wg.Done()
	for {
		typ, msg, err := c.ws.Read(c.ctx)
		if err != nil {
			c.fail(closeError(err))
			return
		}
		if typ != websocket.MessageBinary || len(msg) == 0 || msg[0] != kindState {
			c.ws.Close(websocket.StatusProtocolError, "malformed message")
			c.fail(errMessage)
			return
		}
		c.bytes.Add(uint64(len(msg)))
		select {
		case c.in <- msg:
		case <-c.ctx.Done():
			return
		}
	}
}

func (c *Client) writeLoop() {
	defer c.wg.Done()
	for {
		select {
		case <-c.ctx.Done():
			return
		case msg := <-c.out:
			if err := c.ws.Write(c.ctx, websocket.MessageBinary, msg); err != nil {
				c.fail(closeError(err))
				return
			}
		}
	}
}

// queue hands msg to the writer; an error when the connection ended or
// the writer is so far behind that its queue is full.
func (c *Client) queue(msg []byte) error {
	if err := c.Err(); err != nil {
		return err
	}
	select {
	case c.out <- msg:
		return nil
	default:
		return errors.New("netcode: the client's outbound queue is full")
	}
}

// Update applies the States that arrived since the last call to the
// world and acknowledges them; call it on the goroutine that owns the
// world, between ticks. It returns how many States it applied, and the
// connection's error once it ended. A State the client cannot apply
// (malformed, or out of order) makes it ask the server for a reset; a
// view checksum that differs from the world's is reported in the ack,
// and the server answers with a reset too.
func (c *Client) Update() (int, error) {
	n, mismatch := 0, false
	for {
		select {
		case msg := <-c.in:
			mismatch = c.apply(msg) || mismatch
			n++
		default:
			if n == 0 {
				return 0, c.Err()
			}
			// One ack for every State applied: the server needs the last.
			c.queue((&ack{tick: c.mirror.tick, mismatch: mismatch}).append(nil))
			return n, nil
		}
	}
}

// apply applies one State and reports whether its view checksum
// differed from the world's.
func (c *Client) apply(msg []byte) bool {
	checked, ok, err := c.mirror.applyState(msg)
	if err != nil {
		if !c.resyncSent {
			c.resyncSent = c.queue([]byte{kindResync}) == nil
		}
		return false
	}
	c.resyncSent = false
	c.stats.States++
	c.stats.LastBytes = len(msg)
	c.stats.Bytes += uint64(len(msg))
	if isReset(msg) {
		c.stats.Resets++
	}
	if checked {
		c.stats.Checked++
		if !ok {
			c.stats.Mismatches++
		}
	}
	return checked && !ok
}

// isReset reports whether a well-formed State has the reset flag.
func isReset(msg []byte) bool {
	r := reader{b: msg[1:]}
	r.uvarint()
	r.uvarint()
	return r.byte()&flagReset != 0 && r.err == nil
}

// ID returns the id the server gave this client.
func (c *Client) ID() ClientID { return c.id }

// Tick returns the server tick of the last State applied (0 before the
// first).
func (c *Client) Tick() uint64 { return c.mirror.tick }

// JoinTick returns the server's tick when it welcomed the client: a tick
// to stamp inputs from before the first State arrives.
func (c *Client) JoinTick() uint64 { return c.joined }

// TickRate returns the server's ticks per second, as its welcome said.
func (c *Client) TickRate() int { return c.rate }

// Stats returns the client's counters. Call it from the goroutine that
// calls Update.
func (c *Client) Stats() ClientStats { return c.stats }

// Checksum returns the view checksum of the client's world: the sum over
// the entities it replicates of each value's share (server index,
// generation, rule, value bytes), order-independent, equal to the
// server's ViewChecksum for this client once the two agree. It reads the
// values from the world, so it checks what was applied, not only what was
// received. Call it from the goroutine that calls Update. O(view).
func (c *Client) Checksum() uint64 { return c.mirror.worldSum(c.rules.rules) }

// Entity returns the client's entity for the server entity with index
// idx, or false if the client holds none there.
func (c *Client) Entity(idx uint32) (ecs.Entity, bool) {
	m := c.mirror
	if int(idx) < len(m.gens) && m.gens[idx] != 0 {
		return m.ents[idx], true
	}
	return ecs.Entity{}, false
}

// Close ends the connection (1000, normal closure) and waits for the
// client's goroutines. The world keeps what it holds.
func (c *Client) Close() {
	c.ws.Close(websocket.StatusNormalClosure, "")
	c.fail(errClosed)
	c.wg.Wait()
}
