package netcode

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// rawDial connects without the client library, to speak the protocol
// wrong on purpose.
func rawDial(t *testing.T, url string, header http.Header) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	ws.SetReadLimit(maxServerMessage)
	return ws
}

// closeCode reads until the connection ends and returns the close code
// the server sent (-1 for none) and its reason.
func closeCode(t *testing.T, ws *websocket.Conn) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		if _, _, err := ws.Read(ctx); err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Reason
			}
			return -1, err.Error()
		}
	}
}

func helloBytes(rules *Rules, token string) []byte {
	h := hello{version: ProtocolVersion, fingerprint: rules.Fingerprint(), token: token}
	return h.append(nil)
}

// gameLoopback serves a small game scenario with a well-behaved client.
func gameLoopback(t *testing.T, opts Options) (*loopback, *Rules, *testClient) {
	g, err := scenario.NewGame(scenario.Config{N: 300, Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	markAll(g.World())
	rules := gameRules(t)
	if err := UseInput[uint32](rules); err != nil {
		t.Fatal(err)
	}
	l := newLoopback(t, g.World(), rules, opts, g.Tick)
	good := dialTest(t, l.url, rules, ClientOptions{}, 5*time.Millisecond)
	return l, rules, good
}

// converged checks that the good client still follows the server.
func (l *loopback) converged(t *testing.T, c *testClient) {
	t.Helper()
	if !l.quiet([]ClientID{c.c.ID()}, 5*time.Second) {
		t.Fatal("the well-behaved client did not catch up")
	}
	c.stop()
	want, _ := l.srv.ViewChecksum(c.c.ID())
	if got := c.c.Checksum(); got != want || c.err != nil {
		t.Fatalf("the well-behaved client's checksum is %x, the server's %x (err %v)", got, want, c.err)
	}
}

func TestMisbehavingClientsAreClosed(t *testing.T) {
	l, rules, good := gameLoopback(t, Options{HandshakeTimeout: 300 * time.Millisecond, TickRate: 100})
	stop := make(chan struct{})
	ticking := make(chan struct{})
	go func() { // the server ticks while the bad clients try their luck
		defer close(ticking)
		for {
			select {
			case <-stop:
				return
			default:
				l.run(1, 100)
			}
		}
	}()
	send := func(ws *websocket.Conn, msg []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		ws.Write(ctx, websocket.MessageBinary, msg) // may fail once the server closed
	}
	cases := []struct {
		name   string
		want   websocket.StatusCode
		reason string // if not empty, the reason wanted
		do     func(ws *websocket.Conn)
	}{
		{"no hello", CloseBadHello, "", func(*websocket.Conn) {}},
		{"wrong token", CloseToken, "", func(ws *websocket.Conn) { send(ws, helloBytes(rules, "guess")) }},
		{"empty token", CloseToken, "", func(ws *websocket.Conn) { send(ws, helloBytes(rules, "")) }},
		{"another version", CloseBadHello, "", func(ws *websocket.Conn) {
			h := hello{version: ProtocolVersion + 1, fingerprint: rules.Fingerprint(), token: testToken}
			send(ws, h.append(nil))
		}},
		{"not a hello", CloseBadHello, "", func(ws *websocket.Conn) { send(ws, []byte("GET / HTTP/1.1")) }},
		{"other rules", CloseSchema, "", func(ws *websocket.Conn) {
			h := hello{version: ProtocolVersion, fingerprint: rules.Fingerprint() + 1, token: testToken}
			send(ws, h.append(nil))
		}},
		{"text hello", CloseBadHello, "", func(ws *websocket.Conn) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			ws.Write(ctx, websocket.MessageText, helloBytes(rules, testToken))
		}},
		{"a huge message", websocket.StatusMessageTooBig, "", func(ws *websocket.Conn) {
			send(ws, helloBytes(rules, testToken))
			send(ws, make([]byte, 64<<10))
		}},
		{"random bytes", websocket.StatusProtocolError, "", func(ws *websocket.Conn) {
			send(ws, helloBytes(rules, testToken))
			junk := make([]byte, 100)
			rand.Read(junk)
			junk[0] = 0x7f
			send(ws, junk)
		}},
		{"a bad ack", websocket.StatusProtocolError, "", func(ws *websocket.Conn) {
			send(ws, helloBytes(rules, testToken))
			send(ws, (&ack{tick: 1 << 40}).append(nil))
		}},
		{"a flood", CloseRateExceeded, "", func(ws *websocket.Conn) {
			send(ws, helloBytes(rules, testToken))
			for range 1000 {
				send(ws, []byte{kindResync})
			}
		}},
		{"inputs far ahead", CloseRateExceeded, "inputs too far ahead", func(ws *websocket.Conn) {
			send(ws, helloBytes(rules, testToken))
			for i := range 120 {
				msg := appendUvarint([]byte{kindInput}, 1<<30+uint64(i))
				msg = appendUvarint(msg, 1)
				msg = append(msg, 1, 0, 0, 0)
				send(ws, msg)
				time.Sleep(5 * time.Millisecond) // within the message rate
			}
		}},
		{"a malformed input", websocket.StatusProtocolError, "", func(ws *websocket.Conn) {
			send(ws, helloBytes(rules, testToken))
			send(ws, []byte{kindInput, 5, 1, 1, 2})
		}},
	}
	for _, tc := range cases {
		ws := rawDial(t, l.url, nil)
		tc.do(ws)
		if got, reason := closeCode(t, ws); got != tc.want || tc.reason != "" && reason != tc.reason {
			t.Errorf("%s: closed with %d (%s), want %d (%s)", tc.name, got, reason, tc.want, tc.reason)
		}
		ws.CloseNow()
	}

	// Refused before the upgrade.
	for _, h := range []struct {
		name   string
		header http.Header
		host   string
	}{
		{"a foreign Origin", http.Header{"Origin": {"https://evil.example"}}, ""},
		{"a cross-site fetch", http.Header{"Sec-Fetch-Site": {"cross-site"}}, ""},
		{"a rebinding Host", nil, "evil.example"},
	} {
		req, _ := http.NewRequest("GET", "http"+strings.TrimPrefix(l.url, "ws"), nil)
		for k, v := range h.header {
			req.Header[k] = v
		}
		if h.host != "" {
			req.Host = h.host
		}
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", h.name, resp.StatusCode)
		}
	}
	close(stop)
	<-ticking
	l.converged(t, good)
	if n := len(l.srv.Clients()); n != 1 {
		t.Errorf("%d clients joined after the bad ones left, want 1", n)
	}
}
