package ecs

import (
	"encoding/binary"
	"unsafe"
)

// Checksums hash whole columns, not value by value: a column of a plain
// type (numbers and bools without padding, or floats only) is one run of
// words, hashed by four independent lanes that the processor overlaps,
// two float32s to a word. The per-word mix is a dependent chain of a
// multiply and a rotate; four chains keep the multiplier busy. (The
// multi-lane layout of xxHash and of Go's own maphash on long inputs.)

// bulkKind says how a column of a type hashes as one run.
type bulkKind uint8

const (
	bulkNone     bulkKind = iota // value by value, by the plan's steps
	bulkBytes                    // plain bytes, eight to a word
	bulkFloat32s                 // float32s only, two to a word, NaNs made canonical
	bulkFloat64s                 // float64s only, one to a word, NaNs made canonical
	bulkNothing                  // the type holds nothing to hash
)

// The lanes' seeds (digits of pi), so that the four lanes start apart.
const (
	laneSeed1 = 0x243F6A8885A308D3
	laneSeed2 = 0x13198A2E03707344
	laneSeed3 = 0xA4093822299F31D0
)

// bulkOf returns how a plan's values hash as a run: the steps must cover
// the value from its first byte to its last with nothing skipped (no
// padding, no pointer kinds) and all be of one family.
func (p *hashPlan) bulkOf(size uintptr) bulkKind {
	if p.method != nil {
		return bulkNone
	}
	if size == 0 || len(p.steps) == 0 {
		if size == 0 {
			return bulkNothing
		}
		return bulkNone
	}
	var kind bulkKind
	at := uintptr(0)
	for _, st := range p.steps {
		if st.off != at {
			return bulkNone
		}
		var k bulkKind
		switch st.kind {
		case hashBytes:
			k, at = bulkBytes, at+st.n
		case hashFloat32:
			k, at = bulkFloat32s, at+4
		case hashFloat32s:
			k, at = bulkFloat32s, at+4*st.n
		case hashFloat64:
			k, at = bulkFloat64s, at+8
		case hashFloat64s:
			k, at = bulkFloat64s, at+8*st.n
		default:
			return bulkNone
		}
		if kind != 0 && k != kind {
			return bulkNone
		}
		kind = k
	}
	if at != size {
		return bulkNone
	}
	return kind
}

func mix(h, x uint64) uint64 {
	h = (h ^ x) * hashMul
	return h<<29 | h>>35
}

// canon32 is f's bits, every NaN as the canonical one.
func canon32(bits uint32) uint32 {
	if bits&0x7FFFFFFF > 0x7F800000 {
		return canonicalNaN32
	}
	return bits
}

func canon64(bits uint64) uint64 {
	if bits&0x7FFFFFFFFFFFFFFF > 0x7FF0000000000000 {
		return canonicalNaN64
	}
	return bits
}

// lanes are four hash states fed round-robin, seeded from one stateHash
// and folded back into it, in order, with the number of words.
type lanes struct{ a, b, c, d uint64 }

func newLanes(s *stateHash) lanes {
	return lanes{s.h, s.h ^ laneSeed1, s.h ^ laneSeed2, s.h ^ laneSeed3}
}

func (l *lanes) fold(s *stateHash, words int) {
	s.h = l.a
	s.word(l.b)
	s.word(l.c)
	s.word(l.d)
	s.word(uint64(words))
}

// entities hashes a list of entities as Checksum counts them: index and
// generation, without the world's tag, a word each.
func (s *stateHash) entities(es []Entity) {
	l := newLanes(s)
	i := 0
	for ; i+4 <= len(es); i += 4 {
		e := es[i : i+4 : i+4]
		l.a = mix(l.a, uint64(e[0].index)|uint64(e[0].gen&genMask)<<32)
		l.b = mix(l.b, uint64(e[1].index)|uint64(e[1].gen&genMask)<<32)
		l.c = mix(l.c, uint64(e[2].index)|uint64(e[2].gen&genMask)<<32)
		l.d = mix(l.d, uint64(e[3].index)|uint64(e[3].gen&genMask)<<32)
	}
	for ; i < len(es); i++ {
		l.a = mix(l.a, uint64(es[i].index)|uint64(es[i].gen&genMask)<<32)
	}
	l.fold(s, len(es))
}

// records hashes the entity index's records as Checksum counts them: the
// generation, and whether the index is alive, a word each.
func (s *stateHash) records(rs []record) {
	l := newLanes(s)
	word := func(r *record) uint64 {
		live := uint64(0)
		if r.slot != deadSlot {
			live = 1
		}
		return uint64(r.gen&genMask) | live<<32
	}
	i := 0
	for ; i+4 <= len(rs); i += 4 {
		x := rs[i : i+4 : i+4]
		l.a = mix(l.a, word(&x[0]))
		l.b = mix(l.b, word(&x[1]))
		l.c = mix(l.c, word(&x[2]))
		l.d = mix(l.d, word(&x[3]))
	}
	for ; i < len(rs); i++ {
		l.a = mix(l.a, word(&rs[i]))
	}
	l.fold(s, len(rs))
}

// float32s hashes a run of float32 bits, two to a word (the last word of
// an odd count holds one), NaNs made canonical.
func (s *stateHash) float32s(f []uint32) {
	l := newLanes(s)
	i := 0
	for ; i+8 <= len(f); i += 8 {
		x := f[i : i+8 : i+8]
		l.a = mix(l.a, uint64(canon32(x[0]))|uint64(canon32(x[1]))<<32)
		l.b = mix(l.b, uint64(canon32(x[2]))|uint64(canon32(x[3]))<<32)
		l.c = mix(l.c, uint64(canon32(x[4]))|uint64(canon32(x[5]))<<32)
		l.d = mix(l.d, uint64(canon32(x[6]))|uint64(canon32(x[7]))<<32)
	}
	for ; i+2 <= len(f); i += 2 {
		l.a = mix(l.a, uint64(canon32(f[i]))|uint64(canon32(f[i+1]))<<32)
	}
	if i < len(f) {
		l.a = mix(l.a, uint64(canon32(f[i])))
	}
	l.fold(s, 4*len(f)) // in bytes: the run hashes as plainBytes of its bytes would
}

// float64s hashes a run of float64 bits, one to a word, NaNs made
// canonical.
func (s *stateHash) float64s(f []uint64) {
	l := newLanes(s)
	i := 0
	for ; i+4 <= len(f); i += 4 {
		x := f[i : i+4 : i+4]
		l.a = mix(l.a, canon64(x[0]))
		l.b = mix(l.b, canon64(x[1]))
		l.c = mix(l.c, canon64(x[2]))
		l.d = mix(l.d, canon64(x[3]))
	}
	for ; i < len(f); i++ {
		l.a = mix(l.a, canon64(f[i]))
	}
	l.fold(s, 8*len(f)) // in bytes, as float32s
}

// plainBytes hashes a run of bytes eight to a word: whole rounds of four
// words on the four lanes, then the words left on the first lane, the last
// padded with zeros, then the byte count. float32s and float64s hash their
// runs exactly as plainBytes hashes the runs' (canonical) bytes, and the
// gathered values of other types go through the same stream, so that a
// value hashes the same whichever path its type takes on a machine: a
// struct of a uint32 and a uint64 is plain bytes on 386 and padded on
// amd64.
func (s *stateHash) plainBytes(b []byte) {
	st := byteStream{l: newLanes(s)}
	st.finish(s, b[st.rounds(b):])
}

// byteStream is plainBytes over a run that arrives in pieces: rounds
// consumes whole rounds of 32 bytes, and finish the rest.
type byteStream struct {
	l     lanes
	total int
}

// rounds hashes the whole 32-byte rounds at the start of b and returns how
// many bytes it consumed.
func (st *byteStream) rounds(b []byte) int {
	l := &st.l
	i := 0
	for ; i+32 <= len(b); i += 32 {
		x := b[i : i+32 : i+32]
		l.a = mix(l.a, binary.LittleEndian.Uint64(x[0:]))
		l.b = mix(l.b, binary.LittleEndian.Uint64(x[8:]))
		l.c = mix(l.c, binary.LittleEndian.Uint64(x[16:]))
		l.d = mix(l.d, binary.LittleEndian.Uint64(x[24:]))
	}
	st.total += i
	return i
}

// finish hashes b, less than a round, and folds the lanes into s.
func (st *byteStream) finish(s *stateHash, b []byte) {
	l := &st.l
	i := 0
	for ; i+8 <= len(b); i += 8 {
		l.a = mix(l.a, binary.LittleEndian.Uint64(b[i:]))
	}
	if i < len(b) {
		var tail [8]byte
		copy(tail[:], b[i:])
		l.a = mix(l.a, binary.LittleEndian.Uint64(tail[:]))
	}
	l.fold(s, st.total+len(b))
}

// values hashes n values of one type at base, size bytes apart, by plan
// p: as one run when the type is plain, else value by value.
func (s *stateHash) values(p *hashPlan, base unsafe.Pointer, n int, size uintptr) {
	if n == 0 {
		s.word(0)
		return
	}
	switch p.bulk {
	case bulkNothing:
		s.word(uint64(n))
	case bulkBytes:
		// SAFETY: the column holds n values of size bytes each from base,
		// plain memory (the plan has no padding and no pointer kinds).
		s.plainBytes(unsafe.Slice((*byte)(base), uintptr(n)*size))
	case bulkFloat32s:
		// SAFETY: as for bulkBytes; the values are float32s only.
		s.float32s(unsafe.Slice((*uint32)(base), uintptr(n)*size/4))
	case bulkFloat64s:
		// SAFETY: as for bulkBytes; the values are float64s only.
		s.float64s(unsafe.Slice((*uint64)(base), uintptr(n)*size/8))
	default:
		// Values with padding, strings, entities or a mix of floats and
		// integers: each value's hashed content is gathered, padding left
		// out and floats made canonical, and the gathered bytes are hashed
		// as one stream (plainBytes's), a few kilobytes at a time. One
		// value (a resource, an event, a pair) gets a small buffer, which
		// Go zeroes on every call.
		if n == 1 {
			var small [256]byte
			s.gathered(p, base, n, size, small[:0])
		} else {
			var big [4096]byte
			s.gathered(p, base, n, size, big[:0])
		}
	}
}

// gathered hashes n values at base by gathering their content into buf
// (empty, with room to spare), as one stream.
func (s *stateHash) gathered(p *hashPlan, base unsafe.Pointer, n int, size uintptr, buf []byte) {
	st := byteStream{l: newLanes(s)}
	flush := cap(buf) / 2
	for i := range n {
		// SAFETY: i < n, the number of values from base.
		buf = p.gather(buf, unsafe.Add(base, uintptr(i)*size))
		if len(buf) >= flush {
			k := st.rounds(buf)
			buf = buf[:copy(buf, buf[k:])]
		}
	}
	st.finish(s, buf[st.rounds(buf):])
}

// gather appends the content of the value at v that plan p hashes, as a
// stream of bytes that tells values apart as the plan's steps do: byte runs
// as they are, floats with NaNs made canonical, ints and uints as 64-bit
// words, strings as their length then their bytes, entities without the
// world's tag, a Checksummer's sum as a word.
func (p *hashPlan) gather(buf []byte, v unsafe.Pointer) []byte {
	if p.method != nil {
		return binary.LittleEndian.AppendUint64(buf, p.method(v))
	}
	for _, st := range p.steps {
		// SAFETY: every step lies inside the value (built from its type).
		a := unsafe.Add(v, st.off)
		switch st.kind {
		case hashBytes:
			// SAFETY: the run's n bytes lie inside the value; the loads of
			// 1, 2, 4 and 8 bytes read them without a copy call (the
			// little-endian byte order of every machine the checksum
			// promises).
			switch st.n {
			case 1:
				buf = append(buf, *(*byte)(a))
			case 2:
				buf = binary.LittleEndian.AppendUint16(buf, *(*uint16)(a))
			case 4:
				buf = binary.LittleEndian.AppendUint32(buf, *(*uint32)(a))
			case 8:
				buf = binary.LittleEndian.AppendUint64(buf, *(*uint64)(a))
			default:
				buf = append(buf, unsafe.Slice((*byte)(a), st.n)...)
			}
		case hashFloat32:
			buf = binary.LittleEndian.AppendUint32(buf, canon32(*(*uint32)(a)))
		case hashFloat64:
			buf = binary.LittleEndian.AppendUint64(buf, canon64(*(*uint64)(a)))
		case hashFloat32s:
			// SAFETY: the step's n float32s lie inside the value.
			for _, f := range unsafe.Slice((*uint32)(a), st.n) {
				buf = binary.LittleEndian.AppendUint32(buf, canon32(f))
			}
		case hashFloat64s:
			// SAFETY: the step's n float64s lie inside the value.
			for _, f := range unsafe.Slice((*uint64)(a), st.n) {
				buf = binary.LittleEndian.AppendUint64(buf, canon64(f))
			}
		case hashString:
			str := *(*string)(a)
			buf = binary.LittleEndian.AppendUint64(buf, uint64(len(str)))
			buf = append(buf, str...)
		case hashEntity:
			e := *(*Entity)(a)
			buf = binary.LittleEndian.AppendUint64(buf, uint64(e.index)|uint64(e.gen&genMask)<<32)
		case hashInt:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(int64(*(*int)(a))))
		case hashUint:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(*(*uint)(a)))
		}
	}
	return buf
}
