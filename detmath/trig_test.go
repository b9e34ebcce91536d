package detmath

import (
	"math"
	"testing"
)

// ulps returns how many representable float64s lie between a and b.
func ulps(a, b float64) uint64 {
	x, y := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if x < 0 {
		x = math.MinInt64 - x
	}
	if y < 0 {
		y = math.MinInt64 - y
	}
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}

// sweep calls f with n inputs spread over [-limit, limit], small and large
// magnitudes alike, the same inputs on every machine.
func sweep(n int, limit float64, f func(x float64)) {
	state := uint64(0x9e3779b97f4a7c15)
	for range n {
		state = state*6364136223846793005 + 1442695040888963407
		// A mantissa in [1, 2) and an exponent down to 2^-30, so tiny
		// inputs are covered as well as big ones.
		m := math.Float64frombits(0x3ff0000000000000 | state>>12)
		e := int(state>>3&31) - 30
		x := math.Ldexp(m, e) * limit / 2
		if state&1 == 1 {
			x = -x
		}
		f(x)
	}
}

func TestSincosIsCloseToMath(t *testing.T) {
	worst := uint64(0)
	sweep(200_000, 1<<20, func(x float64) {
		s, c := Sincos(x)
		ws, wc := math.Sincos(x)
		// Near a zero of the function the relative error of any
		// reduction grows; compare there by absolute distance.
		for _, p := range [][2]float64{{s, ws}, {c, wc}} {
			if math.Abs(p[1]) < 1e-3 {
				if d := math.Abs(p[0] - p[1]); d > 1e-15*math.Max(1, math.Abs(x)/1e3) {
					t.Fatalf("Sincos(%v) = %v, %v; math gives %v, %v (absolute distance %g)", x, s, c, ws, wc, d)
				}
				continue
			}
			u := ulps(p[0], p[1])
			worst = max(worst, u)
			if u > 8 {
				t.Fatalf("Sincos(%v) = %v, %v; math gives %v, %v (%d ulps apart)", x, s, c, ws, wc, u)
			}
		}
		if Sin(x) != s || Cos(x) != c {
			t.Fatalf("Sin(%v), Cos(%v) = %v, %v disagree with Sincos's %v, %v", x, x, Sin(x), Cos(x), s, c)
		}
	})
	t.Logf("worst distance to package math away from zeros: %d ulps", worst)
}

func TestSincosSpecialValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	if s, c := Sincos(negZero); s != 0 || !math.Signbit(s) || c != 1 {
		t.Errorf("Sincos(-0) = %v, %v; want -0, 1", s, c)
	}
	if s, c := Sincos(0); s != 0 || math.Signbit(s) || c != 1 {
		t.Errorf("Sincos(+0) = %v, %v; want +0, 1", s, c)
	}
	for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		if s, c := Sincos(x); !math.IsNaN(s) || !math.IsNaN(c) {
			t.Errorf("Sincos(%v) = %v, %v; want NaN, NaN", x, s, c)
		}
	}
	// Exact quadrant points: sin(pi/2) is 1 to the last bit, cos(pi) -1.
	if s := Sin(math.Pi / 2); s != 1 {
		t.Errorf("Sin(pi/2) = %v, want 1", s)
	}
	if c := Cos(math.Pi); c != -1 {
		t.Errorf("Cos(pi) = %v, want -1", c)
	}
	// Beyond 2^63 radians the quadrant still comes from k mod 4, not from
	// a float-to-int conversion whose result differs by machine: every
	// k that large is a multiple of 4, so Sincos(x) is the polynomial
	// pair of the reduced argument, and it is finite.
	for _, x := range []float64{0x1p64, -0x1p64, 1e300, -1e300, math.MaxFloat64} {
		s, c := Sincos(x)
		if math.IsNaN(s) || math.IsNaN(c) || math.Abs(s) > 1 || math.Abs(c) > 1 {
			t.Errorf("Sincos(%g) = %v, %v: want a finite pair in [-1, 1]", x, s, c)
		}
		if s2, c2 := Sincos(-x); s2 != -s || c2 != c {
			t.Errorf("Sincos(%g) = %v, %v and Sincos(%g) = %v, %v: not odd and even", x, s, c, -x, s2, c2)
		}
	}
	// Odd and even: the same on both sides of zero.
	sweep(10_000, 100, func(x float64) {
		if Sin(-x) != -Sin(x) || Cos(-x) != Cos(x) {
			t.Fatalf("Sin or Cos is not odd or even at %v", x)
		}
	})
}

// goldenSincos is the hash of Sincos over the inputs of sweep, written on
// amd64. Every architecture must give it: CI runs this test on arm64 and 386
// under qemu-user and on wasm under Node. A change to the polynomials
// changes it; a change that keeps it keeps every saved replay valid.
const goldenSincos = 0xa20f5d9c04821b04

func TestSincosIsTheSameOnEveryMachine(t *testing.T) {
	h := uint64(14695981039346656037)
	mix := func(x float64) {
		b := math.Float64bits(x)
		for i := range 8 {
			h ^= b >> (8 * i) & 0xff
			h *= 1099511628211
		}
	}
	sweep(100_000, 1<<24, func(x float64) {
		s, c := Sincos(x)
		mix(s)
		mix(c)
	})
	// Arguments past the int64 range, where a float-to-int conversion
	// would differ by machine, and past the Cody-Waite range.
	sweep(1_000, 1e300, func(x float64) {
		s, c := Sincos(x)
		mix(s)
		mix(c)
	})
	if h != goldenSincos {
		t.Errorf("the hash of Sincos over the sweep is %#x, want %#x (the amd64 result): this machine computes different bits", h, uint64(goldenSincos))
	}
}
