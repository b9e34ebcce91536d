package admit

import (
	"crypto/sha256"
	"net"
	"net/http"
	"slices"
	"strings"
)

// Policy is what a server admits. The zero Policy admits requests to
// localhost and the loopback addresses from pages of the same origin, and
// refuses every token. A Policy is read-only once in use: any number of
// goroutines may call its methods then.
type Policy struct {
	// Hosts are the names (or addresses) accepted in the Host header
	// besides localhost and the loopback addresses: the names remote
	// clients use to reach the machine. Case is ignored; a port in the
	// Host header is ignored.
	Hosts []string
	// Origins are the page origins accepted besides the request's own
	// host, each as a browser writes it: scheme://host[:port], such as
	// "https://game.example". Case is ignored; no patterns.
	Origins []string
	// Token is the SHA-256 digest of the token ([Digest]); nil means no
	// token is configured and [Policy.Bearer] and [Policy.CheckToken]
	// refuse everything.
	Token *[sha256.Size]byte
}

// Digest returns the SHA-256 digest of token, for [Policy.Token].
func Digest(token string) *[sha256.Size]byte {
	sum := sha256.Sum256([]byte(token))
	return &sum
}

// Check applies the Host, Origin and Sec-Fetch-Site checks (see the
// package doc) to r, in that order, and returns the first refusal:
// [ErrHost], [ErrOrigin] or [ErrCrossSite]; nil admits r. It reads r's
// Host and headers only. O(len(Hosts) + len(Origins)).
func (p *Policy) Check(r *http.Request) error {
	if !p.HostAllowed(r.Host) {
		return ErrHost
	}
	o := r.Header.Get("Origin")
	listed := o != "" && slices.ContainsFunc(p.Origins, func(a string) bool { return strings.EqualFold(a, o) })
	if o != "" && o != "http://"+r.Host && o != "https://"+r.Host && !listed {
		return ErrOrigin
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" && !listed {
		return ErrCrossSite
	}
	return nil
}

// HostAllowed reports whether host, a Host header or a listen address's
// host (a name or address, with or without a port, IPv6 in brackets or
// not), is "localhost", a loopback address or one of p.Hosts.
// O(len(Hosts)).
func (p *Policy) HostAllowed(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if strings.EqualFold(name, "localhost") || slices.ContainsFunc(p.Hosts, func(h string) bool { return strings.EqualFold(h, name) }) {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}
