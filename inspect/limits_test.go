package inspect_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

// rawConn is a client connection that writes a request by hand, to send a
// body slowly, partly or never.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
}

// dial connects to the server at url (http://host:port...).
func dial(t *testing.T, url string) *rawConn {
	t.Helper()
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawConn{t, conn, bufio.NewReader(conn)}
}

// head writes a request line and headers (pairs: name, value), then the
// blank line; the Host header is the loopback address.
func (c *rawConn) head(method, path string, headers ...string) {
	c.t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, c.conn.RemoteAddr())
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	b.WriteString("\r\n")
	c.send(b.String())
}

func (c *rawConn) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.conn, s); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads the response, failing the test unless it arrives within d.
func (c *rawConn) answer(d time.Duration) (*http.Response, string) {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(d))
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.t.Fatalf("no answer within %v: %v", d, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		c.t.Fatalf("answer's body: %v", err)
	}
	return resp, string(body)
}

// closedWithin checks the server closes the connection within d.
func (c *rawConn) closedWithin(d time.Duration) {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(d))
	if n, err := io.Copy(io.Discard, c.br); err != nil {
		c.t.Errorf("connection still open after %v (%d bytes, %v)", d, n, err)
	}
}

func (f *fixture) healthPath(i int) string {
	return "/api/entities/" + f.es[i].String() + "/components/inspect_test.Health"
}

func (f *fixture) hp(i int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return ecs.NewMap[Health](f.w).Get(f.es[i]).HP
}

// TestContentLengthOverLimitRefusedUpFront sends only the headers of
// requests declaring a body over the limit: the answer must come without
// the body, and without waiting for the world, whose lock is held
// throughout (a request that reached it would answer 503 after 5 s).
func TestContentLengthOverLimitRefusedUpFront(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.MaxBody(64), inspect.BodyTimeout(200*time.Millisecond))
	before := f.checksum()
	f.mu.Lock()
	for _, c := range []struct {
		name   string
		length string
		auth   bool
		status int
	}{
		{"small excess", "1000", true, http.StatusRequestEntityTooLarge},
		{"large excess", "2000000", true, http.StatusRequestEntityTooLarge},
		{"no token", "1000", false, http.StatusForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := dial(t, f.srv.URL)
			headers := []string{"Content-Type", "application/json", "Content-Length", c.length}
			if c.auth {
				headers = append(headers, "Authorization", "Bearer "+token)
			}
			conn.head(http.MethodPut, f.healthPath(1), headers...)
			resp, body := conn.answer(time.Second)
			if resp.StatusCode != c.status || !resp.Close {
				t.Errorf("%d (close %v) %s; want %d and the connection closed", resp.StatusCode, resp.Close, body, c.status)
			}
			if c.status == http.StatusRequestEntityTooLarge && !strings.Contains(body, "larger than 64 bytes") {
				t.Errorf("error %s", body)
			}
			conn.closedWithin(time.Second) // whatever the server still reads is bounded
		})
	}
	f.mu.Unlock()
	if f.checksum() != before || f.hp(1) != 10 {
		t.Error("a refused request changed the world")
	}
}

// TestSlowBodyCutOff trickles an authorised write's body: the request
// answers 408 once the body timeout passes, without running, and while it
// trickles the world is not locked: other reads and writes are served.
// The requests beside it must finish within the timeout for the test to
// prove anything, so a loaded machine gets a longer timeout and a slower
// trickle, up to three times.
func TestSlowBodyCutOff(t *testing.T) {
	for _, timeout := range []time.Duration{300 * time.Millisecond, time.Second, 3 * time.Second} {
		if slowBodyCutOff(t, timeout) {
			return
		}
		t.Logf("the requests beside the slow body took longer than %v; trying a longer timeout", timeout)
	}
	t.Fatal("the requests beside the slow body never finished within its timeout: the test proves nothing")
}

// slowBodyCutOff is one run of TestSlowBodyCutOff; false when the requests
// beside the slow body took too long for it to say anything.
func slowBodyCutOff(t *testing.T, timeout time.Duration) bool {
	f := newFixture(t, inspect.Token(token), inspect.BodyTimeout(timeout))
	conn := dial(t, f.srv.URL)
	start := time.Now()
	conn.head(http.MethodPut, f.healthPath(1), "Content-Length", "40", "Authorization", "Bearer "+token)
	conn.send(`{"HP": 5`)
	stop := make(chan struct{})
	trickled := make(chan struct{})
	step := timeout / 15 // 32 spaces: the whole body would take twice the timeout
	go func() {
		defer close(trickled)
		for range 32 {
			select {
			case <-stop:
				return
			case <-time.After(step):
			}
			if _, err := io.WriteString(conn.conn, " "); err != nil {
				return // cut off
			}
		}
	}()
	defer func() { close(stop); <-trickled }()

	time.Sleep(timeout / 6) // the server is reading the body
	if !f.mu.TryLock() {
		t.Error("the world's lock is held while a body trickles in")
	} else {
		f.mu.Unlock()
	}
	if status, body := f.call(http.MethodGet, "/api/world", ""); status != http.StatusOK {
		t.Errorf("read during the slow body: %d %s", status, body)
	}
	if status, body := f.write(http.MethodPut, f.healthPath(4), `{"HP": 44}`); status != http.StatusOK {
		t.Errorf("write during the slow body: %d %s", status, body)
	}
	if time.Since(start) >= timeout {
		return false
	}

	resp, body := conn.answer(timeout + time.Second)
	elapsed := time.Since(start)
	if resp.StatusCode != http.StatusRequestTimeout || !resp.Close || !strings.Contains(body, "not received within "+timeout.String()) {
		t.Errorf("slow body: %d (close %v) %s; want 408 and the connection closed", resp.StatusCode, resp.Close, body)
	}
	if elapsed < timeout {
		t.Errorf("cut off after %v, before the body timeout %v", elapsed, timeout)
	}
	if hp := f.hp(1); hp != 10 {
		t.Errorf("the cut-off write ran: HP %d", hp)
	}
	if hp := f.hp(4); hp != 44 {
		t.Errorf("the write beside it did not run: HP %d", hp)
	}
	return true
}

// TestBodyInPartsWithinTimeout checks that a body that arrives in parts
// before the timeout is taken whole.
func TestBodyInPartsWithinTimeout(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.BodyTimeout(time.Second))
	conn := dial(t, f.srv.URL)
	body := `{"HP": 31}`
	conn.head(http.MethodPut, f.healthPath(1), "Content-Length", fmt.Sprint(len(body)), "Authorization", "Bearer "+token)
	conn.send(body[:4])
	time.Sleep(50 * time.Millisecond)
	conn.send(body[4:])
	if resp, out := conn.answer(time.Second); resp.StatusCode != http.StatusOK {
		t.Errorf("%d %s", resp.StatusCode, out)
	}
	if hp := f.hp(1); hp != 31 {
		t.Errorf("HP %d, want 31", hp)
	}
}

// TestChunkedBodyOverLimitRefused sends chunked bodies (no
// Content-Length) over the limit: 413 as soon as the limit is passed,
// without waiting for the rest, and nothing changes.
func TestChunkedBodyOverLimitRefused(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.MaxBody(64), inspect.BodyTimeout(time.Second))
	before := f.checksum()

	conn := dial(t, f.srv.URL)
	conn.head(http.MethodPut, f.healthPath(1), "Transfer-Encoding", "chunked", "Authorization", "Bearer "+token)
	chunk := `{"HP": 9` + strings.Repeat(" ", 92) + `}` // 101 bytes; the last chunk never comes
	conn.send(fmt.Sprintf("%x\r\n%s\r\n", len(chunk), chunk))
	resp, body := conn.answer(500 * time.Millisecond)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close || !strings.Contains(body, "larger than 64 bytes") {
		t.Errorf("raw chunked: %d (close %v) %s; want 413 and the connection closed", resp.StatusCode, resp.Close, body)
	}

	// A client's body of unknown length goes chunked too.
	r := io.MultiReader(strings.NewReader(`{"HP": 9`), strings.NewReader(strings.Repeat(" ", 1000)+`}`))
	req, _ := http.NewRequest(http.MethodPut, f.srv.URL+f.healthPath(1), r)
	req.Header.Set("Authorization", "Bearer "+token)
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp2.Body)
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("client chunked: %d %s; want 413", resp2.StatusCode, out)
	}
	if f.checksum() != before || f.hp(1) != 10 {
		t.Error("a refused body changed the world")
	}
}

// TestListenTimeouts checks the server Listen builds closes a connection
// whose headers trickle, and a keep-alive connection left idle.
func TestListenTimeouts(t *testing.T) {
	var mu sync.Mutex
	in := inspect.New(ecs.NewWorld(), inspect.Locker(&mu),
		inspect.HeaderTimeout(100*time.Millisecond), inspect.IdleTimeout(100*time.Millisecond))
	srv, err := in.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	slow := dial(t, srv.URL)
	slow.send("GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\n") // never the blank line
	slow.closedWithin(time.Second)

	idle := dial(t, srv.URL)
	idle.head(http.MethodGet, "/api/world")
	if resp, body := idle.answer(time.Second); resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("%d (close %v) %s; want 200 on a kept-alive connection", resp.StatusCode, resp.Close, body)
	}
	idle.closedWithin(time.Second)
}

// TestStreamOutlivesWriteTimeouts serves the stream from a server of the
// caller's own with a WriteTimeout, and the inspector's WriteTimeout as
// short: both bound a write, not the stream, so events keep coming.
func TestStreamOutlivesWriteTimeouts(t *testing.T) {
	const timeout = 50 * time.Millisecond
	in := inspect.New(ecs.NewWorld(), inspect.WriteTimeout(timeout))
	srv := httptest.NewUnstartedServer(in)
	srv.Config.WriteTimeout = timeout
	srv.Start()
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); in.Run(ctx, 200, func() {}) }()
	defer func() { cancel(); <-done }()

	rctx, rcancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer rcancel()
	req, _ := http.NewRequestWithContext(rctx, http.MethodGet, srv.URL+"/api/stream", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if sc.Text() == "event: tick" {
			events++
		}
	}
	if err := sc.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the stream ended before its client left: %v, after %d events", err, events)
	}
	if events < 3 { // one each 100 ms: about 6
		t.Errorf("%d events in 600 ms", events)
	}
}

// TestBodyTimeoutEndsWithTheBody checks the body's read deadline does not
// outlive the body: a write whose body came at once, then waited for the
// world's lock past the body timeout, still runs (the server watches the
// connection for the client leaving while it waits, and a deadline left
// set would end that watch and the request with it).
func TestBodyTimeoutEndsWithTheBody(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.BodyTimeout(50*time.Millisecond), inspect.Wait(time.Second))
	f.mu.Lock()
	time.AfterFunc(200*time.Millisecond, f.mu.Unlock)
	if status, body := f.write(http.MethodPut, f.healthPath(1), `{"HP": 12}`); status != http.StatusOK {
		t.Errorf("%d %s; want 200 once the lock is free", status, body)
	}
	if hp := f.hp(1); hp != 12 {
		t.Errorf("HP %d, want 12", hp)
	}
}

// deadlineWriter is a ResponseWriter with deadlines, as a server of the
// caller's own may give: it records the write deadline each write and
// flush ran under.
type deadlineWriter struct {
	*httptest.ResponseRecorder
	write, read time.Time
	writes      []time.Time // the write deadline at each Write and Flush
}

func (d *deadlineWriter) SetWriteDeadline(t time.Time) error { d.write = t; return nil }
func (d *deadlineWriter) SetReadDeadline(t time.Time) error  { d.read = t; return nil }
func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.writes = append(d.writes, d.write)
	return d.ResponseRecorder.Write(p)
}
func (d *deadlineWriter) Flush() {
	d.writes = append(d.writes, d.write)
	d.ResponseRecorder.Flush()
}

// readDeadlineBody is a request body that records the read deadline its
// first Read ran under.
type readDeadlineBody struct {
	io.Reader
	w  *deadlineWriter
	at *time.Time
}

func (b readDeadlineBody) Read(p []byte) (int, error) {
	if b.at.IsZero() {
		*b.at = b.w.read
	}
	return b.Reader.Read(p)
}
func (readDeadlineBody) Close() error { return nil }

// TestHandlerSetsDeadlines checks the handler bounds its body's read and
// its answer's write on a server of the caller's own, and that the stream
// writes each event under a deadline and lifts it between events.
func TestHandlerSetsDeadlines(t *testing.T) {
	const bodyTimeout, writeTimeout = 3 * time.Second, 7 * time.Second
	f := newFixture(t, inspect.Token(token), inspect.BodyTimeout(bodyTimeout), inspect.WriteTimeout(writeTimeout))
	within := func(what string, d, from time.Time, max time.Duration) {
		t.Helper()
		if d.Before(from) || d.After(time.Now().Add(max)) {
			t.Errorf("%s: deadline %v after the start, want within %v", what, d.Sub(from), max)
		}
	}

	start := time.Now()
	dw := &deadlineWriter{ResponseRecorder: httptest.NewRecorder(), write: start.Add(-time.Hour)} // an earlier answer's, past
	var readAt time.Time
	req := httptest.NewRequest(http.MethodPut, "http://127.0.0.1"+f.healthPath(1), nil)
	req.Body = readDeadlineBody{strings.NewReader(`{"HP": 13}`), dw, &readAt}
	req.Header.Set("Authorization", "Bearer "+token)
	f.in.ServeHTTP(dw, req)
	if dw.Code != http.StatusOK || len(dw.writes) == 0 {
		t.Fatalf("PUT: %d %s", dw.Code, dw.Body)
	}
	within("body read", readAt, start, bodyTimeout)
	for _, d := range dw.writes {
		within("answer write", d, start, writeTimeout)
	}

	dw = &deadlineWriter{ResponseRecorder: httptest.NewRecorder()}
	f.in.ServeHTTP(dw, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/api/world", nil))
	if !dw.read.IsZero() {
		t.Error("a request without a body got a read deadline")
	}

	in := inspect.New(ecs.NewWorld(), inspect.WriteTimeout(writeTimeout))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); in.Run(ctx, 200, func() {}) }()
	defer func() { cancel(); <-done }()
	rctx, rcancel := context.WithTimeout(context.Background(), 350*time.Millisecond)
	defer rcancel()
	dw = &deadlineWriter{ResponseRecorder: httptest.NewRecorder()}
	start = time.Now()
	in.ServeHTTP(dw, httptest.NewRequestWithContext(rctx, http.MethodGet, "http://127.0.0.1/api/stream", nil))
	if events := strings.Count(dw.Body.String(), "event: tick"); events < 2 {
		t.Errorf("%d events in 350 ms", events)
	}
	for _, d := range dw.writes {
		within("stream write", d, start, writeTimeout)
	}
	if !dw.write.IsZero() {
		t.Errorf("the stream left a write deadline %v set between events", dw.write)
	}
}
