package detcheck

import (
	"go/ast"
	"go/types"
	"strings"
)

// checkUse reports a use of a function, method, variable or type that makes
// results depend on the run or the machine.
func (c *checker) checkUse(id *ast.Ident) {
	obj := c.pass.TypesInfo.Uses[id]
	if obj == nil || obj.Pkg() == nil {
		return
	}
	path, name := obj.Pkg().Path(), obj.Name()
	if fn, ok := obj.(*types.Func); ok && fn.Signature().Recv() != nil {
		c.checkMethod(id, fn)
		return
	}
	if fn, ok := obj.(*types.Func); ok {
		obj = fn.Origin()
	}
	if obj.Pkg().Scope().Lookup(obj.Name()) != obj {
		return // not package-level
	}
	qual := obj.Pkg().Name() + "." + name
	_, isFunc := obj.(*types.Func)
	switch {
	case (path == "math/rand" || path == "math/rand/v2") && isFunc && !strings.HasPrefix(name, "New"):
		seed := ""
		if path == "math/rand" {
			seed = " (rand.Seed does not seed it: since Go 1.24 it does nothing)"
		}
		c.report("random", id, qual+" draws from the global random source, which is seeded "+
			"randomly at start-up"+seed+", so every run differs; draw from a seeded generator kept "+
			"in the world as a resource: rand.New(rand.NewPCG(seed, 0)) from math/rand/v2")
	case path == "crypto/rand":
		c.report("random", id, qual+" reads the operating system's entropy, which differs "+
			"every run; draw from a seeded generator kept in the world as a resource: "+
			"rand.New(rand.NewPCG(seed, 0)) or rand.NewChaCha8(seed) from math/rand/v2")
	case path == "hash/maphash" && (name == "MakeSeed" || name == "Hash"):
		c.report("random", id, qual+" uses a random seed chosen per process, so its hash values, "+
			"and whatever is ordered, bucketed or chosen by them, change from run to run; use a "+
			"fixed hash such as hash/fnv, or order by entity id")
	case path == "time" && isWallClock[name]:
		if c.world > 0 {
			c.report("wallclock", id, qual+" in world code reads the wall clock, which differs "+
				"between runs and machines, so whatever it feeds does too; advance simulated "+
				"time by the fixed step instead: the sched.Time resource (DT, Elapsed) that "+
				"sched.FixedLoop keeps, or a tick count")
		}
	case path == "math" && isFunc && mathDiffers[name]:
		c.report("mathfunc", id, qual+" is "+mathImpl(name)+"; the compiler fuses the "+
			"multiply-adds of Go code on arm64, ppc64le, s390x, riscv64 and loong64, so its last "+
			"bit can differ by machine; use a table or a polynomial written with explicit "+
			"conversions (float64(a*x) + b), or compute the values once at setup and keep them "+
			"in the world")
	case path == "math/cmplx" && isFunc && !cmplxExact[name]:
		c.report("mathfunc", id, qual+" is computed with math functions and multiply-adds "+
			"that the compiler fuses on arm64, ppc64le, s390x, riscv64 and loong64, so its last "+
			"bit can differ by machine; use a table, or compute the values once at setup and "+
			"keep them in the world")
	case path == "runtime" && (name == "NumCPU" || name == "GOMAXPROCS"):
		if c.system > 0 {
			c.reportWorkers(id, qual+" in system code sizes work by the machine")
		}
	}
}

// checkMethod reports uses of methods that depend on the run or machine.
func (c *checker) checkMethod(id *ast.Ident, fn *types.Func) {
	recv := fn.Signature().Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := types.Unalias(recv).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return
	}
	path, typ, name := named.Obj().Pkg().Path(), named.Obj().Name(), fn.Name()
	qual := "(" + named.Obj().Pkg().Name() + "." + typ + ")." + name
	switch {
	case path == "sync" && typ == "Map" && name == "Range":
		c.report("maporder", id, qual+" visits entries in a random order: "+mapWhy+
			"; collect the keys, sort them (slices.Sort), then Load each")
	case path == "reflect" && typ == "Value" && (name == "MapKeys" || name == "MapRange"):
		c.report("maporder", id, qual+" yields a map's keys in a random order: "+mapWhy+
			"; sort the keys (slices.SortFunc) before using them")
	case path == schedPath && (typ == "Context" || typ == "Scheduler") && name == "Workers":
		if c.system > 0 {
			c.reportWorkers(id, qual+" in system code sizes work by the number of workers")
		}
	case name == "Go" && (path == "sync" && typ == "WaitGroup" || path == "golang.org/x/sync/errgroup" && typ == "Group"):
		if c.system > 0 {
			c.report("goroutine", id, qual+" starts a goroutine in system code: "+goWhy)
		}
	}
}

// reportWorkers reports work sized by the machine or the worker count.
func (c *checker) reportWorkers(id *ast.Ident, what string) {
	c.report("workers", id, what+": results that depend on how the work is split (float sums "+
		"per part, which part wins, the order parts finish) then differ by machine or by worker "+
		"count, which Tessera promises they do not; cut the work into parts of a fixed size "+
		"(AppendChunks with a constant row count), run them with sched.ForEach and combine them "+
		"in part order")
}

// isWallClock lists the functions of package time that read or wait on the
// wall clock.
var isWallClock = map[string]bool{
	"Now": true, "Since": true, "Until": true,
	"Tick": true, "After": true, "AfterFunc": true, "NewTimer": true, "NewTicker": true,
}

// mathDiffers lists the functions of package math whose results may differ
// in the last bit between architectures: those computed by approximation,
// in assembly on some architectures and in Go code (subject to multiply-add
// fusion) on others. The rest are exact or correctly rounded: Abs, Ceil,
// Copysign, Dim, FMA, Floor, Frexp, Ldexp, Max, Min, Mod, Modf, Nextafter,
// Pow10, Remainder, Round, RoundToEven, Sqrt, Trunc and the bit functions.
var mathDiffers = map[string]bool{
	"Acos": true, "Acosh": true, "Asin": true, "Asinh": true, "Atan": true, "Atan2": true,
	"Atanh": true, "Cbrt": true, "Cos": true, "Cosh": true, "Erf": true, "Erfc": true,
	"Erfcinv": true, "Erfinv": true, "Exp": true, "Exp2": true, "Expm1": true, "Gamma": true,
	"Hypot": true, "J0": true, "J1": true, "Jn": true, "Lgamma": true, "Log": true,
	"Log10": true, "Log1p": true, "Log2": true, "Pow": true, "Sin": true, "Sincos": true,
	"Sinh": true, "Tan": true, "Tanh": true, "Y0": true, "Y1": true, "Yn": true,
}

// s390xAsm lists the math functions with an s390x assembly version
// (math/arith_s390x.go).
var s390xAsm = map[string]bool{
	"Acos": true, "Acosh": true, "Asin": true, "Asinh": true, "Atan": true, "Atan2": true,
	"Atanh": true, "Cbrt": true, "Cos": true, "Cosh": true, "Erf": true, "Erfc": true,
	"Exp": true, "Expm1": true, "Log": true, "Log10": true, "Log1p": true, "Sin": true,
	"Sinh": true, "Tan": true, "Tanh": true,
}

// mathImpl says how the math function name is computed on each machine.
func mathImpl(name string) string {
	switch name {
	case "Exp":
		return "assembly on amd64 (with a second path for CPUs with FMA, chosen at run time), " +
			"arm64, loong64 and s390x, and Go code elsewhere"
	case "Exp2":
		return "assembly on arm64 and loong64, and Go code elsewhere"
	case "Log":
		return "assembly on amd64 and s390x, and Go code elsewhere"
	case "Hypot":
		return "assembly on 386 and amd64, and Go code elsewhere"
	case "Pow":
		return "Go code that calls Exp and Log (assembly on some machines)"
	case "Log2":
		return "Go code that calls Log (assembly on amd64 and s390x)"
	}
	if s390xAsm[name] {
		return "assembly on s390x and Go code elsewhere"
	}
	return "Go code that evaluates a polynomial or series"
}

// cmplxExact lists the functions of math/cmplx that are exact.
var cmplxExact = map[string]bool{"Conj": true, "Inf": true, "IsInf": true, "IsNaN": true, "NaN": true}
