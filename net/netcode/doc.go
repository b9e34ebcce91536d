// Package netcode replicates a Tessera world from one server to many
// clients over WebSocket: server-authoritative state, per-client
// relevancy and bandwidth budgets, tick-stamped inputs delivered to the
// server's systems as events.
package netcode
