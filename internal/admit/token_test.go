package admit_test

import (
	"crypto/sha256"
	"testing"

	"github.com/tessera-ecs/tessera/internal/admit"
)

func TestTokenEqual(t *testing.T) {
	sum := sha256.Sum256([]byte("let-me-in"))
	for token, want := range map[string]bool{
		"let-me-in":  true,
		"let-me-i":   false, // a prefix
		"let-me-in ": false,
		"Let-me-in":  false,
		"":           false,
	} {
		if got := admit.TokenEqual(sum, token); got != want {
			t.Errorf("TokenEqual(%q) = %v, want %v", token, got, want)
		}
	}
	if admit.TokenEqual(sha256.Sum256(nil), "") {
		t.Error("an empty token matched the digest of the empty string")
	}
}

func TestCheckToken(t *testing.T) {
	p := &admit.Policy{Token: admit.Digest("let-me-in")}
	for token, want := range map[string]error{"let-me-in": nil, "nope": admit.ErrToken, "": admit.ErrToken} {
		if err := p.CheckToken(token); err != want {
			t.Errorf("CheckToken(%q) = %v, want %v", token, err, want)
		}
	}
	var none admit.Policy
	for _, token := range []string{"let-me-in", ""} {
		if err := none.CheckToken(token); err != admit.ErrNoToken {
			t.Errorf("no token configured: CheckToken(%q) = %v", token, err)
		}
	}
}

func TestBearer(t *testing.T) {
	p := &admit.Policy{Token: admit.Digest("let-me-in")}
	for auth, want := range map[string]error{
		"Bearer let-me-in":  nil,
		"bearer let-me-in":  nil, // schemes ignore case
		"BEARER let-me-in":  nil,
		"Bearer  let-me-in": admit.ErrToken, // the token would begin with a space
		"Bearer nope":       admit.ErrToken,
		"Bearer ":           admit.ErrToken,
		"Bearer":            admit.ErrToken,
		"Basic let-me-in":   admit.ErrToken,
		"let-me-in":         admit.ErrToken,
		"":                  admit.ErrToken,
	} {
		if err := p.Bearer(request("localhost", "Authorization", auth)); err != want {
			t.Errorf("Authorization %q: Bearer = %v, want %v", auth, err, want)
		}
	}
	var none admit.Policy
	if err := none.Bearer(request("localhost", "Authorization", "Bearer let-me-in")); err != admit.ErrNoToken {
		t.Errorf("no token configured: Bearer = %v", err)
	}
}
