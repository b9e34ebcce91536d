package ecs

import (
	"encoding/binary"
	"reflect"
	"sync"
	"unsafe"
)

// Checksummer is implemented by a component or resource type that hashes
// its own state for [World.Checksum]: types that hold pointers, slices,
// maps or interfaces, whose referenced data the checksum cannot see by
// itself. Checksum must be a pure function of the value's observable state,
// the same in every process (no map iteration order, no addresses, no
// hash/maphash with a random seed), and must leave the world alone (a
// structural change from inside it panics, naming the change and
// Checksum). It is called on the value itself, or on its address when the
// pointer type has the method.
type Checksummer interface {
	Checksum() uint64
}

// hashKind says how a hash step reads its bytes.
type hashKind uint8

const (
	hashBytes    hashKind = iota // n plain bytes (bools, integers, fixed arrays of them)
	hashFloat32                  // one float32, NaNs made canonical
	hashFloat64                  // one float64, NaNs made canonical
	hashFloat32s                 // n adjacent float32s (an array), each as hashFloat32
	hashFloat64s                 // n adjacent float64s (an array), each as hashFloat64
	hashString                   // a string header: its length and bytes
	hashEntity                   // an Entity: its index and generation, without the world's tag
	hashInt                      // an int: sign-extended to 64 bits, whatever the machine's word
	hashUint                     // a uint or uintptr: zero-extended to 64 bits
)

// hashStep is one field (or run of adjacent plain fields) of a hash plan.
type hashStep struct {
	off  uintptr
	n    uintptr // hashBytes: the run's length in bytes; hashFloat32s/64s: the number of floats
	kind hashKind
}

// hashPlan says how Checksum reads a value of one type: its fields in
// declaration order, with padding left out (so padding bytes, which Go
// leaves unspecified, never change a checksum) and fields of pointer kinds
// skipped. A type that implements Checksummer is hashed by its method.
type hashPlan struct {
	size   uintptr // the type's size
	steps  []hashStep
	method func(p unsafe.Pointer) uint64 // the Checksummer method, or nil
	// bulk says how a column of the type hashes as one run (see
	// checksum_bulk.go).
	bulk bulkKind
}

var (
	entityType      = reflect.TypeFor[Entity]()
	checksummerType = reflect.TypeFor[Checksummer]()
)

// hashPlans caches the hash plan of the types that have no componentInfo
// to hold one: resources, relation pair values. Plans are immutable once
// built, so worlds in any goroutine share them.
var hashPlans sync.Map // reflect.Type -> *hashPlan

// cachedHashPlan returns the hash plan of t, built on first use.
func cachedHashPlan(t reflect.Type) *hashPlan {
	if p, ok := hashPlans.Load(t); ok {
		return p.(*hashPlan)
	}
	p, _ := hashPlans.LoadOrStore(t, newHashPlan(t))
	return p.(*hashPlan)
}

// newHashPlan builds the hash plan of t.
func newHashPlan(t reflect.Type) *hashPlan {
	p := &hashPlan{size: t.Size()}
	if reflect.PointerTo(t).Implements(checksummerType) {
		// Through a pointer for value methods too (the pointer type's
		// method set holds them): an interface of a pointer needs no
		// copy of the value, so hashing allocates nothing.
		p.method = func(v unsafe.Pointer) uint64 {
			return reflect.NewAt(t, v).Interface().(Checksummer).Checksum()
		}
		return p
	}
	p.add(t, 0)
	p.bulk = p.bulkOf(t.Size())
	return p
}

// add appends the steps of a value of type t at offset off. A type of no
// size (an empty struct, an array of length 0, arrays of those) holds
// nothing and adds nothing, however many elements it claims; an array of
// floats is one step, not one per element.
func (p *hashPlan) add(t reflect.Type, off uintptr) {
	if t.Size() == 0 {
		return
	}
	if t == entityType {
		p.steps = append(p.steps, hashStep{off: off, kind: hashEntity})
		return
	}
	switch t.Kind() {
	case reflect.Int:
		// int, uint and uintptr are 32 bits on 386 and arm and 64 on
		// amd64, arm64 and wasm: hashed as their 64-bit value, so equal values give equal
		// checksums on every machine (save files store them the same way).
		p.steps = append(p.steps, hashStep{off: off, kind: hashInt})
	case reflect.Uint, reflect.Uintptr:
		p.steps = append(p.steps, hashStep{off: off, kind: hashUint})
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.bytes(off, t.Size())
	case reflect.Float32:
		p.steps = append(p.steps, hashStep{off: off, kind: hashFloat32})
	case reflect.Float64:
		p.steps = append(p.steps, hashStep{off: off, kind: hashFloat64})
	case reflect.Complex64:
		p.steps = append(p.steps, hashStep{off: off, kind: hashFloat32}, hashStep{off: off + 4, kind: hashFloat32})
	case reflect.Complex128:
		p.steps = append(p.steps, hashStep{off: off, kind: hashFloat64}, hashStep{off: off + 8, kind: hashFloat64})
	case reflect.String:
		p.steps = append(p.steps, hashStep{off: off, kind: hashString})
	case reflect.Array:
		if k := t.Elem().Kind(); k == reflect.Float32 || k == reflect.Float64 {
			kind := hashFloat32s
			if k == reflect.Float64 {
				kind = hashFloat64s
			}
			p.steps = append(p.steps, hashStep{off: off, n: uintptr(t.Len()), kind: kind})
			return
		}
		if elem := newHashPlan(t.Elem()); elem.bulk == bulkBytes {
			p.bytes(off, t.Size()) // plain bytes, element after element
			return
		}
		for i := range t.Len() {
			p.add(t.Elem(), off+uintptr(i)*t.Elem().Size())
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			p.add(f.Type, off+f.Offset)
		}
	}
	// Pointers, slices, maps, channels, functions and interfaces add nothing.
}

// bytes appends a run of n plain bytes at off, joining it to the previous
// run when they touch.
func (p *hashPlan) bytes(off, n uintptr) {
	if n == 0 {
		return
	}
	if k := len(p.steps); k > 0 {
		if last := &p.steps[k-1]; last.kind == hashBytes && last.off+last.n == off {
			last.n += n
			return
		}
	}
	p.steps = append(p.steps, hashStep{off: off, n: n, kind: hashBytes})
}

// stateHash is the streaming 64-bit hash of World.Checksum: a
// multiply-rotate mix per 64-bit word and a final avalanche (the finaliser
// of SplitMix64), with no seed, so equal inputs hash equally in every
// process. It detects differences; it is not a cryptographic hash.
type stateHash struct{ h uint64 }

const (
	hashMul  = 0x9E3779B97F4A7C15
	hashMul2 = 0xBF58476D1CE4E5B9
	hashMul3 = 0x94D049BB133111EB
	// canonicalNaN32 and canonicalNaN64 stand for every NaN: their payloads
	// depend on how the processor made them, not on the program.
	canonicalNaN32 = 0x7FC00000
	canonicalNaN64 = 0x7FF8000000000000
)

func (s *stateHash) word(x uint64) {
	h := (s.h ^ x) * hashMul
	s.h = h<<29 | h>>35
}

func (s *stateHash) sum() uint64 {
	z := s.h
	z = (z ^ z>>30) * hashMul2
	z = (z ^ z>>27) * hashMul3
	return z ^ z>>31
}

// raw hashes n bytes at p, eight at a time, with the tail padded with zeros
// and n itself mixed in last.
func (s *stateHash) raw(p unsafe.Pointer, n uintptr) {
	// SAFETY: p points to n readable bytes of a live value.
	b := unsafe.Slice((*byte)(p), n)
	for len(b) >= 8 {
		s.word(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	if len(b) > 0 {
		var tail [8]byte
		copy(tail[:], b)
		s.word(binary.LittleEndian.Uint64(tail[:]))
	}
	s.word(uint64(n))
}

func (s *stateHash) str(v string) {
	// SAFETY: StringData points to the len(v) bytes of v, which raw only
	// reads while v is live; an empty v is read as no bytes.
	s.raw(unsafe.Pointer(unsafe.StringData(v)), uintptr(len(v)))
}

// value hashes the value at v by plan p, as a column of one value.
func (s *stateHash) value(p *hashPlan, v unsafe.Pointer) {
	s.values(p, v, 1, p.size)
}
