package ecs

import "strconv"

// Entity is a handle to an entity: a 32-bit index into the world's entity
// index plus a 32-bit generation. Despawning an entity bumps the generation
// stored at its index, so an old handle can never reach an entity that later
// reuses the index (EntityX's entity versions, seed 004; id recycling, seed
// 000).
//
// The zero Entity is never alive in any world: index 0 is reserved. Entity is
// a comparable 8-byte value, safe to use as a map key and to copy freely.
type Entity struct {
	index uint32
	gen   uint32
}

// Index returns the entity's slot in the entity index. Indices are recycled
// after a despawn; together with [Entity.Generation] they identify an entity.
func (e Entity) Index() uint32 { return e.index }

// Generation returns how many times the entity's index had been recycled when
// this handle was made.
func (e Entity) Generation() uint32 { return e.gen }

// IsZero reports whether e is the zero Entity, which is never alive.
func (e Entity) IsZero() bool { return e == Entity{} }

// String formats the entity as the index, "v" and the generation, for
// example "42v3" (index 42, generation 3), the form every panic message of
// this package uses. A pending entity of a [Commands] buffer prints as
// "pending" and its number in the buffer.
func (e Entity) String() string {
	if e.index == 0 && e.gen != 0 {
		return "pending" + strconv.FormatUint(uint64(e.gen), 10)
	}
	return strconv.FormatUint(uint64(e.index), 10) + "v" + strconv.FormatUint(uint64(e.gen), 10)
}
