// Package lagproxy is a WebSocket relay for tests that puts latency and
// jitter between a client and a server, keeping message order as TCP
// does. Mount a [Proxy] with httptest.NewServer and dial it instead of
// the server; [Proxy.Drop] cuts the current connections, as a lost
// network would.
package lagproxy
