package inspect_test

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

func TestHostAndOriginChecks(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	before := f.checksum()
	put := "/api/entities/" + f.es[1].String() + "/components/inspect_test.Health"
	for _, c := range []struct {
		name    string
		headers []string
		want    string
	}{
		{"DNS rebinding", []string{"Host", "evil.example:8080"}, "host \"evil.example:8080\" is not allowed"},
		{"rebinding, no port", []string{"Host", "attacker.test"}, "is not allowed"},
		{"other origin", []string{"Origin", "http://evil.example"}, "cross-origin"},
		{"other port", []string{"Origin", "http://127.0.0.1:1"}, "cross-origin"},
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, "cross-site"},
	} {
		for _, m := range []string{http.MethodGet, http.MethodPut} {
			path := "/api/world"
			if m == http.MethodPut {
				path = put
			}
			status, body := f.call(m, path, `{"HP":9}`, append(c.headers, "Authorization", "Bearer "+token)...)
			wantError(t, c.name+" "+m, status, body, http.StatusForbidden, c.want)
		}
	}
	if f.checksum() != before {
		t.Fatal("a refused request changed the world")
	}
	for _, host := range []string{"localhost", "localhost:7777", "127.0.0.1:9", "[::1]:7777", "127.1.2.3"} {
		if status, body := f.call(http.MethodGet, "/api/world", "", "Host", host); status != 200 {
			t.Errorf("Host %s refused: %d %s", host, status, body)
		}
	}
	host := strings.TrimPrefix(f.srv.URL, "http://")
	if status, body := f.call(http.MethodPut, put, `{"HP":9}`, "Origin", "http://"+host, "Authorization", "Bearer "+token); status != 200 {
		t.Errorf("same-origin write refused: %d %s", status, body)
	}
}

func TestNoCORS(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	for _, m := range []string{http.MethodOptions, http.MethodGet} {
		req, _ := http.NewRequest(m, f.srv.URL+"/api/world", nil)
		req.Header.Set("Access-Control-Request-Method", "PUT")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if acao := resp.Header.Get("Access-Control-Allow-Origin"); acao != "" {
			t.Errorf("%s answered Access-Control-Allow-Origin: %s", m, acao)
		}
		if m == http.MethodOptions && resp.StatusCode < 400 {
			t.Errorf("a preflight was accepted: %d", resp.StatusCode)
		}
	}
}

func TestPageAndFiles(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ path, ctype, want string }{
		{"/", "text/html", "Tessera inspector"},
		{"/static/app.js", "javascript", "/api/world"},
		{"/static/vendor/uplot/uPlot.iife.min.js", "javascript", "uPlot"},
		{"/static/vendor/uplot/LICENSE", "", "MIT"},
	} {
		resp, err := http.Get(f.srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		buf, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), c.ctype) || !strings.Contains(string(buf), c.want) {
			t.Errorf("%s: %d %s, %d bytes", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(buf))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", c.path, csp)
		}
	}
	for _, path := range []string{"/static/nothing.js", "/static/", "/static/vendor/", "/static/%8e"} {
		if status, _ := f.call(http.MethodGet, path, ""); status != 404 {
			t.Errorf("%s answered %d, want 404 (no file, no listing)", path, status)
		}
	}
}

func TestListen(t *testing.T) {
	in := inspect.New(ecs.NewWorld())
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:80", "nonsense"} {
		if srv, err := in.Listen(addr); err == nil {
			srv.Close()
			t.Errorf("Listen(%q) was allowed", addr)
		}
	}
	srv, err := in.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Errorf("URL %s", srv.URL)
	}
	resp, err := http.Get(srv.URL)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %v %v", srv.URL, resp, err)
	}
	resp.Body.Close()
	var mu sync.Mutex
	remote := inspect.New(ecs.NewWorld(), inspect.AllowRemote("box.lan"), inspect.Locker(&mu))
	rsrv, err := remote.Listen("0.0.0.0:0")
	if err != nil {
		t.Fatalf("AllowRemote: %v", err)
	}
	defer rsrv.Close()
	port := rsrv.URL[strings.LastIndex(rsrv.URL, ":"):]
	for host, want := range map[string]int{"box.lan" + port: 200, "other.lan" + port: 403} {
		req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1"+strings.TrimSuffix(port, "/")+"/api/world", nil)
		req.Host = strings.TrimSuffix(host, "/")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

func TestListenOnAWildcardAddressGivesAReachableURL(t *testing.T) {
	var mu sync.Mutex
	for _, c := range []struct {
		hosts []string
		want  string
	}{{nil, "http://127.0.0.1:"}, {[]string{"box.lan"}, "http://box.lan:"}} {
		in := inspect.New(ecs.NewWorld(), inspect.Locker(&mu), inspect.AllowRemote(c.hosts...))
		srv, err := in.Listen("0.0.0.0:0")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(srv.URL, c.want) {
			t.Errorf("URL %s, want %s…", srv.URL, c.want)
		}
		if c.hosts == nil {
			resp, err := http.Get(srv.URL + "api/world")
			if err != nil || resp.StatusCode != 200 {
				t.Errorf("GET %s: %v %v", srv.URL, resp, err)
			}
			resp.Body.Close()
		}
		srv.Close()
	}
}

func TestBearerSchemeIgnoresCase(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	status, body := f.call(http.MethodPut, "/api/entities/"+f.es[1].String()+"/components/inspect_test.Health", `{"HP": 5}`, "Authorization", "bearer "+token)
	if status != 200 {
		t.Errorf("lower-case bearer: %d %s", status, body)
	}
	status, body = f.call("OPTIONS", "/api/world", "")
	wantError(t, "OPTIONS", status, body, http.StatusMethodNotAllowed, "method OPTIONS not allowed")
}
