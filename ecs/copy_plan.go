package ecs

import "unsafe"

// copyPlan says how a value of a type is copied and cleared inline, as
// machine words, saving an indirect call per value on every row move:
// a small pointer-free type of one to four 8-byte words (8-byte aligned)
// or one to four 4-byte words (4-byte aligned: one to four float32 or
// int32 fields, common in game components). copyTyped means neither: the
// type's typed copy1 and clearN do it.
type copyPlan uint8

const (
	copyTyped copyPlan = iota
	copy8x1
	copy8x2
	copy8x3
	copy8x4
	copy4x1
	copy4x2
	copy4x3
	copy4x4
)

// planCopy returns the copy plan of a type of the given size and
// alignment.
func planCopy(pointerFree bool, size, align uintptr) copyPlan {
	switch {
	case !pointerFree || size == 0:
		return copyTyped
	case align == 8 && size%8 == 0 && size <= 32:
		return copy8x1 + copyPlan(size/8-1)
	case align == 4 && size%4 == 0 && size <= 16:
		return copy4x1 + copyPlan(size/4-1)
	}
	return copyTyped
}

// copyWords copies one value from src to dst by plan p, or reports false
// for copyTyped (the caller copies through the type). Small enough to be
// inlined where rows move.
func (p copyPlan) copyWords(dst, src unsafe.Pointer) bool {
	// SAFETY: a plan other than copyTyped is made by planCopy only for
	// pointer-free types whose size and alignment match its words exactly,
	// so the word loads and stores cover the value, are aligned, and carry
	// no pointers for the collector to track.
	switch p {
	case copy8x1:
		*(*[1]uint64)(dst) = *(*[1]uint64)(src)
	case copy8x2:
		*(*[2]uint64)(dst) = *(*[2]uint64)(src)
	case copy8x3:
		*(*[3]uint64)(dst) = *(*[3]uint64)(src)
	case copy8x4:
		*(*[4]uint64)(dst) = *(*[4]uint64)(src)
	case copy4x1:
		*(*[1]uint32)(dst) = *(*[1]uint32)(src)
	case copy4x2:
		*(*[2]uint32)(dst) = *(*[2]uint32)(src)
	case copy4x3:
		*(*[3]uint32)(dst) = *(*[3]uint32)(src)
	case copy4x4:
		*(*[4]uint32)(dst) = *(*[4]uint32)(src)
	default:
		return false
	}
	return true
}

// clearWords zeroes one value at dst by plan p, or reports false for
// copyTyped.
func (p copyPlan) clearWords(dst unsafe.Pointer) bool {
	// SAFETY: as in copyWords.
	switch p {
	case copy8x1:
		*(*[1]uint64)(dst) = [1]uint64{}
	case copy8x2:
		*(*[2]uint64)(dst) = [2]uint64{}
	case copy8x3:
		*(*[3]uint64)(dst) = [3]uint64{}
	case copy8x4:
		*(*[4]uint64)(dst) = [4]uint64{}
	case copy4x1:
		*(*[1]uint32)(dst) = [1]uint32{}
	case copy4x2:
		*(*[2]uint32)(dst) = [2]uint32{}
	case copy4x3:
		*(*[3]uint32)(dst) = [3]uint32{}
	case copy4x4:
		*(*[4]uint32)(dst) = [4]uint32{}
	default:
		return false
	}
	return true
}
