package ecs

import (
	"math"
	"slices"
)

// minRecords is the length of a new world's entity index: 16 records, 256
// bytes, so a world of a few entities costs a few hundred bytes of index.
const minRecords = 16

// record says where an entity's table components live: the slot of its
// table (World.tableOf) and its row there. A record that belongs to no
// living entity has deadSlot, deadTable's. The record holds no pointer, so
// the index is memory the garbage collector never scans and writes to it
// need no write barrier; a zeroed record is a dead one. gen holds the world's tag
// in its top 8 bits and the index's generation in the low 24, exactly as the
// handles of this world carry them, so one comparison checks both.
type record struct {
	slot uint32
	row  uint32
	gen  uint32
}

// deadSlot is deadTable's slot, the slot of every record without a living
// entity.
const deadSlot = 0

// tableID returns the id of the table of a live record: a table's slot is
// its id + 1 (table.slot), so no table needs to be read.
func (r *record) tableID() uint32 { return r.slot - 1 }

// deadTable is the table of every record without a living entity: the
// reserved index 0, indices never handed out, and despawned indices. It has
// slot 0, where every type's column list (componentInfo.cols) holds nil, so
// Map.Get's fast path turns a dead record away without a test of its own.
// It has no columns and no rows and is never written.
var deadTable = &table{id: -1, slot: deadSlot}

// entityIndex maps an entity index to its record: one flat slice, as in Ark
// and EnTT, whose length is a power of two so that a lookup masks the index
// instead of comparing it with the length. A handle made by this world always
// has an index below next, so the mask never changes which record it reads;
// a handle of another world whose tag differs fails the generation test on
// whatever record the mask picks. Growing the index copies it: a *record is
// valid until the next alloc or reserve, so code that runs hooks, observers
// or deferred changes (which may spawn) reads the record again afterwards.
//
// Free indices are kept on a stack; a despawn bumps the 24-bit generation,
// and an index whose generation would wrap around is retired for good
// instead of being recycled, so a stale handle can never alias a new entity.
type entityIndex struct {
	recs  []record // len is a power of two; records at next and above are dead
	mask  uint32   // len(recs) - 1
	next  uint32   // first index never handed out
	tag   uint32   // the world's tag, shifted into the top 8 bits (nextWorldTag)
	free  []uint32 // despawned indices, reused last-in first-out
	alive int
}

// newEntityIndex returns an empty index whose handles carry tag (see
// nextWorldTag).
func newEntityIndex(tag uint32) entityIndex {
	// Index 0 is reserved: the zero Entity is never alive.
	x := entityIndex{next: 1, tag: tag}
	x.grow(minRecords)
	return x
}

// grow makes the index hold at least n records, doubling its length.
func (x *entityIndex) grow(n uint64) {
	size := uint64(len(x.recs))
	if size >= n {
		return
	}
	size = max(size, minRecords)
	for size < n {
		size *= 2
	}
	if size > 1<<32 {
		size = 1 << 32
	}
	recs := make([]record, size) // zeroed: dead records (deadSlot)
	copy(recs, x.recs)
	x.recs = recs
	x.mask = uint32(size - 1)
}

// at returns the record of index i, which must be below next.
func (x *entityIndex) at(i uint32) *record {
	return &x.recs[i]
}

// lookup returns the record of e when e is alive, or nil.
func (x *entityIndex) lookup(e Entity) *record {
	if uint64(e.index) >= uint64(len(x.recs)) {
		return nil
	}
	r := &x.recs[e.index]
	if r.slot == deadSlot || r.gen != e.gen {
		return nil
	}
	return r
}

// alloc hands out an entity index, preferring a recycled one. The caller
// sets the record's table and row.
func (x *entityIndex) alloc() (Entity, *record) {
	if relocateOnAlloc {
		x.recs = append([]record(nil), x.recs...)
	}
	if n := len(x.free); n > 0 {
		x.alive++
		i := x.free[n-1]
		x.free = x.free[:n-1]
		r := &x.recs[i]
		return Entity{i, r.gen}, r
	}
	i := x.next
	if i == math.MaxUint32 {
		panic("ecs: Spawn: the entity index is full (2^32-1 indices)")
	}
	x.next++
	x.alive++
	if uint64(i) >= uint64(len(x.recs)) {
		x.grow(uint64(i) + 1)
	}
	// A new index starts at generation 0, tagged with the world.
	r := &x.recs[i]
	r.gen = x.tag
	return Entity{i, x.tag}, r
}

// release marks r (the record of index i) dead and recycles the index.
func (x *entityIndex) release(i uint32, r *record) {
	x.alive--
	r.slot = deadSlot
	if r.gen&genMask == genMask {
		return // retired: bumping would wrap around to a generation handed out before
	}
	r.gen++ // the low 24 bits are below genMask: the tag is untouched
	x.free = append(x.free, i)
}

// releaseAll releases the records of every entity of es, as release does
// one at a time, growing the free list once: a batch despawn's inner loop.
func (x *entityIndex) releaseAll(es []Entity) {
	x.alive -= len(es)
	free := slices.Grow(x.free, len(es))
	for _, e := range es {
		r := &x.recs[e.index]
		r.slot = deadSlot
		if r.gen&genMask == genMask {
			continue // retired, as in release
		}
		r.gen++
		free = append(free, e.index)
	}
	x.free = free
}

// reserve makes room for n more entities without further allocation.
func (x *entityIndex) reserve(n int) {
	need := n - len(x.free)
	if need <= 0 {
		return
	}
	x.grow(uint64(x.next) + uint64(need))
	if cap(x.free) < n {
		f := make([]uint32, len(x.free), n)
		copy(f, x.free)
		x.free = f
	}
}
