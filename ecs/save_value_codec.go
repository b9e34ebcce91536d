package ecs

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"unsafe"
)

// SaveCodec writes and reads single values of T in the save format: the
// bytes [World.Save] writes for one value of a component of type T. The
// fields come in declaration order (blank fields left out), nested
// structs inline and arrays element by element; numbers are little-endian,
// int, uint and uintptr as 64 bits whatever the machine, a bool one byte
// (0 or 1), a string or slice its length as a varint and then its bytes or
// elements, an entity its index and generation in 4 bytes each, without a
// world's tag. A type whose values are plain numbers with no padding is
// written as its memory; one whose pointer implements [BinaryCodec] (as
// `tessera gen` writes them) goes through its methods, unless, tried on
// the zero value, they write other bytes than its schema says or do not
// read them back, in which case it is written field by field, as Save
// does. It lets a program move values between worlds without a whole save
// file: replication, a network message, a cache.
//
// A SaveCodec holds no state between calls and may be used from several
// goroutines at once.
type SaveCodec[T any] struct {
	typ    reflect.Type
	s      *schema
	fixed  int     // s.fixedSize(): the bytes every value takes, or -1
	size   uintptr // T's size in memory
	packed bool    // a value's bytes are its memory (packedLayout)
	word   uintptr // packed: each number's size, for byte swapping
	// methods: *T's BinaryCodec methods write and read the values (T is
	// not packed, and its methods agree with its schema: codecAgrees).
	methods bool
	// plan writes and reads a value of a fixed size that is neither
	// packed nor written by methods, when the type is small enough;
	// enc and dec do every other.
	plan   *fixedPlan
	enc    *valueCodec
	dec    *loadCodec
	widths []uint8  // fixed layouts: the byte width of each number, in order
	refs   *refPlan // nil: T holds no entities
	schema uint64
	op     string // names Decode in its errors
}

// NewSaveCodec returns the codec of T, or an error naming the first field
// a save cannot hold (a pointer, map, channel, function or interface), a
// type that holds itself, an array of more than 2^31-1 elements, or a
// type nested deeper than a save file describes (64 levels of fields and
// elements). It costs O(fields and array elements of T) and, for a type
// with BinaryCodec methods, a call of each on T's zero value; it is meant
// to be made once per type.
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
	c := &SaveCodec[T]{typ: t, s: s, fixed: s.fixedSize(), size: t.Size(), enc: newValueCodec(t, s), dec: dec,
		refs: newRefPlan(t, s), op: "SaveCodec[" + t.String() + "].Decode"}
	c.packed, c.word = c.enc.packed, c.enc.word
	_, has := any((*T)(nil)).(BinaryCodec)
	// As Save and Load: a packed type is copied as memory even when it has
	// methods, and methods that disagree with the schema are not used.
	c.methods = has && !c.packed && codecAgrees(t)
	if c.fixed >= 0 {
		c.widths = appendWidths(nil, s)
		if !c.packed && !c.methods {
			c.plan = newFixedPlan(t, s)
		}
	}
	h := fnv.New64a()
	h.Write([]byte(typeName(t)))
	writeSchema(h, s)
	c.schema = h.Sum64()
	return c, nil
}

// Append appends v's bytes, exactly as World.Save writes them for a value
// of a component of type T, to dst and returns the extended slice: Size()
// bytes for a fixed layout. O(size of v: its numbers, array and slice
// elements and string bytes). It allocates only to grow dst (once at most
// for a fixed layout), and for a type with BinaryCodec methods whatever
// they allocate. It panics, naming T, on a nil v, or when T's EncodeSave
// writes other than Size() bytes for a fixed layout, as Save does.
func (c *SaveCodec[T]) Append(dst []byte, v *T) []byte {
	if v == nil {
		panic(fmt.Sprintf("ecs: SaveCodec[%v].Append: a nil *%v", c.typ, c.typ))
	}
	// SAFETY: v points to one value of T.
	p := unsafe.Pointer(v)
	switch {
	case c.packed:
		return appendMemory(dst, p, c.size, c.word)
	case c.plan != nil:
		return c.plan.append(dst, p)
	case c.methods:
		return c.appendMethods(dst, v)
	}
	k := getValueCoders()
	k.enc.buf = dst
	c.enc.value(&k.enc, p)
	dst = k.enc.buf
	putValueCoders(k)
	return dst
}

// appendMethods appends v's bytes through its EncodeSave method.
func (c *SaveCodec[T]) appendMethods(dst []byte, v *T) []byte {
	k := getValueCoders()
	k.enc.buf = dst
	before := len(dst)
	any(v).(BinaryCodec).EncodeSave(&k.se)
	dst = k.enc.buf
	putValueCoders(k)
	if got := len(dst) - before; c.fixed >= 0 && got != c.fixed {
		panic(fmt.Sprintf("ecs: SaveCodec[%v].Append: %v's EncodeSave wrote %d bytes; its schema takes %d", c.typ, c.typ, got, c.fixed))
	}
	return dst
}

// appendMemory appends the size bytes of plain numbers at p, each word
// bytes long, as little-endian numbers.
func appendMemory(dst []byte, p unsafe.Pointer, size, word uintptr) []byte {
	// SAFETY: p points to size readable bytes of plain numbers.
	b := unsafe.Slice((*byte)(p), size)
	if littleEndianHost || word <= 1 {
		return append(dst, b...)
	}
	e := encoder{buf: dst}
	e.rawBlock(b, word)
	return e.buf
}

// Decode reads one value from the front of data into *v, overwriting it,
// and returns the number of bytes it used: Size() for a fixed layout,
// never more than len(data); bytes after the value are left alone. Each
// entity inside the value that the bytes do not give as the zero Entity
// is passed to mapEntity, index and generation as the bytes have them (no
// world's tag), in the order of the bytes (the order of [SaveCodec.Refs]),
// and replaced by what it returns; with a nil mapEntity such entities
// become the zero Entity. mapEntity is called only once the whole value
// has been read without error.
//
// Any bytes give a value or an error, never a panic (a type's own
// DecodeSave method must not panic either): too few bytes, a bool other
// than 0 or 1, an entity generation past 2^24-1, a length longer than the
// bytes left, a number too wide for this machine's int, or a DecodeSave
// that reads other than Size() bytes of a fixed layout. The error names
// the codec and the byte position. On error *v is left zero and mapEntity
// is not called. The memory the value's slices and strings take is
// bounded as Load bounds it (64 times len(data), plus 64 MiB), so a few
// bytes that claim a huge slice are an error, not an allocation.
// O(len(data) + size of T); slice elements of no size take no bytes and
// are not walked, but a DecodeSave method that loops over them may loop
// as many times as that bound allows.
func (c *SaveCodec[T]) Decode(data []byte, v *T, mapEntity func(Entity) Entity) (int, error) {
	if v == nil {
		panic(fmt.Sprintf("ecs: %s: a nil *%v", c.op, c.typ))
	}
	// SAFETY: v points to one value of T.
	p := unsafe.Pointer(v)
	switch {
	case c.packed: // every byte of *v is written
		if len(data) < c.fixed {
			*v = *new(T)
			return 0, c.decodeError(0, fmt.Sprintf("truncated: %d bytes needed, %d left", c.fixed, len(data)))
		}
		copyLittleEndian(p, data[:c.fixed], c.word)
		return c.fixed, nil
	case c.plan != nil:
		*v = *new(T) // blank fields and padding, which the plan leaves alone
		n, at, problem := c.plan.decode(data, p)
		if problem != "" {
			*v = *new(T)
			return 0, c.decodeError(at, problem)
		}
		c.plan.mapEntities(p, mapEntity)
		return n, nil
	}
	return c.decodeWithCoders(data, v, mapEntity)
}

// decodeWithCoders is Decode through a pooled decoder: by reflection
// (loadCodec) or T's DecodeSave.
func (c *SaveCodec[T]) decodeWithCoders(data []byte, v *T, mapEntity func(Entity) Entity) (int, error) {
	*v = *new(T)
	k := getValueCoders()
	d := &k.dec
	// merge: the entities are read as the bytes have them, and the address
	// of each that is not zero kept in fixups, to map below.
	d.data, d.op, d.merge, d.budget = data, c.op, true, loadBudget(len(data))
	if c.methods {
		c.decodeMethods(k, v)
	} else {
		// SAFETY: v points to one zeroed value of T.
		c.dec.values(d, nil, unsafe.Pointer(v), 1)
	}
	n, err := d.pos, d.err
	if err == nil {
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
	}
	putValueCoders(k)
	if err != nil {
		*v = *new(T)
		return 0, err
	}
	return n, nil
}

// decodeMethods reads a value through v's DecodeSave, with k's decoder
// set up on the bytes. Of a fixed layout it lets the method see Size()
// bytes alone and checks that it reads them all, as Load does.
func (c *SaveCodec[T]) decodeMethods(k *valueCoders, v *T) {
	d, bc := &k.dec, any(v).(BinaryCodec)
	if c.fixed < 0 {
		bc.DecodeSave(&k.sd)
		return
	}
	if len(d.data) < c.fixed {
		d.fail("truncated: %d bytes needed, %d left", c.fixed, len(d.data))
		return
	}
	rest := d.data
	d.data = rest[:c.fixed]
	bc.DecodeSave(&k.sd)
	d.data = rest
	switch {
	case d.overran:
		d.err, d.overran, d.pos = nil, false, 0
		d.fail("%v's DecodeSave read more than the %d bytes its schema takes", c.typ, c.fixed)
	case d.err == nil && d.pos != c.fixed:
		d.fail("%v's DecodeSave read %d bytes; its schema takes %d", c.typ, d.pos, c.fixed)
	}
}

// decodeError is Decode's error for problem at byte pos.
func (c *SaveCodec[T]) decodeError(pos int, problem string) error {
	d := decoder{op: c.op, pos: pos}
	d.fail("%s", problem)
	return d.err
}

// Fields appends to dst the byte width of each number of T's saved layout,
// in the order Append writes them, and returns it: Health{HP, MaxHP int32;
// Status uint8} gives 4, 4, 1; a bool is 1, an entity 4 and 4 (index,
// generation), a complex64 4 and 4, int, uint and uintptr 8, an array its
// element's widths once per element. The widths add up to Size(). For a
// layout whose size varies (it holds strings or slices) dst is returned
// unchanged. O(numbers of T).
func (c *SaveCodec[T]) Fields(dst []uint8) []uint8 { return append(dst, c.widths...) }

// Size returns the number of bytes every value of T takes, or -1 when it
// varies (T holds strings or slices). O(1).
func (c *SaveCodec[T]) Size() int { return c.fixed }

// Refs appends to dst the entities v holds (in fields, arrays and slice
// elements, at any depth) other than those saved as the zero Entity, in
// the order Append writes them, and returns it: the entities, tag and
// all, whose index and generation Decode of Append's bytes passes to
// mapEntity, in the same order. O(the entities of v and the array and
// slice elements that may hold one); O(1) when T holds no entities.
// It panics, naming T, on a nil v.
func (c *SaveCodec[T]) Refs(v *T, dst []Entity) []Entity {
	if v == nil {
		panic(fmt.Sprintf("ecs: SaveCodec[%v].Refs: a nil *%v", c.typ, c.typ))
	}
	if c.refs == nil {
		return dst
	}
	// SAFETY: v points to one value of T.
	return c.refs.appendRefs(dst, unsafe.Pointer(v))
}

// Schema returns a 64-bit fingerprint of T: its package path and name and
// its saved layout (field names, kinds, array lengths and order), by
// FNV-1a, equal on every machine and in every process for the same
// declaration. Two programs whose codecs have the same Schema read each
// other's bytes. O(1).
func (c *SaveCodec[T]) Schema() uint64 { return c.schema }
