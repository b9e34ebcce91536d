package ecs

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// littleEndianHost reports whether the machine stores numbers as a save
// file does, so runs of plain values can be copied as memory.
var littleEndianHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// encoder appends a save file to buf.
type encoder struct {
	buf []byte
	// crc is the CRC-32C of the open section's content up to crcAt in
	// buf, or crcAt is 0 when no section is open (save_section.go).
	crc   uint32
	crcAt int
}

func (e *encoder) uvarint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.buf = append(e.buf, s...) }

// reserve makes room for n more bytes in buf, so that appending them
// allocates nothing: one allocation where appends a block at a time
// would grow the buffer, and copy it, a quarter at a time.
func (e *encoder) reserve(n int) {
	if n > cap(e.buf)-len(e.buf) {
		e.buf = slices.Grow(e.buf, n)
	}
}

// raw appends n bytes of memory at p, which hold numbers of size bytes
// each, as little-endian numbers. Inside a section, it appends a block at
// a time and adds each to the section's CRC while it is in the cache.
func (e *encoder) raw(p unsafe.Pointer, n, size uintptr) {
	// SAFETY: p points to n readable bytes of plain values.
	b := unsafe.Slice((*byte)(p), n)
	block := n
	if e.crcAt > 0 && size > 0 && n > crcBlock {
		block = max(crcBlock/size*size, size)
		e.reserve(len(b)) // one allocation, as one append would make
	}
	for len(b) > 0 {
		k := min(block, uintptr(len(b)))
		e.rawBlock(b[:k], size)
		b = b[k:]
		if e.crcAt > 0 {
			e.sum()
		}
	}
}

// rawBlock appends b, which holds numbers of size bytes each, as
// little-endian numbers.
func (e *encoder) rawBlock(b []byte, size uintptr) {
	if littleEndianHost || size <= 1 {
		e.buf = append(e.buf, b...)
		return
	}
	n := uintptr(len(b))
	for i := uintptr(0); i < n; i += size {
		for j := size; j > 0; j-- {
			e.buf = append(e.buf, b[i+j-1])
		}
	}
}

// decoder reads a save file from data, keeping the first error.
type decoder struct {
	data []byte
	pos  int
	err  error
	op   string // "Load", "LoadJSON", "Merge" or "MergeJSON", for messages
	json bool   // the bytes were made from a JSON save: no byte positions in errors
	// merge: the values are for World.Merge. Entities inside them are read
	// as the file has them, without a world's tag, and the address of each
	// one that is not zero is kept in fixups, to be rewritten once the file's
	// entities have new ones; resources are skipped.
	merge  bool
	fixups []unsafe.Pointer
	// budget is what the values may still allocate, in bytes: loadBudget
	// of the file's size, so a small file cannot make Load allocate much.
	budget int64
	// sectioned: the file is of version 2, cut into sections with a CRC
	// each (save_section.go). Inside a section, data ends where the
	// section's content does, whole is the whole file, and section names
	// the section for errors.
	sectioned bool
	whole     []byte
	section   string
	// overran is set when a read wanted more bytes than were left (see
	// checkedLoad).
	overran bool
}

// loadBudget is how much memory Load allows itself for the values of a
// file of n bytes: 64 times its size, plus 64 MiB. Rows and slice elements
// take a few bytes of a file each and may take more in memory (a field
// gained since the save, padding, a string header), but a file that would
// need more than this is refused as corrupt rather than loaded.
func loadBudget(n int) int64 { return 64*int64(n) + 64<<20 }

// spend charges n values of size bytes to the budget, and fails when the
// budget is spent.
func (d *decoder) spend(n int, size uintptr) bool {
	if d.err != nil {
		return false
	}
	cost := int64(n) * int64(size)
	if cost > d.budget {
		d.fail("%d values of %d bytes: more memory than a save of this size may need", n, size)
		return false
	}
	d.budget -= cost
	return true
}

// spendElems charges n new slice elements of size bytes each to the
// budget, one of no size as a byte: such elements take no bytes of the
// file, and a DecodeSave method still loops over them, so the budget
// bounds that work as it does memory.
func (d *decoder) spendElems(n int, size uintptr) bool {
	if size > 0 {
		return d.spend(n, size)
	}
	if d.err == nil && int64(n) > d.budget {
		d.fail("%d values of no size: more than a save of this size may hold", n)
		return false
	}
	return d.spend(n, 1)
}

func (d *decoder) fail(format string, args ...any) {
	if d.err != nil {
		return
	}
	where := ""
	if !d.json {
		where = fmt.Sprintf("at byte %d: ", d.pos)
	}
	if d.section != "" {
		where += "in " + d.section + ": "
	}
	d.err = fmt.Errorf("ecs: %s: %s%s", d.op, where, fmt.Sprintf(format, args...))
}

func (d *decoder) left() int { return len(d.data) - d.pos }

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.fail("a truncated or overlong number")
		return 0
	}
	d.pos += n
	return x
}

// count reads a length of items that take at least min bytes each in the
// rest of the file, and fails if the file is too short to hold them: a
// corrupt count never makes a large allocation.
func (d *decoder) count(min int) int {
	x := d.uvarint()
	if d.err != nil {
		return 0
	}
	if x > math.MaxInt32 || (min > 0 && x > uint64(d.left()/min)) {
		d.fail("a count of %d, more than the file holds", x)
		return 0
	}
	return int(x)
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > d.left() {
		d.fail("truncated: %d bytes needed, %d left", n, d.left())
		d.overran = true
		return nil
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b
}

func (d *decoder) str() string { return string(d.bytes(d.count(1))) }

// valueCodec writes values of one Go type: memory copied as a run where
// the type is plain and packed, field by field otherwise.
type valueCodec struct {
	s      *schema
	typ    reflect.Type
	size   uintptr
	packed bool         // the saved bytes are the value's memory (packedLayout)
	fixed  int          // s.fixedSize(): the bytes a value takes, or -1
	word   uintptr      // the size of each number, for byte swapping (see raw)
	fields []fieldCodec // sStruct
	elem   *valueCodec  // sArray, sSlice
	// custom saves n values through the type's BinaryCodec methods; set
	// by savePlan for a component type that has them and is not packed.
	custom func(e *encoder, p unsafe.Pointer, n int)
}

type fieldCodec struct {
	off uintptr
	c   *valueCodec
}

// newValueCodec returns the codec of Go type t with schema s (schemaOf t).
func newValueCodec(t reflect.Type, s *schema) *valueCodec {
	c := &valueCodec{s: s, typ: t, size: t.Size()}
	switch s.kind {
	case sArray, sSlice:
		if s.kind == sSlice || s.n > 0 { // [0]T holds nothing: no element codec
			c.elem = newValueCodec(t.Elem(), s.elem)
		}
	case sStruct:
		k := 0
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				continue // as in schemaAt
			}
			c.fields = append(c.fields, fieldCodec{f.Offset, newValueCodec(f.Type, s.fields[k].s)})
			k++
		}
	}
	c.packed, c.word = packedLayout(t, s)
	c.fixed = s.fixedSize()
	return c
}

// packedLayout reports whether values of t are saved as their own memory:
// plain numbers only (not bools, whose bytes a loader must check, nor
// entities, whose tag it must replace), no padding, and on a big-endian
// host numbers of one size, the word each is swapped by.
func packedLayout(t reflect.Type, s *schema) (packed bool, word uintptr) {
	if s.fixedSize() != int(t.Size()) || t.Size() == 0 || wordIntsNarrow(t) {
		return false, numberSize(s)
	}
	plain, sizes := true, map[uintptr]bool{}
	var walk func(s *schema)
	walk = func(s *schema) {
		switch s.kind {
		case sBool, sEntity, sString, sSlice:
			plain = false
		case sArray:
			walk(s.elem)
		case sStruct:
			for _, f := range s.fields {
				walk(f.s)
			}
		default:
			sizes[numberSize(s)] = true
		}
	}
	walk(s)
	if !plain || (!littleEndianHost && len(sizes) != 1) {
		return false, numberSize(s)
	}
	for n := range sizes {
		word = n
	}
	return true, word
}

// numberSize is the size of one number of s, a complex number's halves
// counting apart, or 0 for other kinds.
func numberSize(s *schema) uintptr {
	switch s.kind {
	case sBool, sEntity, sString, sArray, sSlice, sStruct:
		return 0
	case sComplex64, sComplex128:
		return uintptr(s.fixedSize() / 2)
	}
	return uintptr(s.fixedSize())
}

// bytesFor returns about how many bytes n values take in a file, for
// reserve: exactly for values of a fixed size, at least a byte each for
// the others (a string's or slice's length), and 0 when the estimate is
// past 1 GiB, which appends had better grow to.
func (c *valueCodec) bytesFor(n int) int {
	size := c.fixed
	if size < 0 { // variable: at least a byte each
		size = 1
	}
	if n > 0 && size > (1<<30)/n {
		return 0
	}
	return n * size
}

// values appends n values at p: none at all for values that take no bytes
// (a [1<<40]struct{} is not walked).
func (c *valueCodec) values(e *encoder, p unsafe.Pointer, n int) {
	if c.packed {
		e.raw(p, uintptr(n)*c.size, c.word)
		return
	}
	if c.custom != nil {
		c.custom(e, p, n)
		return
	}
	if c.fixed == 0 { // a value takes no bytes
		return
	}
	for i := range n {
		// SAFETY: p holds n values of c.typ, c.size bytes apart, and i < n.
		c.value(e, unsafe.Add(p, uintptr(i)*c.size))
		e.tick()
	}
}

// value appends the value at p.
func (c *valueCodec) value(e *encoder, p unsafe.Pointer) {
	switch c.s.kind {
	case sBool:
		// SAFETY: c.s is c.typ's schema: p points to a bool, whose one byte
		// is 0 or 1.
		e.buf = append(e.buf, *(*byte)(p))
	case sString:
		// SAFETY: c.s is c.typ's schema: p points to a string.
		e.str(*(*string)(p))
	case sEntity:
		// SAFETY: c.s is c.typ's schema, and sEntity is only given to
		// Entity and types defined from it, of its layout (schemaAt).
		v := *(*Entity)(p)
		e.buf = binary.LittleEndian.AppendUint32(e.buf, v.index)
		e.buf = binary.LittleEndian.AppendUint32(e.buf, v.gen&genMask)
	case sArray:
		if c.s.n > 0 {
			c.elem.values(e, p, c.s.n)
		}
	case sSlice:
		v := reflect.NewAt(c.typ, p).Elem()
		e.uvarint(uint64(v.Len()))
		c.elem.values(e, v.UnsafePointer(), v.Len())
	case sStruct:
		for _, f := range c.fields {
			// SAFETY: f.off is the offset in c.typ of the field f.c encodes, and
			// p points to a c.typ.
			f.c.value(e, unsafe.Add(p, f.off))
		}
	default: // a number
		if c.size < uintptr(c.s.fixedSize()) {
			// A 32-bit int, uint or uintptr: saved as 64 bits (save_word.go).
			e.buf = binary.LittleEndian.AppendUint64(e.buf, widenWord(c.typ.Kind(), c.size, p))
			return
		}
		e.raw(p, c.size, c.word)
	}
}
