package lagproxy

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// ReadLimit is the largest message, in bytes, the proxy relays in either
// direction; a larger one cuts the connection.
const ReadLimit = 4 << 20

// dialTimeout bounds the upstream handshake.
const dialTimeout = 5 * time.Second

// Config is the lag a [Proxy] adds to every message, in each direction.
type Config struct {
	// Delay is the one-way latency added to each message; at least 0.
	Delay time.Duration
	// Jitter spreads each message's delay uniformly over
	// [Delay-Jitter, Delay+Jitter] (never below 0); at least 0. Order is
	// kept: a message is never delivered before the one read before it.
	Jitter time.Duration
	// Seed seeds the jitter: connection n (0, 1, ... in the order the
	// proxy accepts them) draws from PCG(Seed, 2n) towards the server and
	// PCG(Seed, 2n+1) towards the client.
	Seed uint64
}

// Proxy relays WebSocket connections to an upstream server with the lag
// of its Config. It is an [http.Handler]: each request it serves dials the
// upstream at the same path and query, forwarding the Origin and
// Authorization headers and the requested subprotocols, then accepts the
// client and relays text and binary messages both ways, each delivered at
// max(previous delivery, arrival + Delay + jitter). A close with a status
// on either side closes the other side with the same status and reason,
// after the messages read before it; a connection lost without a close
// cuts the other side. If the upstream refuses the handshake, the client
// gets its HTTP status. Safe for concurrent use.
type Proxy struct {
	upstream *url.URL
	cfg      Config

	mu     sync.Mutex
	relays map[*relay]struct{}
	next   uint64 // the index of the next connection, for the seeds
	closed bool
	wg     sync.WaitGroup // one per ServeHTTP call past the closed check
}

// New returns a Proxy to upstreamURL (ws, wss, http or https; the
// requests' paths are appended to its path). Panics if the URL does not
// parse or has another scheme, or if cfg.Delay or cfg.Jitter is negative.
func New(upstreamURL string, cfg Config) *Proxy {
	u, err := url.Parse(upstreamURL)
	if err != nil {
		panic(fmt.Sprintf("lagproxy: New: upstream URL: %v", err))
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
	default:
		panic(fmt.Sprintf("lagproxy: New: upstream URL %q: want a ws, wss, http or https scheme", upstreamURL))
	}
	if cfg.Delay < 0 || cfg.Jitter < 0 {
		panic(fmt.Sprintf("lagproxy: New: negative Delay (%v) or Jitter (%v)", cfg.Delay, cfg.Jitter))
	}
	return &Proxy{upstream: u, cfg: cfg, relays: make(map[*relay]struct{})}
}

// ServeHTTP relays one WebSocket connection and returns when it ends.
// It answers 503 once the proxy is closed, 426 to a request that is not
// a WebSocket upgrade, the upstream's status when the upstream refuses
// the handshake, and 502 when the upstream cannot be reached.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		http.Error(w, "lagproxy: a WebSocket upgrade is expected", http.StatusUpgradeRequired)
		return
	}
	rl := p.register(r.Context())
	if rl == nil {
		http.Error(w, "lagproxy: closed", http.StatusServiceUnavailable)
		return
	}
	defer p.unregister(rl)

	up, status := p.dial(rl.ctx, r)
	if up == nil {
		msg := "lagproxy: the upstream refused the handshake"
		if status == http.StatusBadGateway {
			msg = "lagproxy: the upstream cannot be reached"
		}
		http.Error(w, msg, status)
		return
	}
	client, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// The Origin was forwarded and checked by the upstream, which is
		// the server under test; checking it against the proxy's own host
		// here would refuse what the upstream allows.
		InsecureSkipVerify: true,
		Subprotocols:       subprotocols(up.Subprotocol()),
	})
	if err != nil { // Accept has answered the client
		up.CloseNow()
		return
	}
	if !rl.attach(up, client) {
		return
	}
	rl.run(p.cfg)
}

// dial opens the upstream connection for r, or returns the HTTP status to
// answer the client with.
func (p *Proxy) dial(ctx context.Context, r *http.Request) (*websocket.Conn, int) {
	target := *p.upstream
	target.Path = strings.TrimSuffix(target.Path, "/") + r.URL.Path
	target.RawPath = ""
	if r.URL.RawQuery != "" {
		target.RawQuery = r.URL.RawQuery
	}
	header := http.Header{}
	for _, name := range []string{"Origin", "Authorization"} {
		if v := r.Header.Values(name); len(v) > 0 {
			header[name] = v
		}
	}
	var protocols []string
	for _, v := range r.Header.Values("Sec-WebSocket-Protocol") {
		for p := range strings.SplitSeq(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				protocols = append(protocols, p)
			}
		}
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	up, resp, err := websocket.Dial(dctx, target.String(), &websocket.DialOptions{HTTPHeader: header, Subprotocols: protocols})
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 {
			return nil, resp.StatusCode
		}
		return nil, http.StatusBadGateway
	}
	return up, 0
}

// subprotocols is the AcceptOptions list that makes the client's
// connection agree on the upstream's choice, sel ("" for none).
func subprotocols(sel string) []string {
	if sel == "" {
		return nil
	}
	return []string{sel}
}

// register adds a relay for a new connection, or returns nil once the
// proxy is closed.
func (p *Proxy) register(parent context.Context) *relay {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	rl := newRelay(parent, p.next)
	p.next++
	p.relays[rl] = struct{}{}
	p.wg.Add(1)
	return rl
}

func (p *Proxy) unregister(rl *relay) {
	rl.cut()
	p.mu.Lock()
	delete(p.relays, rl)
	p.mu.Unlock()
	p.wg.Done()
}

// current returns the relays under way.
func (p *Proxy) current() []*relay {
	p.mu.Lock()
	defer p.mu.Unlock()
	rs := make([]*relay, 0, len(p.relays))
	for rl := range p.relays {
		rs = append(rs, rl)
	}
	return rs
}

// Conns returns how many connections the proxy is relaying or opening.
func (p *Proxy) Conns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.relays)
}

// Drop cuts every current connection on both sides without a close
// handshake, as a lost network would: the client and the upstream see
// the connection fail, not a close status. Messages not yet delivered are
// lost. Connections made afterwards are relayed as before. Returns how
// many connections it cut.
func (p *Proxy) Drop() int {
	rs := p.current()
	for _, rl := range rs {
		rl.cut()
	}
	return len(rs)
}

// Close refuses new connections (503), cuts the current ones as Drop
// does, and returns once every relay has ended. Calling it again does
// nothing more.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.Drop()
	p.wg.Wait()
}
