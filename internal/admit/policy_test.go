package admit_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/internal/admit"
)

// request is a GET with Host host and the headers given as name, value
// pairs.
func request(host string, headers ...string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Host = host
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	return r
}

func TestHostAllowed(t *testing.T) {
	p := &admit.Policy{Hosts: []string{"box.lan", "192.0.2.7"}}
	for host, want := range map[string]bool{
		"localhost":           true,
		"LocalHost:7777":      true,
		"127.0.0.1":           true,
		"127.0.0.1:9":         true,
		"127.1.2.3":           true,
		"[::1]:7777":          true,
		"[::1]":               true,
		"::1":                 true,
		"box.lan":             true,
		"BOX.LAN:8080":        true,
		"192.0.2.7:80":        true,
		"evil.example:8080":   false, // DNS rebinding: the page's own domain
		"attacker.test":       false,
		"localhost.evil.test": false,
		"127.0.0.1.evil.test": false,
		"box.lan.evil.test":   false,
		"10.0.0.1":            false,
		"[::2]:7777":          false,
		"0.0.0.0":             false,
		"":                    false,
		"[":                   false,
	} {
		if got := p.HostAllowed(host); got != want {
			t.Errorf("HostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	var zero admit.Policy
	if zero.HostAllowed("box.lan") || !zero.HostAllowed("[::1]:1") {
		t.Error("the zero Policy must admit loopback only")
	}
}

func TestCheck(t *testing.T) {
	p := &admit.Policy{Hosts: []string{"box.lan"}, Origins: []string{"https://game.example"}}
	for _, c := range []struct {
		name    string
		host    string
		headers []string
		want    error
	}{
		{"loopback", "127.0.0.1:7777", nil, nil},
		{"IPv6 loopback", "[::1]:7777", nil, nil},
		{"allowed name", "box.lan:7777", nil, nil},
		{"DNS rebinding", "evil.example:7777", nil, admit.ErrHost},
		{"rebinding with an allowed origin", "evil.example", []string{"Origin", "https://game.example"}, admit.ErrHost},
		{"same origin, http", "127.0.0.1:7777", []string{"Origin", "http://127.0.0.1:7777"}, nil},
		{"same origin, https", "box.lan", []string{"Origin", "https://box.lan"}, nil},
		{"same-site fetch", "localhost:1", []string{"Sec-Fetch-Site", "same-site"}, nil},
		{"same-origin fetch", "localhost:1", []string{"Origin", "http://localhost:1", "Sec-Fetch-Site", "same-origin"}, nil},
		{"listed origin, cross-site", "box.lan", []string{"Origin", "HTTPS://game.example", "Sec-Fetch-Site", "cross-site"}, nil},
		{"cross-site origin", "127.0.0.1:7777", []string{"Origin", "http://evil.example"}, admit.ErrOrigin},
		{"other port", "127.0.0.1:7777", []string{"Origin", "http://127.0.0.1:1"}, admit.ErrOrigin},
		{"null origin", "127.0.0.1:7777", []string{"Origin", "null"}, admit.ErrOrigin},
		{"listed origin, other scheme", "box.lan", []string{"Origin", "http://game.example"}, admit.ErrOrigin},
		{"cross-site fetch", "127.0.0.1:7777", []string{"Sec-Fetch-Site", "cross-site"}, admit.ErrCrossSite},
		{"cross-site fetch, same origin", "127.0.0.1:7777", []string{"Origin", "http://127.0.0.1:7777", "Sec-Fetch-Site", "cross-site"}, admit.ErrCrossSite},
	} {
		err := p.Check(request(c.host, c.headers...))
		if err != c.want {
			t.Errorf("%s: Check = %v, want %v", c.name, err, c.want)
		}
	}
}

// TestRefusalsEchoNothing checks that the messages are constants: a
// refusal of a request full of marker text carries none of it.
func TestRefusalsEchoNothing(t *testing.T) {
	const marker = "MARKER<script>"
	p := &admit.Policy{Token: admit.Digest("secret")}
	for _, r := range []*http.Request{
		request(marker + ".example"),
		request("localhost", "Origin", "http://"+marker),
		request("localhost", "Sec-Fetch-Site", "cross-site", "Referer", marker),
	} {
		err := p.Check(r)
		var e *admit.Error
		if !errors.As(err, &e) || e.Status != http.StatusForbidden || strings.Contains(err.Error(), "MARKER") {
			t.Errorf("Check = %#v", err)
		}
	}
	for _, err := range []error{p.CheckToken(marker), p.Bearer(request("localhost", "Authorization", "Bearer "+marker))} {
		if err != admit.ErrToken || strings.Contains(err.Error(), "MARKER") {
			t.Errorf("token refusal = %v", err)
		}
	}
}
