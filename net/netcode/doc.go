// Package netcode replicates a Tessera world from one server to many
// clients over WebSocket (github.com/coder/websocket, native and wasm):
// server-authoritative state, per-client relevancy and bandwidth budgets,
// and tick-stamped client inputs delivered to the server's systems as
// events.
//
// # Rules
//
// Server and client build the same Rules: the component types that
// replicate, in order, and the input type.
//
//	rules := netcode.NewRules()
//	netcode.Replicate[Position](rules)
//	netcode.Replicate[Health](rules)
//	netcode.UseInput[Thrust](rules)
//
// Values travel in the save format (ecs.SaveCodec), through the
// BinaryCodec methods `tessera gen` writes where a type has them; the
// rules' fingerprint (names and saved layouts) is checked when a client
// joins, so programs whose types disagree refuse each other. Only
// entities with the Replicated marker component leave the server.
//
// # Server
//
// A Server is an http.Handler; mount it (on Path by convention) and call
// Update on the world's goroutine after every tick:
//
//	srv, err := netcode.NewServer(w, rules, netcode.Options{Token: token})
//	http.Handle(netcode.Path, srv)
//	for range ticker.C {
//		loop.Step()
//		srv.Update()
//	}
//
// Update captures the replicated part of the world once (an image of
// encoded values by entity index), then for each client sends a State:
// the entities that left its view or were despawned, those that entered
// it (whole), and the values that changed since the last State it was
// sent. Each client's view keeps the last two values sent per entity, as
// the client does, so a value that moves steadily costs a few bits (a
// residual from a linear prediction) and one that did not change costs
// nothing. What does not fit the client's byte budget waits, the longest
// waiting and newly relevant first (priority accumulators).
//
// Relevancy decides what each client sees: every replicated entity by
// default, a function of yours, or a Grid of a position component that
// shows each client what lies near its focus.
//
// # Client
//
//	c, err := netcode.Dial(ctx, "ws://host:7800"+netcode.Path, w, rules,
//		netcode.ClientOptions{Token: token})
//	for range frames {
//		c.Update() // applies the States that arrived, on the world's goroutine
//		netcode.SendInput(c, c.Tick()+2, thrust)
//	}
//
// The client makes an entity (with Replicated) for each server entity it
// sees and maps entities inside values to its own. Client.Checksum and
// Server.ViewChecksum give an order-independent checksum of a client's
// view, equal once the client holds the server's values; the server
// sends its sum every ChecksumEvery ticks, a client that differs reports
// it and gets a reset.
//
// # Inputs
//
// A client stamps each input with the server tick it is meant for. Before
// that tick runs, the server sends one Input[I] event per client to
// ecs.EventsOf[Input[I]], in client id order; a client whose input did
// not arrive in time has its last one repeated, marked Repeated. Inputs
// for ticks already run are dropped and counted (ServerStats.LateInputs).
//
// # Robustness
//
// Every connection must pass the Host and Origin checks of the inspector
// (loopback or listed Hosts; the page's own origin or listed Origins;
// no cross-site fetch), then present the token in its hello within
// HandshakeTimeout. Client messages are at most MaxClientMessage bytes
// and rate-limited; queues are bounded both ways: a client whose inbound
// queue fills is flooding and is closed (CloseRateExceeded), one that
// falls behind is skipped, its next State covering every tick it missed,
// and reset after ResyncAfter ticks without one; one that acknowledges
// nothing for StallTimeout is closed (CloseStalled). Every decoder
// returns an error on any bytes and never panics; close reasons are
// constants, never echoes of input.
//
// # Goroutines
//
// The world belongs to the goroutine that steps it and calls
// Server.Update (or Client.Update). Each connection has a reader and a
// writer goroutine that only move bytes between the socket and bounded
// queues. Update encodes clients' States in parallel from the shared
// image; the bytes do not depend on the number of goroutines.
package netcode
