package ecs

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// fixedPlan writes and reads one value of a type of fixed saved size
// that is not saved as its own memory (it has padding, bools or entities)
// as a short list of steps over the value's memory, with no encoder or
// decoder: what SaveCodec uses for such a type, so that Append and Decode
// of a small component allocate nothing and walk no tree. The bytes are
// those valueCodec writes and loadCodec reads.
type fixedPlan struct {
	ops  []fixedOp
	size int // the saved size of a value
	// ents are the offsets of the value's entities in memory, in the
	// order the value's bytes hold them, for mapping after a decode.
	ents []uintptr
}

// fixedOpKind is what one step of a fixedPlan copies.
type fixedOpKind uint8

const (
	opNumbers  fixedOpKind = iota // n bytes of plain numbers, word bytes each
	opBools                       // n bools, a byte each, 0 or 1 in the file
	opEntities                    // n entities: index and generation, 4 bytes each, no tag in the file
	opWord                        // an int, uint or uintptr of n bytes, 8 in the file (save_word.go)
)

type fixedOp struct {
	kind fixedOpKind
	wk   reflect.Kind // opWord: the integer's kind
	off  uintptr      // in the value's memory
	n    uintptr
	word uintptr // opNumbers: each number's size, for byte swapping
}

// Limits of a fixedPlan: a type whose plan would take more steps, or
// whose layout takes more nodes to walk (long arrays of structs), is
// written and read by valueCodec and loadCodec instead, so that a plan
// stays small and quick to make.
const (
	maxFixedOps   = 32
	maxFixedNodes = 256
)

// newFixedPlan returns the plan of Go type t with schema s (of a fixed
// size, not packedLayout), or nil when it would pass the limits above.
func newFixedPlan(t reflect.Type, s *schema) *fixedPlan {
	p := &fixedPlan{size: s.fixedSize()}
	nodes := 0
	if !p.walk(t, s, 0, &nodes) {
		return nil
	}
	saved := 0
	for _, op := range p.ops {
		switch op.kind {
		case opEntities:
			for i := range op.n {
				p.ents = append(p.ents, op.off+i*entityBytes)
			}
			saved += 8 * int(op.n)
		case opWord:
			saved += 8
		default:
			saved += int(op.n)
		}
	}
	if saved != p.size {
		return nil // cannot happen: the steps cover every saved byte
	}
	return p
}

// entityBytes is the size of an Entity in memory, as in a file.
const entityBytes = unsafe.Sizeof(Entity{})

// walk adds the steps of the value of t (schema s) at offset off, and
// reports false once the plan passes its limits.
func (p *fixedPlan) walk(t reflect.Type, s *schema, off uintptr, nodes *int) bool {
	if *nodes++; *nodes > maxFixedNodes {
		return false
	}
	if s.fixedSize() == 0 {
		return true // takes no bytes
	}
	if packed, word := packedLayout(t, s); packed {
		return p.add(fixedOp{kind: opNumbers, off: off, n: t.Size(), word: word})
	}
	switch s.kind {
	case sBool:
		return p.add(fixedOp{kind: opBools, off: off, n: 1})
	case sEntity:
		return p.add(fixedOp{kind: opEntities, off: off, n: 1})
	case sArray:
		size := t.Elem().Size()
		for i := range s.n {
			if !p.walk(t.Elem(), s.elem, off+uintptr(i)*size, nodes) {
				return false
			}
		}
		return true
	case sStruct:
		k := 0
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				continue // as in schemaAt
			}
			if !p.walk(f.Type, s.fields[k].s, off+f.Offset, nodes) {
				return false
			}
			k++
		}
		return true
	case sString, sSlice:
		return false // not of a fixed size: newFixedPlan is not called for it
	}
	// A number packedLayout refuses: an int, uint or uintptr narrower
	// than 8 bytes, or one of a big-endian host's mixed sizes.
	if t.Size() < uintptr(s.fixedSize()) {
		return p.add(fixedOp{kind: opWord, wk: t.Kind(), off: off, n: t.Size()})
	}
	return p.add(fixedOp{kind: opNumbers, off: off, n: t.Size(), word: numberSize(s)})
}

// add appends op, or joins it to the last step when that one copies the
// same kind of thing from just before op's memory, and reports false once
// the plan has too many steps.
func (p *fixedPlan) add(op fixedOp) bool {
	if k := len(p.ops) - 1; k >= 0 {
		last := &p.ops[k]
		end := last.off + last.n*elemSizeOf(last.kind)
		if last.kind == op.kind && op.kind != opWord && end == op.off &&
			(op.kind != opNumbers || littleEndianHost || last.word == op.word) {
			last.n += op.n
			return true
		}
	}
	p.ops = append(p.ops, op)
	return len(p.ops) <= maxFixedOps
}

// elemSizeOf is the size in memory of one of the things a step of kind k
// (not opWord) counts in n.
func elemSizeOf(k fixedOpKind) uintptr {
	if k == opEntities {
		return entityBytes
	}
	return 1
}

// append appends the value at v to dst: exactly the bytes valueCodec
// writes for it. It grows dst at most once.
func (p *fixedPlan) append(dst []byte, v unsafe.Pointer) []byte {
	dst = slices.Grow(dst, p.size)
	for i := range p.ops {
		op := &p.ops[i]
		// SAFETY: v points to a value of the plan's type, and op.off is the
		// offset of op's run of fields inside it.
		q := unsafe.Add(v, op.off)
		switch op.kind {
		case opNumbers:
			// SAFETY: op covers n bytes of plain numbers inside the value.
			b := unsafe.Slice((*byte)(q), op.n)
			if littleEndianHost || op.word <= 1 {
				dst = append(dst, b...)
			} else {
				e := encoder{buf: dst}
				e.rawBlock(b, op.word)
				dst = e.buf
			}
		case opBools:
			// SAFETY: op covers n bools inside the value, each byte 0 or 1.
			dst = append(dst, unsafe.Slice((*byte)(q), op.n)...)
		case opEntities:
			// SAFETY: op covers n entities inside the value.
			for _, e := range unsafe.Slice((*Entity)(q), op.n) {
				dst = binary.LittleEndian.AppendUint32(dst, e.index)
				dst = binary.LittleEndian.AppendUint32(dst, e.gen&genMask)
			}
		case opWord:
			dst = binary.LittleEndian.AppendUint64(dst, widenWord(op.wk, op.n, q))
		}
	}
	return dst
}

// decode reads a value from the front of data into the zeroed value at v
// and returns the bytes it used, or the position and text of the first
// problem: too few bytes, a bool other than 0 or 1, an entity's
// generation past the largest, an int too wide for this machine's. The
// entities it reads keep the file's index and generation, with no tag.
func (p *fixedPlan) decode(data []byte, v unsafe.Pointer) (int, int, string) {
	if len(data) < p.size {
		return 0, 0, fmt.Sprintf("truncated: %d bytes needed, %d left", p.size, len(data))
	}
	pos := 0
	for i := range p.ops {
		op := &p.ops[i]
		// SAFETY: as in append.
		q := unsafe.Add(v, op.off)
		switch op.kind {
		case opNumbers:
			n := int(op.n)
			copyLittleEndian(q, data[pos:pos+n], op.word)
			pos += n
		case opBools:
			// SAFETY: op covers n bools inside the value.
			dst := unsafe.Slice((*byte)(q), op.n)
			for j, b := range data[pos : pos+len(dst)] {
				if b > 1 {
					return 0, pos + j, fmt.Sprintf("a bool of value %d", b)
				}
				dst[j] = b
			}
			pos += len(dst)
		case opEntities:
			// SAFETY: op covers n entities inside the value.
			es := unsafe.Slice((*Entity)(q), op.n)
			for j := range es {
				b := data[pos : pos+8]
				index, gen := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
				if gen > genMask {
					return 0, pos, fmt.Sprintf("an entity generation of %d, above the largest, %d", gen, genMask)
				}
				es[j] = Entity{index, gen}
				pos += 8
			}
		case opWord:
			x := binary.LittleEndian.Uint64(data[pos:])
			if !narrowWord(op.wk, op.n, q, x) {
				v := any(x)
				if op.wk >= reflect.Int && op.wk <= reflect.Int64 {
					v = int64(x)
				}
				return 0, pos, fmt.Sprintf("the saved %v does not fit this machine's %d-bit %s", v, 8*op.n, op.wk)
			}
			pos += 8
		}
	}
	return pos, 0, ""
}

// mapEntities passes each entity of the value at v other than the zero
// Entity to mapEntity, in the order of the value's bytes, and stores what
// it returns; with a nil mapEntity it zeroes them.
func (p *fixedPlan) mapEntities(v unsafe.Pointer, mapEntity func(Entity) Entity) {
	for _, off := range p.ents {
		// SAFETY: off is the offset of an Entity inside the value.
		e := (*Entity)(unsafe.Add(v, off))
		switch {
		case e.IsZero():
		case mapEntity == nil:
			*e = Entity{}
		default:
			*e = mapEntity(*e)
		}
	}
}
