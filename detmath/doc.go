// Package detmath computes the trigonometric functions a simulation needs
// with the same result, bit for bit, on every machine Go runs on.
//
// # Why not package math
//
// The Go specification lets a compiler fuse x*y + z into one fused
// multiply-add instruction, which rounds once where the written expression
// rounds twice. The arm64 compiler does so, also inside package math, whose
// Sin, Cos, Tan, Atan, Atan2, Exp, Log, Pow and Hypot are written in Go; and
// on amd64 some of them (Exp, and so Pow) run assembly that uses the
// instruction when the processor has it. Their results then differ in the
// last bit from one architecture to the next. One bit is enough: a lockstep
// or rollback game compares world checksums every tick, and a difference in
// one velocity grows into a different world within a few ticks.
//
// The functions here evaluate their polynomials with every product wrapped
// in an explicit conversion (which, as the specification says, "rounds to
// the precision of the target type, preventing fusion"), use only operations
// IEEE 754 defines exactly (+, -, *, / and math.RoundToEven), and so give
// the same bits on amd64, arm64, 386 and wasm. They are tested against a
// table of results written by one architecture and checked on the others.
//
// # Accuracy and range
//
// Sin, Cos and Sincos reduce x modulo pi/2 with a three-part
// Cody-Waite constant and evaluate Taylor polynomials of degree 17 (sine)
// and 18 (cosine) on [-pi/4, pi/4]. For |x| up to 2^20 the result is within
// a few units in the last place of the true value (the tests bound the
// distance to math.Sin and math.Cos); beyond that the reduction loses
// accuracy, but every machine loses the same. Beyond 2^30 the argument is
// first folded modulo the float64 nearest 2pi (by math.Mod, which is exact),
// so the result stays in [-1, 1], however far it is from the true sine.
// Infinities and NaN give NaN.
//
// Sqrt, Abs, Floor, Ceil, Trunc, Round, RoundToEven, Mod, Remainder,
// Copysign, Min, Max and FMA of package math are exact or correctly rounded
// by definition and may be used as they are.
//
// The idea of a deterministic math library for lockstep simulation comes
// from the games that ship one (the fixed-point and soft-float libraries of
// lockstep strategy games, and Rust's libm used by Bevy users for the same
// reason); the reduction is W. J. Cody and W. Waite's, from "Software
// Manual for the Elementary Functions" (1980).
package detmath
