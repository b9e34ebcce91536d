package detmath

import "math"

// pi/2 in three parts: pio2Hi and pio2Mid hold 33 significant bits each, so
// k*pio2Hi and k*pio2Mid are exact for |k| < 2^20, and pio2Lo holds the next
// 53 bits.
const (
	pio2Hi    = 0x1.921fb544p+00
	pio2Mid   = 0x1.0b4611a6p-34
	pio2Lo    = 0x1.3198a2e037073p-69
	twoOverPi = 0x1.45f306dc9c883p-01
	twoPi     = 0x1.921fb54442d18p+02 // the float64 nearest 2pi
	// hugeArg is where Sincos stops trusting the three-part reduction and
	// folds its argument by math.Mod first.
	hugeArg = 0x1p30
)

// Sin returns the sine of x radians, the same on every architecture.
// Sin(±0) = ±0; Sin(±Inf) and Sin(NaN) are NaN. Complexity: O(1).
// (Cody and Waite's reduction; a Taylor polynomial evaluated without fused
// multiply-adds.)
func Sin(x float64) float64 {
	s, _ := Sincos(x)
	return s
}

// Cos returns the cosine of x radians, the same on every architecture.
// Cos(±Inf) and Cos(NaN) are NaN. Complexity: O(1).
func Cos(x float64) float64 {
	_, c := Sincos(x)
	return c
}

// Sincos returns Sin(x) and Cos(x), computed together, the same on every
// architecture. Sincos(±0) = ±0, 1; Sincos(±Inf) and Sincos(NaN) are NaN,
// NaN. Complexity: O(1).
func Sincos(x float64) (sin, cos float64) {
	if x == 0 {
		return x, 1 // keeps the sign of a zero
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN(), math.NaN()
	}
	if math.Abs(x) > hugeArg {
		// Beyond the Cody-Waite range: fold x into (-2pi, 2pi) first,
		// exactly (math.Mod is exact), modulo the float64 nearest 2pi.
		x = math.Mod(x, twoPi)
	}
	k := math.RoundToEven(x * twoOverPi)
	r := x - float64(k*pio2Hi)
	r -= float64(k * pio2Mid)
	r -= float64(k * pio2Lo)
	s, c := sinPoly(r), cosPoly(r)
	// The quadrant is k mod 4, taken on the float: converting a float
	// beyond the int64 range is implementation-defined in Go (amd64 gives
	// the smallest int64, arm64 saturates), math.Mod is exact everywhere.
	q := math.Mod(k, 4)
	if q < 0 {
		q += 4
	}
	switch int(q) {
	case 0:
		return s, c
	case 1:
		return c, -s
	case 2:
		return -s, -c
	default:
		return -c, s
	}
}

// Inverse factorials, the Taylor coefficients of sine and cosine.
const (
	f2  = 1.0 / 2
	f3  = 1.0 / 6
	f4  = 1.0 / 24
	f5  = 1.0 / 120
	f6  = 1.0 / 720
	f7  = 1.0 / 5040
	f8  = 1.0 / 40320
	f9  = 1.0 / 362880
	f10 = 1.0 / 3628800
	f11 = 1.0 / 39916800
	f12 = 1.0 / 479001600
	f13 = 1.0 / 6227020800
	f14 = 1.0 / 87178291200
	f15 = 1.0 / 1307674368000
	f16 = 1.0 / 20922789888000
	f17 = 1.0 / 355687428096000
	f18 = 1.0 / 6402373705728000
)

// sinPoly is the sine of r in [-pi/4, pi/4]: r - r^3/3! + ... + r^17/17!,
// by Horner's rule in z = r*r, every product rounded on its own.
func sinPoly(r float64) float64 {
	z := r * r
	p := float64(z*f17) - f15
	p = float64(z*p) + f13
	p = float64(z*p) - f11
	p = float64(z*p) + f9
	p = float64(z*p) - f7
	p = float64(z*p) + f5
	p = float64(z*p) - f3
	return r + float64(float64(r*z)*p)
}

// cosPoly is the cosine of r in [-pi/4, pi/4]: 1 - r^2/2! + ... + r^18/18!.
func cosPoly(r float64) float64 {
	z := r * r
	p := f16 - float64(z*f18)
	p = float64(z*p) - f14
	p = float64(z*p) + f12
	p = float64(z*p) - f10
	p = float64(z*p) + f8
	p = float64(z*p) - f6
	p = float64(z*p) + f4
	p = float64(z*p) - f2
	return 1 + float64(z*p)
}
