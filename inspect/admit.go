package inspect

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"slices"
	"strings"
)

// admit refuses what no client of this inspector may send: a Host that is
// not the machine's loopback name or an allowed name (DNS rebinding: a web
// page whose domain now resolves to 127.0.0.1), a request from a page of
// another origin (cross-site requests carry its Origin or Sec-Fetch-Site
// header), and writes without the token.
func (in *Inspector) admit(r *http.Request) error {
	if !in.hostAllowed(r.Host) {
		return errorf(http.StatusForbidden, "host %q is not allowed: the inspector answers localhost and loopback addresses (see AllowRemote)", r.Host)
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		return errorf(http.StatusForbidden, "cross-origin request from %q refused", o)
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return errorf(http.StatusForbidden, "cross-site request refused")
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return nil
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return errorf(http.StatusMethodNotAllowed, "method %s not allowed", r.Method)
	}
	if in.token == nil {
		return errorf(http.StatusForbidden, "writes are off: the inspector has no token (inspect.Token)")
	}
	scheme, bearer, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	ok = ok && strings.EqualFold(scheme, "Bearer") // schemes ignore case (RFC 9110)
	sum := sha256.Sum256([]byte(bearer))
	if !ok || subtle.ConstantTimeCompare(sum[:], in.token[:]) != 1 {
		return errorf(http.StatusForbidden, "writes need the header \"Authorization: Bearer <token>\" with the inspector's token")
	}
	return nil
}

// hostAllowed reports whether host (a Host header: name or address, with
// or without a port) names this machine's loopback interface or one of the
// names AllowRemote gave.
func (in *Inspector) hostAllowed(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if strings.EqualFold(name, "localhost") || slices.ContainsFunc(in.hosts, func(h string) bool { return strings.EqualFold(h, name) }) {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}
