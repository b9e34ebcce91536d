package persist

import (
	"unsafe"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// Columns is the particle world's state as plain Go slices, what a
// hand-written save of it would hold: the particle table's four columns
// and entity handles, the emitters and theirs, and one 12-byte record per
// entity index handed out (the size of Tessera's index record: table,
// row, generation). Handles are uint64s (index | generation<<32), since
// encoding/binary cannot fill ecs.Entity's unexported fields.
type Columns struct {
	Pos      []scenario.Position
	Vel      []scenario.Velocity
	Col      []scenario.Color
	Life     []scenario.Lifetime
	Ents     []uint64
	Emit     []scenario.Emitter
	EmitEnts []uint64
	Index    []IndexRecord // entry i for entity index i+1
}

// IndexRecord is one entry of an entity index: where an entity's row is
// and the index's generation.
type IndexRecord struct{ Table, Row, Gen uint32 }

// handle packs an entity into a uint64: index | generation<<32.
func handle(e ecs.Entity) uint64 { return uint64(e.Index()) | uint64(e.Generation())<<32 }

// ColumnsOf copies w's particles and emitters, in iteration order, into
// new Columns.
func ColumnsOf(w *ecs.World) *Columns {
	c := &Columns{}
	top := uint32(0)
	for r := range ecs.NewQuery4[scenario.Position, scenario.Velocity, scenario.Color, scenario.Lifetime](w).All() {
		c.Pos = append(c.Pos, *r.A)
		c.Vel = append(c.Vel, *r.B)
		c.Col = append(c.Col, *r.C)
		c.Life = append(c.Life, *r.D)
		c.Ents = append(c.Ents, handle(r.Entity))
		top = max(top, r.Entity.Index())
	}
	for r := range ecs.NewQuery1[scenario.Emitter](w).All() {
		c.Emit = append(c.Emit, *r.A)
		c.EmitEnts = append(c.EmitEnts, handle(r.Entity))
		top = max(top, r.Entity.Index())
	}
	c.Index = make([]IndexRecord, top)
	for table, ents := range [][]uint64{c.EmitEnts, c.Ents} {
		for row, h := range ents {
			c.Index[uint32(h)-1] = IndexRecord{uint32(table), uint32(row), uint32(h >> 32)}
		}
	}
	return c
}

// newColumnsLike returns zeroed Columns of c's lengths.
func newColumnsLike(c *Columns) *Columns {
	return newColumns(len(c.Pos), len(c.Emit), len(c.Index))
}

func newColumns(particles, emitters, indices int) *Columns {
	return &Columns{
		Pos: make([]scenario.Position, particles), Vel: make([]scenario.Velocity, particles),
		Col: make([]scenario.Color, particles), Life: make([]scenario.Lifetime, particles),
		Ents: make([]uint64, particles), Emit: make([]scenario.Emitter, emitters),
		EmitEnts: make([]uint64, emitters), Index: make([]IndexRecord, indices),
	}
}

// Size is the bytes c's slices hold in memory (padding included).
func (c *Columns) Size() int64 {
	n := 0
	for _, b := range c.bytes() {
		n += len(b)
	}
	return int64(n)
}

// bytes returns c's slices as byte slices over their memory.
func (c *Columns) bytes() [][]byte {
	return [][]byte{asBytes(c.Pos), asBytes(c.Vel), asBytes(c.Col), asBytes(c.Life), asBytes(c.Ents),
		asBytes(c.Emit), asBytes(c.EmitEnts), asBytes(c.Index)}
}

// asBytes returns the memory of s as bytes.
func asBytes[T any](s []T) []byte {
	var zero T
	// SAFETY: the element types used here hold no pointers, and the
	// result covers exactly s's elements.
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
