package ecs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"
)

// BinaryCodec is implemented, with pointer receivers, by a component type
// that writes and reads its own values in the save format, without the
// reflection-built codec [World.Save] and [World.Load] use otherwise:
// `tessera gen` writes both methods for the types it generates. The bytes
// must be those the reflection codec writes for the type's schema: the
// fields in declaration order, each as its SaveEncoder method writes it,
// arrays element by element, slices as [SaveEncoder.Len] and then their
// elements, nested structs inline.
//
// Save calls EncodeSave for each value of a table column or sparse set,
// except for a type whose values are saved as their own memory (plain
// numbers with no padding), which stays a memory copy: that is faster
// still. Load calls DecodeSave when the file's schema of the type is the
// type's own, field for field; a file saved before the type changed is
// read by reflection, with fields matched by name, as for any type.
// Resources always use reflection (one value each).
//
// When a type is first used, its methods are tried on its zero value: if
// they write other bytes than the reflection codec, or do not read those
// bytes back exactly, the type is saved by reflection instead. That
// catches methods promoted from an embedded field (a struct that embeds
// a generated type and adds a field of its own would otherwise save
// without that field) and hand-written codecs that miss a field. Past
// that, a codec that writes or reads a different number of bytes than a
// type of fixed size takes makes Save panic, naming the type, and Load
// return an error: the file would otherwise be misread from there on. The
// methods must leave the world alone: a spawn, despawn, add or remove, or
// a Save, Load or Snapshot of the world, from inside them panics, naming
// the change and the operation running the method. (The
// generated marshalling code of serialisation libraries such as
// Protocol Buffers and FlatBuffers, here for Tessera's own format.)
type BinaryCodec interface {
	EncodeSave(e *SaveEncoder)
	DecodeSave(d *SaveDecoder)
}

// SaveEncoder appends values to a save file, for [BinaryCodec.EncodeSave].
// Numbers are little-endian; int and uint are written as 64 bits whatever
// the machine's word, as Save writes them.
type SaveEncoder struct {
	e *encoder
	// hashing: the bytes are for SaveChecksum, which wants every NaN the
	// same.
	hashing bool
}

// Bool writes v as one byte, 0 or 1.
func (s *SaveEncoder) Bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	s.e.buf = append(s.e.buf, b)
}

// Int8 writes v in one byte.
func (s *SaveEncoder) Int8(v int8) { s.e.buf = append(s.e.buf, byte(v)) }

// Uint8 writes v in one byte.
func (s *SaveEncoder) Uint8(v uint8) { s.e.buf = append(s.e.buf, v) }

// Int16 writes v in 2 bytes.
func (s *SaveEncoder) Int16(v int16) { s.Uint16(uint16(v)) }

// Uint16 writes v in 2 bytes.
func (s *SaveEncoder) Uint16(v uint16) { s.e.buf = binary.LittleEndian.AppendUint16(s.e.buf, v) }

// Int32 writes v in 4 bytes.
func (s *SaveEncoder) Int32(v int32) { s.Uint32(uint32(v)) }

// Uint32 writes v in 4 bytes.
func (s *SaveEncoder) Uint32(v uint32) { s.e.buf = binary.LittleEndian.AppendUint32(s.e.buf, v) }

// Int64 writes v in 8 bytes.
func (s *SaveEncoder) Int64(v int64) { s.Uint64(uint64(v)) }

// Uint64 writes v in 8 bytes.
func (s *SaveEncoder) Uint64(v uint64) { s.e.buf = binary.LittleEndian.AppendUint64(s.e.buf, v) }

// Int writes v in 8 bytes, as an int64.
func (s *SaveEncoder) Int(v int) { s.Uint64(uint64(int64(v))) }

// Uint writes v in 8 bytes, as a uint64.
func (s *SaveEncoder) Uint(v uint) { s.Uint64(uint64(v)) }

// Float32 writes v's IEEE 754 bits in 4 bytes.
func (s *SaveEncoder) Float32(v float32) {
	bits := math.Float32bits(v)
	if s.hashing && v != v {
		bits = canonicalNaN32
	}
	s.Uint32(bits)
}

// Float64 writes v's IEEE 754 bits in 8 bytes.
func (s *SaveEncoder) Float64(v float64) {
	bits := math.Float64bits(v)
	if s.hashing && v != v {
		bits = canonicalNaN64
	}
	s.Uint64(bits)
}

// String writes v's length as a varint, then its bytes.
func (s *SaveEncoder) String(v string) { s.e.str(v) }

// Entity writes v's index and generation, 4 bytes each, without the
// world's tag.
func (s *SaveEncoder) Entity(v Entity) {
	s.e.buf = binary.LittleEndian.AppendUint32(s.e.buf, v.index)
	s.e.buf = binary.LittleEndian.AppendUint32(s.e.buf, v.gen&genMask)
}

// Len writes a slice's length as a varint; its elements follow.
func (s *SaveEncoder) Len(n int) { s.e.uvarint(uint64(n)) }

// hashEncoders keeps the buffers of SaveChecksum.
var hashEncoders = sync.Pool{New: func() any {
	h := &struct {
		s SaveEncoder
		e encoder
	}{}
	h.s = SaveEncoder{e: &h.e, hashing: true}
	return &h.s
}}

// SaveChecksum returns a 64-bit hash of the bytes v's EncodeSave writes,
// with every NaN as one NaN and entities without the world's tag, by the
// hash [World.Checksum] uses: what a [Checksummer] method of a type that
// holds slices returns, so that the world's checksum, which skips what
// slices reference, sees the whole value (the code `tessera gen` writes
// does so). Deterministic across processes and machines. Complexity: the
// cost of EncodeSave; no allocation once warm.
func SaveChecksum(v BinaryCodec) uint64 {
	s := hashEncoders.Get().(*SaveEncoder)
	s.e.buf = s.e.buf[:0]
	v.EncodeSave(s)
	var h stateHash
	// SAFETY: the pointer is to the len(s.e.buf) bytes of s.e.buf, which
	// raw reads before s goes back to the pool.
	h.raw(unsafe.Pointer(unsafe.SliceData(s.e.buf)), uintptr(len(s.e.buf)))
	hashEncoders.Put(s)
	return h.sum()
}

// SaveDecoder reads values from a save file, for [BinaryCodec.DecodeSave].
// It keeps the first error (a truncated file, a bool that is not 0 or 1, a
// number too wide for this machine's int) and reads zeros after it, so a
// codec need not check after each read; Load returns that error.
type SaveDecoder struct {
	d *decoder
	w *World
}

// zeros is what a SaveDecoder reads once it has failed.
var zeros [8]byte

// next returns the next n (at most 8) bytes of the file, or zeros once
// the file has failed or is too short. Small enough to inline into the
// readers, and through them into generated code.
func (s *SaveDecoder) next(n int) []byte {
	d := s.d
	if d.err == nil && n <= len(d.data)-d.pos {
		d.pos += n
		return d.data[d.pos-n : d.pos]
	}
	return s.short(n)
}

// short is next's way out: it records why the file is short (unless it
// failed before) and returns zeros.
func (s *SaveDecoder) short(n int) []byte {
	s.d.bytes(n)
	return zeros[:n]
}

// Bool reads a bool; a byte other than 0 or 1 is an error.
func (s *SaveDecoder) Bool() bool {
	b := s.next(1)[0]
	if b > 1 {
		s.d.fail("a bool of value %d", b)
		return false
	}
	return b == 1
}

// Int8 reads an int8.
func (s *SaveDecoder) Int8() int8 { return int8(s.next(1)[0]) }

// Uint8 reads a uint8.
func (s *SaveDecoder) Uint8() uint8 { return s.next(1)[0] }

// Int16 reads an int16.
func (s *SaveDecoder) Int16() int16 { return int16(s.Uint16()) }

// Uint16 reads a uint16.
func (s *SaveDecoder) Uint16() uint16 { return binary.LittleEndian.Uint16(s.next(2)) }

// Int32 reads an int32.
func (s *SaveDecoder) Int32() int32 { return int32(s.Uint32()) }

// Uint32 reads a uint32.
func (s *SaveDecoder) Uint32() uint32 { return binary.LittleEndian.Uint32(s.next(4)) }

// Int64 reads an int64.
func (s *SaveDecoder) Int64() int64 { return int64(s.Uint64()) }

// Uint64 reads a uint64.
func (s *SaveDecoder) Uint64() uint64 { return binary.LittleEndian.Uint64(s.next(8)) }

// Int reads an int saved as 64 bits; on a 32-bit machine a number out of
// int's range is an error.
func (s *SaveDecoder) Int() int {
	x := s.Int64()
	if int64(int(x)) != x {
		s.d.fail("the saved int64 %d does not fit this machine's %d-bit int", x, 8*unsafe.Sizeof(int(0)))
		return 0
	}
	return int(x)
}

// Uint reads a uint saved as 64 bits; on a 32-bit machine a number out of
// uint's range is an error.
func (s *SaveDecoder) Uint() uint {
	x := s.Uint64()
	if uint64(uint(x)) != x {
		s.d.fail("the saved uint64 %d does not fit this machine's %d-bit uint", x, 8*unsafe.Sizeof(uint(0)))
		return 0
	}
	return uint(x)
}

// Float32 reads a float32.
func (s *SaveDecoder) Float32() float32 { return math.Float32frombits(s.Uint32()) }

// Float64 reads a float64.
func (s *SaveDecoder) Float64() float64 { return math.Float64frombits(s.Uint64()) }

// String reads a string.
func (s *SaveDecoder) String() string { return s.d.str() }

// Entity reads an entity into *p, giving it the loading world's tag. It
// takes the entity's final address, not a copy, because [World.Merge]
// rewrites the entities of the values it reads once the file's entities
// have new ids.
func (s *SaveDecoder) Entity(p *Entity) {
	// SAFETY: p points to an Entity, the memory entity writes.
	s.d.entity(s.w, unsafe.Pointer(p))
}

// Err returns the first error the decoder met, or nil.
func (s *SaveDecoder) Err() error { return s.d.err }

// Fail records a problem a codec found in the values it read (a value out
// of the range its type allows, say) as the load's error, unless one was
// recorded before: Load then returns it and changes nothing.
func (s *SaveDecoder) Fail(format string, args ...any) { s.d.fail(format, args...) }

// MakeSaveSlice reads a slice's length and returns a new slice of that
// many zero values, or nil for none, for [BinaryCodec.DecodeSave] to fill.
// minBytes is the least number of bytes one element takes in the file (its
// saved size, or 1 for one that holds a string or slice): a length the
// rest of the file cannot hold, or a slice larger than Load's memory budget
// for a file of this size allows, is an error, so a corrupt length never
// makes a large allocation. An element of no size (minBytes 0) counts as a
// byte against that budget, so the loop that fills such a slice is bounded
// by the file's size too, though its elements take no bytes of it.
func MakeSaveSlice[T any](d *SaveDecoder, minBytes int) []T {
	minBytes = max(minBytes, 0)
	n := d.d.count(minBytes)
	var zero T
	if n == 0 || !d.d.spendElems(n, unsafe.Sizeof(zero)) {
		return nil
	}
	return make([]T, n)
}

// entity reads an entity into the Entity at p: the zero Entity stays
// zero, one read for Merge is kept in fixups for mergeImage to rewrite,
// and any other gets w's tag.
func (d *decoder) entity(w *World, p unsafe.Pointer) {
	b := d.bytes(8)
	if d.err != nil {
		return
	}
	index, gen := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
	if gen > genMask {
		d.fail("an entity generation of %d, above the largest, %d", gen, genMask)
		return
	}
	switch {
	case index == 0 && gen == 0: // the zero Entity stays zero
	case d.merge:
		d.fixups = append(d.fixups, p) // rewritten by mergeImage
	default:
		gen |= w.entities.tag
	}
	// SAFETY: p points to a writable Entity.
	*(*Entity)(p) = Entity{index, gen}
}

// binaryCodecOf returns the functions that save and load n values of T
// through T's BinaryCodec methods, or nils when *T has none, or has
// methods that disagree with T's schema (see codecAgrees).
func binaryCodecOf[T any]() (save func(e *encoder, p unsafe.Pointer, n int), load func(d *decoder, w *World, p unsafe.Pointer, n int)) {
	var zero T
	if _, ok := any(&zero).(BinaryCodec); !ok || !codecAgrees(reflect.TypeFor[T]()) {
		return nil, nil
	}
	save = func(e *encoder, p unsafe.Pointer, n int) {
		s := &SaveEncoder{e: e}
		// SAFETY: callers pass a column or sparse set of at least n values of T.
		vs := unsafe.Slice((*T)(p), n)
		for i := range vs {
			any(&vs[i]).(BinaryCodec).EncodeSave(s)
		}
	}
	load = func(d *decoder, w *World, p unsafe.Pointer, n int) {
		s := &SaveDecoder{d, w}
		// SAFETY: callers pass new memory for n values of T.
		vs := unsafe.Slice((*T)(p), n)
		for i := range vs {
			if d.err != nil {
				return
			}
			any(&vs[i]).(BinaryCodec).DecodeSave(s)
		}
	}
	return save, load
}

// codecAgrees reports whether the zero value of t, whose pointer is a
// BinaryCodec, writes through its methods the bytes the reflection codec
// writes for it, and whether those bytes read back through the methods of
// another new value are consumed exactly, without error or panic. It catches the
// methods a type gets from an embedded field (type Labelled struct {
// game.Stack; Note string } would save its Stack and lose its Note) and
// codecs written by hand that miss a field: such a type is saved by
// reflection, which is always right, rather than through its methods.
// A type a save cannot hold (a pointer field) has no use for them either.
func codecAgrees(t reflect.Type) (ok bool) {
	s, err := schemaOf(t)
	if err != nil {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	zero := reflect.New(t)
	want := &encoder{}
	newValueCodec(t, s).value(want, zero.UnsafePointer())
	got := &encoder{}
	zero.Interface().(BinaryCodec).EncodeSave(&SaveEncoder{e: got})
	if !bytes.Equal(got.buf, want.buf) {
		return false
	}
	d := &decoder{data: want.buf, op: "Load", budget: loadBudget(len(want.buf))}
	reflect.New(t).Interface().(BinaryCodec).DecodeSave(&SaveDecoder{d: d})
	return d.err == nil && d.pos == len(want.buf)
}

// checkedSave wraps save, the BinaryCodec save of type t, so that a codec
// that writes other than fixed bytes per value (fixed >= 0: the type's
// saved size) panics, naming t, rather than write a file that cannot be
// read back.
func checkedSave(save func(e *encoder, p unsafe.Pointer, n int), t reflect.Type, fixed int) func(e *encoder, p unsafe.Pointer, n int) {
	if fixed < 0 {
		return save
	}
	return func(e *encoder, p unsafe.Pointer, n int) {
		before := len(e.buf)
		save(e, p, n)
		if got := len(e.buf) - before; got != n*fixed {
			panic(fmt.Sprintf("ecs: Save: %v's EncodeSave wrote %d bytes for %d values; its schema takes %d bytes each", t, got, n, fixed))
		}
	}
}

// checkedLoad wraps load, the BinaryCodec load of type t, so that a codec
// that reads other than fixed bytes per value (fixed >= 0) fails the load,
// naming t: the codec reads the values' bytes alone, so one that reads
// too much fails there rather than read the file's next bytes.
func checkedLoad(load func(d *decoder, w *World, p unsafe.Pointer, n int), t reflect.Type, fixed int) func(d *decoder, w *World, p unsafe.Pointer, n int) {
	if fixed < 0 {
		return load
	}
	return func(d *decoder, w *World, p unsafe.Pointer, n int) {
		if d.err != nil {
			return
		}
		if fixed > 0 && n > d.left()/fixed {
			d.fail("truncated: %d values of %d bytes do not fit", n, fixed)
			return
		}
		before, size, rest := d.pos, n*fixed, d.data
		d.data = d.data[:d.pos+size]
		load(d, w, p, n)
		d.data = rest
		switch got := d.pos - before; {
		case d.overran:
			d.err, d.overran, d.pos = nil, false, before
			d.fail("%v's DecodeSave read more than the %d bytes of %d values; its schema takes %d bytes each", t, size, n, fixed)
		case d.err == nil && got != size:
			d.fail("%v's DecodeSave read %d bytes for %d values; its schema takes %d bytes each", t, got, n, fixed)
		}
	}
}
