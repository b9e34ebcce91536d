package ecs

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// A type of no size claims any number of elements: its hash plan must not
// walk them (a [2^31-1][2^31-1][0]string field once hung Checksum).
func TestHashPlanOfZeroSizeTypesIsEmpty(t *testing.T) {
	type huge struct {
		A [math.MaxInt32][math.MaxInt32][0]string
		B [1 << 20]struct{}
		C struct{ D [0]float64 }
	}
	done := make(chan *hashPlan, 1)
	go func() { done <- newHashPlan(reflect.TypeFor[huge]()) }()
	select {
	case p := <-done:
		if len(p.steps) != 0 {
			t.Fatalf("%d hash steps for a type of no size, want 0", len(p.steps))
		}
	case <-time.After(time.Second):
		t.Fatal("the hash plan of a type of no size did not finish in a second")
	}
}

// An array of floats is one step, and hashes as the stream of its floats'
// bits would, every NaN as the canonical one.
func TestHashPlanOfFloatArraysIsOneStep(t *testing.T) {
	type floats struct {
		F [1 << 16]float64
		G [3]float32
		C complex64
	}
	p := newHashPlan(reflect.TypeFor[floats]())
	if len(p.steps) != 4 {
		t.Fatalf("%d hash steps, want one per array and two for the complex64", len(p.steps))
	}
	var v floats
	for i := range v.F {
		v.F[i] = float64(i) / 3
	}
	v.F[7] = math.NaN()
	v.G = [3]float32{1, float32(math.NaN()), -0}
	v.C = complex(2, 3)
	var got, want stateHash
	// SAFETY: p is the plan of v's type.
	got.value(p, unsafe.Pointer(&v))
	// The value hashes as the stream of its floats' bits, little-endian,
	// every NaN made canonical (floats of other types then hash alike).
	var stream []byte
	for i, f := range v.F {
		bits := math.Float64bits(f)
		if i == 7 {
			bits = canonicalNaN64
		}
		stream = binary.LittleEndian.AppendUint64(stream, bits)
	}
	for _, bits := range []uint32{math.Float32bits(1), canonicalNaN32, math.Float32bits(0), math.Float32bits(2), math.Float32bits(3)} {
		stream = binary.LittleEndian.AppendUint32(stream, bits)
	}
	want.plainBytes(stream)
	if got.sum() != want.sum() {
		t.Fatalf("hash %x, want %x: the float run does not hash as the stream of its floats", got.sum(), want.sum())
	}
}
