// Package mathfunc calls math functions whose last bit differs by
// architecture (reported) and exact ones (not reported).
package mathfunc

import (
	"math"
	"math/cmplx"

	"github.com/tessera-ecs/tessera/ecs"
)

var _ *ecs.World

func steer(a, x, y float64, c complex128) float64 {
	r := math.Sin(a)        // want `mathfunc: math.Sin is assembly on s390x and Go code elsewhere; the compiler fuses the multiply-adds of Go code on arm64, .* so its last bit can differ by machine; use a table or a polynomial written with explicit conversions`
	r += math.Cos(a)        // want `mathfunc: math.Cos is assembly on s390x`
	s, co := math.Sincos(a) // want `mathfunc: math.Sincos is Go code that evaluates a polynomial or series`
	r += math.Atan2(y, x)   // want `mathfunc: math.Atan2`
	r += math.Exp(x)        // want `mathfunc: math.Exp is assembly on amd64 \(with a second path for CPUs with FMA, chosen at run time\), arm64, loong64 and s390x`
	r += math.Log(x)        // want `mathfunc: math.Log is assembly on amd64 and s390x`
	r += math.Pow(x, y)     // want `mathfunc: math.Pow is Go code that calls Exp and Log`
	r += math.Hypot(x, y)   // want `mathfunc: math.Hypot is assembly on 386 and amd64`
	r += math.Exp2(x)       // want `mathfunc: math.Exp2 is assembly on arm64 and loong64`
	r += math.Tanh(x)       // want `mathfunc: math.Tanh`
	r += cmplx.Abs(c)       // want `mathfunc: cmplx.Abs is computed with math functions`
	f := math.Cbrt          // want `mathfunc: math.Cbrt is assembly on s390x`
	return r + s + co + f(x)
}

// Near misses: exact or correctly rounded functions.
func exact(x, y float64, c complex128) float64 {
	r := math.Sqrt(x)
	r = math.Abs(r) + math.Floor(x) + math.Ceil(y)
	r = math.Trunc(r) + math.Round(x) + math.RoundToEven(y)
	r = math.Copysign(r, -1) + math.FMA(x, y, r) + math.Min(x, y) + math.Max(x, y)
	r = math.Mod(r, 3) + math.Remainder(r, 2) + math.Dim(x, y)
	fr, e := math.Frexp(r)
	r = math.Ldexp(fr, e) + math.Pow10(3)
	_, frac := math.Modf(r)
	if math.IsNaN(frac) || math.IsInf(r, 0) || math.Signbit(r) {
		return math.NaN()
	}
	_ = cmplx.Conj(c)
	return math.Nextafter(r, 0) + math.Float64frombits(math.Float64bits(x))
}
