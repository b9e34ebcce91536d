package ecs

import (
	"encoding/binary"
	"strconv"
)

// formatLeafSaved formats a saved number, bool, string or entity of plan
// p as formatLeaf does a Go value: floats in the shortest form that reads
// back exactly, strings quoted, entities as 7v1.
func formatLeafSaved(p *valuePlan, b []byte) string {
	return string(appendLeaf(nil, p.s.kind, b, true))
}

// appendLeaf appends the saved leaf value b of kind k; quoted: strings in
// quotes (a field's value), else as they are (inside a whole value, as %v
// prints them).
func appendLeaf(dst []byte, k schemaKind, b []byte, quoted bool) []byte {
	switch k {
	case sBool:
		return strconv.AppendBool(dst, b[0] == 1)
	case sInt8:
		return strconv.AppendInt(dst, int64(int8(b[0])), 10)
	case sInt16:
		return strconv.AppendInt(dst, int64(int16(binary.LittleEndian.Uint16(b))), 10)
	case sInt32:
		return strconv.AppendInt(dst, int64(int32(binary.LittleEndian.Uint32(b))), 10)
	case sInt64:
		return strconv.AppendInt(dst, int64(binary.LittleEndian.Uint64(b)), 10)
	case sUint8:
		return strconv.AppendUint(dst, uint64(b[0]), 10)
	case sUint16:
		return strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint16(b)), 10)
	case sUint32:
		return strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint32(b)), 10)
	case sUint64:
		return strconv.AppendUint(dst, binary.LittleEndian.Uint64(b), 10)
	case sFloat32:
		return strconv.AppendFloat(dst, float64(leafFloat32(b)), 'g', -1, 32)
	case sFloat64:
		return strconv.AppendFloat(dst, leafFloat64(b), 'g', -1, 64)
	case sComplex64:
		return append(dst, strconv.FormatComplex(complex(float64(leafFloat32(b)), float64(leafFloat32(b[4:]))), 'g', -1, 64)...)
	case sComplex128:
		return append(dst, strconv.FormatComplex(complex(leafFloat64(b), leafFloat64(b[8:])), 'g', -1, 128)...)
	case sString:
		if quoted {
			return strconv.AppendQuote(dst, string(stringBytes(b)))
		}
		return append(dst, stringBytes(b)...)
	case sEntity:
		e := Entity{index: binary.LittleEndian.Uint32(b), gen: binary.LittleEndian.Uint32(b[4:])}
		return append(dst, e.String()...)
	}
	return dst
}

// formatSaved formats the whole saved value b of plan p as formatValue
// does a Go value, as %+v prints it ({X:1 Y:2}, [1 2 3], strings as they
// are), cut to maxFormatted bytes: the work stops there, whatever the
// value's size.
func formatSaved(p *valuePlan, b []byte) string {
	if p.fixed == 0 {
		return "{}"
	}
	f := boundedFormat{buf: make([]byte, 0, 64)}
	f.value(p, b)
	if len(f.buf) > maxFormatted {
		return string(f.buf[:maxFormatted]) + "..."
	}
	return string(f.buf)
}

// boundedFormat formats a saved value until it holds more than
// maxFormatted bytes.
type boundedFormat struct{ buf []byte }

func (f *boundedFormat) full() bool { return len(f.buf) > maxFormatted }

// value appends b, a value of p, and returns the bytes past it.
func (f *boundedFormat) value(p *valuePlan, b []byte) []byte {
	switch p.s.kind {
	case sStruct:
		f.buf = append(f.buf, '{')
		for i, fl := range p.fields {
			if f.full() {
				return nil
			}
			if i > 0 {
				f.buf = append(f.buf, ' ')
			}
			f.buf = append(f.buf, fl.name...)
			f.buf = append(f.buf, ':')
			b = f.value(fl.p, b)
		}
		f.buf = append(f.buf, '}')
		return b
	case sArray:
		return f.elems(p.elem, b, p.s.n)
	case sSlice:
		n, rest := sliceLen(b)
		return f.elems(p.elem, rest, n)
	}
	v, rest := splitValue(p, b)
	if p.s.kind == sString && len(v) > maxFormatted+binary.MaxVarintLen64 {
		v = v[:maxFormatted+binary.MaxVarintLen64] // the rest would be cut
	}
	f.buf = appendLeaf(f.buf, p.s.kind, v, false)
	return rest
}

// elems appends n elements of p from b, in brackets.
func (f *boundedFormat) elems(p *valuePlan, b []byte, n int) []byte {
	f.buf = append(f.buf, '[')
	for i := range n {
		if f.full() {
			return nil
		}
		if i > 0 {
			f.buf = append(f.buf, ' ')
		}
		b = f.value(p, b)
	}
	f.buf = append(f.buf, ']')
	return b
}
