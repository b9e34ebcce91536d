// Package fma holds float multiply-adds that may be fused (reported, with
// a fix) and near misses that may not (not reported).
package fma

import (
	"github.com/tessera-ecs/tessera/ecs"
)

var _ *ecs.World

type Meters float64

type vec struct{ X, Y float32 }

const DT = 1.0 / 60

func forms(x, y, z float64, a, b, c float32) (float64, float32) {
	r := x*y + z     // want `fma: the product x\*y is added to or subtracted from another value: the Go spec lets the compiler fuse .*; wrap the product in an explicit conversion, which rounds it .*: float64\(x\*y\)`
	r = z + x*y      // want `fma: the product x\*y`
	r = x*y - z      // want `fma: the product x\*y`
	r = z - x*y      // want `fma: the product x\*y`
	r = z + (x * y)  // want `fma: the product x \* y .*: float64\(x \* y\)`
	r = -(x * y) + z // want `fma: the product x \* y`
	r = -x*y + z     // want `fma: the product -x\*y`
	r = x*y*z + 1    // want `fma: the product x\*y\*z`
	r = x*y + z*x    // want `fma: the product x\*y` `fma: the product z\*x`
	s := a*b + c     // want `fma: the product a\*b .*float32\(a\*b\)`
	s += a * b       // want `fma: the product a \* b is added to s by \+=`
	s -= b * c       // want `fma: the product b \* c is subtracted from s by -=`
	return r, s
}

func named(d, k, e Meters) Meters {
	return d*k + e // want `fma: the product d\*k .*Meters\(d\*k\)`
}

func fields(p []vec, v []vec) {
	for i := range p {
		p[i].X += v[i].X * DT // want `fma: the product v\[i\]\.X \* DT is added to p\[i\]\.X by \+=`
	}
}

// generic: a type parameter that may be a float is fused once instantiated.
func generic[T ~float32 | ~float64](x, y, z T) T {
	return x*y + z // want `fma: the product x\*y .*T\(x\*y\)`
}

// viaVariable: a variable does not round; the compiler fuses across
// statements.
func viaVariable(x, y, z float64) float64 {
	t := x * y // want `fma: the product x \* y is stored in t and t is added to or subtracted from at line \d+`
	return t + z
}

func viaVarDecl(x, y, z float64) float64 {
	var t = x * y // want `fma: the product x \* y is stored in t`
	z += t
	return z
}

func viaMulAssign(x, y, z float64) float64 {
	t := x
	t *= y // want `fma: t \*= makes t a product, and t is added to or subtracted from at line \d+.*t = float64\(t \* y\)`
	return z - t
}

// Near misses: none of these is reported.
func nearMisses(x, y, z float64, i, j, k int, c complex128) (float64, int) {
	r := float64(x*y) + z // an explicit conversion rounds the product
	r = float64(x*y) - float64(z*x)
	r += float64(x * y)
	r = x * y * z   // products alone do not fuse
	r = x + y - z   // no product
	r = x/y + z     // a quotient is not fused
	r = 9.81*DT + x // a constant product is computed exactly at compile time
	r -= 9.81 * DT
	n := i*j + k // integers are exact
	n += i * j
	u := x * y // stored but never added
	r = u / z
	w := float64(x * y) // rounded when stored
	r = w + z
	r = float64(Meters(x) * Meters(y)) // conversion to a named float type rounds too
	return r, n
}

func viaIncrement(x, y float64) float64 {
	t := x * y // want `fma: the product x \* y is stored in t`
	t++
	return t
}

func viaLaterAdd(x, y, z float64) float64 {
	t := x * y // want `fma: the product x \* y is stored in t and t is added to or subtracted from at line \d+`
	t += z
	return t
}

// Near misses of variables: the product is overwritten before the addition,
// or never reaches one.
func variableNearMisses(x, y, z float64, s []float64) float64 {
	t := x * y
	t = z
	r := t + z
	u := x * y
	s[0] = u
	v := x * y
	r = v / z
	r += s[0]
	return r
}
