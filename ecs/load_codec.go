package ecs

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"unsafe"
)

// loadCodec reads values saved with schema fs into a Go type whose schema
// may differ: struct fields are matched by name, a saved field the type no
// longer has is skipped, a field the file lacks stays zero, and a field
// whose kind changed is an error. With no Go type (typ nil) it skips the
// value.
type loadCodec struct {
	fs    *schema
	typ   reflect.Type // nil: skip
	size  uintptr      // typ's size
	fixed int          // fs.fixedSize(): the saved size, or -1
	bulk  bool         // the saved bytes are the value's memory (see packedLayout)
	word  uintptr
	// fields, of an sStruct, are its saved fields that take bytes, in
	// order: one that takes none has nothing to read or skip, and leaving
	// it out keeps the work per value within the bytes the value takes.
	fields []loadField
	elem   *loadCodec // sArray, sSlice
	// same says the saved schema is typ's own, field for field; custom
	// loads n values through typ's BinaryCodec methods, set by decodeTypes
	// for a component type that has them when same and not bulk.
	same   bool
	custom func(d *decoder, w *World, p unsafe.Pointer, n int)
}

type loadField struct {
	off uintptr
	c   *loadCodec
}

// newLoadCodec returns the codec that reads fs into t (nil to skip); path
// names the value in errors.
func newLoadCodec(fs *schema, t reflect.Type, path string) (*loadCodec, error) {
	c := &loadCodec{fs: fs, typ: t, fixed: fs.fixedSize()}
	var gs *schema
	if t != nil {
		var err error
		if gs, err = schemaOfAt(t, path); err != nil {
			return nil, err
		}
		if gs.kind != fs.kind || gs.n != fs.n {
			return nil, fmt.Errorf("%s was saved as %s and is now %s", path, describeSchema(fs), describeSchema(gs))
		}
		c.size = t.Size()
		if c.same = sameSchema(fs, gs); c.same {
			c.bulk, c.word = packedLayout(t, gs)
		} else {
			c.word = numberSize(gs)
		}
	}
	switch fs.kind {
	case sArray, sSlice:
		if fs.kind == sArray && fs.n == 0 {
			break // holds nothing: no element codec
		}
		var et reflect.Type
		if t != nil {
			et = t.Elem()
		}
		elem, err := newLoadCodec(fs.elem, et, path+"[]")
		if err != nil {
			return nil, err
		}
		c.elem = elem
	case sStruct:
		for _, f := range fs.fields {
			var ft reflect.Type
			var off uintptr
			if t != nil {
				if sf, ok := t.FieldByName(f.name); ok && len(sf.Index) == 1 {
					ft, off = sf.Type, sf.Offset
				}
			}
			fc, err := newLoadCodec(f.s, ft, path+"."+f.name)
			if err != nil {
				return nil, err
			}
			if fc.fixed != 0 {
				c.fields = append(c.fields, loadField{off, fc})
			}
		}
	}
	return c, nil
}

// describeSchema names a schema's kind for messages: int32, [4]float32,
// []string, struct.
func describeSchema(s *schema) string {
	switch s.kind {
	case sArray:
		return fmt.Sprintf("[%d]%s", s.n, describeSchema(s.elem))
	case sSlice:
		return "[]" + describeSchema(s.elem)
	}
	return s.kind.String()
}

// values reads n values into p (zeroed memory for n values of typ). Each
// value read one by one takes at least a byte of the file: values that
// take none are read at once, as nothing, however many there are.
func (c *loadCodec) values(d *decoder, w *World, p unsafe.Pointer, n int) {
	if c.typ == nil {
		c.skipN(d, n)
		return
	}
	if c.bulk {
		b := d.bytes(n * int(c.size))
		if d.err == nil {
			copyLittleEndian(p, b, c.word)
		}
		return
	}
	if c.custom != nil {
		c.custom(d, w, p, n)
		return
	}
	if c.fixed == 0 {
		return // the zero values at p are what the file holds
	}
	for i := range n {
		if d.err != nil {
			return
		}
		// SAFETY: p holds n values of typ, c.size bytes apart, and i < n.
		c.value(d, w, unsafe.Add(p, uintptr(i)*c.size))
	}
}

// value reads one value into p.
func (c *loadCodec) value(d *decoder, w *World, p unsafe.Pointer) {
	switch c.fs.kind {
	case sBool:
		b := d.bytes(1)
		if d.err == nil {
			if b[0] > 1 {
				d.fail("a bool of value %d", b[0])
				return
			}
			// SAFETY: typ's kind is the file's, bool (newLoadCodec checks it),
			// so p points to a bool.
			*(*bool)(p) = b[0] == 1
		}
	case sString:
		// SAFETY: typ's kind is the file's, string (newLoadCodec checks it),
		// so p points to a string.
		*(*string)(p) = d.str()
	case sEntity:
		d.entity(w, p)
	case sArray:
		if c.fs.n > 0 {
			c.elem.values(d, w, p, c.fs.n)
		}
	case sSlice:
		n := c.elemCount(d)
		if d.err != nil || n == 0 {
			return
		}
		if !d.spendElems(n, c.typ.Elem().Size()) {
			return
		}
		v := reflect.MakeSlice(c.typ, n, n)
		c.elem.values(d, w, v.UnsafePointer(), n)
		reflect.NewAt(c.typ, p).Elem().Set(v)
	case sStruct:
		for _, f := range c.fields {
			if f.c.typ == nil {
				f.c.skipN(d, 1)
			} else {
				// SAFETY: f.off is the offset in typ of the field named as the saved
				// one, of the type f.c reads into, and p points to a typ.
				f.c.value(d, w, unsafe.Add(p, f.off))
			}
		}
	default: // a number
		if c.size < uintptr(c.fixed) {
			// A 32-bit int, uint or uintptr saved as 64 bits (save_word.go).
			b := d.bytes(c.fixed)
			if d.err != nil {
				return
			}
			if x := binary.LittleEndian.Uint64(b); !narrowWord(c.typ.Kind(), c.size, p, x) {
				v := any(x)
				if c.fs.kind == sInt64 {
					v = int64(x)
				}
				d.fail("the saved %s %v does not fit this machine's %d-bit %s", c.fs.kind, v, 8*c.size, c.typ)
			}
			return
		}
		b := d.bytes(int(c.size))
		if d.err == nil {
			copyLittleEndian(p, b, c.word)
		}
	}
}

// elemCount reads the length of a saved slice.
func (c *loadCodec) elemCount(d *decoder) int {
	minBytes := c.elem.fixed
	if minBytes < 0 {
		minBytes = 1 // a string or slice takes at least its length's byte
	}
	// Elements of no size take no bytes: the load budget bounds how many
	// a slice may claim (spendElems), not the file's length.
	return d.count(minBytes)
}

// skipN reads past n saved values: at once when they have a fixed size
// (none at all when it is 0, however large n), else one by one, each of
// which takes at least a byte (a string's or slice's length), so the work
// is bounded by the bytes skipped.
func (c *loadCodec) skipN(d *decoder, n int) {
	if c.fixed >= 0 {
		if c.fixed > 0 && n > d.left()/c.fixed {
			d.fail("truncated: %d values of %d bytes do not fit", n, c.fixed)
			return
		}
		d.bytes(n * c.fixed)
		return
	}
	if n > d.left() {
		d.fail("truncated: %d values of at least a byte do not fit", n)
		return
	}
	for range n {
		if d.err != nil {
			return
		}
		switch c.fs.kind {
		case sString:
			d.bytes(d.count(1))
		case sSlice:
			c.elem.skipN(d, c.elemCount(d))
		case sArray:
			if c.fs.n > 0 {
				c.elem.skipN(d, c.fs.n)
			}
		case sStruct:
			for _, f := range c.fields {
				f.c.skipN(d, 1)
			}
		}
	}
}

// copyLittleEndian copies the little-endian numbers of b, each word bytes
// long, into memory at p.
func copyLittleEndian(p unsafe.Pointer, b []byte, word uintptr) {
	// SAFETY: p points to len(b) writable bytes of plain numbers.
	dst := unsafe.Slice((*byte)(p), len(b))
	if littleEndianHost || word <= 1 {
		copy(dst, b)
		return
	}
	for i := 0; i < len(b); i += int(word) {
		for j := range int(word) {
			dst[i+j] = b[i+int(word)-1-j]
		}
	}
}
