// Package netgame is what the tessera command's server (tessera serve)
// and its clients (tessera demo -connect, and the wasm client in
// cmd/tessera/netclient) share about a replicated scenario: the rules
// (which component types travel, and the View input a client steers its
// relevancy with), the marking of the entities that replicate, and the
// server's relevancy. Server and client build the rules here, so their
// fingerprints agree.
package netgame
