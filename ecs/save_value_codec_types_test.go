package ecs_test

import (
	"sync/atomic"

	"github.com/tessera-ecs/tessera/ecs"
)

// The component types of the SaveCodec tests, one per shape a save
// writes differently: packed numbers (scVec, of the benchmarks), padding,
// bools, word-sized ints, strings, slices, entities in arrays and slices,
// nested structs, unexported fields, and types with BinaryCodec methods
// written by hand (the generated ones are internal/compgen/gentest's).

// codecPadded has padding, a blank field and bools: written step by step.
type codecPadded struct {
	On    bool
	N     int64
	M     uint16
	_     [2]byte
	K     int8
	Flags [3]bool
}

// codecScore is a component that is not a struct: an int, 64 bits in a file.
type codecScore int

// codecInts holds every number kind.
type codecInts struct {
	I    int
	U    uint
	P    uintptr
	I8   int8
	I16  int16
	I32  int32
	I64  int64
	U8   uint8
	U16  uint16
	U32  uint32
	U64  uint64
	F32  float32
	F64  float64
	C64  complex64
	C128 complex128
}

// codecText holds strings, some in an array.
type codecText struct {
	Name  string
	Tags  [2]string
	Empty string
}

// codecLists holds slices of numbers, bools, slices, values of no size
// and padded structs.
type codecLists struct {
	Xs     []float64
	Bs     []bool
	Nested [][]int16
	Zs     []struct{}
	Hs     []codecHealth
}

// codecRef is a type defined from Entity: saved as one.
type codecRef ecs.Entity

// codecPath holds entities in an array, as a defined type and in a slice.
type codecPath struct {
	Path [4]ecs.Entity
	Ref  codecRef
	Refs []codecRef
}

// codecEdge and codecCell are structs that hold entities, for arrays and
// slices of them.
type codecEdge struct {
	To ecs.Entity
	W  float32
}

type codecCell struct {
	E ecs.Entity
	N string
}

// codecNest nests structs that hold entities in slices and arrays.
type codecNest struct {
	Head  codecHealth
	Links []codecEdge
	Grid  [2]codecCell
	Deep  struct{ In [2][]codecEdge }
}

// codecFlat is of a fixed size with entities inside an array of structs:
// written by a fixedPlan.
type codecFlat struct {
	A  codecEdge
	B  [3]codecEdge
	On bool
}

// codecLong is of a fixed size, too many steps for a fixedPlan: written
// by reflection.
type codecLong struct {
	Cells [100]codecEdge
	Tail  bool
}

// codecHidden has unexported fields, which a save writes too.
type codecHidden struct {
	X      int32
	hidden string
	ref    ecs.Entity
}

// codecNone takes no bytes.
type codecNone struct{}

// codecOwnedCalls counts the calls of codecOwned's and codecPinned's
// methods, to tell them used from reflection.
var codecOwnedCalls atomic.Int64

// codecOwned has BinaryCodec methods written by hand that agree with its
// schema, and holds entities, which reach a decoder through
// SaveDecoder.Entity.
type codecOwned struct {
	Owner ecs.Entity
	Items []ecs.Entity
	Pos   [2]float32
	Note  string
}

func (c *codecOwned) EncodeSave(e *ecs.SaveEncoder) {
	codecOwnedCalls.Add(1)
	e.Entity(c.Owner)
	e.Len(len(c.Items))
	for _, it := range c.Items {
		e.Entity(it)
	}
	e.Float32(c.Pos[0])
	e.Float32(c.Pos[1])
	e.String(c.Note)
}

func (c *codecOwned) DecodeSave(d *ecs.SaveDecoder) {
	codecOwnedCalls.Add(1)
	d.Entity(&c.Owner)
	c.Items = ecs.MakeSaveSlice[ecs.Entity](d, 8)
	for i := range c.Items {
		d.Entity(&c.Items[i])
	}
	c.Pos[0] = d.Float32()
	c.Pos[1] = d.Float32()
	c.Note = d.String()
}

// codecPinned is of a fixed size and not packed (it holds an entity and
// a bool), with BinaryCodec methods written by hand.
type codecPinned struct {
	Who   ecs.Entity
	HP    int32
	Alive bool
}

func (c *codecPinned) EncodeSave(e *ecs.SaveEncoder) {
	codecOwnedCalls.Add(1)
	e.Entity(c.Who)
	e.Int32(c.HP)
	e.Bool(c.Alive)
}

func (c *codecPinned) DecodeSave(d *ecs.SaveDecoder) {
	codecOwnedCalls.Add(1)
	d.Entity(&c.Who)
	c.HP = d.Int32()
	c.Alive = d.Bool()
}

// codecSkewed has BinaryCodec methods that forget Note: they disagree
// with its schema, so Save and SaveCodec write it by reflection, as they
// write codecSkewedTwin, its twin without methods.
type codecSkewed struct {
	A    int32
	Note string
}

func (c *codecSkewed) EncodeSave(e *ecs.SaveEncoder) { e.Int32(c.A) }
func (c *codecSkewed) DecodeSave(d *ecs.SaveDecoder) { c.A = d.Int32() }

type codecSkewedTwin struct {
	A    int32
	Note string
}

// codecGreedy has methods that agree with its schema on the zero value
// but write a byte too many when A is 7, and read a byte too many when A
// is 9 or too few when A is 8: what Save and Load catch for a type of a
// fixed size, and SaveCodec must too.
type codecGreedy struct {
	A uint32
	B uint8
}

func (c *codecGreedy) EncodeSave(e *ecs.SaveEncoder) {
	e.Uint32(c.A)
	e.Uint8(c.B)
	if c.A == 7 {
		e.Uint8(0)
	}
}

func (c *codecGreedy) DecodeSave(d *ecs.SaveDecoder) {
	c.A = d.Uint32()
	if c.A == 8 {
		return
	}
	c.B = d.Uint8()
	if c.A == 9 {
		d.Uint8()
	}
}
