// Package persist holds the workloads of cmd/compare -suite persist: what
// it costs Tessera to keep a world (a snapshot, a checksum, a save file),
// each measured against a floor, plain Go moving the same bytes, and
// against the peer Ark where Ark can do the same work.
//
// A [Comparison] is one operation: a floor [Row] and the rows measured
// against it. [Suite] builds them all at one size:
//
//   - snapshot: [ecs.World.Snapshot] into a warm [ecs.Snapshot], and
//     [ecs.World.Restore] from it, against copy() of the same columns into
//     preallocated slices. The budget comes from rollback netcode (GGPO,
//     GGRS): a save every tick and a restore on every misprediction, inside
//     a 16.7 ms frame.
//   - checksum: [ecs.World.Checksum], the desync check of GGPO and GGRS,
//     against hash/maphash over the same bytes in one pass.
//   - save and load: [ecs.World.Save] and [ecs.World.Load] against
//     encoding/binary writing and reading the columns as plain slices, with
//     a raw row beside it (each slice's memory written as it is and copied
//     back), the least that work costs in Go, since encoding/binary takes
//     slices of structs through reflection; [ecs.World.SaveJSON] and
//     [ecs.World.LoadJSON] against encoding/json over one plain struct per
//     entity.
//   - entities: a world of entities without components, a tenth of them
//     despawned, through Tessera's Save and Load and through Ark's
//     Unsafe().DumpEntities and LoadEntities, against encoding/binary of
//     the generations, the free list and the live indices (and raw, as
//     above).
//
// The particle world is the demo's (internal/scenario's particle system,
// seed 1): N particles with Position, Velocity, Color and Lifetime, eight
// emitters and the scenario's state resource. The floors hold the same
// data as plain slices ([Columns], [JSONWorld], [EntityFloor]), taken from
// the world, so they move the same bytes. Every measured call is one
// //go:noinline kernel, for the floors as for Tessera and Ark: with Go 1.26
// a kernel written inside a benchmark loop compiles to slower code (see
// bench/suite).
package persist
