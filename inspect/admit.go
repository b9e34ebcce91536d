package inspect

import (
	"errors"
	"net/http"

	"github.com/tessera-ecs/tessera/internal/admit"
)

// admit refuses what no client of this inspector may send: a Host that is
// not the machine's loopback name or an allowed name (DNS rebinding: a web
// page whose domain now resolves to 127.0.0.1), a request from a page of
// another origin (cross-site requests carry its Origin or Sec-Fetch-Site
// header), and writes without the token. The checks are package admit's;
// the messages, which name the refused Host or Origin inside the JSON
// answer, are the inspector's.
func (in *Inspector) admit(r *http.Request) error {
	if err := in.policy.Check(r); err != nil {
		return refusal(err, r)
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return nil
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return errorf(http.StatusMethodNotAllowed, "method %s not allowed", r.Method)
	}
	if err := in.policy.Bearer(r); err != nil {
		return refusal(err, r)
	}
	return nil
}

// refusal is the answer to err, an *admit.Error for r.
func refusal(err error, r *http.Request) *httpError {
	var e *admit.Error
	if !errors.As(err, &e) {
		return errorf(http.StatusInternalServerError, "admission: %v", err)
	}
	switch e {
	case admit.ErrHost:
		return errorf(e.Status, "host %q is not allowed: the inspector answers localhost and loopback addresses (see AllowRemote)", r.Host)
	case admit.ErrOrigin:
		return errorf(e.Status, "cross-origin request from %q refused", r.Header.Get("Origin"))
	case admit.ErrCrossSite:
		return errorf(e.Status, "cross-site request refused")
	case admit.ErrNoToken:
		return errorf(e.Status, "writes are off: the inspector has no token (inspect.Token)")
	case admit.ErrToken:
		return errorf(e.Status, "writes need the header \"Authorization: Bearer <token>\" with the inspector's token")
	}
	return errorf(e.Status, "%s", e.Reason)
}
