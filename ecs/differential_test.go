package ecs_test

// Differential and fuzz tests: Tessera against the naive map-per-component
// model of internal/refmodel (the ECS of the "super simple ECS" blog post,
// one map per component type, with Tessera's deferral rules).
//
// A harness drives both worlds with the same operation sequence and, after
// every step (and after every structural change made inside an iteration),
// compares their whole state: the living entities, through a bijection
// between model ids and Tessera handles, and for every living entity the
// presence and value of each component type. Queries are compared by the set
// of entities they visit and the values they hand out, through all three
// iteration forms. The choices come from a chooser: math/rand/v2 with a fixed
// seed in TestDifferential, the fuzzer's bytes in FuzzDifferential.
// SpawnBatch, which returns no handles, runs only outside iterations, where a
// query finds the entities it made; SpawnBatchFunc runs everywhere.
//
// Each harness world first chooses, from the same chooser, a storage per
// component kind (see chooseStorage): half of the worlds keep every kind in
// the archetype tables, in the others each kind is sparse (ecs.Register with
// ecs.Sparse) with probability one half, so the same queries, handles and
// batch operations run over mixed storages. Sparse storage may change the
// order of visits and cut Chunks into one-entity chunks, so queries are
// compared as sets of visited entities, never by order or chunk size; the
// entities a SpawnBatch made are told apart by handle, not by position.
// Pointers from Get, TryGet and query rows are also kept across later
// operations and read again while the pointer-stability rule says they are
// valid (checkPins), and World.Stats and World.Shrink are checked against the
// model. At random top-level steps both worlds are snapshotted, or restored
// from an earlier snapshot together with the harness's bookkeeping of them;
// a restore must fire nothing and give back the checksum of the snapshot.
// TestDifferential counts the sparse and snapshot situations its seeds reach
// (diffCovNames) and fails if one of them is never exercised.
//
// The harness is split by what it holds: differential_harness_test.go (its
// state and choosers), differential_ops_test.go (the operations, as
// weighted tables of named operations, each of which some seed must run),
// differential_checks_test.go (the comparisons), differential_components_test.go
// (component kinds, queries' shared parts), differential_gen_test.go (the
// MapN and QueryN drivers of arities up to 6, generated from
// internal/gen/differential_test.tmpl), differential_snapshot_test.go
// (Snapshot and Restore) and differential_regress_test.go.
//
// Replay a failure of TestDifferential with the subtest name it prints, for
// example: go test ./ecs -run 'TestDifferential/seed=7$'.
// TestDifferential runs seeds 1 to 16, 62,500 operations each with
// TESSERA_LONG=1 (testhelp.LongEnv) and 3,125 without it or with -short.
// TESSERA_DIFF_SEEDS chooses other seeds: a count N (seeds 1 to N)
// or a range A-B (seeds A to B); TESSERA_DIFF_OPS the operations per seed.
// For example: TESSERA_DIFF_SEEDS=17-416 go test ./ecs -run TestDifferential
// (give go test -timeout 0 for long runs; the seed numbers in the subtest
// names stay the same, so -run 'TestDifferential/seed=20$' replays seed 20).
// Replay a fuzz failure with: go test ./ecs -run 'FuzzDifferential/<name>'.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// TestDifferential drives Tessera and the model with pseudo-random operation
// sequences, one fixed seed per subtest, and compares them after every step.
func TestDifferential(t *testing.T) {
	// 1,000,000 operations in all, or 50,000.
	first, last, opsPerSeed := 1, 16, testhelp.LongSize(t, 3_125, 62_500)
	first, last, opsPerSeed = diffSeedsFromEnv(t, first, last, opsPerSeed)
	seeds := last - first + 1
	// The sparse situations the seeds reach, checked once they all passed
	// (the parent's cleanup runs after its parallel subtests); for seeds
	// chosen with TESSERA_DIFF_SEEDS, only reported.
	uncovered := t.Errorf
	if os.Getenv("TESSERA_DIFF_SEEDS") != "" {
		uncovered = t.Logf
	}
	var (
		mu     sync.Mutex
		cov    [diffCovN]int
		opRuns = make(map[string]int)
		passed int
	)
	t.Cleanup(func() {
		if passed != seeds {
			return
		}
		for i, n := range cov {
			if n == 0 {
				uncovered("no seed exercised %s; change the seeds or the harness's weights", diffCovNames[i])
			}
		}
		for _, name := range diffOpNames() {
			if opRuns[name] == 0 {
				uncovered("no seed ran the operation %q; change the seeds or the harness's weights", name)
			}
		}
	})
	for seed := first; seed <= last; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			h := newDiffHarness(randChooser{rand.New(rand.NewPCG(uint64(seed), 0x7e55e7a))})
			if msg := h.run(opsPerSeed); msg != "" {
				t.Fatalf("seed %d, %s\nreplay: go test ./ecs -run 'TestDifferential/seed=%d$'", seed, msg, seed)
			}
			if h.ops < opsPerSeed {
				t.Fatalf("ran %d operations, want %d", h.ops, opsPerSeed)
			}
			if same := h.sameEntityCount(); same == 0 {
				t.Fatalf("no same-entity sequence inside an iteration in %d operations", opsPerSeed)
			}
			t.Logf("storage: %s; %d snapshots, %d restores", h.storage, h.opRuns["Snapshot"], h.restores)
			mu.Lock()
			defer mu.Unlock()
			passed++
			for i, n := range h.cov {
				cov[i] += n
			}
			for name, n := range h.opRuns {
				opRuns[name] += n
			}
		})
	}
}

// diffSeedsFromEnv applies TESSERA_DIFF_SEEDS ("N" for seeds 1 to N, or
// "A-B") and TESSERA_DIFF_OPS (operations per seed) to the defaults.
func diffSeedsFromEnv(t *testing.T, first, last, ops int) (int, int, int) {
	if s := os.Getenv("TESSERA_DIFF_SEEDS"); s != "" {
		a, b, isRange := strings.Cut(s, "-")
		var err1, err2 error
		if isRange {
			first, err1 = strconv.Atoi(a)
			last, err2 = strconv.Atoi(b)
		} else {
			first = 1
			last, err1 = strconv.Atoi(s)
		}
		if err1 != nil || err2 != nil || first < 0 || last < first {
			t.Fatalf("TESSERA_DIFF_SEEDS=%q: want a count N or a range A-B", s)
		}
	}
	if s := os.Getenv("TESSERA_DIFF_OPS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("TESSERA_DIFF_OPS=%q: want a positive count", s)
		}
		ops = n
	}
	return first, last, ops
}

// FuzzDifferential decodes the fuzzer's bytes into the same operation
// sequences as TestDifferential (one byte per choice) and compares the two
// worlds after every step. Any input is valid; only a disagreement fails.
func FuzzDifferential(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("tessera differential seed: spawn, add, iterate, despawn"))
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 42))
		b := make([]byte, 64<<seed)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
		// The same bytes with an odd first byte: some kinds sparse.
		f.Add(append([]byte{1}, b...))
	}
	// Every kind sparse (mask 63 = 1 + 62), with spread entity indices.
	f.Add([]byte("\x01\x3e\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00 sparse everywhere: spawn, add, iterate"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h := newDiffHarness(&byteChooser{data: data})
		if msg := h.run(5_000); msg != "" {
			t.Fatal(msg)
		}
	})
}

// TestDiffOpNamesAreUnique guards the per-operation count of
// TestDifferential: two operations with one name would count as one.
func TestDiffOpNamesAreUnique(t *testing.T) {
	seen := make(map[string]bool)
	for _, name := range diffOpNames() {
		if seen[name] {
			t.Errorf("two operations are named %q", name)
		}
		seen[name] = true
	}
}
