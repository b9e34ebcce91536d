package inspect_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/inspect"
)

// FuzzRequest sends arbitrary methods, paths, queries and bodies, with and
// without the token, straight to the handler: it must never panic, must
// answer one of the documented statuses, and a refused request must leave
// the world as it was.
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct {
		method, target, body string
		auth                 bool
	}{
		{"GET", "/api/world", "", false},
		{"GET", "/api/entities?with=inspect_test.Position&without=inspect_test.Burning&offset=3&limit=7", "", false},
		{"GET", "/api/entities/1v0", "", false},
		{"PUT", "/api/entities/2v0/components/inspect_test.Health", `{"HP": 3}`, true},
		{"PUT", "/api/entities/2v0/components/inspect_test.Follow", `{"Target": {"index": 4, "generation": 9999999}}`, true},
		{"DELETE", "/api/entities/3v0/components/inspect_test.Burning", "", true},
		{"DELETE", "/api/entities/5v0", "", true},
		{"POST", "/api/entities", `{"components": {"inspect_test.Position": {"X": 1e308}}}`, true},
		{"PUT", "/api/systems/move", `{"enabled": false}`, true},
		{"POST", "/api/loop/step", "", true},
		{"GET", "/static/../inspector.go", "", false},
	} {
		f.Add(seed.method, seed.target, seed.body, seed.auth)
	}
	fx := newFixture(f, inspect.Token(token))
	allowed := map[int]bool{200: true, 201: true, 301: true, 307: true, 308: true, 400: true, 403: true, 404: true, 405: true, 408: true, 409: true, 413: true}
	f.Fuzz(func(t *testing.T, method, target, body string, auth bool) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		// The stream answers until its client goes away: this one leaves
		// after 50 ms.
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, "http://127.0.0.1"+target, strings.NewReader(body))
		if err != nil {
			return // not a request a client can send
		}
		if auth {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		before := fx.checksum()
		rec := httptest.NewRecorder()
		fx.in.ServeHTTP(rec, req)
		if !allowed[rec.Code] {
			t.Fatalf("%s %s %q: status %d %s", method, target, body, rec.Code, rec.Body)
		}
		if rec.Code >= 300 && fx.checksum() != before {
			t.Fatalf("%s %s %q: refused with %d but changed the world", method, target, body, rec.Code)
		}
	})
}
