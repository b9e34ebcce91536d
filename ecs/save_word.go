package ecs

import (
	"reflect"
	"unsafe"
)

// Go's int, uint and uintptr are saved as 64-bit numbers (sInt64 and
// sUint64) whatever the machine's word, so a file written on a 64-bit
// machine loads on a 32-bit one and back. Where the word is 32 bits, the
// saved number is wider than the value in memory: these helpers widen on
// save and narrow, with a range check, on load. On 64-bit machines the
// sizes agree and none of them runs.

// wordIntsNarrow reports whether t holds, anywhere in its memory, an int,
// uint or uintptr narrower than the 8 bytes a save gives it: such a type's
// memory is never saved as it is (see packedLayout).
func wordIntsNarrow(t reflect.Type) bool {
	if unsafe.Sizeof(uintptr(0)) >= 8 && unsafe.Sizeof(int(0)) >= 8 {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return t.Size() < 8
	case reflect.Array:
		return t.Len() > 0 && wordIntsNarrow(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if wordIntsNarrow(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// widenWord returns the number of kind k (a signed or unsigned integer
// kind) and size bytes (1, 2, 4 or 8) at p as 64 bits: sign-extended for
// signed kinds, zero-extended for the others.
func widenWord(k reflect.Kind, size uintptr, p unsafe.Pointer) uint64 {
	signed := k >= reflect.Int && k <= reflect.Int64
	// SAFETY: p points to a readable integer of size bytes.
	switch size {
	case 1:
		if signed {
			return uint64(int64(*(*int8)(p)))
		}
		return uint64(*(*uint8)(p))
	case 2:
		if signed {
			return uint64(int64(*(*int16)(p)))
		}
		return uint64(*(*uint16)(p))
	case 4:
		if signed {
			return uint64(int64(*(*int32)(p)))
		}
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// narrowWord stores x, a 64-bit number of kind k, into the integer of size
// bytes at p, and reports false (storing nothing) when x does not fit.
func narrowWord(k reflect.Kind, size uintptr, p unsafe.Pointer, x uint64) bool {
	signed := k >= reflect.Int && k <= reflect.Int64
	bits := 8 * size
	if bits < 64 {
		if signed {
			v := int64(x)
			if v < -1<<(bits-1) || v > 1<<(bits-1)-1 {
				return false
			}
		} else if x > 1<<bits-1 {
			return false
		}
	}
	// SAFETY: p points to a writable integer of size bytes.
	switch size {
	case 1:
		*(*uint8)(p) = uint8(x)
	case 2:
		*(*uint16)(p) = uint16(x)
	case 4:
		*(*uint32)(p) = uint32(x)
	default:
		*(*uint64)(p) = x
	}
	return true
}
