// Package complexarith multiplies and divides complex numbers (reported:
// the compiler expands them into multiply-adds it may fuse) and adds them
// (not reported).
package complexarith

import "github.com/tessera-ecs/tessera/ecs"

var _ *ecs.World

const rot = 1i

func rotate(z, w complex128, v complex64) (complex128, complex64) {
	r := z * w // want `complex: complex multiplication: a complex product computes its parts as a\*c - b\*d and a\*d \+ b\*c, .* so the result differs by machine; write the parts out with real and imag`
	r = z / w  // want `complex: complex division`
	r *= w     // want `complex: complex \*=`
	v /= v     // want `complex: complex /=`
	r += z + w // sums are exact per part
	r = rot * rot
	return r, v
}
