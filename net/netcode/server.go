package netcode

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/admit"
)

// Path is the URL path clients connect to, by convention: a Server
// answers on any path it is mounted at.
const Path = "/tessera/v1"

// Server replicates a world to the clients that connect to it. It is an
// http.Handler: mount it on a path (Path by convention) of any
// http.Server. The world belongs to the goroutine that steps it, which
// calls Update after each tick; the handler's goroutines only read and
// write sockets and hand messages over through bounded queues.
type Server struct {
	w      *ecs.World
	rules  *Rules
	opts   Options
	policy admit.Policy
	bound  []boundRule
	marks  *ecs.Query1[Replicated]
	img    image
	tick   uint64

	ctx        context.Context
	cancel     context.CancelFunc
	joins      chan *conn
	conns      atomic.Int32 // upgraded connections alive
	nextID     atomic.Uint32
	sharedTick atomic.Uint64 // tick, for the handler's welcome

	clients []*client // by id; the world goroutine's alone
	input   boundInput
	scratch []ecs.Entity

	stats ServerStats
	mu    sync.Mutex // guards shared, a copy of stats for other goroutines
	share ServerStats
}

// client is the server's state of one joined client.
type client struct {
	id         ClientID
	conn       *conn
	view       *view
	lastQueued uint64 // tick of the last State queued
	lastAcked  uint64
	inFlight   []uint64 // ticks of the States queued and not acknowledged
	lastAckAt  time.Time
	reset      bool
	lastReset  time.Time
	inputs     *inputRing
	sent       uint64 // bytes queued
}

// ServerStats are a server's counters since it started.
type ServerStats struct {
	Tick          uint64 // ticks Update ran
	Clients       int    // clients joined now
	Joined        uint64 // clients that ever joined
	StatesSent    uint64
	StatesSkipped uint64 // States not sent to a client that trailed or whose queue was full
	Resets        uint64 // States that rebuilt a client's view
	BytesSent     uint64 // bytes of State messages queued
	LastBytes     uint64 // bytes queued by the last Update, all clients
	Mismatches    uint64 // acks that reported a view checksum mismatch
	LateInputs    uint64 // inputs for ticks already run
	EarlyInputs   uint64 // inputs too far ahead
}

// NewServer returns a server of w's entities that have Replicated, with
// the component types of rules. Errors: rules replicate nothing, no
// Token. The server starts with no client; mount it and call Update after
// every tick.
func NewServer(w *ecs.World, rules *Rules, opts Options) (*Server, error) {
	if len(rules.rules) == 0 {
		return nil, errNoRules
	}
	if opts.Token == "" {
		return nil, errors.New("netcode: NewServer: Options.Token is empty: clients must present a token")
	}
	opts.setDefaults()
	s := &Server{w: w, rules: rules, opts: opts, joins: make(chan *conn, opts.MaxClients)}
	s.policy = admit.Policy{Hosts: opts.Hosts, Origins: opts.Origins, Token: admit.Digest(opts.Token)}
	for _, r := range rules.rules {
		s.bound = append(s.bound, r.bind(w))
		s.img.rules = append(s.img.rules, ruleImage{size: r.fixedSize()})
	}
	if rules.input != nil {
		s.input = rules.input.bindServer(w)
	}
	s.marks = ecs.NewQuery1[Replicated](w)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

// ServeHTTP admits a WebSocket client: the Host, Origin and
// Sec-Fetch-Site checks (403), the client limit (503), the upgrade, then
// the hello with its token and rules fingerprint, read within
// HandshakeTimeout. It then reads the client's messages until the
// connection ends.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := s.policy.Check(r); err != nil {
		var ae *admit.Error
		if errors.As(err, &ae) {
			http.Error(w, ae.Reason, ae.Status)
		} else {
			http.Error(w, "refused", http.StatusForbidden)
		}
		return
	}
	if s.ctx.Err() != nil {
		http.Error(w, "server closed", http.StatusServiceUnavailable)
		return
	}
	if int(s.conns.Add(1)) > s.opts.MaxClients {
		s.conns.Add(-1)
		http.Error(w, "server full", http.StatusServiceUnavailable)
		return
	}
	defer s.conns.Add(-1)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: originHosts(s.opts.Origins)})
	if err != nil {
		return // Accept answered the request
	}
	ws.SetReadLimit(MaxClientMessage)
	// A read whose context expires closes the connection without a code:
	// a timer closes it with one instead.
	late := time.AfterFunc(s.opts.HandshakeTimeout, func() { ws.Close(CloseBadHello, "no hello") })
	typ, msg, err := ws.Read(s.ctx)
	if !late.Stop() || err != nil {
		if err != nil && !errors.Is(err, websocket.ErrMessageTooBig) {
			ws.Close(CloseBadHello, "no hello")
		}
		return // the timer or the library closed it (1009 for a message too big)
	}
	h, err := decodeHello(msg)
	switch {
	case typ != websocket.MessageBinary || err != nil:
		ws.Close(CloseBadHello, "bad hello")
		return
	case s.policy.CheckToken(h.token) != nil:
		ws.Close(CloseToken, "token refused")
		return
	case h.fingerprint != s.rules.Fingerprint():
		ws.Close(CloseSchema, "rules differ")
		return
	}
	c := newConn(ws, h)
	c.id = ClientID(s.nextID.Add(1))
	maxMsg := s.opts.Budget + 1<<20
	if s.opts.Budget < 0 {
		maxMsg = maxServerMessage
	}
	wel := welcome{client: uint64(c.id), tick: s.sharedTick.Load(), tickRate: uint64(s.opts.TickRate), maxMessage: uint64(maxMsg)}
	wctx, cancel := context.WithTimeout(s.ctx, writeTimeout)
	err = ws.Write(wctx, websocket.MessageBinary, wel.append(nil))
	cancel()
	if err != nil {
		ws.CloseNow()
		return
	}
	select {
	case s.joins <- c:
	default:
		ws.Close(CloseFull, "server full")
		return
	}
	go c.writeLoop(s.ctx)
	c.readLoop(s.ctx, s.opts.TickRate)
}

// originHosts turns page origins into the host patterns the WebSocket
// library checks the Origin header against.
func originHosts(origins []string) []string {
	var hosts []string
	for _, o := range origins {
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			hosts = append(hosts, u.Host)
		}
	}
	return hosts
}

// Update runs on the goroutine that owns the world, after each tick:
// it admits the clients that joined, reads their acks and inputs, captures
// the replicated state, sends each client what changed in its view since
// the last State it was sent (within its budget), and delivers the
// clients' inputs for the next tick as Input events. Clients encode in
// parallel: the bytes do not depend on how many goroutines there are.
// Complexity: O(replicated entities x rules) for the capture, plus per
// client O(view) and the bytes it is sent.
func (s *Server) Update() {
	now := time.Now()
	s.tick++
	s.admit(now)
	s.receive(now)
	s.img.capture(s.w, s.marks, s.bound, s.tick)
	if len(s.img.gens) > s.opts.MaxEntities {
		s.img.gens = s.img.gens[:s.opts.MaxEntities] // beyond the bound: not replicated
	}
	if p, ok := s.opts.Relevancy.(preparer); ok {
		p.Prepare(s.w)
	}
	send := s.prepare(now)
	s.encode(send)
	s.stats.LastBytes = 0
	for _, c := range send {
		msg := c.view.msg
		if !c.conn.send(msg) {
			continue // cannot happen: room was checked and only this goroutine sends
		}
		c.lastQueued = s.tick
		c.inFlight = append(c.inFlight, s.tick)
		c.sent += uint64(len(msg))
		s.stats.BytesSent += uint64(len(msg))
		s.stats.LastBytes += uint64(len(msg))
		s.stats.StatesSent++
		if c.reset {
			s.stats.Resets++
			c.reset = false
		}
	}
	if s.input != nil {
		s.deliverInputs(s.tick + 1)
	}
	s.stats.Tick = s.tick
	s.sharedTick.Store(s.tick)
	s.stats.Clients = len(s.clients)
	s.mu.Lock()
	s.share = s.stats
	s.mu.Unlock()
}

// admit takes the connections that finished their hello.
func (s *Server) admit(now time.Time) {
	for {
		select {
		case c := <-s.joins:
			if c.closed.Load() {
				continue
			}
			cl := &client{id: c.id, conn: c, view: newView(s.rules.rules), lastAckAt: now, reset: true}
			if s.input != nil {
				cl.inputs = newInputRing()
			}
			cl.lastQueued, cl.lastAcked = s.tick, s.tick
			s.clients = append(s.clients, cl)
			s.stats.Joined++
		default:
			return
		}
	}
}

// receive drops the clients whose connection ended and reads the others'
// messages.
func (s *Server) receive(now time.Time) {
	s.dropClosed()
	for _, c := range s.clients {
	drain:
		for {
			select {
			case msg := <-c.conn.in:
				s.handle(c, msg, now)
			default:
				break drain
			}
		}
	}
	s.dropClosed()
}

// dropClosed forgets the clients whose connection ended.
func (s *Server) dropClosed() {
	f, _ := s.opts.Relevancy.(forgetter)
	s.clients = slices.DeleteFunc(s.clients, func(c *client) bool {
		gone := c.conn.closed.Load()
		if gone && f != nil {
			f.Forget(c.id)
		}
		return gone
	})
}

func (s *Server) handle(c *client, msg []byte, now time.Time) {
	switch msg[0] {
	case kindAck:
		a, _ := decodeAck(msg) // checked by the reader
		if a.tick > c.lastQueued || a.tick < c.lastAcked {
			c.conn.close(websocket.StatusProtocolError, "bad ack")
			return
		}
		c.lastAcked, c.lastAckAt = a.tick, now
		k := 0
		for k < len(c.inFlight) && c.inFlight[k] <= a.tick {
			k++
		}
		c.inFlight = c.inFlight[:copy(c.inFlight, c.inFlight[k:])]
		if a.mismatch {
			s.stats.Mismatches++
			c.reset = true
		}
	case kindResync:
		if now.Sub(c.lastReset) < time.Second {
			c.conn.close(CloseRateExceeded, "resync rate exceeded")
			return
		}
		c.lastReset = now
		c.reset = true
	case kindInput:
		if s.input == nil {
			c.conn.close(websocket.StatusProtocolError, "no inputs accepted")
			return
		}
		late, early, err := c.inputs.store(msg, s.tick+1, s.input)
		s.stats.LateInputs += uint64(late)
		s.stats.EarlyInputs += uint64(early)
		if err != nil {
			c.conn.close(websocket.StatusProtocolError, "malformed input")
			return
		}
		if c.inputs.violations > maxEarlyInputs {
			c.conn.close(CloseRateExceeded, "inputs too far ahead")
		}
	}
}

// prepare picks the clients that get a State this tick and fills their
// wanted entities; it closes stalled clients.
func (s *Server) prepare(now time.Time) []*client {
	var send []*client
	for _, c := range s.clients {
		if len(c.inFlight) > 0 && now.Sub(c.lastAckAt) > s.opts.StallTimeout {
			c.conn.close(CloseStalled, "stalled")
			continue
		}
		if !c.conn.room() || len(c.inFlight) >= s.opts.MaxInFlight {
			s.stats.StatesSkipped++
			continue
		}
		if s.tick-c.lastQueued > uint64(s.opts.ResyncAfter) {
			c.reset = true
		}
		s.fillWant(c)
		send = append(send, c)
	}
	return send
}

// fillWant sets c's wanted entities for this tick from the Relevancy, or
// to every replicated entity.
func (s *Server) fillWant(c *client) {
	v := c.view
	v.grow(len(s.img.gens))
	if s.opts.Relevancy == nil {
		copy(v.want, s.img.gens)
		clear(v.want[len(s.img.gens):])
		return
	}
	clear(v.want)
	s.scratch = s.opts.Relevancy.Relevant(c.id, s.w, s.scratch[:0])
	for _, e := range s.scratch {
		idx := int(e.Index())
		if idx < len(s.img.gens) && s.img.gens[idx] == e.Generation()+1 {
			v.want[idx] = s.img.gens[idx]
		}
	}
}

// encode builds each client's State, spread over the machine's cores.
func (s *Server) encode(send []*client) {
	sum := s.opts.ChecksumEvery > 0 && s.tick%uint64(s.opts.ChecksumEvery) == 0
	workers := min(runtime.GOMAXPROCS(0), len(send))
	if workers <= 1 {
		for _, c := range send {
			c.view.msg = c.view.encodeState(nil, &s.img, c.lastQueued, s.opts.Budget, c.reset, sum)
		}
		return
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(send) {
					return
				}
				c := send[i]
				c.view.msg = c.view.encodeState(nil, &s.img, c.lastQueued, s.opts.Budget, c.reset, sum)
			}
		})
	}
	wg.Wait()
}

// Tick returns the number of ticks Update has run: the tick of the State
// it sent last.
func (s *Server) Tick() uint64 { return s.tick }

// Stats returns the server's counters as of the last Update. Safe from
// any goroutine.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.share
}

// Clients returns the ids of the joined clients, in joining order. Call
// it from the goroutine that calls Update.
func (s *Server) Clients() []ClientID {
	ids := make([]ClientID, len(s.clients))
	for i, c := range s.clients {
		ids[i] = c.id
	}
	return ids
}

// ViewChecksum returns the checksum of what client id should hold: the
// values of the entities relevant to it as of the last Update, the sum a
// converged Client's Checksum returns. False if no such client. Call it
// from the goroutine that calls Update. O(view).
func (s *Server) ViewChecksum(id ClientID) (uint64, bool) {
	for _, c := range s.clients {
		if c.id == id {
			return c.view.checksum(&s.img), true
		}
	}
	return 0, false
}

// Close ends every connection (1001, going away) and refuses new ones.
// The world is left as it is.
func (s *Server) Close() {
	for _, c := range s.clients {
		c.conn.close(websocket.StatusGoingAway, "server closing")
	}
	s.cancel()
}

// ClientInfo is what a server knows of one client.
type ClientInfo struct {
	ID        ClientID
	Queued    uint64 // tick of the last State queued for it
	Acked     uint64 // tick of the last State it acknowledged
	InFlight  int    // States queued and not acknowledged
	Pending   int    // entities its last State left out for the budget
	BytesSent uint64 // bytes of States queued for it
}

// Client returns what the server knows of client id, or false if no such
// client is joined. Call it from the goroutine that calls Update.
func (s *Server) Client(id ClientID) (ClientInfo, bool) {
	for _, c := range s.clients {
		if c.id == id {
			return ClientInfo{ID: id, Queued: c.lastQueued, Acked: c.lastAcked, InFlight: len(c.inFlight), Pending: c.view.pending, BytesSent: c.sent}, true
		}
	}
	return ClientInfo{}, false
}
