package admit

import "net/http"

// Error is a refusal: the HTTP status to answer and a constant reason
// that echoes nothing of the request. Check, Bearer and CheckToken return
// only the values below, so callers compare with errors.Is or ==.
type Error struct {
	Status int    // an HTTP status, 403 for every refusal of this package
	Reason string // a constant, lower-case phrase
}

// Error returns e.Reason.
func (e *Error) Error() string { return e.Reason }

// The refusals. Do not modify them.
var (
	// ErrHost: the Host header names neither this machine's loopback
	// interface nor one of Policy.Hosts (DNS rebinding).
	ErrHost = &Error{http.StatusForbidden, "host not allowed"}
	// ErrOrigin: the Origin header names another origin than the
	// request's own host and Policy.Origins.
	ErrOrigin = &Error{http.StatusForbidden, "cross-origin request refused"}
	// ErrCrossSite: the browser marked the request Sec-Fetch-Site:
	// cross-site and its Origin is not one of Policy.Origins.
	ErrCrossSite = &Error{http.StatusForbidden, "cross-site request refused"}
	// ErrNoToken: the policy has no token, so nothing that needs one is
	// allowed.
	ErrNoToken = &Error{http.StatusForbidden, "no token configured"}
	// ErrToken: the token is missing or wrong.
	ErrToken = &Error{http.StatusForbidden, "missing or wrong token"}
)
