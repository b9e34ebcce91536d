package inspect_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
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
		{"PATCH", "/api/entities/2v0/components/inspect_test.Health", `{"HP": 4}`, true},
		{"PATCH", "/api/entities/1v0/components/inspect_test.Position", `{"Y": null, "Z": 1}`, true},
		{"PATCH", "/api/entities/2v0/components/inspect_test.Follow", `{"Target": {"generation": 1}}`, true},
		{"GET", "/api/hierarchy?offset=0&limit=3", "", false},
		{"GET", "/api/hierarchy/4v0", "", false},
		{"GET", "/api/entities/4v0/pairs?as=target&relation=ecs.ChildOf", "", false},
		{"GET", "/api/relations", "", false},
		{"PUT", "/api/systems/move", `{"enabled": false}`, true},
		{"POST", "/api/loop/step", "", true},
		{"GET", "/static/../inspector.go", "", false},
	} {
		f.Add(seed.method, seed.target, seed.body, seed.auth)
	}
	fx := newFixture(f, inspect.Token(token))
	h := ecs.NewHierarchy(fx.w)
	for i := 5; i < 40; i++ {
		h.SetParent(fx.es[i], fx.es[i/5-1])
	}
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

// FuzzMergePatch sends arbitrary merge patches to a component of nested
// structs, a pointer, a map and a slice: each must answer 200 or 400, a
// refused one must change nothing, and an accepted one applied again must
// change nothing more (a merge patch is idempotent).
func FuzzMergePatch(f *testing.F) {
	for _, seed := range []string{
		`{"Name": "boat"}`, `{"Pos": {"Y": 5}}`, `{"Pos": {"X": null}}`, `{"Vel": null}`,
		`{"Vel": {"Y": 9}}`, `{"Tags": {"a": null, "c": 3}}`, `{"Path": [{"X": 9}]}`,
		`{"mask": 255, "Level": 7}`, `{"Small": 300}`, `{"pos": {}}`, `[]`, `null`, `{"Tags": null}`,
		`{"Path": [null, {"Y": 1e400}]}`, `"x"`, `{"Vel": {"X": {"Y": 1}}}`,
	} {
		f.Add(seed)
	}
	b := newBodyWorld(f)
	send := func(body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPatch, "http://127.0.0.1"+b.path(), strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/merge-patch+json")
		rec := httptest.NewRecorder()
		b.in.ServeHTTP(rec, req)
		return rec
	}
	f.Fuzz(func(t *testing.T, patch string) {
		before := b.checksum()
		rec := send(patch)
		switch rec.Code {
		case http.StatusOK:
			after := b.checksum()
			if again := send(patch); again.Code != http.StatusOK || b.checksum() != after {
				t.Fatalf("%q applied twice: %d %s, changed again: %v", patch, again.Code, again.Body, b.checksum() != after)
			}
		case http.StatusBadRequest:
			if b.checksum() != before {
				t.Fatalf("%q refused with %s but changed the world", patch, rec.Body)
			}
		default:
			t.Fatalf("%q: status %d %s", patch, rec.Code, rec.Body)
		}
	})
}
