package netcode

import "github.com/tessera-ecs/tessera/ecs"

// ClientID names a client on one server: 1 for the first to join, then
// counting up. An id is not reused while the server runs.
type ClientID uint32

// Relevancy picks the entities a client sees (Unity's Netcode for
// Entities calls it relevancy, naia scope, bevy_replicon visibility). A
// Relevancy that also has a method Prepare(w *ecs.World) has it called
// once per Server.Update, before any Relevant (Grid rebuilds its cells
// there); one with a method Forget(c ClientID) has it called when client
// c leaves.
type Relevancy interface {
	// Relevant appends to dst the entities client c should see and
	// returns it. Entities without Replicated, dead ones and duplicates
	// are ignored. Called on the goroutine that calls Server.Update,
	// once per client per tick, with the world between ticks: it may read
	// the world, not change it.
	Relevant(c ClientID, w *ecs.World, dst []ecs.Entity) []ecs.Entity
}

// RelevancyFunc adapts a function to Relevancy.
type RelevancyFunc func(c ClientID, w *ecs.World, dst []ecs.Entity) []ecs.Entity

// Relevant calls f.
func (f RelevancyFunc) Relevant(c ClientID, w *ecs.World, dst []ecs.Entity) []ecs.Entity {
	return f(c, w, dst)
}

// preparer is a Relevancy that builds something once a tick, before the
// server asks it about any client (Grid rebuilds its cells).
type preparer interface{ Prepare(w *ecs.World) }

// forgetter is a Relevancy that keeps something per client, dropped when
// the client leaves.
type forgetter interface{ Forget(c ClientID) }
