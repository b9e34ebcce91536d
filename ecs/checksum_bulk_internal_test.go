package ecs

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"unsafe"
)

// TestHashPathsAgreeOnTheSameBytes: a value hashes as the stream of its
// hashed bytes, whichever path its type takes (plain bytes, float runs, or
// gathered value by value in pieces), so that a type laid out plainly on
// one machine and with padding on another hashes the same on both.
func TestHashPathsAgreeOnTheSameBytes(t *testing.T) {
	type mixed struct { // padded on 64-bit machines: gathered there
		A uint32
		B uint64
	}
	type packed [12]byte // the same bytes, plain
	type floats [3]float32
	for _, n := range []int{0, 1, 2, 3, 21, 22, 200, 1001} {
		ms := make([]mixed, n)
		ps := make([]packed, n)
		fs := make([]floats, n)
		for i := range ms {
			ms[i] = mixed{A: uint32(i) * 2654435761, B: uint64(i)*0x9E3779B97F4A7C15 + 1}
			binary.LittleEndian.PutUint32(ps[i][:], ms[i].A)
			binary.LittleEndian.PutUint64(ps[i][4:], ms[i].B)
			for k := range fs[i] {
				fs[i][k] = math.Float32frombits(binary.LittleEndian.Uint32(ps[i][4*k:]))
			}
		}
		sum := func(t reflect.Type, base unsafe.Pointer) uint64 {
			var h stateHash
			h.values(newHashPlan(t), base, n, t.Size())
			return h.sum()
		}
		pm := newHashPlan(reflect.TypeFor[mixed]())
		if unsafe.Sizeof(mixed{}) == 16 && pm.bulk != bulkNone {
			t.Fatalf("a padded type takes bulk path %d", pm.bulk)
		}
		if pp := newHashPlan(reflect.TypeFor[packed]()); pp.bulk != bulkBytes {
			t.Fatalf("[12]byte takes path %d, want plain bytes", pp.bulk)
		}
		var m, p, f uint64
		if n > 0 {
			// SAFETY (test): each slice holds n values of the type passed
			// with it, which sum hashes.
			m = sum(reflect.TypeFor[mixed](), unsafe.Pointer(&ms[0]))
			p = sum(reflect.TypeFor[packed](), unsafe.Pointer(&ps[0]))
			f = sum(reflect.TypeFor[floats](), unsafe.Pointer(&fs[0]))
		}
		// Floats with a NaN bit pattern are made canonical: compare only
		// when none is a NaN.
		nan := false
		for i := range fs {
			for _, x := range fs[i] {
				nan = nan || x != x
			}
		}
		if m != p || (!nan && f != p) {
			t.Fatalf("n=%d: gathered %x, plain bytes %x, floats %x (NaN present: %v)", n, m, p, f, nan)
		}
	}
}
