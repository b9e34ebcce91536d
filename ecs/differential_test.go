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
// model. TestDifferential counts the sparse situations its seeds reach
// (diffCovNames) and fails if one of them is never exercised.
//
// Replay a failure of TestDifferential with the subtest name it prints, for
// example: go test ./ecs -run 'TestDifferential/seed=7$'.
// TestDifferential runs seeds 1 to 16, 62,500 operations each (3,125 with
// -short). TESSERA_DIFF_SEEDS chooses other seeds: a count N (seeds 1 to N)
// or a range A-B (seeds A to B); TESSERA_DIFF_OPS the operations per seed.
// For example: TESSERA_DIFF_SEEDS=17-416 go test ./ecs -run TestDifferential
// (give go test -timeout 0 for long runs; the seed numbers in the subtest
// names stay the same, so -run 'TestDifferential/seed=20$' replays seed 20).
// Replay a fuzz failure with: go test ./ecs -run 'FuzzDifferential/<name>'.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

// The component types: plain values, a string, a slice, a pointer (so the
// collector must see the columns) and a zero-size tag.
type (
	diffPos  struct{ X, Y float64 }
	diffVel  struct{ DX, DY int32 }
	diffName struct{ S string }
	diffTags struct{ L []uint16 }
	diffRef  struct{ P *int64 }
	diffTag  struct{}
)

// Component kinds: the order of the model's stores and of diffCT.
const (
	kPos = iota
	kVel
	kName
	kTags
	kRef
	kTag
	numKinds
)

var diffCT = [numKinds]ecs.ComponentType{
	ecs.C[diffPos](), ecs.C[diffVel](), ecs.C[diffName](), ecs.C[diffTags](), ecs.C[diffRef](), ecs.C[diffTag](),
}

var diffKindNames = [numKinds]string{"Pos", "Vel", "Name", "Tags", "Ref", "Tag"}

var diffTypesOf = [numKinds]reflect.Type{
	reflect.TypeFor[diffPos](), reflect.TypeFor[diffVel](), reflect.TypeFor[diffName](),
	reflect.TypeFor[diffTags](), reflect.TypeFor[diffRef](), reflect.TypeFor[diffTag](),
}

// diffRegisters registers the type of each kind in a world.
var diffRegisters = [numKinds]func(*ecs.World, ...ecs.ComponentOption){
	ecs.Register[diffPos], ecs.Register[diffVel], ecs.Register[diffName],
	ecs.Register[diffTags], ecs.Register[diffRef], ecs.Register[diffTag],
}

func diffKindOf[T any]() int {
	var zero T
	switch any(zero).(type) {
	case diffPos:
		return kPos
	case diffVel:
		return kVel
	case diffName:
		return kName
	case diffTags:
		return kTags
	case diffRef:
		return kRef
	case diffTag:
		return kTag
	}
	panic("diffKindOf: not a differential component type")
}

// Value constructors. Each call makes fresh heap objects, so Tessera and the
// model never share a string, slice or pointer: if Tessera's columns hid a
// pointer from the collector, the object could be freed and reused, and the
// comparison would see it.
func mkPos(x int) diffPos { return diffPos{float64(x), float64(-x) / 2} }
func mkVel(x int) diffVel { return diffVel{int32(x%7 - 3), int32(x % 5)} }
func mkName(x int) diffName {
	if x == 0 {
		return diffName{}
	}
	return diffName{"n" + strconv.Itoa(x)}
}
func mkTags(x int) diffTags {
	if x == 0 {
		return diffTags{}
	}
	l := make([]uint16, x%5) // x%5 == 0: empty but not nil
	for i := range l {
		l[i] = uint16(x*31 + i)
	}
	return diffTags{l}
}
func mkRef(x int) diffRef {
	if x == 0 {
		return diffRef{}
	}
	p := new(int64)
	*p = int64(x) * 1_000_003
	return diffRef{p}
}
func mkTag(int) diffTag { return diffTag{} }

func eqComparable[T comparable](a, b T) bool { return a == b }
func eqTags(a, b diffTags) bool {
	return (a.L == nil) == (b.L == nil) && slices.Equal(a.L, b.L)
}
func eqRef(a, b diffRef) bool {
	return (a.P == nil) == (b.P == nil) && (a.P == nil || *a.P == *b.P)
}

func showValue(v any) string {
	if r, ok := v.(diffRef); ok && r.P != nil {
		return fmt.Sprintf("{P:&%d}", *r.P)
	}
	return fmt.Sprintf("%+v", v)
}

// ---- choosers ----

// diffChooser supplies the harness's choices.
type diffChooser interface {
	intn(n int) int // in [0, n); n >= 1
	exhausted() bool
}

type randChooser struct{ r *rand.Rand }

func (c randChooser) intn(n int) int  { return c.r.IntN(n) }
func (c randChooser) exhausted() bool { return false }

// byteChooser decodes fuzzer bytes; once they run out every choice is 0,
// which the harness reads as "do nothing more", so any input terminates.
type byteChooser struct {
	data []byte
	i    int
}

func (c *byteChooser) next() int {
	if c.i >= len(c.data) {
		c.i++
		return 0
	}
	b := c.data[c.i]
	c.i++
	return int(b)
}

func (c *byteChooser) intn(n int) int {
	if n <= 1 {
		return 0
	}
	v := c.next()
	if n > 256 {
		v = v<<8 | c.next()
	}
	return v % n
}

func (c *byteChooser) exhausted() bool { return c.i >= len(c.data) }

// ---- the harness ----

type diffPair struct {
	id refmodel.EntityID
	e  ecs.Entity
}

// diffFailure is the panic value of a detected disagreement.
type diffFailure struct{ msg string }

// diffEscape is the panic a loop body throws to leave every open loop at once.
type diffEscape struct{}

type diffLogEntry struct {
	step, depth int
	op          string
	id          refmodel.EntityID
	e           ecs.Entity
	x           int
}

type diffHarness struct {
	src   diffChooser
	w     *ecs.World
	m     *refmodel.World
	kinds [numKinds]diffComp
	maps  []diffMapN
	pos   *diffKind[diffPos]
	vel   *diffKind[diffVel]
	name  *diffKind[diffName]

	queries     []*diffQuery
	lateQueries func()
	physics     *diffQuery // Query2[diffPos, diffVel]
	renamer     *diffQuery // Query2[diffName, diffTag] with optional terms

	live  []diffPair
	byEnt map[ecs.Entity]refmodel.EntityID
	dead  []diffPair // recently despawned, for stale-handle checks
	deadN int

	depth  int  // open iterations (the harness's own count)
	escape bool // loop bodies may panic out of the loops (see escapingIteration)
	ops    int
	step   int
	log    [32]diffLogEntry
	logN   int

	sparse  [numKinds]bool // the kinds registered with ecs.Sparse
	listen  int            // listenNone, listenRecording or listenActing
	storage string         // the storage choices, for failure messages
	cov     [diffCovN]int  // how often each sparse situation was reached

	pins         []diffPin                    // pointers kept across top-level operations
	snapA, snapB map[refmodel.EntityID]uint16 // storage signatures (see checkPins)
	pinTables    [1 << numKinds]bool          // tables changed since snapA was first taken
	pinSets      uint16                       // sparse sets changed since then, as signature bits
	pinShared    [1 << numKinds]bool          // tables with an entity whose sparse kinds changed

	// Hook and observer events of the current step (see diffHookKind and
	// observeQuery): Tessera's, by handle, and the model's, as strings.
	tEvents []diffTEvent
	mEvents []string
	gone    map[ecs.Entity]refmodel.EntityID // pairs forgotten during this step
	events  int                              // events compared so far
}

// diffTEvent is one hook or observer call in Tessera: what fired, on which
// entity, with which value ("" for observers).
type diffTEvent struct {
	what string
	e    ecs.Entity
	val  string
}

// Sparse situations the harness counts (TestDifferential requires each one
// to be reached by some seed).
const (
	covChunksSparse          = iota // an entity visited by Chunks of a query naming a sparse type
	covAllSparse                    // ... by All
	covIterSparse                   // ... by Iter
	covMixedTerms                   // ... by a query whose terms mix table and sparse types
	covWithSparse                   // ... by a query with With on a sparse type
	covWithoutSparse                // ... by a query with Without on a sparse type
	covAnyOfMixed                   // ... by a query with an AnyOf group mixing storages
	covOptSparseNil                 // an Optional sparse term absent from the visited entity
	covOptSparseSet                 // an Optional sparse term present on it
	covNestedIterSparse             // a nested iteration (depth >= 2) visiting through a sparse query
	covNestedDeferSparse            // a deferred add or remove of a sparse type at depth >= 2
	covMapMixed                     // a MapN operation on a handle mixing storages
	covMapAllSparse                 // a MapN operation on a handle of sparse types only
	covAddAllSparseComp             // AddAll of a sparse type over a non-empty match
	covAddAllSparseQuery            // AddAll over a non-empty match of a query naming a sparse type
	covRemoveAllSparseComp          // RemoveAll of a sparse type ...
	covRemoveAllSparseQuery         // RemoveAll with a query naming a sparse type ...
	covDespawnAllSparseQuery        // DespawnAll with a query naming a sparse type ...
	covSparseRef                    // a world with the pointer-holding Ref kind sparse
	covSparseTag                    // a world with the zero-size Tag kind sparse
	covSpreadIndices                // a world whose entity indices span several sparse pages
	covPinSparse                    // a sparse pin read after a structural change of other storage
	covPinShared                    // a table pin read after a sparse change of an entity of its table
	covQuietSparse                  // a world with sparse kinds and no listeners (the quiet paths)
	covActingEvent                  // a structural change made by a hook or observer, applied
	// Same-entity sequences inside an iteration: two changes of one
	// component of one entity, the second judged against the first, queued.
	covSameRemoveAdd     // Remove then Add
	covSameRemoveSet     // Remove then Set
	covSameAddRemove     // Add (or Set that adds) then Remove
	covSameAddAdd        // Add then Add: a duplicate, refused
	covSameAddSet        // Add then Set: an overwrite, queued
	covSameDespawnChange // Despawn then Add or Set: queued, dropped when applied
	covSameAddDespawn    // Add or Set then Despawn
	covSameMapNAfter     // a MapN Add after a queued Remove of one of its types
	diffCovN
)

var diffCovNames = [diffCovN]string{
	"Chunks over a sparse query", "All over a sparse query", "Iter over a sparse query",
	"a query mixing table and sparse terms", "With on a sparse type", "Without on a sparse type",
	"AnyOf mixing storages", "an absent Optional sparse term", "a present Optional sparse term",
	"a nested iteration over a sparse query", "a deferred sparse change at depth >= 2",
	"a MapN handle mixing storages", "a MapN handle of sparse types only",
	"AddAll of a sparse type", "AddAll with a sparse query", "RemoveAll of a sparse type",
	"RemoveAll with a sparse query", "DespawnAll with a sparse query",
	"a sparse pointer-holding kind (Ref)", "a sparse zero-size kind (Tag)",
	"entity indices spread over several sparse pages",
	"a sparse pointer kept across a structural change", "a table pointer kept across a sparse change in its table",
	"sparse kinds with no listeners", "a structural change made by a listener",
	"Remove then Add of one entity's component in a loop", "Remove then Set in a loop",
	"Add then Remove in a loop", "Add then Add in a loop (refused)", "Add then Set in a loop",
	"Despawn then Add or Set in a loop (dropped)", "Add or Set then Despawn in a loop",
	"a MapN Add after a queued Remove of one of its types",
}

const (
	diffMaxLive  = 64 // no spawning at or above this many entities
	diffMaxDepth = 3  // deepest nested iteration
)

func newDiffHarness(src diffChooser) *diffHarness {
	h := &diffHarness{
		src:   src,
		w:     ecs.NewWorld(),
		m:     refmodel.NewWorld(),
		byEnt: make(map[ecs.Entity]refmodel.EntityID),
		snapA: make(map[refmodel.EntityID]uint16),
		snapB: make(map[refmodel.EntityID]uint16),
		gone:  make(map[ecs.Entity]refmodel.EntityID),
	}
	h.chooseStorage() // before any use of the types
	h.m.BeforeDeferred(h.storageStep)
	pos := newDiffKind(h, kPos, "Pos", mkPos, eqComparable[diffPos])
	vel := newDiffKind(h, kVel, "Vel", mkVel, eqComparable[diffVel])
	name := newDiffKind(h, kName, "Name", mkName, eqComparable[diffName])
	tags := newDiffKind(h, kTags, "Tags", mkTags, eqTags)
	ref := newDiffKind(h, kRef, "Ref", mkRef, eqRef)
	tag := newDiffKind(h, kTag, "Tag", mkTag, eqComparable[diffTag])
	h.kinds = [numKinds]diffComp{pos, vel, name, tags, ref, tag}
	h.pos, h.vel, h.name = pos, vel, name

	// Some queries exist before the spawn handles make their tables, some
	// after, and some are made once the world is populated (step 50), so
	// both the initial table scan and the subscription are exercised.
	h.physics = diffQ2(h, "Q2[Pos,Vel]", pos, vel, diffSpec{})
	h.queries = append(h.queries,
		diffQ1(h, "Q1[Pos]", pos, diffSpec{}),
		diffQ1(h, "Q1[Tag]", tag, diffSpec{}),
		diffQ1(h, "Q1[Name] Without(Vel)", name, diffSpec{without: []int{kVel}}),
		h.physics,
		diffQ2(h, "Q2[Pos,Vel] Optional(Vel)", pos, vel, diffSpec{opt: []int{kVel}}),
	)
	h.maps = []diffMapN{
		newDiffMap2(h, pos, vel),
		newDiffMap3(h, name, tags, ref),
		newDiffMap3(h, tag, vel, name),
		newDiffMap2(h, ref, tag),
	}
	h.renamer = diffQ2(h, "Q2[Name,Tag] Optional(Name,Tag) AnyOf(Name,Tag)", name, tag,
		diffSpec{opt: []int{kName, kTag}, anyOf: [][]int{{kName, kTag}}})
	h.queries = append(h.queries,
		diffQ2(h, "Q2[Tags,Ref] With(Tag)", tags, ref, diffSpec{with: []int{kTag}}),
		diffQ1(h, "Q1[Ref] AnyOf(Pos,Name)", ref, diffSpec{anyOf: [][]int{{kPos, kName}}}),
		diffQ3(h, "Q3[Pos,Name,Tags] Optional(Name,Tags)", pos, name, tags, diffSpec{opt: []int{kName, kTags}}),
		diffQ3(h, "Q3[Vel,Ref,Tag] Without(Name) Optional(Tag)", vel, ref, tag,
			diffSpec{without: []int{kName}, opt: []int{kTag}}),
		h.renamer,
	)
	// Listeners (chooseListeners): none, so the quiet paths run; or hooks on
	// three kinds (of whichever storages chooseStorage gave them) and
	// observers on three queries, recording only or followed by listeners
	// that make structural changes. One more query is observed once the
	// world is populated, so its current members must fire nothing.
	h.chooseListeners()
	if h.listen != listenNone {
		diffHookKind(h, pos)
		diffHookKind(h, name)
		diffHookKind(h, ref)
		h.observeQuery(h.physics)
		h.observeQuery(h.queries[2]) // Q1[Name] Without(Vel)
		h.observeQuery(h.renamer)
	}
	if h.listen == listenActing {
		diffActingListeners(h, pos, vel, name, ref, tag)
	}
	h.lateQueries = func() {
		defer func() {
			if h.listen != listenNone {
				h.observeQuery(h.queries[len(h.queries)-1])
			}
		}()
		h.queries = append(h.queries,
			diffQ1(h, "Q1[Vel] AnyOf(Name,Tags) AnyOf(Ref,Tag) Without(Pos)", vel,
				diffSpec{anyOf: [][]int{{kName, kTags}, {kRef, kTag}}, without: []int{kPos}}),
			diffQ3(h, "Q3[Tag,Tags,Vel] Optional(Vel) With(Ref) Without(Pos)", tag, tags, vel,
				diffSpec{opt: []int{kVel}, with: []int{kRef}, without: []int{kPos}}),
			diffQ1(h, "Q1[Pos] With(Vel) With(Name)", pos, diffSpec{with: []int{kVel, kName}, split: true}),
			diffQ2(h, "Q2[Ref,Pos] Optional(Pos) Without(Vel) Without(Tags)", ref, pos,
				diffSpec{opt: []int{kPos}, without: []int{kVel, kTags}, split: true}),
			diffQ1(h, "Q1[Tags] Optional(Tags) AnyOf(Tags,Name)", tags,
				diffSpec{opt: []int{kTags}, anyOf: [][]int{{kTags, kName}}}),
			diffQ3(h, "Q3[Name,Tags,Ref]", name, tags, ref, diffSpec{}),
			diffQ3(h, "Q3[Tag,Vel,Name]", tag, vel, name, diffSpec{}),
			diffQ2(h, "Q2[Ref,Tag]", ref, tag, diffSpec{}),
			// Filters over every kind, so any mixed choice of storages
			// gives them groups and terms of both storages.
			diffQ3(h, "Q3[Ref,Vel,Tag] Optional(Ref,Vel) With(Tags) AnyOf(Pos,Tag,Name)", ref, vel, tag,
				diffSpec{opt: []int{kRef, kVel}, with: []int{kTags}, anyOf: [][]int{{kPos, kTag, kName}}}),
			diffQ2(h, "Q2[Tag,Name] Optional(Name) AnyOf(Pos,Vel,Tags,Ref) Without(Ref)", tag, name,
				diffSpec{opt: []int{kName}, anyOf: [][]int{{kPos, kVel, kTags, kRef}}, without: []int{kRef}}),
			diffQ2(h, "Q2[Pos,Ref] Optional(Pos,Ref) AnyOf(Ref,Tag)", pos, ref,
				diffSpec{opt: []int{kPos, kRef}, anyOf: [][]int{{kRef, kTag}}}),
			diffQ2(h, "Q2[Vel,Tags] Without(Tag) Without(Name) With(Ref)", vel, tags,
				diffSpec{without: []int{kTag, kName}, with: []int{kRef}, split: true}),
		)
	}
	return h
}

// chooseStorage picks a storage for each kind and registers the types, as
// ecs.Register requires, before their first use: half of the worlds keep
// every kind in tables, in the others each kind is sparse with probability
// one half. Each type is registered or not (table
// storage needs no registration), with or without a capacity hint (one
// below 1 means none).
func (h *diffHarness) chooseStorage() {
	mask := 0
	if h.src.intn(4) >= 2 {
		for k := range numKinds {
			mask |= h.src.intn(2) << k
		}
	}
	desc := make([]string, numKinds)
	for k := range numKinds {
		h.sparse[k] = mask>>k&1 == 1
		var opts []ecs.ComponentOption
		desc[k] = diffKindNames[k] + ":table"
		if h.sparse[k] {
			opts = append(opts, ecs.Sparse())
			desc[k] = diffKindNames[k] + ":sparse"
		}
		register := h.sparse[k]
		switch h.src.intn(4) {
		case 1:
			register = true
		case 2:
			register = true
			hint := h.src.intn(130) - 10
			if h.src.intn(2) == 0 {
				opts = append(opts, ecs.CapacityHint(hint))
			} else {
				opts = append([]ecs.ComponentOption{ecs.CapacityHint(hint)}, opts...)
			}
			desc[k] += fmt.Sprintf("(hint %d)", hint)
		}
		if register {
			diffRegisters[k](h.w, opts...)
		}
	}
	h.storage = strings.Join(desc, " ")
	if h.sparse[kRef] {
		h.cov[covSparseRef]++
	}
	if h.sparse[kTag] {
		h.cov[covSparseTag]++
	}
}

// spreadIndices sometimes spawns and despawns, in Tessera only, a thousand
// or two entities, some with components, in a shuffled order: the entity
// index recycles indices last-in first-out, so the entities of the run then
// get indices spread over several sparse pages, which fill, empty into the
// page pool and come back from it. The model never sees these entities.
func (h *diffHarness) spreadIndices() {
	if h.src.intn(2) != 0 {
		return
	}
	es := make([]ecs.Entity, 1000+h.src.intn(1200))
	for i := range es {
		es[i] = h.w.Spawn()
		if i%3 == 0 {
			h.kinds[i/3%numKinds].junk(es[i], i)
		}
	}
	r := rand.New(rand.NewPCG(uint64(h.src.intn(1<<16)), 0x5ca77e2))
	r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	for _, e := range es {
		h.w.Despawn(e)
	}
	if h.w.Len() != 0 {
		h.failf("Len after despawning every entity: %d", h.w.Len())
	}
	for _, k := range h.sparse {
		if k {
			h.cov[covSpreadIndices]++
			break
		}
	}
}

// sparseIn reports whether any of the kinds is sparse, and whether any is
// in tables.
func (h *diffHarness) sparseIn(ks ...int) (sparse, table bool) {
	for _, k := range ks {
		if h.sparse[k] {
			sparse = true
		} else {
			table = true
		}
	}
	return sparse, table
}

// covMap counts a MapN operation over the kinds ks.
func (h *diffHarness) covMap(ks ...int) {
	switch sp, tb := h.sparseIn(ks...); {
	case sp && tb:
		h.cov[covMapMixed]++
	case sp:
		h.cov[covMapAllSparse]++
	}
}

// ---- pointer stability ----

// A pin is a pointer to a component, from Map.Get, Map.TryGet or a query
// row, kept across later top-level operations. By the package's pointer
// stability rule it stays valid until the next structural change of the
// table (or, for a sparse type, the sparse set) that holds the value: a
// spawn into it, or an add, remove or despawn that moves a value in or out
// of it, or a Shrink. While that has not happened, reading through the pin
// must give the model's current value.
type diffPin struct {
	p   diffPair
	k   int
	sig uint16 // the entity's storage signature when pinned
	ptr any    // *T
	how string
}

// sigOf returns the storage signature of a living model entity: bits 0-5
// are the table kinds it has (which name its table), bits 8-13 the sparse
// kinds it has.
func (h *diffHarness) sigOf(id refmodel.EntityID) uint16 {
	var sig uint16
	for k := range numKinds {
		if h.m.HasKind(id, refmodel.Kind(k)) {
			if h.sparse[k] {
				sig |= 1 << (8 + k)
			} else {
				sig |= 1 << k
			}
		}
	}
	return sig
}

// snapshot records the signature of every living entity in snap, also of
// those not paired yet (storageStep may run before a spawn pairs them).
func (h *diffHarness) snapshot(snap map[refmodel.EntityID]uint16) {
	clear(snap)
	for _, id := range h.m.Entities() {
		snap[id] = h.sigOf(id)
	}
}

// storageStep notes the tables and sparse sets changed since the last
// snapshot (snapA) and takes a new one. It runs before each deferred change
// the model applies (refmodel.World.BeforeDeferred) and at the end of each
// step: between two calls an entity changes its storage at most once, so
// the signatures before and after tell every table and set it went through,
// also when hooks and observers move it on and back. A deferred change of
// an acting listener can take an entity through a table that neither its
// first nor its last signature names.
func (h *diffHarness) storageStep() {
	if len(h.pins) == 0 {
		return
	}
	h.snapshot(h.snapB)
	for id, b := range h.snapA {
		switch a, ok := h.snapB[id]; {
		case !ok: // despawned
			h.pinTables[b&0xff] = true
			h.pinSets |= b
		case a != b:
			if a&0xff != b&0xff {
				h.pinTables[a&0xff], h.pinTables[b&0xff] = true, true
			} else {
				h.pinShared[a&0xff] = true
			}
			h.pinSets |= a ^ b
		}
	}
	for id, a := range h.snapB {
		if _, ok := h.snapA[id]; !ok { // spawned
			h.pinTables[a&0xff] = true
			h.pinSets |= a
		}
	}
	h.snapA, h.snapB = h.snapB, h.snapA
}

// addPin keeps ptr, e's pointer to its kind k.
func (h *diffHarness) addPin(p diffPair, id refmodel.EntityID, k int, ptr any, how string) {
	if len(h.pins) == 0 {
		h.snapshot(h.snapA) // the state the pins are taken in
		h.pinTables, h.pinSets, h.pinShared = [1 << numKinds]bool{}, 0, [1 << numKinds]bool{}
	}
	h.pins = append(h.pins, diffPin{p, k, h.sigOf(id), ptr, how})
}

// pinSome pins a few components of random living entities.
func (h *diffHarness) pinSome() {
	for n := 1 + h.src.intn(3); n > 0 && len(h.live) > 0; n-- {
		p := h.pickLive()
		k := h.src.intn(numKinds)
		if ptr, how := h.kinds[k].pin(h, p); ptr != nil {
			h.addPin(p, p.id, k, ptr, how)
		}
	}
}

// checkPins reads through the pins that the last top-level operation left
// valid, and forgets the others. exact says the operation's changes can be
// told from the signatures taken by storageStep; otherwise (changes
// deferred inside iterations may pass through tables no signature shows)
// every pin is dropped.
func (h *diffHarness) checkPins(exact bool) {
	if len(h.pins) == 0 {
		return
	}
	if !exact {
		h.pins = h.pins[:0]
		return
	}
	h.storageStep()
	tables, sets := &h.pinTables, h.pinSets
	kept := h.pins[:0]
	for _, pin := range h.pins {
		if h.sparse[pin.k] && sets&(1<<(8+pin.k)) != 0 || !h.sparse[pin.k] && tables[pin.sig&0xff] {
			continue
		}
		h.kinds[pin.k].checkPin(h, pin)
		kept = append(kept, pin)
		if h.sparse[pin.k] && (sets != 0 || slices.Contains(tables[:], true)) {
			h.cov[covPinSparse]++
		}
		if !h.sparse[pin.k] && h.pinShared[pin.sig&0xff] {
			h.cov[covPinShared]++
		}
	}
	clear(h.pins[len(kept):])
	h.pins = kept
	h.pinTables, h.pinSets, h.pinShared = [1 << numKinds]bool{}, 0, [1 << numKinds]bool{}
}

// statsAndShrink compares World.Stats with the model and the storage
// choices, then sometimes calls Shrink, which must change nothing visible
// (checkAll follows) and leave no unused capacity.
func (h *diffHarness) statsAndShrink() {
	h.note("Stats", diffPair{}, 0)
	h.checkStats(false)
	if h.src.intn(2) == 0 {
		h.note("Shrink", diffPair{}, 0)
		h.w.Shrink()
		h.checkStats(true)
	}
}

func (h *diffHarness) checkStats(shrunk bool) {
	st := h.w.Stats()
	if st.Entities != h.m.Len() {
		h.failf("Stats.Entities = %d, model %d", st.Entities, h.m.Len())
	}
	for _, cs := range st.Components {
		k := slices.Index(diffTypesOf[:], cs.Type)
		if k < 0 {
			h.failf("Stats lists component type %v", cs.Type)
		}
		if want := h.kinds[k].len(); cs.Count != want {
			h.failf("Stats: %d entities have %s, model %d", cs.Count, diffKindNames[k], want)
		}
		if (cs.Storage == ecs.SparseStorage) != h.sparse[k] {
			h.failf("Stats: %s has %v storage, registered sparse %v", diffKindNames[k], cs.Storage, h.sparse[k])
		}
		if shrunk && (cs.Capacity != cs.Count || cs.Pooled != 0) {
			h.failf("after Shrink, %s: capacity %d for %d values, %d pooled pages", diffKindNames[k], cs.Capacity, cs.Count, cs.Pooled)
		}
	}
}

func (h *diffHarness) failf(format string, args ...any) {
	panic(diffFailure{fmt.Sprintf(format, args...)})
}

func (h *diffHarness) note(op string, p diffPair, x int) {
	h.log[h.logN%len(h.log)] = diffLogEntry{h.step, h.depth, op, p.id, p.e, x}
	h.logN++
}

func (h *diffHarness) recent() string {
	var b strings.Builder
	start := max(0, h.logN-len(h.log))
	for i := start; i < h.logN; i++ {
		l := h.log[i%len(h.log)]
		fmt.Fprintf(&b, "  step %d depth %d: %s model=%d tessera=%v x=%d\n", l.step, l.depth, l.op, l.id, l.e, l.x)
	}
	return b.String()
}

// run performs up to maxOps operations (fewer when the chooser runs out) and
// returns a description of the first disagreement, or "".
func (h *diffHarness) run(maxOps int) (failure string) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		msg, ok := r.(diffFailure)
		if !ok {
			msg.msg = fmt.Sprintf("unexpected panic: %v\n%s", r, debug.Stack())
		}
		failure = fmt.Sprintf("step %d (op %d, depth %d): %s\nstorage: %s\nrecent operations, oldest first:\n%s",
			h.step, h.ops, h.depth, msg.msg, h.storage, h.recent())
	}()
	h.spreadIndices()
	h.tEvents = h.tEvents[:0] // fired by entities the model never sees
	h.checkAll()
	h.checkEvents()
	for h.ops < maxOps && !h.src.exhausted() {
		h.step++
		if h.step == 50 {
			h.lateQueries()
		}
		if h.step%4096 == 0 {
			runtime.GC()
		}
		exact := h.topOp()
		h.checkAll()
		h.checkEvents()
		h.checkPins(exact)
	}
	return ""
}

func (h *diffHarness) val() int { return h.src.intn(50) }

func (h *diffHarness) pick(weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	r := h.src.intn(total)
	for i, w := range weights {
		if r < w {
			return i
		}
		r -= w
	}
	return len(weights) - 1
}

func (h *diffHarness) pickLive() diffPair { return h.live[h.src.intn(len(h.live))] }

// target picks the entity a structural change acts on: often the current
// entity of the innermost loop, otherwise any living one.
func (h *diffHarness) target(cur *diffPair) diffPair {
	if cur != nil && h.src.intn(2) == 0 {
		return *cur
	}
	return h.pickLive()
}

func (h *diffHarness) pair(id refmodel.EntityID, e ecs.Entity) {
	if e.IsZero() {
		h.failf("Tessera returned the zero Entity from a spawn")
	}
	if old, ok := h.byEnt[e]; ok {
		h.failf("Tessera returned handle %v, already paired with live model entity %d", e, old)
	}
	if !h.w.Alive(e) || !h.m.Alive(id) {
		h.failf("new entity not alive at once: tessera %v alive %v, model %d alive %v", e, h.w.Alive(e), id, h.m.Alive(id))
	}
	h.byEnt[e] = id
	h.live = append(h.live, diffPair{id, e})
}

func (h *diffHarness) expectPanic(what string, f func()) {
	if !diffPanics(f) {
		h.failf("%s did not panic", what)
	}
}

func diffPanics(f func()) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(diffFailure); ok {
				panic(r)
			}
			panicked = true
		}
	}()
	f()
	return false
}

// checkAll compares the whole state of the two worlds and forgets entities
// that died in both.
func (h *diffHarness) checkAll() {
	if h.w.IsIterating() != h.m.IsIterating() || h.w.IsIterating() != (h.depth > 0) {
		h.failf("IsIterating: tessera %v, model %v, harness depth %d", h.w.IsIterating(), h.m.IsIterating(), h.depth)
	}
	if h.w.Len() != h.m.Len() {
		h.failf("Len: tessera %d, model %d", h.w.Len(), h.m.Len())
	}
	for i := 0; i < len(h.live); {
		p := h.live[i]
		ta, ma := h.w.Alive(p.e), h.m.Alive(p.id)
		if ta != ma {
			h.failf("Alive: tessera %v = %v, model %d = %v", p.e, ta, p.id, ma)
		}
		if !ta {
			h.live[i] = h.live[len(h.live)-1]
			h.live = h.live[:len(h.live)-1]
			delete(h.byEnt, p.e)
			h.gone[p.e] = p.id
			if len(h.dead) < 32 {
				h.dead = append(h.dead, p)
			} else {
				h.dead[h.deadN%32] = p
			}
			h.deadN++
			continue
		}
		for _, c := range h.kinds {
			c.check(h, p)
		}
		i++
	}
	if len(h.live) != h.m.Len() {
		h.failf("harness tracks %d entities, the model has %d", len(h.live), h.m.Len())
	}
	if len(h.live) > 0 {
		h.maps[h.src.intn(len(h.maps))].check(h, h.pickLive())
	}
	if len(h.dead) > 0 {
		p := h.dead[h.src.intn(len(h.dead))]
		if h.w.Alive(p.e) || h.m.Alive(p.id) {
			h.failf("despawned entity alive again: tessera %v = %v, model %d = %v", p.e, h.w.Alive(p.e), p.id, h.m.Alive(p.id))
		}
	}
}

// ---- hooks and observers ----

// diffHookKind registers recording-only OnAdd, OnSet and OnRemove hooks for
// c's type in Tessera and in the model.
func diffHookKind[T any](h *diffHarness, c *diffKind[T]) {
	rec := func(what string) func(ecs.Entity, *T) {
		what = c.name + "." + what
		return func(e ecs.Entity, v *T) { h.tEvents = append(h.tEvents, diffTEvent{what, e, showValue(*v)}) }
	}
	mrec := func(what string) func(refmodel.EntityID, T) {
		what = c.name + "." + what
		return func(id refmodel.EntityID, v T) {
			h.mEvents = append(h.mEvents, fmt.Sprintf("%s %d %s", what, id, showValue(v)))
		}
	}
	ecs.OnAdd(h.w, rec("OnAdd"))
	ecs.OnSet(h.w, rec("OnSet"))
	ecs.OnRemove(h.w, rec("OnRemove"))
	c.ms.OnAdd(mrec("OnAdd"))
	c.ms.OnSet(mrec("OnSet"))
	c.ms.OnRemove(mrec("OnRemove"))
}

// observeQuery registers recording-only enter and leave observers on q in
// both worlds.
func (h *diffHarness) observeQuery(q *diffQuery) {
	rec := func(what string) func(ecs.Entity) {
		what = q.name + " " + what
		return func(e ecs.Entity) { h.tEvents = append(h.tEvents, diffTEvent{what, e, ""}) }
	}
	mrec := func(what string) func(refmodel.EntityID) {
		what = q.name + " " + what
		return func(id refmodel.EntityID) { h.mEvents = append(h.mEvents, fmt.Sprintf("%s %d ", what, id)) }
	}
	q.observe(rec("OnEnter"), rec("OnLeave"))
	h.m.OnEnter(q.mq, mrec("OnEnter"))
	h.m.OnLeave(q.mq, mrec("OnLeave"))
}

// The listener modes of a harness.
const (
	listenNone      = iota // no hooks or observers: the quiet paths run
	listenRecording        // recording hooks and observers
	listenActing           // recording ones, then ones that change the world
)

// chooseListeners picks the listener mode and notes it in h.storage.
func (h *diffHarness) chooseListeners() {
	h.listen = h.src.intn(3)
	h.storage += " listeners:" + [...]string{"none", "recording", "acting"}[h.listen]
	if h.listen == listenNone && slices.Contains(h.sparse[:], true) {
		h.cov[covQuietSparse]++
	}
}

// diffActingListeners registers, after the recording ones, hooks and
// observers that make structural changes, the same in both worlds. Tessera
// defers them as it does the changes of a loop body, and the model predicts
// the result and every callback they cause in turn. None of them can start
// a cycle: each change reaches only listeners further down this list.
//
//   - Pos.OnAdd sets Tag on the entity (an add, or an overwrite in place).
//   - physics OnEnter sets Name (an add firing Name.OnAdd and the Name
//     observers, or an overwrite firing Name.OnSet).
//   - Name.OnRemove removes Ref (firing Ref.OnRemove), also on despawn.
//   - renamer OnLeave removes Vel from the entity, if it is still alive,
//     which may make it leave physics.
//   - Vel.OnRemove of a value with DX 3 sets Vel back, to a value with DX 0:
//     a Set of the type being removed, judged as after the removal (a
//     queued add), and dropped when the removal is a despawn.
func diffActingListeners(h *diffHarness, pos *diffKind[diffPos], vel *diffKind[diffVel],
	name *diffKind[diffName], ref *diffKind[diffRef], tag *diffKind[diffTag]) {
	acted := func() { h.cov[covActingEvent]++ }
	ecs.OnAdd(h.w, func(e ecs.Entity, _ *diffPos) { acted(); tag.tm.Set(e, diffTag{}) })
	pos.ms.OnAdd(func(id refmodel.EntityID, _ diffPos) { tag.ms.Set(id, diffTag{}) })

	h.physics.observe(func(e ecs.Entity) { acted(); name.tm.Set(e, mkName(7)) }, func(ecs.Entity) {})
	h.m.OnEnter(h.physics.mq, func(id refmodel.EntityID) { name.ms.Set(id, mkName(7)) })

	ecs.OnRemove(h.w, func(e ecs.Entity, _ *diffName) { acted(); ref.tm.Remove(e) })
	name.ms.OnRemove(func(id refmodel.EntityID, _ diffName) { ref.ms.Remove(id) })

	ecs.OnRemove(h.w, func(e ecs.Entity, v *diffVel) {
		if v.DX == 3 {
			acted()
			vel.tm.Set(e, mkVel(3))
		}
	})
	vel.ms.OnRemove(func(id refmodel.EntityID, v diffVel) {
		if v.DX == 3 {
			vel.ms.Set(id, mkVel(3))
		}
	})

	h.renamer.observe(func(ecs.Entity) {}, func(e ecs.Entity) {
		if h.w.Alive(e) {
			acted()
			vel.tm.Remove(e)
		}
	})
	h.m.OnLeave(h.renamer.mq, func(id refmodel.EntityID) {
		if h.m.Alive(id) {
			vel.ms.Remove(id)
		}
	})
}

// checkEvents compares the hook and observer calls of the step just ended,
// as multisets: within a batch Tessera fires in table and row order, which
// the model does not know.
func (h *diffHarness) checkEvents() {
	got := make([]string, len(h.tEvents))
	for i, ev := range h.tEvents {
		id, ok := h.byEnt[ev.e]
		if !ok {
			if id, ok = h.gone[ev.e]; !ok {
				h.failf("%s fired for %v, which the harness does not know", ev.what, ev.e)
			}
		}
		got[i] = fmt.Sprintf("%s %d %s", ev.what, id, ev.val)
	}
	want := h.mEvents
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		var extra, missing []string
		for _, g := range got {
			if !slices.Contains(want, g) {
				extra = append(extra, g)
			}
		}
		for _, m := range want {
			if !slices.Contains(got, m) {
				missing = append(missing, m)
			}
		}
		h.failf("hook/observer events differ\ntessera: %q\nmodel:   %q\nonly in tessera (by kind): %q\nonly in the model (by kind): %q",
			got, want, extra, missing)
	}
	h.events += len(want)
	h.tEvents = h.tEvents[:0]
	clear(h.mEvents)
	h.mEvents = h.mEvents[:0]
	clear(h.gone)
}

// ---- one component type ----

type diffComp interface {
	add(h *diffHarness, p diffPair, x int)
	set(h *diffHarness, p diffPair, x int)
	writeGet(h *diffHarness, p diffPair, x int)
	remove(h *diffHarness, p diffPair)
	addAll(h *diffHarness, q *diffQuery, x int)
	removeAll(h *diffHarness, q *diffQuery)
	check(h *diffHarness, p diffPair)
	checkRow(h *diffHarness, r *diffRow, id refmodel.EntityID, optional bool)
	writeRow(h *diffHarness, r *diffRow, id refmodel.EntityID, x int) bool
	checkDead(h *diffHarness, p diffPair, misuse int)
	junk(e ecs.Entity, x int) // Tessera only: for entities the model never sees
	newQuery(h *diffHarness, spec diffSpec)
	pin(h *diffHarness, p diffPair) (ptr any, how string) // nil if p lacks the kind
	checkPin(h *diffHarness, pin diffPin)
	len() int
	spawn1(h *diffHarness)
	spawnBatch1(h *diffHarness, n int) // outside iterations only
}

type diffKind[T any] struct {
	k    int
	name string
	tm   *ecs.Map[T]
	ms   *refmodel.Store[T]
	mk   func(int) T
	eq   func(a, b T) bool
	disc *ecs.Query1[T] // finds the entities of a Map.SpawnBatch
}

func newDiffKind[T any](h *diffHarness, k int, name string, mk func(int) T, eq func(a, b T) bool) *diffKind[T] {
	c := &diffKind[T]{k: k, name: name, tm: ecs.NewMap[T](h.w), ms: refmodel.NewStore[T](h.m, name), mk: mk, eq: eq,
		disc: ecs.NewQuery1[T](h.w)}
	if int(c.ms.Kind()) != k || diffKindOf[T]() != k {
		panic("differential harness: kinds out of order")
	}
	return c
}

func (c *diffKind[T]) junk(e ecs.Entity, x int) { c.tm.Set(e, c.mk(x)) }

func (c *diffKind[T]) len() int { return c.ms.Len() }

func (c *diffKind[T]) pin(h *diffHarness, p diffPair) (any, string) {
	if !c.ms.Has(p.id) {
		return nil, ""
	}
	if h.src.intn(2) == 0 {
		return c.tm.Get(p.e), "Get"
	}
	tp, _ := c.tm.TryGet(p.e)
	return tp, "TryGet"
}

func (c *diffKind[T]) checkPin(h *diffHarness, pin diffPin) {
	tp := pin.ptr.(*T)
	// A valid pointer is the value's address: TryGet gives the same one
	// (pointers to zero-size values need not differ, so Tag is left out).
	if cur, _ := c.tm.TryGet(pin.p.e); cur != tp && diffTypesOf[c.k].Size() != 0 {
		h.failf("pointer stability: %s of %v from %s (%s storage, signature %#x), with no structural change of its storage since, is %p; TryGet gives %p",
			c.name, pin.p.e, pin.how, map[bool]string{false: "table", true: "sparse"}[h.sparse[c.k]], pin.sig, tp, cur)
	}
	mv, ok := c.ms.Get(pin.p.id)
	if !ok {
		h.failf("a %s pin of %v (from %s) is still valid, but the model entity %d has no %s", c.name, pin.p.e, pin.how, pin.p.id, c.name)
	}
	if !c.eq(*tp, mv) {
		h.failf("pointer stability: %s of %v from %s (%s storage, signature %#x), with no structural change of its storage since, reads %s; model %s",
			c.name, pin.p.e, pin.how, map[bool]string{false: "table", true: "sparse"}[h.sparse[c.k]], pin.sig, showValue(*tp), showValue(mv))
	}
}

// spawn1 spawns an entity with this one component, with Map.Spawn.
func (c *diffKind[T]) spawn1(h *diffHarness) {
	x := h.val()
	e := c.tm.Spawn(c.mk(x))
	var id refmodel.EntityID
	h.m.Batch(func() {
		id = h.m.Spawn()
		c.ms.Add(id, c.mk(x))
	})
	h.pair(id, e)
	h.note("Map.Spawn["+c.name+"]", diffPair{id, e}, x)
}

// spawnBatch1 spawns n entities with Map.SpawnBatch and finds them with a
// query, as diffMap2.spawnBatch does.
func (c *diffKind[T]) spawnBatch1(h *diffHarness, n int) {
	x := h.val()
	h.note("Map.SpawnBatch["+c.name+"]", diffPair{}, n)
	c.tm.SpawnBatch(n, c.mk(x))
	var news []ecs.Entity
	for ch := range c.disc.Chunks() {
		news = h.appendUnpaired(news, ch.Entities)
	}
	if len(news) != n {
		h.failf("Map.SpawnBatch(%d) made %d entities", n, len(news))
	}
	h.m.Batch(func() {
		for _, e := range news {
			id := h.m.Spawn()
			c.ms.Add(id, c.mk(x))
			h.pair(id, e)
		}
	})
}

func (c *diffKind[T]) newQuery(h *diffHarness, spec diffSpec) {
	ecs.NewQuery1[T](h.w, spec.filters()...)
}

// covNested counts a structural change of this kind at depth >= 2.
func (c *diffKind[T]) covNested(h *diffHarness) {
	if h.depth >= 2 && h.sparse[c.k] {
		h.cov[covNestedDeferSparse]++
	}
}

// covBatch counts a batch operation of this kind over q, when q matches
// something.
func (c *diffKind[T]) covBatch(h *diffHarness, q *diffQuery, comp, query int) {
	if (!h.sparse[c.k] && !q.sparse) || h.m.Count(q.mq) == 0 {
		return
	}
	if h.sparse[c.k] {
		h.cov[comp]++
	}
	if q.sparse {
		h.cov[query]++
	}
}

func (c *diffKind[T]) add(h *diffHarness, p diffPair, x int) {
	h.note("Add["+c.name+"]", p, x)
	c.covNested(h)
	if err := c.ms.CheckAdd(p.id); err != nil {
		h.expectPanic("Tessera Map.Add["+c.name+"] where the model says "+err.Error(), func() { c.tm.Add(p.e, c.mk(x)) })
		h.expectPanic("model Add["+c.name+"]", func() { c.ms.Add(p.id, c.mk(x)) })
		return
	}
	c.tm.Add(p.e, c.mk(x))
	c.ms.Add(p.id, c.mk(x))
}

func (c *diffKind[T]) set(h *diffHarness, p diffPair, x int) {
	h.note("Set["+c.name+"]", p, x)
	c.covNested(h)
	if err := c.ms.CheckSet(p.id); err != nil {
		h.expectPanic("Tessera Map.Set["+c.name+"] where the model says "+err.Error(), func() { c.tm.Set(p.e, c.mk(x)) })
		return
	}
	c.tm.Set(p.e, c.mk(x))
	c.ms.Set(p.id, c.mk(x))
}

// writeGet writes through the pointer Map.Get returns.
func (c *diffKind[T]) writeGet(h *diffHarness, p diffPair, x int) {
	h.note("*Get["+c.name+"]=", p, x)
	if !c.ms.Has(p.id) {
		h.expectPanic("Tessera Map.Get of a missing "+c.name, func() { c.tm.Get(p.e) })
		return
	}
	*c.tm.Get(p.e) = c.mk(x)
	c.ms.Update(p.id, func(v *T) { *v = c.mk(x) })
}

func (c *diffKind[T]) remove(h *diffHarness, p diffPair) {
	h.note("Remove["+c.name+"]", p, 0)
	c.covNested(h)
	c.tm.Remove(p.e)
	c.ms.Remove(p.id)
}

func (c *diffKind[T]) addAll(h *diffHarness, q *diffQuery, x int) {
	h.note("AddAll["+c.name+"] "+q.name, diffPair{}, x)
	c.covBatch(h, q, covAddAllSparseComp, covAddAllSparseQuery)
	c.tm.AddAll(q.tq, c.mk(x))
	c.ms.AddAll(q.mq, c.mk(x))
}

func (c *diffKind[T]) removeAll(h *diffHarness, q *diffQuery) {
	h.note("RemoveAll["+c.name+"] "+q.name, diffPair{}, 0)
	c.covBatch(h, q, covRemoveAllSparseComp, covRemoveAllSparseQuery)
	c.tm.RemoveAll(q.tq)
	c.ms.RemoveAll(q.mq)
}

func (c *diffKind[T]) check(h *diffHarness, p diffPair) {
	mv, mok := c.ms.Get(p.id)
	tp, tok := c.tm.TryGet(p.e)
	if tok != mok || c.tm.Has(p.e) != mok {
		h.failf("%s presence of tessera %v / model %d: TryGet %v, Has %v, model %v", c.name, p.e, p.id, tok, c.tm.Has(p.e), mok)
	}
	if tok && !c.eq(*tp, mv) {
		h.failf("%s value of tessera %v / model %d: tessera %s, model %s", c.name, p.e, p.id, showValue(*tp), showValue(mv))
	}
}

func (c *diffKind[T]) checkRow(h *diffHarness, r *diffRow, id refmodel.EntityID, optional bool) {
	tp, _ := r.p[c.k].(*T)
	mv, mok := c.ms.Get(id)
	switch {
	case tp == nil && !optional:
		h.failf("query row of %v: nil pointer for required term %s", r.e, c.name)
	case (tp != nil) != mok:
		h.failf("query row of %v / model %d: %s pointer present %v, model has %v", r.e, id, c.name, tp != nil, mok)
	case tp != nil && !c.eq(*tp, mv):
		h.failf("query row of %v / model %d: %s = %s, model %s", r.e, id, c.name, showValue(*tp), showValue(mv))
	}
}

// writeRow writes through the row's pointer, if it has one for this type.
func (c *diffKind[T]) writeRow(h *diffHarness, r *diffRow, id refmodel.EntityID, x int) bool {
	tp, _ := r.p[c.k].(*T)
	if tp == nil {
		return false
	}
	h.note("row."+c.name+"=", diffPair{id, r.e}, x)
	*tp = c.mk(x)
	if !c.ms.Update(id, func(v *T) { *v = c.mk(x) }) {
		h.failf("row of %v has a %s the model entity %d lacks", r.e, c.name, id)
	}
	return true
}

func (c *diffKind[T]) checkDead(h *diffHarness, p diffPair, misuse int) {
	if c.tm.Has(p.e) {
		h.failf("Has[%s] true for dead %v", c.name, p.e)
	}
	if _, ok := c.tm.TryGet(p.e); ok {
		h.failf("TryGet[%s] found a value for dead %v", c.name, p.e)
	}
	switch misuse {
	case 0:
		h.expectPanic("Map.Add on a dead entity", func() { c.tm.Add(p.e, c.mk(1)) })
		h.expectPanic("model Add on a dead entity", func() { c.ms.Add(p.id, c.mk(1)) })
	case 1:
		h.expectPanic("Map.Set on a dead entity", func() { c.tm.Set(p.e, c.mk(1)) })
		h.expectPanic("model Set on a dead entity", func() { c.ms.Set(p.id, c.mk(1)) })
	case 2:
		h.expectPanic("Map.Remove on a dead entity", func() { c.tm.Remove(p.e) })
		h.expectPanic("model Remove on a dead entity", func() { c.ms.Remove(p.id) })
	case 3:
		h.expectPanic("Map.Get on a dead entity", func() { c.tm.Get(p.e) })
	}
}

// ---- spawn handles for several types ----

type diffMapN interface {
	spawn(h *diffHarness)
	spawnBatch(h *diffHarness, n int) // outside iterations only
	spawnBatchFunc(h *diffHarness, n int)
	add(h *diffHarness, p diffPair)
	remove(h *diffHarness, p diffPair)
	check(h *diffHarness, p diffPair)
	checkDead(h *diffHarness, p diffPair, misuse int)
	has(k int) bool // whether the handle's types include kind k
}

type diffMap2[A, B any] struct {
	tm   *ecs.Map2[A, B]
	a    *diffKind[A]
	b    *diffKind[B]
	disc *ecs.Query2[A, B]
}

func newDiffMap2[A, B any](h *diffHarness, a *diffKind[A], b *diffKind[B]) *diffMap2[A, B] {
	return &diffMap2[A, B]{tm: ecs.NewMap2[A, B](h.w), a: a, b: b, disc: ecs.NewQuery2[A, B](h.w)}
}

func (m *diffMap2[A, B]) has(k int) bool { return m.a.k == k || m.b.k == k }

func (m *diffMap2[A, B]) spawn(h *diffHarness) {
	h.covMap(m.a.k, m.b.k)
	xa, xb := h.val(), h.val()
	e := m.tm.Spawn(m.a.mk(xa), m.b.mk(xb))
	var id refmodel.EntityID
	h.m.Batch(func() {
		id = h.m.Spawn()
		m.a.ms.Add(id, m.a.mk(xa))
		m.b.ms.Add(id, m.b.mk(xb))
	})
	h.pair(id, e)
	h.note("Map2.Spawn "+m.a.name+","+m.b.name, diffPair{id, e}, xa)
}

func (m *diffMap2[A, B]) spawnBatch(h *diffHarness, n int) {
	h.covMap(m.a.k, m.b.k)
	xa, xb := h.val(), h.val()
	h.note("Map2.SpawnBatch "+m.a.name+","+m.b.name, diffPair{}, n)
	m.tm.SpawnBatch(n, m.a.mk(xa), m.b.mk(xb))
	var news []ecs.Entity
	for c := range m.disc.Chunks() {
		news = h.appendUnpaired(news, c.Entities)
	}
	if len(news) != n {
		h.failf("SpawnBatch(%d) made %d entities", n, len(news))
	}
	h.m.Batch(func() {
		for _, e := range news {
			id := h.m.Spawn()
			m.a.ms.Add(id, m.a.mk(xa))
			m.b.ms.Add(id, m.b.mk(xb))
			h.pair(id, e)
		}
	})
}

func (m *diffMap2[A, B]) spawnBatchFunc(h *diffHarness, n int) {
	h.covMap(m.a.k, m.b.k)
	h.note("Map2.SpawnBatchFunc "+m.a.name+","+m.b.name, diffPair{}, n)
	calls := 0
	h.m.Batch(func() { // the model's spawns and adds settle as one operation
		m.tm.SpawnBatchFunc(n, func(e ecs.Entity, pa *A, pb *B) {
			calls++
			id := h.m.Spawn()
			diffInit(h, m.a, e, id, pa)
			diffInit(h, m.b, e, id, pb)
			h.pair(id, e)
		})
	})
	if calls != n {
		h.failf("SpawnBatchFunc(%d) called init %d times", n, calls)
	}
}

func (m *diffMap2[A, B]) add(h *diffHarness, p diffPair) {
	h.covMap(m.a.k, m.b.k)
	xa, xb := h.val(), h.val()
	h.note("Map2.Add "+m.a.name+","+m.b.name, p, xa)
	if m.a.ms.CheckAdd(p.id) != nil || m.b.ms.CheckAdd(p.id) != nil {
		h.expectPanic("Map2.Add where the model's Add of one type panics", func() { m.tm.Add(p.e, m.a.mk(xa), m.b.mk(xb)) })
		return
	}
	m.tm.Add(p.e, m.a.mk(xa), m.b.mk(xb))
	h.m.Batch(func() {
		m.a.ms.Add(p.id, m.a.mk(xa))
		m.b.ms.Add(p.id, m.b.mk(xb))
	})
}

func (m *diffMap2[A, B]) remove(h *diffHarness, p diffPair) {
	h.covMap(m.a.k, m.b.k)
	h.note("Map2.Remove "+m.a.name+","+m.b.name, p, 0)
	m.tm.Remove(p.e)
	h.m.RemoveKinds(p.id, m.a.ms.Kind(), m.b.ms.Kind())
}

func (m *diffMap2[A, B]) check(h *diffHarness, p diffPair) {
	va, oka := m.a.ms.Get(p.id)
	vb, okb := m.b.ms.Get(p.id)
	if m.tm.Has(p.e) != (oka && okb) {
		h.failf("Map2[%s,%s].Has(%v) = %v, model %v", m.a.name, m.b.name, p.e, m.tm.Has(p.e), oka && okb)
	}
	if !(oka && okb) {
		h.expectPanic("Map2.Get with a missing component", func() { m.tm.Get(p.e) })
		return
	}
	pa, pb := m.tm.Get(p.e)
	if !m.a.eq(*pa, va) || !m.b.eq(*pb, vb) {
		h.failf("Map2.Get(%v) = %s, %s; model %s, %s", p.e, showValue(*pa), showValue(*pb), showValue(va), showValue(vb))
	}
}

func (m *diffMap2[A, B]) checkDead(h *diffHarness, p diffPair, misuse int) {
	if m.tm.Has(p.e) {
		h.failf("Map2.Has true for dead %v", p.e)
	}
	switch misuse {
	case 0:
		h.expectPanic("Map2.Add on a dead entity", func() { m.tm.Add(p.e, m.a.mk(1), m.b.mk(1)) })
	case 1:
		h.expectPanic("Map2.Remove on a dead entity", func() { m.tm.Remove(p.e) })
	case 2:
		h.expectPanic("Map2.Get on a dead entity", func() { m.tm.Get(p.e) })
	case 3:
		h.expectPanic("Map2.SpawnBatch with a negative count", func() { m.tm.SpawnBatch(-1, m.a.mk(1), m.b.mk(1)) })
	}
}

type diffMap3[A, B, C any] struct {
	tm   *ecs.Map3[A, B, C]
	a    *diffKind[A]
	b    *diffKind[B]
	c    *diffKind[C]
	disc *ecs.Query3[A, B, C]
}

func newDiffMap3[A, B, C any](h *diffHarness, a *diffKind[A], b *diffKind[B], c *diffKind[C]) *diffMap3[A, B, C] {
	return &diffMap3[A, B, C]{tm: ecs.NewMap3[A, B, C](h.w), a: a, b: b, c: c, disc: ecs.NewQuery3[A, B, C](h.w)}
}

func (m *diffMap3[A, B, C]) has(k int) bool { return m.a.k == k || m.b.k == k || m.c.k == k }

func (m *diffMap3[A, B, C]) names() string { return m.a.name + "," + m.b.name + "," + m.c.name }

func (m *diffMap3[A, B, C]) spawn(h *diffHarness) {
	h.covMap(m.a.k, m.b.k, m.c.k)
	xa, xb, xc := h.val(), h.val(), h.val()
	e := m.tm.Spawn(m.a.mk(xa), m.b.mk(xb), m.c.mk(xc))
	var id refmodel.EntityID
	h.m.Batch(func() {
		id = h.m.Spawn()
		m.a.ms.Add(id, m.a.mk(xa))
		m.b.ms.Add(id, m.b.mk(xb))
		m.c.ms.Add(id, m.c.mk(xc))
	})
	h.pair(id, e)
	h.note("Map3.Spawn "+m.names(), diffPair{id, e}, xa)
}

func (m *diffMap3[A, B, C]) spawnBatch(h *diffHarness, n int) {
	h.covMap(m.a.k, m.b.k, m.c.k)
	xa, xb, xc := h.val(), h.val(), h.val()
	h.note("Map3.SpawnBatch "+m.names(), diffPair{}, n)
	m.tm.SpawnBatch(n, m.a.mk(xa), m.b.mk(xb), m.c.mk(xc))
	var news []ecs.Entity
	for c := range m.disc.Chunks() {
		news = h.appendUnpaired(news, c.Entities)
	}
	if len(news) != n {
		h.failf("SpawnBatch(%d) made %d entities", n, len(news))
	}
	h.m.Batch(func() {
		for _, e := range news {
			id := h.m.Spawn()
			m.a.ms.Add(id, m.a.mk(xa))
			m.b.ms.Add(id, m.b.mk(xb))
			m.c.ms.Add(id, m.c.mk(xc))
			h.pair(id, e)
		}
	})
}

func (m *diffMap3[A, B, C]) spawnBatchFunc(h *diffHarness, n int) {
	h.covMap(m.a.k, m.b.k, m.c.k)
	h.note("Map3.SpawnBatchFunc "+m.names(), diffPair{}, n)
	calls := 0
	h.m.Batch(func() { // the model's spawns and adds settle as one operation
		m.tm.SpawnBatchFunc(n, func(e ecs.Entity, pa *A, pb *B, pc *C) {
			calls++
			id := h.m.Spawn()
			diffInit(h, m.a, e, id, pa)
			diffInit(h, m.b, e, id, pb)
			diffInit(h, m.c, e, id, pc)
			h.pair(id, e)
		})
	})
	if calls != n {
		h.failf("SpawnBatchFunc(%d) called init %d times", n, calls)
	}
}

func (m *diffMap3[A, B, C]) add(h *diffHarness, p diffPair) {
	h.covMap(m.a.k, m.b.k, m.c.k)
	xa, xb, xc := h.val(), h.val(), h.val()
	h.note("Map3.Add "+m.names(), p, xa)
	if m.a.ms.CheckAdd(p.id) != nil || m.b.ms.CheckAdd(p.id) != nil || m.c.ms.CheckAdd(p.id) != nil {
		h.expectPanic("Map3.Add where the model's Add of one type panics", func() { m.tm.Add(p.e, m.a.mk(xa), m.b.mk(xb), m.c.mk(xc)) })
		return
	}
	m.tm.Add(p.e, m.a.mk(xa), m.b.mk(xb), m.c.mk(xc))
	h.m.Batch(func() {
		m.a.ms.Add(p.id, m.a.mk(xa))
		m.b.ms.Add(p.id, m.b.mk(xb))
		m.c.ms.Add(p.id, m.c.mk(xc))
	})
}

func (m *diffMap3[A, B, C]) remove(h *diffHarness, p diffPair) {
	h.covMap(m.a.k, m.b.k, m.c.k)
	h.note("Map3.Remove "+m.names(), p, 0)
	m.tm.Remove(p.e)
	h.m.RemoveKinds(p.id, m.a.ms.Kind(), m.b.ms.Kind(), m.c.ms.Kind())
}

func (m *diffMap3[A, B, C]) check(h *diffHarness, p diffPair) {
	va, oka := m.a.ms.Get(p.id)
	vb, okb := m.b.ms.Get(p.id)
	vc, okc := m.c.ms.Get(p.id)
	all := oka && okb && okc
	if m.tm.Has(p.e) != all {
		h.failf("Map3[%s].Has(%v) = %v, model %v", m.names(), p.e, m.tm.Has(p.e), all)
	}
	if !all {
		h.expectPanic("Map3.Get with a missing component", func() { m.tm.Get(p.e) })
		return
	}
	pa, pb, pc := m.tm.Get(p.e)
	if !m.a.eq(*pa, va) || !m.b.eq(*pb, vb) || !m.c.eq(*pc, vc) {
		h.failf("Map3.Get(%v) = %s, %s, %s; model %s, %s, %s", p.e,
			showValue(*pa), showValue(*pb), showValue(*pc), showValue(va), showValue(vb), showValue(vc))
	}
}

func (m *diffMap3[A, B, C]) checkDead(h *diffHarness, p diffPair, misuse int) {
	if m.tm.Has(p.e) {
		h.failf("Map3.Has true for dead %v", p.e)
	}
	switch misuse {
	case 0:
		h.expectPanic("Map3.Add on a dead entity", func() { m.tm.Add(p.e, m.a.mk(1), m.b.mk(1), m.c.mk(1)) })
	case 1:
		h.expectPanic("Map3.Remove on a dead entity", func() { m.tm.Remove(p.e) })
	case 2:
		h.expectPanic("Map3.Get on a dead entity", func() { m.tm.Get(p.e) })
	case 3:
		h.expectPanic("Map3.SpawnBatchFunc with a negative count", func() {
			m.tm.SpawnBatchFunc(-1, func(ecs.Entity, *A, *B, *C) {})
		})
	}
}

// diffInit is the body of a SpawnBatchFunc init for one type: the value
// handed in must be the zero value (the entity starts "with zero components
// of these types"); it is then sometimes left as it is, sometimes filled in.
func diffInit[T any](h *diffHarness, c *diffKind[T], e ecs.Entity, id refmodel.EntityID, p *T) {
	var v T
	if !c.eq(*p, v) {
		h.failf("SpawnBatchFunc handed init a non-zero %s for %v: %s", c.name, e, showValue(*p))
	}
	if h.src.intn(4) != 0 {
		x := h.val()
		*p = c.mk(x)
		v = c.mk(x)
	}
	c.ms.Add(id, v)
}

// appendUnpaired appends the entities of es the harness does not know yet:
// the ones a SpawnBatch just made.
func (h *diffHarness) appendUnpaired(news, es []ecs.Entity) []ecs.Entity {
	for _, e := range es {
		if _, ok := h.byEnt[e]; !ok {
			news = append(news, e)
		}
	}
	return news
}

// ---- queries ----

// diffRow is one visited entity, in any iteration form: the entity and a
// typed pointer (*diffPos, ...) per query term, nil for an absent optional one.
type diffRow struct {
	e ecs.Entity
	p [numKinds]any
}

// diffSpec is a query's filters, as component kinds.
type diffSpec struct {
	with, without, opt []int
	anyOf              [][]int
	split              bool // one With / Without filter per kind instead of one for all
}

func diffTypes(ks []int) []ecs.ComponentType {
	ts := make([]ecs.ComponentType, len(ks))
	for i, k := range ks {
		ts[i] = diffCT[k]
	}
	return ts
}

func diffKinds(ks []int) []refmodel.Kind {
	out := make([]refmodel.Kind, len(ks))
	for i, k := range ks {
		out[i] = refmodel.Kind(k)
	}
	return out
}

func (s diffSpec) filters() []ecs.Filter {
	var fs []ecs.Filter
	group := func(mk func(...ecs.ComponentType) ecs.Filter, ks []int) {
		if len(ks) == 0 {
			return
		}
		if !s.split {
			fs = append(fs, mk(diffTypes(ks)...))
			return
		}
		for _, k := range ks {
			fs = append(fs, mk(diffCT[k]))
		}
	}
	group(ecs.With, s.with)
	group(ecs.Without, s.without)
	for _, g := range s.anyOf {
		fs = append(fs, ecs.AnyOf(diffTypes(g)...))
	}
	if len(s.opt) > 0 {
		fs = append(fs, ecs.Optional(diffTypes(s.opt)...))
	}
	return fs
}

// diffQuery is one Tessera query and its model twin.
type diffQuery struct {
	name  string
	mq    *refmodel.Query
	tq    ecs.Matcher
	count func() int
	// observe registers Tessera enter and leave observers on tq.
	observe func(enter, leave func(ecs.Entity))
	terms   []int
	opt     [numKinds]bool
	// What the query does with sparse types (for the coverage counts).
	sparse     bool // it names a sparse type, as a term or in a filter
	mixedTerms bool // its terms are of both storages
	withSparse bool // With on a sparse type
	without    bool // Without on a sparse type
	anyOfMixed bool // an AnyOf group of both storages
	// forms runs the query's Chunks, All and Iter forms, calling body per
	// entity until it returns false.
	forms [3]func(h *diffHarness, body func(r *diffRow) bool)
}

var diffFormNames = [3]string{"Chunks", "All", "Iter"}

func newDiffQuery(h *diffHarness, name string, tq ecs.Matcher, count func() int, spec diffSpec, terms ...int) *diffQuery {
	q := &diffQuery{name: name, tq: tq, count: count, terms: terms}
	q.mq = &refmodel.Query{Terms: diffKinds(terms), With: diffKinds(spec.with), Without: diffKinds(spec.without),
		Optional: diffKinds(spec.opt)}
	for _, g := range spec.anyOf {
		q.mq.AnyOf = append(q.mq.AnyOf, diffKinds(g))
	}
	if err := q.mq.Validate(h.m); err != nil {
		panic("differential harness: model query " + name + ": " + err.Error())
	}
	for _, k := range spec.opt {
		q.opt[k] = true
	}
	sp, tb := h.sparseIn(terms...)
	q.mixedTerms = sp && tb
	q.withSparse, _ = h.sparseIn(spec.with...)
	q.without, _ = h.sparseIn(spec.without...)
	q.sparse = sp || q.withSparse || q.without
	for _, g := range spec.anyOf {
		gs, gt := h.sparseIn(g...)
		q.anyOfMixed = q.anyOfMixed || gs && gt
		q.sparse = q.sparse || gs
	}
	return q
}

func diffAt[T any](s []T, i int) *T {
	if s == nil {
		return nil
	}
	return &s[i]
}

func (h *diffHarness) checkChunk(n int, lens ...int) {
	if n == 0 {
		h.failf("Chunks yielded an empty chunk")
	}
	for _, l := range lens {
		if l != 0 && l != n {
			h.failf("Chunks yielded a column of %d rows for %d entities", l, n)
		}
	}
}

// closeCursor ends a cursor loop: Close after an early exit, and sometimes a
// second, no-op Close (also after exhaustion). Then Next must say false.
func closeCursor(h *diffHarness, early bool, close func(), next func() bool) {
	if early {
		close()
	}
	if h.src.intn(2) == 0 {
		close()
	}
	if next() {
		h.failf("cursor Next returned true after the cursor was closed")
	}
}

func diffQ1[A any](h *diffHarness, name string, a *diffKind[A], spec diffSpec) *diffQuery {
	q := ecs.NewQuery1[A](h.w, spec.filters()...)
	dq := newDiffQuery(h, name, q, q.Count, spec, a.k)
	dq.observe = func(enter, leave func(ecs.Entity)) { q.OnEnter(enter); q.OnLeave(leave) }
	ka := a.k
	dq.forms[0] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		for c := range q.Chunks() {
			h.checkChunk(len(c.Entities), len(c.A))
			for i, e := range c.Entities {
				r.e, r.p[ka] = e, diffAt(c.A, i)
				if !body(&r) {
					return
				}
			}
		}
	}
	dq.forms[1] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		for row := range q.All() {
			r.e, r.p[ka] = row.Entity, row.A
			if !body(&r) {
				break
			}
		}
	}
	dq.forms[2] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		it := q.Iter()
		early := false
		for it.Next() {
			r.e, r.p[ka] = it.Entity(), it.Get()
			if !body(&r) {
				early = true
				break
			}
		}
		closeCursor(h, early, it.Close, it.Next)
	}
	return dq
}

func diffQ2[A, B any](h *diffHarness, name string, a *diffKind[A], b *diffKind[B], spec diffSpec) *diffQuery {
	q := ecs.NewQuery2[A, B](h.w, spec.filters()...)
	dq := newDiffQuery(h, name, q, q.Count, spec, a.k, b.k)
	dq.observe = func(enter, leave func(ecs.Entity)) { q.OnEnter(enter); q.OnLeave(leave) }
	ka, kb := a.k, b.k
	dq.forms[0] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		for c := range q.Chunks() {
			h.checkChunk(len(c.Entities), len(c.A), len(c.B))
			for i, e := range c.Entities {
				r.e, r.p[ka], r.p[kb] = e, diffAt(c.A, i), diffAt(c.B, i)
				if !body(&r) {
					return
				}
			}
		}
	}
	dq.forms[1] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		for row := range q.All() {
			r.e, r.p[ka], r.p[kb] = row.Entity, row.A, row.B
			if !body(&r) {
				break
			}
		}
	}
	dq.forms[2] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		it := q.Iter()
		early := false
		for it.Next() {
			pa, pb := it.Get()
			r.e, r.p[ka], r.p[kb] = it.Entity(), pa, pb
			if !body(&r) {
				early = true
				break
			}
		}
		closeCursor(h, early, it.Close, it.Next)
	}
	return dq
}

func diffQ3[A, B, C any](h *diffHarness, name string, a *diffKind[A], b *diffKind[B], c *diffKind[C], spec diffSpec) *diffQuery {
	q := ecs.NewQuery3[A, B, C](h.w, spec.filters()...)
	dq := newDiffQuery(h, name, q, q.Count, spec, a.k, b.k, c.k)
	dq.observe = func(enter, leave func(ecs.Entity)) { q.OnEnter(enter); q.OnLeave(leave) }
	ka, kb, kc := a.k, b.k, c.k
	dq.forms[0] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		for ch := range q.Chunks() {
			h.checkChunk(len(ch.Entities), len(ch.A), len(ch.B), len(ch.C))
			for i, e := range ch.Entities {
				r.e, r.p[ka], r.p[kb], r.p[kc] = e, diffAt(ch.A, i), diffAt(ch.B, i), diffAt(ch.C, i)
				if !body(&r) {
					return
				}
			}
		}
	}
	dq.forms[1] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		for row := range q.All() {
			r.e, r.p[ka], r.p[kb], r.p[kc] = row.Entity, row.A, row.B, row.C
			if !body(&r) {
				break
			}
		}
	}
	dq.forms[2] = func(h *diffHarness, body func(*diffRow) bool) {
		var r diffRow
		it := q.Iter()
		early := false
		for it.Next() {
			pa, pb, pc := it.Get()
			r.e, r.p[ka], r.p[kb], r.p[kc] = it.Entity(), pa, pb, pc
			if !body(&r) {
				early = true
				break
			}
		}
		closeCursor(h, early, it.Close, it.Next)
	}
	return dq
}

// ---- operations ----

// topOp performs one operation outside any iteration. It reports whether
// the operation changes every entity's storage at most once, apart from the
// changes that hooks and observers defer (storageStep sees each of those),
// so that the storage signatures tell which tables and sparse sets it
// changed (see checkPins).
func (h *diffHarness) topOp() (exact bool) {
	h.ops++
	if len(h.pins) < 4 && h.src.intn(16) == 0 {
		h.pinSome()
	}
	switch h.pick(20, 4, 6, 1, 1, 1, 1) {
	case 0:
		h.structural(nil)
	case 1:
		h.iterate(false) // compare the visited entities and values only
	case 2:
		h.iterate(true) // with writes, structural changes and nested loops
		return false
	case 3:
		h.runSystem()
	case 4:
		h.misuse()
	case 5:
		h.escapingIteration()
		return false
	case 6:
		h.statsAndShrink()
		return false
	}
	return true
}

// escapingIteration runs an active iteration whose loop bodies may panic out
// of every open loop (nested ones too); the harness recovers the panic and
// calls World.Recover, which must end the open iterations and apply the
// deferred changes in order, as the model does when its iterations end.
func (h *diffHarness) escapingIteration() {
	h.escape = true
	escaped := func() (escaped bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(diffEscape); !ok {
					panic(r)
				}
				escaped = true
			}
		}()
		h.iterate(true)
		return false
	}()
	h.escape = false
	if !escaped && h.src.intn(2) == 0 {
		h.w.Recover() // nothing open: must do nothing
		return
	}
	if escaped {
		h.note("Recover", diffPair{}, h.depth)
		h.w.Recover()
		for ; h.depth > 0; h.depth-- {
			h.m.EndIteration()
		}
	}
}

// structural performs one structural change (or a write through Map.Get);
// cur is the current entity of the innermost loop, or nil.
func (h *diffHarness) structural(cur *diffPair) {
	n := len(h.live)
	spawn, kill, one := 3, 4, 1
	switch {
	case n >= diffMaxLive:
		spawn = 0
	case n < 8:
		spawn, kill = 12, 1
	case n > 48:
		kill = 12
	}
	if n == 0 {
		kill, one = 0, 0
	}
	batch := 0
	if h.depth == 0 {
		batch = spawn / 3 // SpawnBatch: its entities are found with a query
	}
	switch h.pick(spawn, spawn, spawn/3, batch, kill, 8*one, 8*one, 3*one, 6*one, 3*one, 2*one, 2, 2, max(kill/4, 1)) {
	case 0:
		e, id := h.w.Spawn(), h.m.Spawn()
		h.pair(id, e)
		h.note("Spawn", diffPair{id, e}, 0)
	case 1:
		if h.src.intn(4) == 0 {
			h.kinds[h.src.intn(numKinds)].spawn1(h)
		} else {
			h.maps[h.src.intn(len(h.maps))].spawn(h)
		}
	case 2:
		h.maps[h.src.intn(len(h.maps))].spawnBatchFunc(h, h.src.intn(4))
	case 3:
		if h.src.intn(4) == 0 {
			h.kinds[h.src.intn(numKinds)].spawnBatch1(h, 1+h.src.intn(4))
		} else {
			h.maps[h.src.intn(len(h.maps))].spawnBatch(h, 1+h.src.intn(4))
		}
	case 4:
		p := h.target(cur)
		h.note("Despawn", p, 0)
		h.w.Despawn(p.e)
		h.m.Despawn(p.id)
	case 5:
		h.kinds[h.src.intn(numKinds)].add(h, h.target(cur), h.val())
	case 6:
		h.kinds[h.src.intn(numKinds)].set(h, h.target(cur), h.val())
	case 7:
		h.kinds[h.src.intn(numKinds)].writeGet(h, h.target(cur), h.val())
	case 8:
		h.kinds[h.src.intn(numKinds)].remove(h, h.target(cur))
	case 9:
		h.maps[h.src.intn(len(h.maps))].add(h, h.target(cur))
	case 10:
		h.maps[h.src.intn(len(h.maps))].remove(h, h.target(cur))
	case 11:
		h.kinds[h.src.intn(numKinds)].addAll(h, h.queries[h.src.intn(len(h.queries))], h.val())
	case 12:
		h.kinds[h.src.intn(numKinds)].removeAll(h, h.queries[h.src.intn(len(h.queries))])
	case 13:
		q := h.queries[h.src.intn(len(h.queries))]
		h.note("DespawnAll "+q.name, diffPair{}, 0)
		if q.sparse && h.m.Count(q.mq) > 0 {
			h.cov[covDespawnAllSparseQuery]++
		}
		h.w.DespawnAll(q.tq)
		h.m.DespawnAll(q.mq)
	}
}

// iterate runs a random query in a random form and checks every visited
// entity and value against the model. When active, the loop body also writes
// through the row's pointers, makes structural changes (deferred in both
// worlds) and starts nested iterations; any loop may break early.
func (h *diffHarness) iterate(active bool) {
	q := h.queries[h.src.intn(len(h.queries))]
	form := h.src.intn(3)
	expected := h.m.Match(q.mq)
	if n := q.count(); n != len(expected) {
		h.failf("%s: Count() = %d, model %d", q.name, n, len(expected))
	}
	want := make(map[refmodel.EntityID]bool, len(expected))
	for _, id := range expected {
		want[id] = true
	}
	seen := make(map[refmodel.EntityID]bool, len(expected))
	h.note(diffFormNames[form]+" "+q.name, diffPair{}, len(expected))
	broke := false
	h.m.BeginIteration()
	h.depth++
	q.forms[form](h, func(r *diffRow) bool {
		id, ok := h.byEnt[r.e]
		switch {
		case !ok:
			h.failf("%s.%s visited %v, which the harness does not know", q.name, diffFormNames[form], r.e)
		case !want[id]:
			h.failf("%s.%s visited %v (model %d), which the model says does not match", q.name, diffFormNames[form], r.e, id)
		case seen[id]:
			h.failf("%s.%s visited %v twice", q.name, diffFormNames[form], r.e)
		}
		seen[id] = true
		for _, k := range q.terms {
			h.kinds[k].checkRow(h, r, id, q.opt[k])
		}
		h.covVisit(q, form, id)
		if !active && h.depth == 1 && len(h.pins) < 4 && h.src.intn(8) == 0 {
			// A row pointer, kept after the loop (which changes nothing).
			k := q.terms[h.src.intn(len(q.terms))]
			if h.m.HasKind(id, refmodel.Kind(k)) {
				h.addPin(diffPair{id, r.e}, id, k, r.p[k], "a "+diffFormNames[form]+" row of "+q.name)
			}
		}
		if active {
			for n := h.pick(10, 6, 3); n > 0; n-- {
				h.bodyAction(q, r, diffPair{id, r.e})
			}
		}
		if h.src.intn(16) == 0 {
			broke = true
			return false
		}
		if h.escape && h.src.intn(24) == 0 {
			panic(diffEscape{})
		}
		return true
	})
	h.depth--
	h.m.EndIteration()
	if !broke && len(seen) != len(expected) {
		h.failf("%s.%s visited %d entities, the model matches %d", q.name, diffFormNames[form], len(seen), len(expected))
	}
	if h.depth == 0 {
		h.checkAll()
	}
}

// covVisit counts the sparse situations of a visit of entity id by q.
func (h *diffHarness) covVisit(q *diffQuery, form int, id refmodel.EntityID) {
	if !q.sparse {
		return
	}
	h.cov[covChunksSparse+form]++
	if h.depth >= 2 {
		h.cov[covNestedIterSparse]++
	}
	for _, c := range [...]struct {
		on  bool
		cov int
	}{{q.mixedTerms, covMixedTerms}, {q.withSparse, covWithSparse}, {q.without, covWithoutSparse}, {q.anyOfMixed, covAnyOfMixed}} {
		if c.on {
			h.cov[c.cov]++
		}
	}
	for _, k := range q.terms {
		if q.opt[k] && h.sparse[k] {
			if h.m.HasKind(id, refmodel.Kind(k)) {
				h.cov[covOptSparseSet]++
			} else {
				h.cov[covOptSparseNil]++
			}
		}
	}
}

func (h *diffHarness) bodyAction(q *diffQuery, r *diffRow, cur diffPair) {
	h.ops++
	switch h.pick(6, 10, 2, 1, 3) {
	case 4:
		h.sameEntity(&cur)
		h.checkAll()
	case 0:
		k := q.terms[h.src.intn(len(q.terms))]
		h.kinds[k].writeRow(h, r, cur.id, h.val())
	case 1:
		h.structural(&cur)
		h.checkAll()
	case 2:
		if h.depth < diffMaxDepth {
			h.iterate(true)
		}
	case 3:
		o := h.queries[h.src.intn(len(h.queries))]
		if got, want := o.count(), h.m.Count(o.mq); got != want {
			h.failf("%s: Count() inside an iteration = %d, model %d", o.name, got, want)
		}
		if h.src.intn(8) == 0 {
			h.expectPanic("Shrink inside an iteration", h.w.Shrink)
		}
	}
}

// sameEntity makes two to five changes in a row to one component kind of
// one entity (often the loop's current one): the awkward deferred sequences
// (remove then add, add then remove, set after remove, a change after a
// despawn) that random single changes rarely line up, each judged by
// Tessera and the model against the changes queued before it.
func (h *diffHarness) sameEntity(cur *diffPair) {
	p := h.target(cur)
	k := h.src.intn(numKinds)
	c := h.kinds[k]
	const (
		opAdd = iota
		opSet
		opRemove
		opDespawn
		opMapAdd
	)
	prev, despawned := -1, false
	for n := 2 + h.src.intn(4); n > 0; n-- {
		op := h.pick(6, 6, 6, 1, 2)
		switch op {
		case opAdd:
			c.add(h, p, h.val())
		case opSet:
			c.set(h, p, h.val())
		case opRemove:
			c.remove(h, p)
		case opDespawn:
			h.note("Despawn", p, 0)
			h.w.Despawn(p.e)
			h.m.Despawn(p.id)
		case opMapAdd:
			var with []diffMapN
			for _, m := range h.maps {
				if m.has(k) {
					with = append(with, m)
				}
			}
			if len(with) == 0 {
				continue
			}
			with[h.src.intn(len(with))].add(h, p)
		}
		if h.depth > 0 {
			added := prev == opAdd || prev == opSet
			switch {
			case despawned && (op == opAdd || op == opSet):
				h.cov[covSameDespawnChange]++
			case prev == opRemove && op == opAdd:
				h.cov[covSameRemoveAdd]++
			case prev == opRemove && op == opSet:
				h.cov[covSameRemoveSet]++
			case prev == opRemove && op == opMapAdd:
				h.cov[covSameMapNAfter]++
			case added && op == opRemove:
				h.cov[covSameAddRemove]++
			case prev == opAdd && op == opAdd:
				h.cov[covSameAddAdd]++
			case prev == opAdd && op == opSet:
				h.cov[covSameAddSet]++
			case added && op == opDespawn:
				h.cov[covSameAddDespawn]++
			}
		}
		despawned = despawned || op == opDespawn
		prev = op
	}
}

// sameEntityCount returns how many same-entity sequences the run made
// inside iterations.
func (h *diffHarness) sameEntityCount() int {
	n := 0
	for _, c := range h.cov[covSameRemoveAdd : covSameMapNAfter+1] {
		n += c
	}
	return n
}

// runSystem runs a system in Tessera (in a random iteration form) and the
// same system as a plain function over the model's stores.
func (h *diffHarness) runSystem() {
	form := h.src.intn(3)
	var q *diffQuery
	var tBody func(id refmodel.EntityID, r *diffRow)
	var mSystem refmodel.System
	if h.src.intn(2) == 0 {
		q = h.physics
		tBody = func(_ refmodel.EntityID, r *diffRow) {
			p, v := r.p[kPos].(*diffPos), r.p[kVel].(*diffVel)
			p.X += float64(v.DX)
			p.Y += float64(v.DY)
		}
		mSystem = func(w *refmodel.World) {
			w.Each(q.mq, func(id refmodel.EntityID) bool {
				v, _ := h.vel.ms.Get(id)
				h.pos.ms.Update(id, func(p *diffPos) {
					p.X += float64(v.DX)
					p.Y += float64(v.DY)
				})
				return true
			})
		}
	} else {
		q = h.renamer
		tBody = func(_ refmodel.EntityID, r *diffRow) {
			if n := r.p[kName].(*diffName); n != nil {
				n.S = diffRename(n.S)
			}
		}
		mSystem = func(w *refmodel.World) {
			w.Each(q.mq, func(id refmodel.EntityID) bool {
				h.name.ms.Update(id, func(n *diffName) { n.S = diffRename(n.S) })
				return true
			})
		}
	}
	h.note("system "+diffFormNames[form]+" "+q.name, diffPair{}, 0)
	h.m.BeginIteration()
	h.depth++
	q.forms[form](h, func(r *diffRow) bool {
		id, ok := h.byEnt[r.e]
		if !ok || !h.m.Matches(q.mq, id) {
			h.failf("system over %s visited %v (model %d, known %v), which the model says does not match", q.name, r.e, id, ok)
		}
		for _, k := range q.terms {
			h.kinds[k].checkRow(h, r, id, q.opt[k])
		}
		tBody(id, r)
		return true
	})
	h.depth--
	h.m.EndIteration()
	h.m.Run(mSystem)
}

func diffRename(s string) string {
	if len(s) >= 8 {
		return "r"
	}
	return s + "x"
}

// misuse checks that dead handles stay dead and that misuse panics in both
// worlds without changing anything.
func (h *diffHarness) misuse() {
	if h.w.Alive(ecs.Entity{}) {
		h.failf("the zero Entity is alive")
	}
	if h.src.intn(4) == 0 {
		h.misuseStorage()
	}
	if len(h.dead) == 0 {
		return
	}
	p := h.dead[h.src.intn(len(h.dead))]
	h.note("misuse", p, 0)
	if h.src.intn(5) == 0 {
		h.expectPanic("World.Despawn of a dead entity", func() { h.w.Despawn(p.e) })
		h.expectPanic("model Despawn of a dead entity", func() { h.m.Despawn(p.id) })
		return
	}
	h.kinds[h.src.intn(numKinds)].checkDead(h, p, h.src.intn(4))
	h.maps[h.src.intn(len(h.maps))].checkDead(h, p, h.src.intn(4))
}

// misuseStorage checks that a type cannot be registered once in use, and
// that queries requiring and excluding the same type (of either storage) or
// requiring nothing are refused, in both worlds alike; none of it may change
// the world (checkAll follows).
func (h *diffHarness) misuseStorage() {
	k := h.src.intn(numKinds)
	h.note("misuse Register["+diffKindNames[k]+"]", diffPair{}, 0)
	var opts []ecs.ComponentOption
	if h.src.intn(2) == 0 {
		opts = append(opts, ecs.Sparse())
	}
	h.expectPanic("Register of a type in use", func() { diffRegisters[k](h.w, opts...) })
	j := h.src.intn(numKinds)
	var spec diffSpec
	switch h.src.intn(3) {
	case 0: // a term excluded
		spec.without = []int{k}
	case 1: // a With type excluded
		spec.with, spec.without = []int{j}, []int{j}
	case 2: // every term optional, no AnyOf
		spec.opt = []int{k}
	}
	mq := &refmodel.Query{Terms: diffKinds([]int{k}), With: diffKinds(spec.with), Without: diffKinds(spec.without),
		Optional: diffKinds(spec.opt)}
	if mq.Validate(h.m) == nil {
		h.failf("model accepts the invalid query %+v", *mq)
	}
	h.expectPanic(fmt.Sprintf("NewQuery1[%s] with an invalid filter %+v", diffKindNames[k], spec),
		func() { h.kinds[k].newQuery(h, spec) })
}

// ---- regression tests for bugs this harness found ----

// diffStaleInitRepro returns a description of the bug, or "". The bug: a
// pointer-free component of a despawned entity stayed in its table row
// (removeRow zeroed only pointer-holding columns), and SpawnBatchFunc,
// outside an iteration, handed that row to init as it was, while its
// documentation (and the same call inside an iteration) starts each entity
// "with zero components of these types".
func diffStaleInitRepro() string {
	w := ecs.NewWorld()
	m := ecs.NewMap2[diffPos, diffVel](w)
	w.Despawn(m.Spawn(diffPos{1, 2}, diffVel{3, 4}))
	var got string
	m.SpawnBatchFunc(1, func(_ ecs.Entity, p *diffPos, v *diffVel) {
		if *p != (diffPos{}) || *v != (diffVel{}) {
			got = fmt.Sprintf("init got %+v, %+v; want zero values", *p, *v)
		}
	})
	return got
}

// diffNextAfterCloseRepro returns a description of the bug, or "". The bug:
// Close did not reset the cursor's row count, so Next kept returning true for
// the rest of the current table, with the world's iteration lock already
// released.
func diffNextAfterCloseRepro() string {
	w := ecs.NewWorld()
	m := ecs.NewMap[diffPos](w)
	m.Add(w.Spawn(), diffPos{})
	m.Add(w.Spawn(), diffPos{})
	it := ecs.NewQuery1[diffPos](w).Iter()
	it.Next()
	it.Close()
	if it.Next() {
		return fmt.Sprintf("Next returned true after Close (IsIterating %v)", w.IsIterating())
	}
	return ""
}

// diffMapRemoveSettleRepro returns a description of the bug, or "". The
// bug: a MapN.Remove of several types, one with an OnRemove hook, settles
// observer membership after each type it removes instead of once when the
// operation is complete, so a query the entity matches only between the two
// removals sees it enter and leave.
func diffMapRemoveSettleRepro() string {
	w := ecs.NewWorld()
	ecs.OnRemove(w, func(ecs.Entity, *diffName) {})
	m := ecs.NewMap2[diffName, diffRef](w)
	e := m.Spawn(diffName{}, diffRef{})
	var got []string
	q := ecs.NewQuery1[diffRef](w, ecs.Without(ecs.C[diffName]()))
	q.OnEnter(func(ecs.Entity) { got = append(got, "enter") })
	q.OnLeave(func(ecs.Entity) { got = append(got, "leave") })
	m.Remove(e)
	if len(got) != 0 {
		return fmt.Sprintf("Map2[Name,Ref].Remove fired %v on Query1[Ref] Without(Name); want nothing", got)
	}
	return ""
}

func TestMapRemoveSettlesOnce(t *testing.T) {
	if msg := diffMapRemoveSettleRepro(); msg != "" {
		t.Error(msg)
	}
}

func TestSpawnBatchFuncInitStartsFromZero(t *testing.T) {
	if msg := diffStaleInitRepro(); msg != "" {
		t.Error(msg)
	}
}

func TestCursorNextAfterCloseIsFalse(t *testing.T) {
	if msg := diffNextAfterCloseRepro(); msg != "" {
		t.Error(msg)
	}
}

// ---- the tests ----

// TestDifferential drives Tessera and the model with pseudo-random operation
// sequences, one fixed seed per subtest, and compares them after every step.
func TestDifferential(t *testing.T) {
	first, last, opsPerSeed := 1, 16, 62_500 // 1,000,000 operations
	if testing.Short() {
		opsPerSeed = 3_125 // 50,000 operations
	}
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
			t.Logf("storage: %s", h.storage)
			mu.Lock()
			defer mu.Unlock()
			passed++
			for i, n := range h.cov {
				cov[i] += n
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
