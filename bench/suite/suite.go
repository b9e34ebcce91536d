// Package suite defines the Go peer workloads, those of the public
// go-ecs-benchmarks project (github.com/mlange-42/go-ecs-benchmarks), as a
// Candidate per library: Tessera, each peer, and the plain-slice floor
// implement the same functions, and the driver (cmd/compare) and the tests
// run them side by side.
//
// Every workload does the work of the go-ecs-benchmarks benchmark of the
// same name (its package in brackets below), the same for every candidate:
// the same entities exist, the same operations are timed, the same values
// are written (none, where the project passes no value or a nil
// initialiser), queries are built the same way (not cached where the
// project does not cache them), and the same state is restored between
// rounds. The field comments of Candidate say, per workload, what the
// setup holds, what one timed round (Run) does, what is restored outside
// the timing (Reset) and what Check sums.
//
// Where go-ecs-benchmarks' harness and this one differ in form only: the
// project calls testing.Benchmark on a function per library with the
// kernel written inside the benchmark loop; here each library's kernel is a
// //go:noinline function run by the driver's loop, for every candidate
// alike (on Go 1.26 a kernel written inside the benchmark loop was measured
// slower than the same kernel in its own function, which would make the
// comparison depend on inlining luck). Values written only in
// setup (the initial Position and Velocity of iterated entities, which the
// project leaves zero or sets to (1, 1)) are the suite's InitialPosition
// and InitialVelocity, so that Check tells entities apart; they are never
// timed. The random-access order is a fixed permutation (Shuffle), where
// the project draws a new one from math/rand/v2 on every run.
package suite

// Components of every workload: Position, Velocity and C1..C10, all two
// float64s.
type (
	Position struct{ X, Y float64 }
	Velocity struct{ X, Y float64 }
	C1       struct{ X, Y float64 }
	C2       struct{ X, Y float64 }
	C3       struct{ X, Y float64 }
	C4       struct{ X, Y float64 }
	C5       struct{ X, Y float64 }
	C6       struct{ X, Y float64 }
	C7       struct{ X, Y float64 }
	C8       struct{ X, Y float64 }
	C9       struct{ X, Y float64 }
	C10      struct{ X, Y float64 }
)

// MoveRows is the row loop of the query workloads, p.X += v.X; p.Y += v.Y
// for the rows of one table (vel holds at least len(pos) values). The
// floor and every per-table form whose library hands out a table's columns
// as slices call it, so that all of them run one copy of the loop's
// machine code: two copies of the same loop, placed at different offsets
// in the binary, ran 2-3% apart at 256k entities, a gap that belonged to
// neither library.
//
//go:noinline
func MoveRows(pos []Position, vel []Velocity) {
	vel = vel[:len(pos)]
	for i := range pos {
		pos[i].X += vel[i].X
		pos[i].Y += vel[i].Y
	}
}

// InitialPosition is the Position entity i (from 0, in creation order)
// starts with wherever a workload's setup sets one: (i, 2i).
func InitialPosition(i int) Position { return Position{float64(i), float64(2 * i)} }

// InitialVelocity is the Velocity entity i starts with: (1, i mod 7).
func InitialVelocity(i int) Velocity { return Velocity{1, float64(i % 7)} }

// SmallReset is the entity count below which go-ecs-benchmarks restores the
// state between rounds of its create and delete benchmarks one entity at a
// time (deleting the created entities in reverse order, or creating the
// entities to delete one by one) instead of with the library's batch call;
// candidates with batch calls do the same.
const SmallReset = 64

// Op is one prepared workload at one size.
type Op struct {
	// Run does the measured work once (one round).
	Run func()
	// Reset, if not nil, restores between rounds, unmeasured, the state Run
	// expects (for example: delete what Run created).
	Reset func()
	// Check returns a checksum of the state after one Run (after Reset, if
	// any, and one Run on a freshly prepared Op). Every candidate must
	// return the same value for the same workload and size; see the
	// workload list for what it sums.
	Check func() float64
}

// Workload prepares an Op for n entities. Set up everything the
// description calls setup, outside the returned functions.
type Workload func(n int) Op

// Candidate is one library's implementation of the workloads; a nil field
// means the library has no way to do it (the report shows a dash).
type Candidate struct {
	Name    string // as shown in the report: "tessera", "ark", ...
	Module  string // module path and version, for the report ("" for the floor)
	Variant string // e.g. "per table" or "range": several Candidates may share a library

	// Aside, if not empty, says why this candidate does different work from
	// the suite's (for example a storage choice that avoids what the
	// workload times). Its rows are shown in the report, labelled with this
	// reason, and left out of the summary and of every ratio.
	Aside string

	// query2 [query2comp]: setup: 10n entities with Position only (zero),
	// then n entities with Position (InitialPosition) and Velocity
	// (InitialVelocity), in one world of capacity 1024 where the library
	// takes one. The query over Position and Velocity is built once, in
	// the library's plain form: Ark's Filter2 and Arche's filter are not
	// registered (cached), as in the project, except in Arche's "cached"
	// variant, the project's "Arche (cached)"; Tessera's queries always keep
	// their list of matching tables, there is no other form. Run: one pass over the n matching entities, p.X += v.X; p.Y += v.Y.
	// Check: the sum over the matching entities of p.X + p.Y.
	Query2 Workload

	// query_frag_inner [query32arch]: setup: n entities with Position,
	// Velocity and, for entity i, the components C1..C5 whose bit is set in
	// i % 32 (bit 0 is C1): 32 archetypes, all matching. Run and Check as
	// Query2.
	QueryFragInner Workload

	// query_frag_outer [query256arch]: setup: n entities with Position and
	// Velocity, then 4n entities with Position and, for entity j of those
	// (from 0), the components C1..C8 whose bit is set in j % 256: 256
	// archetypes that do not match. Run and Check as Query2.
	QueryFragOuter Workload

	// random_access [random]: setup: n entities with Position
	// (InitialPosition), created one at a time (Arche: one batch), collected
	// into a slice in creation order and permuted with Shuffle(n). Run: for
	// each entity of the slice, get a pointer to its Position through the
	// library's per-entity lookup and add X to a sum. Check: the sum of one
	// Run.
	RandomAccess Workload

	// create2 [create2comp]: setup: a world warmed once by creating n
	// entities with Position and Velocity and deleting them all (with the
	// batch calls where the library has them). Run: create n entities with
	// Position and Velocity and no values (zero components: a nil
	// initialiser, no callback, or zero values passed where the library
	// takes values), one at a time, appending each new entity to a slice of
	// capacity n (Create2), or in one batch call, collecting nothing
	// (Create2Batch). Reset: delete them all: below SmallReset one at a time
	// in reverse order of creation (libraries with a batch delete; the
	// others in creation order), else with the batch delete. Check: the
	// number of entities with Position and Velocity plus the sum of
	// p.X + p.Y + v.X + v.Y over them (zero: n).
	Create2, Create2Batch Workload

	// create2_alloc [create2comp_alloc]: Reset: a fresh world (capacity
	// 1024 where the library takes one) with Position and Velocity
	// registered and its handles made; the previous world is dropped.
	// Run: create n entities with Position and Velocity and no values, one
	// at a time (Create2Alloc, collecting nothing) or in one batch call
	// (Create2AllocBatch): the growth of a world from empty, world creation
	// not timed. Check as Create2.
	Create2Alloc, Create2AllocBatch Workload

	// create10 [create10comp]: as Create2 with components C1..C10 (Volt:
	// created with C1..C8, then given C9 and C10). Check: the number of
	// entities with C10 after one Run.
	Create10, Create10Batch Workload

	// add_remove [add_remove]: setup: n entities with Position; one
	// warm-up round. Run: add Velocity, with no value (zero), to every
	// entity, then remove it from every entity: one entity at a time,
	// in creation order (AddRemove), or as two batch calls, the add over
	// every entity with Position and the remove over every entity with
	// Position and Velocity (AddRemoveBatch). Velocity lives where the
	// library puts a component by default, so for archetype libraries each
	// add and remove moves the entity between two tables. Check: the
	// number of entities with Position and without Velocity after one Run
	// (n).
	AddRemove, AddRemoveBatch Workload

	// add_remove_large [add_remove_large]: as add_remove, with entities
	// that have Position and C1..C10, so each move copies 11 or 12
	// components.
	AddRemoveLarge, AddRemoveLargeBatch Workload

	// delete2 / delete10 [delete2comp, delete10comp]: Reset: create n
	// entities with Position and Velocity (delete2) or C1..C10 (delete10):
	// below SmallReset one at a time, else with the batch create where the
	// library has one. Run: delete them all, one at a time in creation
	// order, or with one batch delete over the entities with those
	// components. Check: the number of live entities after one Run (0).
	Delete2, Delete2Batch, Delete10, Delete10Batch Workload

	// create_world [new_world]: Run: create an empty world, with the
	// arguments the project passes (Arche and Ark: none, their default
	// capacities; Volt and go-gameengine-ecs: capacity 1024). Measured at
	// one size only: n is ignored. Check: 0.
	CreateWorld Workload
}

// Shuffle returns a permutation of 0..n-1, the same on every run: a
// Fisher-Yates shuffle driven by a fixed xorshift sequence.
func Shuffle(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	x := uint64(0x2545f4914f6cdd1d)
	for i := n - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i+1))
		p[i], p[j] = p[j], p[i]
	}
	return p
}
