package ecs

import (
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

// An array of floats is one step, and hashes as its floats one by one
// would: each as a word, every NaN as the canonical one.
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
	for i, f := range v.F {
		if i == 7 {
			want.word(canonicalNaN64)
			continue
		}
		want.word(math.Float64bits(f))
	}
	want.word(uint64(math.Float32bits(1)))
	want.word(canonicalNaN32)
	want.word(uint64(math.Float32bits(0)))
	want.word(uint64(math.Float32bits(2)))
	want.word(uint64(math.Float32bits(3)))
	if got.sum() != want.sum() {
		t.Fatalf("hash %x, want %x: the float run does not hash as its floats one by one", got.sum(), want.sum())
	}
}
