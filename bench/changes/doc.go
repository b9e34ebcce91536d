// Package changes holds the workloads of cmd/compare -suite changes: what
// Tessera's events ([ecs.EventsOf]) and change detection
// ([ecs.TrackChanges], [ecs.Changed]) cost against the Go libraries that
// have something like them, Ark's custom events and observers and
// donburi's features/events event bus, and against plain Go.
//
// A [Comparison] is one workload done by each library, one [Row] per way
// of doing it; [NewSuite] builds them at the sizes of a [Config] ([Full]
// for the report, [Quick] for a smoke run):
//
//   - events: per tick, send N events of a 16-byte struct and have two
//     readers read them all, each summing a field. Tessera's readers pull
//     a slice of their unread events (Bevy's Events and EventReader); Ark
//     calls observers inside Event.Emit, and its events carry an entity,
//     not a value, so the value travels in a component of that entity (or
//     beside it); donburi's Publish queues and ProcessEvents calls the
//     subscribers. The floor appends to a slice read by two cursors.
//   - changed: per tick, 1% of a million entities get a new value, then a
//     pass finds them and sums a field: Tessera's Changed filter, a
//     sparse dirty tag added by hand, or a pass over everything; Ark has
//     no change detection, so its row is a dirty tag component (added
//     with an archetype move, removed by a batch), and a pass over
//     everything. The floor keeps a list of dirty indices.
//
// Every measured call is one //go:noinline kernel, for every library: with
// Go 1.26 a kernel written inside a benchmark loop compiles to slower code
// (see bench/suite). The tests check that each library does the same work:
// every reader reads every event of a tick once, and every pass visits
// exactly the tick's changed entities (or all, for the full passes) with
// their new values.
package changes
