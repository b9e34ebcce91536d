package ecs

import (
	"fmt"
	"slices"
)

// minRecords is the length of a new world's entity index: 16 records, 256
// bytes, so a world of a few entities costs a few hundred bytes of index.
const minRecords = 16

// MaxEntities is the most entities a world holds at once, and the most
// entity indices it hands out in its life, counting despawned indices it
// recycles once: 2^30-1 on 64-bit machines and 2^27-1 on 32-bit ones. It
// keeps the entity index (12 bytes an index) within what the machine can
// address, so a count past it is a programming error, not an
// out-of-memory crash: a batch spawn, a prefab spawn or [World.Reserve]
// asked for more entities than the world has room for panics, before it
// allocates, with the limit and the room left in its message, and a save
// file with more entities than this is refused with an error. An entity
// index is a 32-bit number, as in Ark, EnTT and flecs; this limit stays
// below it. [World.Room] tells how many more entities fit.
const MaxEntities = 1<<(27+3*(^uint(0)>>63)) - 1

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
	// unmark is called before alloc panics on a full index: the world's
	// leave, since alloc runs inside the mark of a structural change
	// (World.enter) and the world must stay usable after the panic.
	unmark func()
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
	if size > MaxEntities+1 {
		size = MaxEntities + 1 // alloc and reserve never ask for more
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
	if i > MaxEntities {
		x.full()
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

// full panics for an alloc past MaxEntities, after unmarking the world.
// It is a function of its own so that alloc, which runs once per spawned
// entity, stays small.
//
//go:noinline
func (x *entityIndex) full() {
	if x.unmark != nil {
		x.unmark()
	}
	panic(fmt.Sprintf("ecs: Spawn: the world holds MaxEntities (%d) entity indices already", MaxEntities))
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

// room returns how many more entities the index can hand out: the
// indices below MaxEntities never handed out, and the free ones.
func (x *entityIndex) room() int {
	return MaxEntities + 1 - int(x.next) + len(x.free)
}

// mustHold panics, naming op, when n entities (n >= 0) do not fit in the
// room left. Batch operations call it before they allocate anything.
func (x *entityIndex) mustHold(op string, n int) {
	if n > x.room() {
		panic(x.tooMany(op, uint64(n)))
	}
}

// tooMany is the message of a count of n entities that does not fit.
func (x *entityIndex) tooMany(op string, n uint64) string {
	return fmt.Sprintf("ecs: %s: %d entities do not fit: a world holds at most MaxEntities (%d) entities, and this one has room for %d more (%d alive)",
		op, n, MaxEntities, x.room(), x.alive)
}

// reserve makes room for n more entities without further allocation. The
// caller has checked that they fit (mustHold).
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
