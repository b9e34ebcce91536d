package lagproxy_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tessera-ecs/tessera/net/netcode/internal/lagproxy"
)

// testTimeout bounds every test: a hang fails instead of waiting forever.
const testTimeout = 5 * time.Second

// event is how an upstream handler's connection ended.
type event struct {
	err    error                // what the handler returned
	code   websocket.StatusCode // websocket.CloseStatus(err)
	reason string               // the close reason in err
}

// upstream is a WebSocket server on 127.0.0.1 that runs serve on each
// connection and reports how each connection ended on ended.
type upstream struct {
	srv   *httptest.Server
	ended chan event
}

func newUpstream(t *testing.T, serve func(ctx context.Context, c *websocket.Conn, r *http.Request) error) *upstream {
	t.Helper()
	u := &upstream{ended: make(chan event, 16)}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(2 * lagproxy.ReadLimit)
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		err = serve(ctx, c, r)
		var ce websocket.CloseError
		errors.As(err, &ce)
		u.ended <- event{err, websocket.CloseStatus(err), ce.Reason}
	}))
	t.Cleanup(u.srv.Close)
	return u
}

// echo sends back every message it reads, and records when each arrived
// under the index its first 4 bytes hold.
func echo(arrived func(i uint32)) func(context.Context, *websocket.Conn, *http.Request) error {
	return func(ctx context.Context, c *websocket.Conn, _ *http.Request) error {
		for {
			typ, data, err := c.Read(ctx)
			if err != nil {
				return err
			}
			if arrived != nil && len(data) >= 4 {
				arrived(binary.BigEndian.Uint32(data))
			}
			if err := c.Write(ctx, typ, data); err != nil {
				return err
			}
		}
	}
}

// behind serves a Proxy to u on 127.0.0.1 and returns it and its ws URL.
func behind(t *testing.T, u *upstream, cfg lagproxy.Config) (*lagproxy.Proxy, string) {
	t.Helper()
	p := lagproxy.New(u.srv.URL, cfg)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	t.Cleanup(p.Close) // first: ends the relays srv.Close waits for
	return p, "ws" + strings.TrimPrefix(srv.URL, "http")
}

func dial(ctx context.Context, t *testing.T, url string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial through the proxy: %v", err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// nextEnd waits for the upstream to report how a connection ended.
func nextEnd(ctx context.Context, t *testing.T, u *upstream) event {
	t.Helper()
	select {
	case e := <-u.ended:
		return e
	case <-ctx.Done():
		t.Fatal("the upstream connection did not end")
	}
	panic("unreachable")
}

func TestDelayAndOrder(t *testing.T) {
	const n = 50
	const delay, jitter = 30 * time.Millisecond, 10 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	var mu sync.Mutex
	var sent, arrived [n]time.Time
	u := newUpstream(t, echo(func(i uint32) {
		mu.Lock()
		defer mu.Unlock()
		if i < n {
			arrived[i] = time.Now()
		}
	}))
	_, url := behind(t, u, lagproxy.Config{Delay: delay, Jitter: jitter, Seed: 1})
	c := dial(ctx, t, url)

	go func() {
		// 2 ms apart, well inside the jitter's 20 ms: without the order
		// rule some messages would overtake others.
		for i := range n {
			msg := binary.BigEndian.AppendUint32(nil, uint32(i))
			typ := websocket.MessageBinary
			if i%2 == 1 {
				typ, msg = websocket.MessageText, append(msg, " text"...)
			}
			mu.Lock()
			sent[i] = time.Now()
			mu.Unlock()
			if c.Write(ctx, typ, msg) != nil {
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	for i := range n {
		typ, data, err := c.Read(ctx)
		back := time.Now()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if got := binary.BigEndian.Uint32(data); got != uint32(i) {
			t.Fatalf("message %d arrived as number %d: order lost", i, got)
		}
		if i%2 == 1 && (typ != websocket.MessageText || string(data[4:]) != " text") || i%2 == 0 && typ != websocket.MessageBinary {
			t.Errorf("message %d: type %v, %q", i, typ, data)
		}
		mu.Lock()
		oneWay, roundTrip := arrived[i].Sub(sent[i]), back.Sub(sent[i])
		mu.Unlock()
		// Each way adds at least Delay-Jitter; nothing adds up to a
		// second unless delays accumulate.
		if oneWay < delay-jitter || roundTrip < 2*(delay-jitter) || roundTrip > time.Second {
			t.Errorf("message %d: one way %v, round trip %v; want at least %v and %v, under 1s", i, oneWay, roundTrip, delay-jitter, 2*(delay-jitter))
		}
	}
}

// TestLargeMessage relays a message far above coder/websocket's default
// read limit of 32 KiB, both ways.
func TestLargeMessage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	u := newUpstream(t, echo(nil))
	_, url := behind(t, u, lagproxy.Config{Seed: 8})
	c := dial(ctx, t, url)
	c.SetReadLimit(2 * lagproxy.ReadLimit)
	big := make([]byte, lagproxy.ReadLimit)
	for i := range big {
		big[i] = byte(i * 7)
	}
	if err := c.Write(ctx, websocket.MessageBinary, big); err != nil {
		t.Fatal(err)
	}
	if _, data, err := c.Read(ctx); err != nil || !bytes.Equal(data, big) {
		t.Errorf("%d bytes back of %d, %v", len(data), len(big), err)
	}
}

func TestClientCloseStatusPassesThrough(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	u := newUpstream(t, echo(nil))
	_, url := behind(t, u, lagproxy.Config{Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond, Seed: 2})
	c := dial(ctx, t, url)
	if err := c.Write(ctx, websocket.MessageText, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if _, data, err := c.Read(ctx); err != nil || string(data) != "hi" {
		t.Fatalf("echo: %q, %v", data, err)
	}
	if err := c.Close(4001, "bye"); err != nil {
		t.Errorf("the proxy did not complete the close handshake: %v", err)
	}
	if e := nextEnd(ctx, t, u); e.code != 4001 || e.reason != "bye" {
		t.Errorf("the upstream read %v, want close status 4001 \"bye\"", e.err)
	}
}

func TestServerCloseStatusPassesThrough(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	u := newUpstream(t, func(ctx context.Context, c *websocket.Conn, _ *http.Request) error {
		if _, _, err := c.Read(ctx); err != nil {
			return err
		}
		if err := c.Write(ctx, websocket.MessageText, []byte("last")); err != nil {
			return err
		}
		return c.Close(4005, "stalled")
	})
	_, url := behind(t, u, lagproxy.Config{Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond, Seed: 3})
	c := dial(ctx, t, url)
	if err := c.Write(ctx, websocket.MessageBinary, []byte{1}); err != nil {
		t.Fatal(err)
	}
	if _, data, err := c.Read(ctx); err != nil || string(data) != "last" {
		t.Fatalf("the message before the close: %q, %v", data, err)
	}
	_, _, err := c.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4005 || ce.Reason != "stalled" {
		t.Errorf("client read %v, want close status 4005 \"stalled\"", err)
	}
	if e := nextEnd(ctx, t, u); e.err != nil {
		t.Errorf("the upstream's close handshake: %v", e.err)
	}
}

func TestDrop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	u := newUpstream(t, echo(nil))
	p, url := behind(t, u, lagproxy.Config{Delay: 5 * time.Millisecond, Seed: 4})
	a, b := dial(ctx, t, url), dial(ctx, t, url)
	for _, c := range []*websocket.Conn{a, b} {
		if err := c.Write(ctx, websocket.MessageText, []byte("ping")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.Conns(); n != 2 {
		t.Fatalf("Conns = %d before Drop, want 2", n)
	}
	if n := p.Drop(); n != 2 {
		t.Errorf("Drop cut %d connections, want 2", n)
	}
	for _, c := range []*websocket.Conn{a, b} {
		_, _, err := c.Read(ctx)
		if err == nil || websocket.CloseStatus(err) != -1 || ctx.Err() != nil {
			t.Errorf("client read after Drop: %v, want a failed connection without a close status", err)
		}
	}
	for range 2 {
		if e := nextEnd(ctx, t, u); e.err == nil || e.code != -1 {
			t.Errorf("the upstream read %v after Drop, want a failed connection without a close status", e.err)
		}
	}
	for p.Conns() != 0 {
		if ctx.Err() != nil {
			t.Fatalf("Conns = %d after Drop", p.Conns())
		}
		time.Sleep(time.Millisecond)
	}
	c := dial(ctx, t, url)
	if err := c.Write(ctx, websocket.MessageText, []byte("again")); err != nil {
		t.Fatal(err)
	}
	if _, data, err := c.Read(ctx); err != nil || string(data) != "again" {
		t.Errorf("a connection after Drop: %q, %v", data, err)
	}
}

func TestClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	u := newUpstream(t, echo(nil))
	p, url := behind(t, u, lagproxy.Config{Seed: 5})
	c := dial(ctx, t, url)
	done := make(chan struct{})
	go func() { p.Close(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("Close did not return")
	}
	if _, _, err := c.Read(ctx); err == nil || ctx.Err() != nil {
		t.Errorf("client read after Close: %v", err)
	}
	_, resp, err := websocket.Dial(ctx, url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("dial after Close: %v, %v; want 503", resp, err)
	}
}

func TestHandshakeForwarding(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	u := &upstream{ended: make(chan event, 4)}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer let-me-in" {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{
			OriginPatterns: []string{"game.example"},
			Subprotocols:   []string{"tessera.v1"},
		})
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.Write(ctx, websocket.MessageText, []byte(r.URL.RequestURI()+" "+r.Header.Get("Origin")))
		c.Close(websocket.StatusNormalClosure, "")
	}))
	t.Cleanup(u.srv.Close)
	_, url := behind(t, u, lagproxy.Config{Seed: 6})

	header := http.Header{"Authorization": {"Bearer let-me-in"}, "Origin": {"https://game.example"}}
	c, _, err := websocket.Dial(ctx, url+"/play?room=3", &websocket.DialOptions{HTTPHeader: header, Subprotocols: []string{"other", "tessera.v1"}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.CloseNow()
	if c.Subprotocol() != "tessera.v1" {
		t.Errorf("subprotocol %q, want the upstream's choice", c.Subprotocol())
	}
	if _, data, err := c.Read(ctx); err != nil || string(data) != "/play?room=3 https://game.example" {
		t.Errorf("the upstream saw %q, %v", data, err)
	}
	if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("end: %v, want a normal closure", err)
	}

	for _, h := range []http.Header{
		{"Authorization": {"Bearer nope"}},
		{"Authorization": {"Bearer let-me-in"}, "Origin": {"https://evil.example"}},
	} {
		_, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("headers %v: %v, %v; want the upstream's 403", h, resp, err)
		}
	}
}

// TestCloseWhileTheOtherSideSends checks that a close status passes even
// when messages still flow the other way: writing them to the side that
// closed fails, and that must not cut the connection before the close is
// delivered.
func TestCloseWhileTheOtherSideSends(t *testing.T) {
	cfg := lagproxy.Config{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Seed: 7}
	t.Run("client closes", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		u := newUpstream(t, func(ctx context.Context, c *websocket.Conn, _ *http.Request) error {
			read := make(chan error, 1)
			go func() { _, _, err := c.Read(ctx); read <- err }()
			for {
				select {
				case err := <-read:
					return err
				case <-time.After(time.Millisecond):
				}
				if err := c.Write(ctx, websocket.MessageBinary, []byte("state")); err != nil {
					return <-read
				}
			}
		})
		_, url := behind(t, u, cfg)
		c := dial(ctx, t, url)
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
		c.Close(4001, "bye")
		if e := nextEnd(ctx, t, u); e.code != 4001 || e.reason != "bye" {
			t.Errorf("the upstream read %v, want close status 4001 \"bye\"", e.err)
		}
	})
	t.Run("server closes", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		u := newUpstream(t, func(ctx context.Context, c *websocket.Conn, _ *http.Request) error {
			if _, _, err := c.Read(ctx); err != nil {
				return err
			}
			return c.Close(4005, "stalled")
		})
		_, url := behind(t, u, cfg)
		c := dial(ctx, t, url)
		go func() {
			for c.Write(ctx, websocket.MessageBinary, []byte("input")) == nil {
				time.Sleep(time.Millisecond)
			}
		}()
		_, _, err := c.Read(ctx)
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != 4005 || ce.Reason != "stalled" {
			t.Errorf("client read %v, want close status 4005 \"stalled\"", err)
		}
	})
}
