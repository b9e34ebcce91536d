package admit

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// TokenEqual reports whether token's SHA-256 digest is sum. The digests
// are compared in constant time, so the time taken reveals neither the
// token's length nor how much of it matched. An empty token never
// matches. O(len(token)).
func TokenEqual(sum [sha256.Size]byte, token string) bool {
	if token == "" {
		return false
	}
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(got[:], sum[:]) == 1
}

// CheckToken checks a token presented outside the headers, such as in a
// protocol's first message: nil if it matches p.Token, [ErrNoToken] when
// p has no token, [ErrToken] otherwise (empty included).
func (p *Policy) CheckToken(token string) error {
	if p.Token == nil {
		return ErrNoToken
	}
	if !TokenEqual(*p.Token, token) {
		return ErrToken
	}
	return nil
}

// Bearer checks the token of r's header "Authorization: Bearer <token>"
// (the scheme's case is ignored, RFC 9110; exactly one space follows it):
// nil if it matches p.Token, [ErrNoToken] when p has no token, [ErrToken]
// when the header is missing, of another scheme or holds another token.
func (p *Policy) Bearer(r *http.Request) error {
	if p.Token == nil {
		return ErrNoToken
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || !TokenEqual(*p.Token, token) {
		return ErrToken
	}
	return nil
}
