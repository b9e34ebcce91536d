package ecs

import "math"

// recordPageBits sets the size of one page of the entity index: 256 records.
const recordPageBits = 8

const recordPageSize = 1 << recordPageBits

// record says where an entity's table components live. A record whose table
// is nil belongs to no living entity. gen holds the world's tag in its top
// 8 bits and the index's generation in the low 24, exactly as the handles of
// this world carry them, so one comparison checks both.
type record struct {
	table *table
	row   uint32
	gen   uint32
}

// recordPage is one fixed-size chunk of the entity index.
type recordPage [recordPageSize]record

// entityIndex maps an entity index to its record. Records live in fixed-size
// pages, so growing the index never copies or moves a record (the hashed
// array tree of the dissertation "optimisations for the Entity Component
// System pattern"). Free indices are kept on a stack; a despawn bumps
// the 24-bit generation, and an index whose generation would wrap around is
// retired for good instead of being recycled, so a stale handle can never
// alias a new entity.
type entityIndex struct {
	pages []*recordPage
	next  uint32   // first index never handed out
	tag   uint32   // the world's tag, shifted into the top 8 bits (nextWorldTag)
	free  []uint32 // despawned indices, reused last-in first-out
	alive int
}

// newEntityIndex returns an empty index whose handles carry tag (see
// nextWorldTag).
func newEntityIndex(tag uint32) entityIndex {
	// Index 0 is reserved: the zero Entity is never alive. Pages are made
	// by the first spawn into them, so an empty world costs no page and a world
	// of a few entities one 4 KiB page (small pages keep tiny worlds cheap;
	// at a million entities the 4,096 page pointers still fit in 32 KiB).
	return entityIndex{next: 1, tag: tag}
}

// ensure makes pages for indices [0, n).
func (x *entityIndex) ensure(n uint64) {
	for uint64(len(x.pages))<<recordPageBits < n {
		x.pages = append(x.pages, new(recordPage))
	}
}

// at returns the record of index i, which must have a page.
func (x *entityIndex) at(i uint32) *record {
	return &x.pages[i>>recordPageBits][i&(recordPageSize-1)]
}

// lookup returns the record of e when e is alive, or nil.
func (x *entityIndex) lookup(e Entity) *record {
	p := e.index >> recordPageBits
	if int(p) >= len(x.pages) {
		return nil
	}
	r := &x.pages[p][e.index&(recordPageSize-1)]
	if r.table == nil || r.gen != e.gen {
		return nil
	}
	return r
}

// alloc hands out an entity index, preferring a recycled one. The caller
// sets the record's table and row.
func (x *entityIndex) alloc() (Entity, *record) {
	if n := len(x.free); n > 0 {
		x.alive++
		i := x.free[n-1]
		x.free = x.free[:n-1]
		r := x.at(i)
		return Entity{i, r.gen}, r
	}
	i := x.next
	if i == math.MaxUint32 {
		panic("ecs: Spawn: the entity index is full (2^32-1 indices)")
	}
	x.next++
	x.alive++
	if int(i>>recordPageBits) >= len(x.pages) {
		x.ensure(uint64(i) + 1)
	}
	// A new index starts at generation 0, tagged with the world.
	r := x.at(i)
	r.gen = x.tag
	return Entity{i, x.tag}, r
}

// release marks r (the record of index i) dead and recycles the index.
func (x *entityIndex) release(i uint32, r *record) {
	x.alive--
	r.table = nil
	if r.gen&genMask == genMask {
		return // retired: bumping would wrap around to a generation handed out before
	}
	r.gen++ // the low 24 bits are below genMask: the tag is untouched
	x.free = append(x.free, i)
}

// reserve makes room for n more entities without further allocation.
func (x *entityIndex) reserve(n int) {
	need := n - len(x.free)
	if need <= 0 {
		return
	}
	x.ensure(uint64(x.next) + uint64(need))
	if cap(x.free) < n {
		f := make([]uint32, len(x.free), n)
		copy(f, x.free)
		x.free = f
	}
}
