// Package detcheck is an analyzer ([Analyzer], for golang.org/x/tools/go/analysis)
// that reports code which can make a Tessera world differ between machines,
// runs or numbers of scheduler workers.
//
// Tessera promises that the same calls give the same entity ids, iteration
// order and world checksum on amd64, arm64, 386 and wasm, for any number of
// workers. Code around the world can break that promise; detcheck finds the
// usual ways. Run it with
//
//	tessera vet ./...
//
// or, the same, as a go vet tool:
//
//	go vet -vettool=$(command -v tessera) ./...
//
// Add -fix to apply the suggested fixes (-fix -diff to see them first).
// go vet -fix edits files while it still builds other packages, so a fix
// that adds an import can make a dependent package fail to build in that
// run; run it again.
// [Analyzer] also plugs into any driver of the analysis framework
// (multichecker, golangci-lint plugins, gopls-style tools).
//
// # In an editor
//
// gopls runs a fixed set of analyzers compiled into it and loads no
// others, so detcheck reaches an editor through go vet: an editor that
// vets on save shows its reports where it shows go vet's. In VS Code's Go
// extension, for instance, set "go.vetOnSave": "package" and
// "go.vetFlags": ["-vettool=/absolute/path/to/tessera"].
//
// # Where it reports
//
// Only in packages that import github.com/tessera-ecs/tessera/ecs or
// github.com/tessera-ecs/tessera/sched: the code that can reach a world.
// Within them, some rules apply everywhere and some to two kinds of code:
//
//   - system code: a function or method with a *sched.Context parameter (a
//     system's Update, Init or Finalize, a function passed to
//     Scheduler.AddFunc or sched.Func), a function literal passed as an
//     argument to any exported function or method of the ecs or sched
//     packages (hooks, SpawnFunc initialisers, sched.ForEach bodies), and
//     the functions nested in them;
//   - world code: system code, plus functions with an *ecs.World or
//     *ecs.Commands parameter and the functions nested in them.
//
// In _test.go files only world code is checked: a test's assertion loops,
// table-driven subtests and timing do not feed a world.
//
// Every report begins with the name of its rule and says what is wrong, why
// it makes results differ, and the fix.
//
// # fma: fusable float multiply-add
//
// What: x*y + z, z + x*y, x*y - z, z - x*y, z += x*y and z -= x*y on float32
// or float64 (or a type parameter whose constraint lists a float type),
// where the product is not wrapped in a conversion; parentheses and signs
// around the product count too: z + (x*y), -(x*y) + z. Also a local
// variable given a bare product (t := x*y, var t = x*y, t *= y) whose value
// then reaches an addition (t + z, z += t, t++). Constant products such as
// 9.81 * DT are exact and not reported.
//
// Why: the Go specification lets an implementation "combine multiple
// floating-point operations into a single fused operation, possibly across
// statements", rounding once where separate operations round twice. The gc
// compiler does so on arm64, ppc64le, s390x, riscv64 and loong64, and on
// amd64 when built with GOAMD64=v3 (additions only), but not on 386, wasm
// or amd64 at the default GOAMD64=v1 (see the FMADD, FMSUB and VFMADD231
// rules in $GOROOT/src/cmd/compile/internal/ssa/_gen/*.rules). So the same
// expression can give two results. Assigning the product to a variable does
// not round it: the variable lives in a register and the compiler fuses
// through it.
//
// Fix: wrap the product in an explicit conversion: "An explicit
// floating-point type conversion rounds to the precision of the target
// type, preventing fusion that would discard that rounding." The suggested
// fix does it with the product's own type:
//
//	p.X += v.X * dt     becomes     p.X += float32(v.X * dt)
//	t := x * y          becomes     t := float64(x * y)
//
// A variable is followed in source order: a use sees the last assignment
// above it, so a product assigned later in a loop body, or in one branch of
// an if above another assignment, is not followed.
//
// # complex: complex multiplication and division
//
// What: non-constant x*y, x/y, z *= x and z /= x on complex numbers.
//
// Why: the compiler expands a complex product into real*real - imag*imag
// and real*imag + imag*real, and divides with runtime Go code of the same
// shape; on the architectures above those become fused multiply-adds, so
// the parts differ in the last bit. A conversion of the whole product does
// not help: the fusion happens inside it.
//
// Fix: write the parts out with real and imag and wrap every product:
// complex(float64(a*c)-float64(b*d), float64(a*d)+float64(b*c)).
//
// # maporder: ranging over a Go map
//
// What: for ... range over a map, or over maps.Keys, maps.Values or
// maps.All; calls of (*sync.Map).Range and of reflect.Value's MapKeys and
// MapRange.
//
// Why: the iteration order is random and changes on every run, so whatever
// the loop feeds can differ: spawn order and so entity ids, which value
// wins, float sums (addition is not associative), output.
//
// Fix: iterate over the sorted keys:
//
//	for _, k := range slices.Sorted(maps.Keys(m)) {
//		v := m[k]
//		...
//	}
//
// The suggested fix does this rewrite, adding the maps and slices imports,
// when it keeps the loop's meaning: the key is declared by the loop and is
// an integer or string (float keys may be NaN, which cannot be looked up),
// the map is a variable or field path, the body does not write, delete from
// or clear the map nor declare the value's name again, and the file's Go
// version is at least 1.23.
//
// Not reported, because the result cannot depend on the order (a simple,
// syntactic rule): a loop that uses neither key nor value (for range m), and
// a loop whose every statement is
//
//   - delete(...);
//   - x++, x--, or x op= e on an integer x, with op one of + - | & ^;
//   - x = c, with c a constant (every iteration writes the same value);
//   - x := e, declaring variables that live for one iteration;
//   - m2[k] = e, with k the loop's key (each key is written once);
//   - s = append(s, ...), when the statement right after the loop sorts s
//     (a Sort function of package slices, or sort.Strings, Ints, Float64s,
//     Slice or SliceStable);
//   - continue;
//   - an if statement whose init statement and branches hold only such
//     statements, or a nested range loop that declares its variables (or
//     has none) and whose body holds only such statements (where m2[k] = e
//     needs the outer loop's key);
//
// where no expression calls a function other than conversions, the
// builtins len, cap, min, max, real, imag and complex, and side-effect-free
// functions of strconv, strings, unicode, unicode/utf8, math, math/bits, cmp
// and fmt's Sprint, Sprintf and Sprintln. Float sums are reported: their
// result depends on the order.
//
// # random: global random sources
//
// What: the top-level functions of math/rand and math/rand/v2 that draw
// from the global source (rand.IntN, rand.N, rand.Float64, rand.Shuffle,
// rand.Perm, rand.Seed, ...; not the constructors New, NewPCG, NewChaCha8,
// NewSource, NewZipf), every function and variable of crypto/rand, and
// hash/maphash's MakeSeed and Hash.
//
// Why: the global source is seeded randomly at start-up (rand.Seed does
// nothing since Go 1.24), crypto/rand reads the operating system's entropy,
// and maphash seeds are random per process. Every run differs.
//
// Fix: a seeded generator kept in the world as a resource, so that
// snapshots and rollback cover it: rand.New(rand.NewPCG(seed, 0)) or
// rand.NewChaCha8(seed) from math/rand/v2. For hashing, a fixed hash such as
// hash/fnv, or order by entity id.
//
// # wallclock: wall-clock time in world code
//
// What: time.Now, Since, Until, Tick, After, AfterFunc, NewTimer and
// NewTicker in world code.
//
// Why: the wall clock differs between runs and machines; whatever it feeds
// differs too.
//
// Fix: advance simulated time by the fixed step: the sched.Time resource
// (Tick, DT, Elapsed) that sched.FixedLoop keeps, or a tick count. Real time
// belongs in the frame loop that calls FixedLoop.Advance, which turns it
// into whole fixed steps, and in timing code; neither is world code, so
// neither is reported.
//
// # goroutine: goroutines in systems
//
// What: go statements, (*sync.WaitGroup).Go and errgroup's (*Group).Go in
// system code.
//
// Why: goroutines finish in any order and run beside the scheduler's
// workers, so what they write, append, send or record can differ from run
// to run, and they may race with other systems.
//
// Fix: sched.ForEach, which runs the items on the scheduler's workers and
// returns when all are done; collect per item, then combine in item order.
//
// # mathfunc: math functions whose last bit differs by architecture
//
// What: math.Acos, Acosh, Asin, Asinh, Atan, Atan2, Atanh, Cbrt, Cos, Cosh,
// Erf, Erfc, Erfcinv, Erfinv, Exp, Exp2, Expm1, Gamma, Hypot, J0, J1, Jn,
// Lgamma, Log, Log10, Log1p, Log2, Pow, Sin, Sincos, Sinh, Tan, Tanh, Y0, Y1
// and Yn, and the functions of math/cmplx but Conj, Inf, IsInf, IsNaN and
// NaN.
//
// Why: these are approximations computed differently per architecture
// ($GOROOT/src/math, Go 1.26): Exp is assembly on amd64, arm64, loong64 and
// s390x (exp_asm.go), and on amd64 takes a second path with FMA
// instructions on CPUs that have them, chosen at run time (exp_amd64.go,
// useFMA); Exp2 is assembly on arm64 and loong64 (exp2_asm.go); Log on amd64
// and s390x (log_asm.go); Hypot on 386 and amd64 (hypot_asm.go); most of the
// others on s390x (arith_s390x.go). Everywhere else they are Go code whose
// multiply-adds the compiler fuses on arm64, ppc64le, s390x, riscv64 and
// loong64 (see fma above). So the last bit can differ by machine, and even
// between two amd64 CPUs for Exp and Pow.
//
// Not reported, as they are exact or correctly rounded on every machine:
// Abs, Ceil, Copysign, Dim, FMA, Floor, Frexp, Ldexp, Max, Min, Mod, Modf,
// Nextafter, Pow10, Remainder, Round, RoundToEven, Signbit, Sqrt, Trunc,
// the Float bits functions, Inf, NaN, IsInf, IsNaN, Ilogb and Logb.
//
// Fix: a table, or a polynomial written with explicit conversions
// (float64(a*x) + b), or compute the values once at setup and keep them in
// the world.
//
// # select: select among several ready channels
//
// What: a select with two or more channel cases in system code.
//
// Why: when more than one case is ready, select picks one at random.
//
// Fix: receive in a fixed order, or pass data between systems through the
// world (events, sched.Output) rather than channels.
//
// # workers: work sized by the machine or the worker count
//
// What: runtime.NumCPU, runtime.GOMAXPROCS, (*sched.Context).Workers and
// (*sched.Scheduler).Workers in system code.
//
// Why: work split by the number of CPUs or workers gives different parts on
// different machines or settings, and results that depend on the split
// (float sums per part, which part wins) differ with them.
//
// Fix: cut the work into parts of a fixed size (a query's AppendChunks with
// a constant row count), run them with sched.ForEach and combine the parts
// in part order. Sizing the scheduler itself, sched.Workers(runtime.NumCPU())
// outside system code, is fine and not reported.
//
// # address: addresses used as data
//
// What: uintptr(unsafe.Pointer(p)), anywhere, unless it is turned back into
// a pointer (unsafe.Pointer(uintptr(p) + off)) or is an alignment test
// (uintptr(p)%n, uintptr(p)&mask).
//
// Why: addresses change between runs (allocation order, garbage
// collection, address-space randomisation) and machines, so ordering,
// hashing or keying by them is not reproducible.
//
// Fix: order or key by entity id, or by a value held in the data.
//
// # wordsize: int, uint and uintptr in types kept in a world
//
// What: an int, uint or uintptr (or a named type of one) held by a type
// that a world keeps: a type argument of the ecs package's NewMap, NewMap2
// to NewMap12, Register, NewResource, AddResource (whose argument is a *T),
// EventsOf and NewRelation. Looked for as far as checksums and save files
// reach: the type itself, its struct fields (embedded and nested ones
// too), array and slice elements; not behind pointers, maps, channels,
// functions or interfaces. Blank fields and unexported fields of other
// packages' types are skipped. Each field is reported once per package: at
// its declaration when the package declares it with that type, otherwise
// (a type of another package, a type argument of a generic type) at the
// first call that keeps it. Queries (NewQuery1 and the rest) and
// GetResource only read what those calls keep, and are not looked at;
// neither are calls in _test.go files, whose worlds are fixtures that
// often hold ints on purpose (to test how they are saved), nor calls in
// generated files (such as tessera gen's Register functions): a generated
// type is reported where other code keeps it, and fixed in the definition
// it is generated from.
//
// Why: int, uint and uintptr are 64 bits on amd64, arm64 and wasm, but 32
// bits on 386 and arm. Arithmetic on them wraps at 2^31 (int) or 2^32 (uint,
// uintptr) on 32-bit machines, so a counter, an id sum or a hash that passes
// that gives a different world there. Tessera's checksums and save files
// widen them to 64 bits, so equal values agree everywhere: only overflow
// differs.
//
// Fix: int32 (uint32) if the values fit, int64 (uint64) otherwise. There is
// no suggested fix: changing the type changes every expression that mixes
// the field with an int (len, indexes, loop counters), which the author
// settles.
//
// # Silencing a report
//
// A line comment
//
//	//tessera:nondeterministic-ok <reason>
//
// silences every report on its line. Alone on its line, it also silences
// the next line and the whole of a simple statement (assignment, expression,
// return, declaration, send, go, defer, ++ or --) that begins there. The
// reason is required: it says why the result cannot differ, or why it may
// (a debug overlay, a log line); a directive without one silences nothing
// and is itself reported. Write it as shown, without a space after //.
//
// # Not checked
//
// Some causes of machine- or run-dependent results cannot be found with
// few false reports by looking at one package's syntax and types, and are
// left to review:
//
//   - products fused across function calls after inlining (a function that
//     returns x*y, added to by its caller), through struct fields or array
//     elements (p.A = x*y; p.A + z), or through a variable assigned in a
//     loop body after its use;
//   - conversions of out-of-range floats to integers (int32(1e10),
//     uint8(-1.0), int(NaN)), whose result the spec leaves to the
//     implementation and which differs between amd64 and arm64;
//   - NaN payloads and signs, which differ by architecture and reach the
//     checksum if NaNs are stored;
//   - maps and iterators reached indirectly: slices.Collect(maps.Keys(m))
//     used unsorted, a map passed to a function that ranges over it in
//     another package, channels fed by goroutines outside systems;
//   - runtime.GOARCH, runtime.GOOS and build tags that choose different code
//     per machine; unsafe.Sizeof, Alignof, and int, uint and uintptr
//     variables (32 bits on 386 and arm, 64 on amd64, arm64 and wasm) whose
//     overflowing arithmetic reaches the world by other routes than a field
//     of a kept type (see wordsize);
//   - addresses reached by other routes: fmt's %p, reflect.Value.Pointer
//     and UnsafeAddr, unsafe.Pointer values compared;
//   - sort.Slice and slices.SortFunc with a comparison that has ties, on
//     input whose order was random;
//   - finalizers and cleanups (runtime.SetFinalizer, runtime.AddCleanup)
//     and weak pointers, which run or clear when the collector decides;
//   - the environment, files, the network, the process id and host name;
//   - data races, which the race detector (go test -race) finds.
package detcheck
