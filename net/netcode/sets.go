package netcode

import "encoding/binary"

// appendIndexGaps writes ascending indices as a count and the gaps
// between them.
func appendIndexGaps(dst []byte, set []uint32) []byte {
	dst = appendUvarint(dst, uint64(len(set)))
	last := int64(-1)
	for _, idx := range set {
		dst = appendUvarint(dst, uint64(int64(idx)-last-1))
		last = int64(idx)
	}
	return dst
}

// readIndexGaps reads what appendIndexGaps wrote, each index below limit.
func readIndexGaps(r *reader, dst []uint32, limit int) []uint32 {
	n := r.count(1)
	last := int64(-1)
	for range n {
		idx := last + 1 + int64(r.uvarint())
		if r.err != nil || idx >= int64(limit) {
			r.fail()
			return dst
		}
		dst = append(dst, uint32(idx))
		last = idx
	}
	return dst
}

// Index set forms.
const (
	setGaps   byte = 0
	setBitmap byte = 1
)

// appendIndexSet writes ascending indices in the shorter of two forms:
// gaps, or a bitmap over the span from the first to the last (the form
// for sets where more than about one index in eight is present).
func appendIndexSet(dst []byte, set []uint32) []byte {
	if len(set) == 0 {
		return append(dst, setGaps, 0)
	}
	first, lastIdx := set[0], set[len(set)-1]
	span := int(lastIdx-first) + 1
	if (span+7)/8+8 >= len(set) {
		return appendIndexGaps(append(dst, setGaps), set)
	}
	dst = append(dst, setBitmap)
	dst = appendUvarint(dst, uint64(first))
	dst = appendUvarint(dst, uint64(span))
	at := len(dst)
	dst = append(dst, make([]byte, (span+7)/8)...)
	bm := dst[at:]
	for _, idx := range set {
		k := idx - first
		bm[k>>3] |= 1 << (k & 7)
	}
	return dst
}

// readIndexSet reads what appendIndexSet wrote, each index below limit.
func readIndexSet(r *reader, dst []uint32, limit int) []uint32 {
	switch r.byte() {
	case setGaps:
		return readIndexGaps(r, dst, limit)
	case setBitmap:
		first, span := r.uvarint(), r.uvarint()
		if r.err != nil || span == 0 || first+span > uint64(limit) {
			r.fail()
			return dst
		}
		bm := r.bytes(int((span + 7) / 8))
		if r.err != nil {
			return dst
		}
		for k := range span {
			if bm[k>>3]&(1<<(k&7)) != 0 {
				dst = append(dst, uint32(first+k))
			}
		}
		return dst
	}
	r.fail()
	return dst
}

// appendModes writes the modes of a rule's entries: one byte when they
// are all the same (the common case), else 4 and two bits per entry.
func appendModes(dst []byte, modes []byte) []byte {
	same := true
	for _, m := range modes {
		if m != modes[0] {
			same = false
			break
		}
	}
	if same {
		return append(dst, modes[0])
	}
	dst = append(dst, 4)
	at := len(dst)
	dst = append(dst, make([]byte, (len(modes)+3)/4)...)
	for i, m := range modes {
		dst[at+i/4] |= m << (2 * (i & 3))
	}
	return dst
}

// readModes reads n modes into dst.
func readModes(r *reader, dst []byte, n int) []byte {
	switch k := r.byte(); {
	case r.err != nil:
		return dst
	case k < 4:
		for range n {
			dst = append(dst, k)
		}
	case k == 4:
		b := r.bytes((n + 3) / 4)
		if r.err != nil {
			return dst
		}
		for i := range n {
			dst = append(dst, b[i/4]>>(2*(i&3))&3)
		}
	default:
		r.fail()
	}
	return dst
}

func appendUint64(dst []byte, x uint64) []byte { return binary.LittleEndian.AppendUint64(dst, x) }

// viewSum is one value's share of a view checksum: FNV-1a (64 bits) of
// the server index, generation, rule and value bytes. A view's checksum
// is the sum of its values' shares, so it does not depend on the order
// entities are held in, and client and server, whose entity ids and table
// orders differ, compute the same sum from the same values.
func viewSum(idx, gen uint32, rule int, b []byte) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	var head [9]byte
	binary.LittleEndian.PutUint32(head[:], idx)
	binary.LittleEndian.PutUint32(head[4:], gen)
	head[8] = byte(rule)
	for _, c := range head {
		h = (h ^ uint64(c)) * prime
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * prime
	}
	return h
}
