package ecs_test

// The differential harness: its state, choosers and bookkeeping.

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

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
	src diffChooser
	// hookSpawnsT and hookSpawnsM are the entities the acting Ref.OnRemove
	// hook spawned during the current step, in each world, paired after it.
	hookSpawnsT []ecs.Entity
	hookSpawnsM []refmodel.EntityID
	spreading   bool // spreadIndices is at work: the model sees nothing
	checks      int  // checkAll calls, to scan the zero tails now and then
	w           *ecs.World
	m           *refmodel.World
	kinds       [numKinds]diffComp
	maps        []diffMapN
	pos         *diffKind[diffPos]
	vel         *diffKind[diffVel]
	name        *diffKind[diffName]

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
	tracked [numKinds]bool // the kinds registered with ecs.TrackChanges
	listen  int            // listenNone, listenRecording or listenActing
	storage string         // the storage choices, for failure messages
	cov     [diffCovN]int  // how often each sparse situation was reached
	opRuns  map[string]int // how often each operation ran, by name (see diffOp)

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

	// Snapshots of both worlds and of the bookkeeping above that describes
	// them (see takeSnapshot and restoreSnapshot).
	saves      [diffSaves]diffSave
	restoredAt int // the step of the last restore
	restores   int // restores so far
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
	covAddAllSparseComp             // AddMatching of a sparse type over a non-empty match
	covAddAllSparseQuery            // AddMatching over a non-empty match of a query naming a sparse type
	covRemoveAllSparseComp          // RemoveMatching of a sparse type ...
	covRemoveAllSparseQuery         // RemoveMatching with a query naming a sparse type ...
	covDespawnAllSparseQuery        // DespawnMatching with a query naming a sparse type ...
	covSparseRef                    // a world with the pointer-holding Ref kind sparse
	covSparseTag                    // a world with the zero-size Tag kind sparse
	covSpreadIndices                // a world whose entity indices span several sparse pages
	covPinSparse                    // a sparse pin read after a structural change of other storage
	covPinShared                    // a table pin read after a sparse change of an entity of its table
	covQuietSparse                  // a world with sparse kinds and no listeners (the quiet paths)
	covActingEvent                  // a structural change made by a hook or observer, applied
	covHookSpawn                    // a spawn made by a hook, paired after the step
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
	// Snapshots (see restoreSnapshot).
	covRestoreAgain         // a second or later restore from one snapshot
	covSnapshotAfterRestore // a snapshot right after a restore
	covRestoreReusedIndex   // a restore after an index freed since the snapshot was handed out again
	covRestoreLateQueries   // a restore of a snapshot taken before the late queries were made
	covRestoreListening     // a restore with hooks and observers registered
	// Change detection (see changePass).
	covChangePass         // a pass of a change-filtered query
	covChangeSome         // one that visits some but not all of the kind's holders
	covChangeAfterRestore // a change-filtered pass right after a restore
	diffCovN
)

var diffCovNames = [diffCovN]string{
	"Chunks over a sparse query", "All over a sparse query", "Iter over a sparse query",
	"a query mixing table and sparse terms", "With on a sparse type", "Without on a sparse type",
	"AnyOf mixing storages", "an absent Optional sparse term", "a present Optional sparse term",
	"a nested iteration over a sparse query", "a deferred sparse change at depth >= 2",
	"a MapN handle mixing storages", "a MapN handle of sparse types only",
	"AddMatching of a sparse type", "AddMatching with a sparse query", "RemoveMatching of a sparse type",
	"RemoveMatching with a sparse query", "DespawnMatching with a sparse query",
	"a sparse pointer-holding kind (Ref)", "a sparse zero-size kind (Tag)",
	"entity indices spread over several sparse pages",
	"a sparse pointer kept across a structural change", "a table pointer kept across a sparse change in its table",
	"sparse kinds with no listeners", "a structural change made by a listener",
	"a spawn made by a hook",
	"Remove then Add of one entity's component in a loop", "Remove then Set in a loop",
	"Add then Remove in a loop", "Add then Add in a loop (refused)", "Add then Set in a loop",
	"Despawn then Add or Set in a loop (dropped)", "Add or Set then Despawn in a loop",
	"a MapN Add after a queued Remove of one of its types",
	"a second restore from one snapshot", "a snapshot right after a restore",
	"a restore after an index freed since the snapshot was reused",
	"a restore of a snapshot older than the late queries", "a restore with hooks and observers",
	"a change-filtered pass", "a change-filtered pass visiting some holders",
	"a change-filtered pass right after a restore",
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

		opRuns: make(map[string]int),
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
		newDiffMap4(h, pos, vel, name, tags),
		newDiffMap5(h, ref, tags, tag, vel, pos),
		newDiffMap6(h, tag, ref, tags, name, vel, pos),
	}
	h.renamer = diffQ2(h, "Q2[Name,Tag] Optional(Name,Tag) AnyOf(Name,Tag)", name, tag,
		diffSpec{opt: []int{kName, kTag}, anyOf: [][]int{{kName, kTag}}})
	h.queries = append(h.queries,
		diffQ2(h, "Q2[Tags,Ref] With(Tag)", tags, ref, diffSpec{with: []int{kTag}}),
		diffQ1(h, "Q1[Ref] AnyOf(Pos,Name)", ref, diffSpec{anyOf: [][]int{{kPos, kName}}}),
		diffQ3(h, "Q3[Pos,Name,Tags] Optional(Name,Tags)", pos, name, tags, diffSpec{opt: []int{kName, kTags}}),
		diffQ3(h, "Q3[Vel,Ref,Tag] Without(Name) Optional(Tag)", vel, ref, tag,
			diffSpec{without: []int{kName}, opt: []int{kTag}}),
		diffQ4(h, "Q4[Pos,Vel,Name,Tags] Optional(Name,Tags)", pos, vel, name, tags,
			diffSpec{opt: []int{kName, kTags}}),
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
			diffQ5(h, "Q5[Ref,Tag,Tags,Vel,Pos] Optional(Tag,Vel) Without(Name)", ref, tag, tags, vel, pos,
				diffSpec{opt: []int{kTag, kVel}, without: []int{kName}}),
			diffQ6(h, "Q6[Tag,Ref,Tags,Name,Vel,Pos] Optional(Ref,Tags,Name,Vel,Pos) AnyOf(Pos,Name)",
				tag, ref, tags, name, vel, pos,
				diffSpec{opt: []int{kRef, kTags, kName, kVel, kPos}, anyOf: [][]int{{kPos, kName}}}),
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
		if k == kRef {
			// Ref holds a pointer and has no Clone method, so snapshots need
			// it declared shallow. That is safe: the harness never writes
			// through a Ref's pointer (each value gets a new one). The
			// declaration comes before or after the type's registration.
			ecs.Shallow[diffRef](h.w)
		}
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
		if h.tracked[k] = h.src.intn(2) == 0; h.tracked[k] {
			opts = append(opts, ecs.TrackChanges())
			desc[k] += "(tracked)"
			register = true
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
	h.spreading = true
	defer func() { h.spreading = false }()
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

func (h *diffHarness) pick(weights ...int) int { return chooseWeighted(h.src, weights) }

// choose is pick, for pickOp (opPicker).
func (h *diffHarness) choose(weights ...int) int { return h.pick(weights...) }

// ranOp counts a run of the operation named name.
func (h *diffHarness) ranOp(name string) { h.opRuns[name]++ }

func (h *diffHarness) pickLive() diffPair { return h.live[h.src.intn(len(h.live))] }

// target picks the entity a structural change acts on: often the current
// entity of the innermost loop, otherwise any living one.
func (h *diffHarness) target(cur *diffPair) diffPair {
	if cur != nil && h.src.intn(2) == 0 {
		return *cur
	}
	return h.pickLive()
}

// targets picks one to six targets (see target) for the operations on a
// list of entities; a quarter of the picks repeat an earlier one, so the
// same entity comes twice in one list.
func (h *diffHarness) targets(cur *diffPair) []diffPair {
	ps := []diffPair{h.target(cur)}
	for n := h.src.intn(6); n > 0; n-- {
		if h.src.intn(4) == 0 {
			ps = append(ps, ps[h.src.intn(len(ps))])
		} else {
			ps = append(ps, h.target(cur))
		}
	}
	return ps
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
