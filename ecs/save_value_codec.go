package ecs

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"reflect"
	"unsafe"
)

// SaveCodec writes and reads single values of T in the save format: the
// bytes World.Save writes for one value of a component, field by field in
// declaration order, numbers little-endian, int and uint as 64 bits,
// strings and slices length-prefixed, entities as index and generation
// without a world's tag. A type whose pointer implements BinaryCodec (as
// `tessera gen` writes them) goes through its methods. It lets a program
// move values between worlds without a whole save file: replication, a
// network message, a cache.
//
// A SaveCodec holds no state between calls and may be used from several
// goroutines at once.
type SaveCodec[T any] struct {
	typ    reflect.Type
	s      *schema
	enc    *valueCodec
	dec    *loadCodec
	save   func(e *encoder, p unsafe.Pointer, n int)
	load   func(d *decoder, w *World, p unsafe.Pointer, n int)
	widths []uint8 // fixed layouts: the byte width of each number, in order
	refs   bool    // T holds entities
	schema uint64
	op     string // names Decode in its errors
}

// NewSaveCodec returns the codec of T, or an error naming the first field
// a save cannot hold (pointers, maps, channels, functions, interfaces) or
// a type nested deeper than a save file describes. It costs O(fields of
// T) and is meant to be made once per type.
func NewSaveCodec[T any]() (*SaveCodec[T], error) {
	t := reflect.TypeFor[T]()
	s, err := schemaOf(t)
	if err != nil {
		return nil, fmt.Errorf("ecs: NewSaveCodec[%s]: %w", t, err)
	}
	dec, err := newLoadCodec(s, t, t.String())
	if err != nil {
		return nil, fmt.Errorf("ecs: NewSaveCodec[%s]: %w", t, err)
	}
	c := &SaveCodec[T]{typ: t, s: s, enc: newValueCodec(t, s), dec: dec, op: "SaveCodec[" + t.String() + "].Decode"}
	c.save, c.load = binaryCodecOf[T]()
	if s.fixedSize() >= 0 {
		c.widths = appendWidths(nil, s)
	}
	c.refs = holdsEntities(s)
	h := fnv.New64a()
	h.Write([]byte(typeName(t)))
	writeSchema(h, s)
	c.schema = h.Sum64()
	return c, nil
}

// Append appends v's bytes, exactly as World.Save writes them, to dst and
// returns the extended slice. O(size of v); it allocates only to grow dst.
func (c *SaveCodec[T]) Append(dst []byte, v *T) []byte {
	e := encoder{buf: dst}
	// SAFETY: v points to one value of T.
	p := unsafe.Pointer(v)
	switch {
	case c.enc.packed:
		e.raw(p, c.enc.size, c.enc.word)
	case c.save != nil:
		c.save(&e, p, 1)
	default:
		c.enc.value(&e, p)
	}
	return e.buf
}

// Decode reads one value from the front of data into *v, overwriting it,
// and returns the number of bytes it used. Each entity inside the value
// other than the zero Entity is passed to mapEntity as the bytes have it
// (index and generation, no world's tag) and replaced by what it returns;
// with a nil mapEntity such entities become the zero Entity. Any bytes give
// a value or an error, never a panic, and the memory the value may take is
// bounded as Load bounds it (64 times len(data), plus 64 MiB). On error *v
// is left zero. O(len(data)).
func (c *SaveCodec[T]) Decode(data []byte, v *T, mapEntity func(Entity) Entity) (int, error) {
	var zero T
	*v = zero
	d := decoder{data: data, op: c.op, merge: true, budget: loadBudget(len(data))}
	// SAFETY: v points to one zeroed value of T.
	p := unsafe.Pointer(v)
	if c.load != nil {
		c.load(&d, nil, p, 1)
	} else {
		c.dec.values(&d, nil, p, 1)
	}
	if d.err != nil {
		*v = zero
		return 0, d.err
	}
	for _, q := range d.fixups {
		// SAFETY: decoder.entity recorded q as the address of an Entity
		// inside *v, or inside a slice *v now holds.
		ep := (*Entity)(q)
		if mapEntity == nil {
			*ep = Entity{}
		} else {
			*ep = mapEntity(*ep)
		}
	}
	return d.pos, nil
}

// Fields appends to dst the byte width of each number of T's saved layout,
// in the order Append writes them (Health{HP, MaxHP int32; Status uint8}
// gives 4, 4, 1; a bool is 1, an entity 4 and 4, int and uint 8) and
// returns it. For a layout whose size varies (it holds strings or slices)
// dst is returned unchanged. O(fields).
func (c *SaveCodec[T]) Fields(dst []uint8) []uint8 { return append(dst, c.widths...) }

// Size returns the number of bytes every value of T takes, or -1 when it
// varies (T holds strings or slices). O(1).
func (c *SaveCodec[T]) Size() int { return c.s.fixedSize() }

// Refs appends the entities v holds (in fields, arrays and slice elements,
// zero ones left out) to dst, in the order Append writes them, and returns
// it. O(size of v); O(1) when T holds no entities.
func (c *SaveCodec[T]) Refs(v *T, dst []Entity) []Entity {
	if !c.refs {
		return dst
	}
	// SAFETY: v points to one value of T.
	return appendRefs(dst, c.enc, unsafe.Pointer(v))
}

// Schema returns a fingerprint of T: its package path and name and its
// saved layout (field names, kinds and order), by FNV-1a, equal on every
// machine for the same declaration. Two programs whose codecs have the
// same Schema read each other's bytes. O(1).
func (c *SaveCodec[T]) Schema() uint64 { return c.schema }

// appendWidths appends the widths of s's numbers, for a fixed layout.
func appendWidths(dst []uint8, s *schema) []uint8 {
	switch s.kind {
	case sArray:
		for range s.n {
			dst = appendWidths(dst, s.elem)
		}
	case sStruct:
		for _, f := range s.fields {
			dst = appendWidths(dst, f.s)
		}
	case sEntity:
		dst = append(dst, 4, 4)
	case sComplex64:
		dst = append(dst, 4, 4)
	case sComplex128:
		dst = append(dst, 8, 8)
	default:
		if n := s.fixedSize(); n > 0 {
			dst = append(dst, uint8(n))
		}
	}
	return dst
}

// holdsEntities reports whether values of s may hold an entity.
func holdsEntities(s *schema) bool {
	switch s.kind {
	case sEntity:
		return true
	case sArray:
		return s.n > 0 && holdsEntities(s.elem)
	case sSlice:
		return holdsEntities(s.elem)
	case sStruct:
		for _, f := range s.fields {
			if holdsEntities(f.s) {
				return true
			}
		}
	}
	return false
}

// appendRefs appends the non-zero entities of the value of c at p.
func appendRefs(dst []Entity, c *valueCodec, p unsafe.Pointer) []Entity {
	switch c.s.kind {
	case sEntity:
		// SAFETY: p points to an Entity.
		if e := *(*Entity)(p); !e.IsZero() {
			dst = append(dst, e)
		}
	case sArray:
		if c.elem == nil || !holdsEntities(c.elem.s) {
			return dst
		}
		for i := range c.s.n {
			// SAFETY: element i of an array of c.s.n elements at p.
			dst = appendRefs(dst, c.elem, unsafe.Add(p, uintptr(i)*c.elem.size))
		}
	case sSlice:
		if !holdsEntities(c.elem.s) {
			return dst
		}
		// SAFETY: p points to a slice header of c.typ.
		v := reflect.NewAt(c.typ, p).Elem()
		if v.Len() == 0 {
			return dst
		}
		base := v.UnsafePointer()
		for i := range v.Len() {
			// SAFETY: element i of the slice's backing array.
			dst = appendRefs(dst, c.elem, unsafe.Add(base, uintptr(i)*c.elem.size))
		}
	case sStruct:
		for _, f := range c.fields {
			// SAFETY: a field of the struct at p, at its offset.
			dst = appendRefs(dst, f.c, unsafe.Add(p, f.off))
		}
	}
	return dst
}

// schemaWriter is what writeSchema writes to.
type schemaWriter interface{ Write([]byte) (int, error) }

// writeSchema writes a description of s that differs for any two
// layouts: kinds, lengths, field names and order.
func writeSchema(h schemaWriter, s *schema) {
	var b [binary.MaxVarintLen64 + 1]byte
	b[0] = byte(s.kind)
	n := binary.PutUvarint(b[1:], uint64(s.n))
	h.Write(b[:1+n])
	switch s.kind {
	case sArray, sSlice:
		writeSchema(h, s.elem)
	case sStruct:
		n := binary.PutUvarint(b[:], uint64(len(s.fields)))
		h.Write(b[:n])
		for _, f := range s.fields {
			n := binary.PutUvarint(b[:], uint64(len(f.name)))
			h.Write(b[:n])
			h.Write([]byte(f.name))
			writeSchema(h, f.s)
		}
	}
}
