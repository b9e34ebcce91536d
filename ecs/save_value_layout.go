package ecs

import "encoding/binary"

// What a SaveCodec tells of its type's saved layout: the widths of its
// numbers (SaveCodec.Fields) and a fingerprint (SaveCodec.Schema).

// appendWidths appends the widths of s's numbers, for a fixed layout, in
// the order a save writes them. A part that takes no bytes adds nothing
// and is not walked (a [1 << 30]struct{} costs nothing).
func appendWidths(dst []uint8, s *schema) []uint8 {
	if s.fixedSize() == 0 {
		return dst
	}
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
