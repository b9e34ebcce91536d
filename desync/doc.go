// Package desync finds where two runs of a Tessera simulation part ways.
//
// Lockstep and rollback games compare one checksum per tick between peers
// and learn that they disagree, not where. Package desync works with
// per-tick logs of per-part checksums ([ecs.World.Checksums]: the entity
// index, each component type, relation, resource and event queue), which
// two processes, two machines or two builds write as they run:
//
//	log := desync.NewWriter(f)
//	for range ticks {
//		loop.Step()
//		log.Write(tick, w) // "<tick> <world checksum>" and one column per part
//	}
//	log.Flush()
//
// [ReadLog] reads a log back, and [FirstDivergence] compares two: the first
// tick at which they differ, and the parts (component types, resources...)
// that differ there. From that tick, [ecs.Diff] of the two worlds (two
// saves of that tick, or two snapshots from a ring) names the entities,
// components and fields, with both values. The command line does the same
// with `tessera desync A.log B.log`, on the logs `tessera demo -checksums`
// writes.
//
// # Format
//
// One line per tick, fields separated by tabs: the tick and the world
// checksum in 16 hex digits (separated by a space, so that a log of world
// checksums alone is a valid log), then one field per part,
// "<kind>:<name>=<16 hex digits>", kind being entities, component,
// relation, resource or events. Lines that start with # are comments.
//
// (The per-frame checksums of GGPO and GGRS, made bisectable: their users
// get the frame of a desync and nothing more.)
package desync
