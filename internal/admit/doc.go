// Package admit decides whether an HTTP request may reach a server that
// listens on the loopback interface by default and can change what it
// serves: the inspector, and the replication server's WebSocket upgrade.
//
// Three checks apply to every request ([Policy.Check]):
//
//   - Host: localhost, a loopback address (127.0.0.0/8, ::1) or one of
//     [Policy.Hosts]. A web page whose domain an attacker re-points at
//     127.0.0.1 (DNS rebinding) sends its own domain as Host, and is
//     refused.
//   - Origin: absent, the request's own host over http or https, or one
//     of [Policy.Origins]. Browsers send Origin on cross-origin fetches
//     and on every WebSocket handshake.
//   - Sec-Fetch-Site: not "cross-site", unless the Origin is one of
//     [Policy.Origins] (a page allowed by name is cross-site by nature).
//
// The token is checked apart, because where it travels depends on the
// server: the inspector reads it from an "Authorization: Bearer" header
// ([Policy.Bearer]); the replication server from its first protocol
// message, since a browser's WebSocket cannot set headers
// ([Policy.CheckToken]). Either way only its SHA-256 digest is kept and
// digests are compared in constant time ([TokenEqual]).
//
// Refusals are the *[Error] values of this package, whose messages are
// constant strings: nothing of the request is echoed. Callers that want a
// richer message match them with errors.Is and write their own.
//
// The package uses the standard library only.
package admit
