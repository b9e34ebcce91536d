package ecs

import (
	"math"
	"reflect"
	"testing"
	"unsafe"
)

// The widening and narrowing of Go's word-sized integers only run on
// 32-bit machines; the helpers are tested here on 32-bit memory directly.
func TestWidenNarrowWord(t *testing.T) {
	// SAFETY (test): each pointer is to a variable of the size passed with
	// it, 4 or 8 bytes, of the kind's signedness.
	for _, v := range []int32{0, 1, -1, math.MaxInt32, math.MinInt32} {
		x := widenWord(reflect.Int, 4, unsafe.Pointer(&v))
		if int64(x) != int64(v) {
			t.Errorf("widen int32 %d: got %d", v, int64(x))
		}
		var back int32
		if !narrowWord(reflect.Int, 4, unsafe.Pointer(&back), x) || back != v {
			t.Errorf("narrow %d: got %d", v, back)
		}
	}
	// SAFETY (test): as above.
	for _, v := range []uint32{0, 1, math.MaxUint32} {
		x := widenWord(reflect.Uint, 4, unsafe.Pointer(&v))
		if x != uint64(v) {
			t.Errorf("widen uint32 %d: got %d", v, x)
		}
		var back uint32
		if !narrowWord(reflect.Uintptr, 4, unsafe.Pointer(&back), x) || back != v {
			t.Errorf("narrow %d: got %d", v, back)
		}
	}
	// SAFETY (test): as above.
	back := int32(7)
	for _, x := range []int64{math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64} {
		if narrowWord(reflect.Int, 4, unsafe.Pointer(&back), uint64(x)) || back != 7 {
			t.Errorf("narrow %d into 32 bits: accepted, or wrote %d", x, back)
		}
	}
	// SAFETY (test): as above.
	ub := uint32(7)
	if narrowWord(reflect.Uint, 4, unsafe.Pointer(&ub), math.MaxUint32+1) || ub != 7 {
		t.Errorf("narrow 2^32 into a uint32: accepted, or wrote %d", ub)
	}
	// SAFETY (test): as above.
	wide := int64(-5)
	var got int64
	if x := widenWord(reflect.Int64, 8, unsafe.Pointer(&wide)); !narrowWord(reflect.Int64, 8, unsafe.Pointer(&got), x) || got != -5 {
		t.Errorf("64-bit round trip of -5: %d", got)
	}
}

// On this machine's word size, only a 32-bit machine sees narrow ints.
func TestWordIntsNarrow(t *testing.T) {
	type withInt struct {
		A float32
		B [2]int
	}
	want := unsafe.Sizeof(int(0)) < 8
	if got := wordIntsNarrow(reflect.TypeFor[withInt]()); got != want {
		t.Errorf("wordIntsNarrow(struct with [2]int) = %v on a %d-bit machine", got, 8*unsafe.Sizeof(int(0)))
	}
	if wordIntsNarrow(reflect.TypeFor[struct{ A, B int32 }]()) {
		t.Error("wordIntsNarrow(struct of int32) = true")
	}
}
