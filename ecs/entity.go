package ecs

import "strconv"

// Entity is a handle to an entity: a 32-bit index into the world's entity
// index plus a 32-bit generation word. Despawning an entity bumps the
// generation stored at its index, so an old handle can never reach an entity
// that later reuses the index (generational indices, as in EntityX's entity
// versions and the dissertation "optimisations for the Entity Component
// System pattern"; the id recycling of Pierre Vigier,
// "Entity-Component-System – Part 1", the ECS of the game Vagabond; the
// slotmap and generational-arena crates of Rust).
//
// The generation word holds a generation in its low 24 bits and, in its top
// 8 bits, the tag of the world that made the handle: each world takes the
// next tag from a process-wide counter when it is made (the first world gets
// tag 0, the 257th gets tag 0 again). A world checks the tag in the same
// comparison that checks the generation, so a handle of another world is
// not alive in it, and every operation that panics on a dead entity says the
// entity belongs to another world. The check catches mixing up two worlds
// made close together; two worlds whose counts differ by a multiple of 256
// share a tag and cannot tell their handles apart. An index is retired,
// never to be handed out again, after its generation reaches 16,777,215
// (2^24-1 reuses), so a stale handle can never alias a new entity.
//
// Two worlds built by the same calls hand out entities with equal
// [Entity.Index] and [Entity.Generation], but the Entity values differ in
// the tag: compare or hash Index and Generation, or the String form, to
// compare the entities of two worlds, never the Entity values.
//
// The zero Entity is never alive in any world: index 0 is reserved. Entity is
// a comparable 8-byte value, safe to use as a map key and to copy freely.
type Entity struct {
	index uint32
	gen   uint32
}

// Index returns the entity's slot in the entity index. Indices are recycled
// after a despawn; together with [Entity.Generation] they identify an entity
// within its world.
func (e Entity) Index() uint32 { return e.index }

// Generation returns how many times the entity's index had been recycled when
// this handle was made: the low 24 bits of the generation word, without the
// world's tag.
func (e Entity) Generation() uint32 { return e.gen & genMask }

// IsZero reports whether e is the zero Entity, which is never alive.
func (e Entity) IsZero() bool { return e == Entity{} }

// String formats the entity as the index, "v" and the generation, for
// example "42v3" (index 42, generation 3), the form every panic message of
// this package uses; the world's tag is left out. A pending entity of a
// [Commands] buffer prints as "pending" and its number in the buffer.
func (e Entity) String() string {
	if e.index == 0 && e.gen != 0 {
		return "pending" + strconv.FormatUint(uint64(e.gen), 10)
	}
	return strconv.FormatUint(uint64(e.index), 10) + "v" + strconv.FormatUint(uint64(e.gen&genMask), 10)
}
