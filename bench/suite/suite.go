// Package suite defines the Go peer workloads (those of the public
// go-ecs-benchmarks project, github.com/mlange-42/go-ecs-benchmarks) as a
// Candidate per library: Tessera, each peer, and the plain-slice floor
// implement the same functions, and the driver (cmd/compare) and the tests
// run them side by side.
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

// InitialPosition is the Position entity i (from 0, in creation order)
// starts with wherever a workload sets one: (i, 2i).
func InitialPosition(i int) Position { return Position{float64(i), float64(2 * i)} }

// InitialVelocity is the Velocity entity i starts with: (1, i mod 7).
func InitialVelocity(i int) Velocity { return Velocity{1, float64(i % 7)} }

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

	// query2: setup n entities with Position (InitialPosition) and Velocity
	// (InitialVelocity). Run: for every entity, p.X += v.X; p.Y += v.Y.
	// Check: the sum over all entities of p.X + p.Y.
	Query2 Workload

	// query_frag_inner: setup n entities with Position, Velocity and, for
	// entity i, the components C1..C5 whose bit is set in i % 32 (bit 0 is
	// C1): 32 archetypes. Run and Check as Query2.
	QueryFragInner Workload

	// query_frag_outer: setup n entities with Position and Velocity, then 4n
	// entities with Position and, for entity j of those (from 0), the
	// components C1..C8 whose bit is set in j % 256: 256 archetypes that do
	// not match. Run: as Query2 over Position+Velocity entities only.
	// Check: the sum of p.X + p.Y over the n matching entities.
	QueryFragOuter Workload

	// random_access: setup n entities with Position (InitialPosition),
	// collected into a slice in creation order and shuffled with
	// Shuffle(n). Run: for each entity of the slice, get its Position and
	// add X to a sum kept in the Op (so Run is not optimised away). Check:
	// the sum of one Run.
	RandomAccess Workload

	// create2: setup a world, warmed once by creating n entities with
	// Position and Velocity and deleting them all. Run: create n entities
	// with Position (InitialPosition) and Velocity (InitialVelocity), one
	// at a time (Create2) or in one batch call (Create2Batch). Reset: delete
	// all entities. Check: the sum of p.X + p.Y + v.X + v.Y over all
	// entities after one Run.
	Create2, Create2Batch Workload

	// create2_alloc: Run: make a fresh world and create n entities with
	// Position and Velocity one at a time. Check as Create2.
	Create2Alloc Workload

	// create10: as Create2 with components C1..C10 (zero values) instead.
	// Check: the number of entities with C10 after one Run.
	Create10, Create10Batch Workload

	// add_remove: setup n entities with Position; one warm-up round. Run:
	// add Velocity (InitialVelocity(i) for entity i) to all, then remove it
	// from all; one at a time (AddRemove) or as batch operations
	// (AddRemoveBatch). Check: the number of entities with Position and
	// without Velocity after one Run (n).
	AddRemove, AddRemoveBatch Workload

	// add_remove_large: as add_remove, with entities that have Position
	// and C1..C10.
	AddRemoveLarge, AddRemoveLargeBatch Workload

	// delete2 / delete10: Reset: create n entities with Position and
	// Velocity (delete2) or C1..C10 (delete10). Run: delete them all, one
	// at a time or in one batch. Check: the number of live entities after
	// one Run (0).
	Delete2, Delete2Batch, Delete10, Delete10Batch Workload

	// create_world: Run: create an empty world (n is ignored). Check: 0.
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
