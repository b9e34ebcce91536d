package ecs_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// lcLink is an exclusive relation declared without Acyclic where the
// files of the cycle tests are written, and with it where they are read.
type lcLink struct{}

// lcNode numbers the entities of the cycle tests.
type lcNode struct{ N int32 }

// lcShape builds pairs of lcLink between the entities es (spawned in
// order), which the relation's Set accepts since it is not acyclic.
type lcShape struct {
	name string
	n    int
	link func(set func(e, t int), n int)
}

// lcShapes are files with a cycle: a self pair, two entities, and a ring
// reached by a long tail, after (or before) a long chain that is sound,
// so the check walks long chains both ways.
func lcShapes(long int) []lcShape {
	ring := func(tailFirst bool) func(set func(e, t int), n int) {
		return func(set func(e, t int), n int) {
			third := n / 3
			chain := func() { // 0 <- 1 <- ... <- third-1
				for i := 1; i < third; i++ {
					set(i, i-1)
				}
			}
			tail := func() { // third <- ... <- 2*third-1 -> a ring member
				for i := third + 1; i < 2*third; i++ {
					set(i, i-1)
				}
				set(third, 2*third+third/2)
			}
			cycle := func() { // 2*third -> 2*third+1 -> ... -> n-1 -> 2*third
				for i := 2 * third; i < n-1; i++ {
					set(i, i+1)
				}
				set(n-1, 2*third)
			}
			if tailFirst {
				tail()
				cycle()
				chain()
			} else {
				chain()
				cycle()
				tail()
			}
		}
	}
	return []lcShape{
		{"self", 2, func(set func(e, t int), n int) { set(1, 0); set(0, 0) }},
		{"two", 3, func(set func(e, t int), n int) { set(2, 0); set(0, 1); set(1, 0) }},
		{fmt.Sprintf("chain, ring, tail/%d", long), long, ring(false)},
		{fmt.Sprintf("tail, ring, chain/%d", long), long, ring(true)},
	}
}

// lcWorld returns a world with the lcLink relation, acyclic or not, and
// lcNode.
func lcWorld(acyclic bool) (*ecs.World, *ecs.Relation[lcLink], *ecs.Map[lcNode]) {
	w := ecs.NewWorld()
	var rel *ecs.Relation[lcLink]
	if acyclic {
		rel = ecs.NewRelation[lcLink](w, ecs.Acyclic())
	} else {
		rel = ecs.NewRelation[lcLink](w)
	}
	return w, rel, ecs.NewMap[lcNode](w)
}

// A save file with a cycle of a relation is refused with an error, by
// Load and Merge in both formats, when the loading world declares the
// relation Acyclic, and leaves the world as it was; the same file loads
// where the relation is not acyclic, so the cycle is what is refused.
// Long cycles and chains are checked in time linear in the file.
func TestLoadRefusesCycles(t *testing.T) {
	long := testhelp.LongSize(t, 3_000, 300_000)
	if strconv.IntSize == 32 { // 32-bit runs are emulated in CI
		long = 3_000
	}
	for _, shape := range lcShapes(long) {
		src, rel, nodes := lcWorld(false)
		es := make([]ecs.Entity, shape.n)
		for i := range es {
			es[i] = nodes.Spawn(lcNode{int32(i)})
		}
		shape.link(func(e, t int) { rel.Set(es[e], es[t], lcLink{}) }, shape.n)
		for _, format := range lcFormats {
			if format.name == "JSON" && shape.n > 10_000 {
				continue // encoding/json is slow; the check is the same
			}
			t.Run(shape.name+"/"+format.name, func(t *testing.T) {
				file := format.save(t, src)
				limit := dhLimit(shape.n)
				for _, merge := range []bool{false, true} {
					dst, _, _ := lcWorld(true)
					read := format.load
					if merge {
						dst.Spawn()
						read = format.merge
					}
					sum, n := dst.Checksum(), dst.Len()
					var err error
					dhWithin(t, limit, fmt.Sprintf("merge %v", merge), func() error {
						err = read(dst, file)
						return nil
					})
					if err == nil || !strings.Contains(err.Error(), "cycle") {
						t.Fatalf("merge %v: error %v, want the cycle refused", merge, err)
					}
					if dst.Checksum() != sum || dst.Len() != n {
						t.Fatalf("merge %v: the refused file changed the world", merge)
					}
				}
				plain, _, _ := lcWorld(false)
				if err := format.load(plain, file); err != nil {
					t.Fatalf("the file does not load where the relation is not acyclic: %v", err)
				}
			})
		}
	}
}

// lcFormat is a save format with its merge.
type lcFormat struct {
	name  string
	save  func(testing.TB, *ecs.World) []byte
	load  func(*ecs.World, []byte) error
	merge func(*ecs.World, []byte) error
}

var lcFormats = []lcFormat{
	{"binary", saveOf, binaryFormat.load, func(w *ecs.World, b []byte) error {
		_, err := w.Merge(bytes.NewReader(b))
		return err
	}},
	{"JSON", saveJSONOf, jsonFormat.load, func(w *ecs.World, b []byte) error {
		_, err := w.MergeJSON(bytes.NewReader(b))
		return err
	}},
}

// lpMulti is the Multi relation of the pair-check tests, with a value.
type lpMulti struct{ V int }

// lpFile is the relation content of a save file of the pair-check tests,
// per relation side, by file entity index (1 to lpAlive alive, lpFree
// freed): ChildOf's targets (an Entity, or none) and sources, and
// lpMulti's targets, values and sources.
type lpFile struct {
	parent     map[int]lpRef
	children   map[int][]lpRef
	targets    map[int][]lpRef
	values     map[int]int // the number of values of a Multi source
	sources    map[int][]lpRef
	corruption string
}

// lpRef is an entity as the file writes it.
type lpRef struct{ index, gen int }

const (
	lpAlive = 6
	lpFree  = lpAlive + 1 // freed once: generation 1, not alive
)

// lpBase is a save of lpAlive tagged entities (rfTag), index lpFree freed,
// and a pair of each relation, so the file has every relation's sparse
// sets (whose contents the tests replace).
func lpBase(t testing.TB) []byte {
	t.Helper()
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	rel := ecs.NewRelation[lpMulti](w, ecs.Multi())
	tags := ecs.NewMap[rfTag](w)
	var es []ecs.Entity
	for i := range lpAlive {
		es = append(es, tags.Spawn(rfTag{i + 1}))
	}
	w.Despawn(w.Spawn())
	h.SetParent(es[1], es[0])
	rel.Set(es[0], es[1], lpMulti{})
	var buf bytes.Buffer
	if err := w.SaveJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lpRandom draws a sound lpFile, cycles aside (ChildOf parents are drawn
// freely), then corrupts it in one of several ways, or not.
func lpRandom(r *rand.Rand) *lpFile {
	f := &lpFile{parent: map[int]lpRef{}, children: map[int][]lpRef{}, targets: map[int][]lpRef{},
		values: map[int]int{}, sources: map[int][]lpRef{}}
	for i := 1; i <= lpAlive; i++ {
		if r.IntN(3) > 0 {
			p := 1 + r.IntN(lpAlive)
			f.parent[i] = lpRef{p, 0}
			f.children[p] = append(f.children[p], lpRef{i, 0})
		}
		for _, t := range r.Perm(lpAlive)[:r.IntN(4)] {
			f.targets[i] = append(f.targets[i], lpRef{t + 1, 0})
			f.sources[t+1] = append(f.sources[t+1], lpRef{i, 0})
			f.values[i]++
		}
	}
	shuffle := func(m map[int][]lpRef) {
		for _, l := range m {
			r.Shuffle(len(l), func(a, b int) { l[a], l[b] = l[b], l[a] })
		}
	}
	shuffle(f.children)
	shuffle(f.sources)
	lists := []map[int][]lpRef{f.children, f.targets, f.sources}
	pick := func(m map[int][]lpRef) (int, bool) {
		var ks []int
		for k, l := range m {
			if len(l) > 0 {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			return 0, false
		}
		slices.Sort(ks)
		return ks[r.IntN(len(ks))], true
	}
	bad := []lpRef{{0, 0}, {lpFree, 0}, {lpFree, 1}, {lpFree + 5, 0}, {1 + r.IntN(lpAlive), 1}}
	switch r.IntN(12) {
	case 0: // drop a pair from one side
		m := lists[r.IntN(3)]
		if k, ok := pick(m); ok {
			l := m[k]
			i := r.IntN(len(l))
			m[k] = slices.Delete(l, i, i+1)
			f.corruption = "dropped"
		}
	case 1: // name an entity twice in a list
		m := lists[r.IntN(3)]
		if k, ok := pick(m); ok {
			m[k] = append(m[k], m[k][r.IntN(len(m[k]))])
			f.corruption = "duplicated"
		}
	case 2: // name a dead or unknown entity
		m := lists[r.IntN(3)]
		if k, ok := pick(m); ok {
			m[k][r.IntN(len(m[k]))] = bad[r.IntN(len(bad))]
			f.corruption = "dead in a list"
		}
	case 3:
		if k, ok := pickParent(r, f); ok {
			f.parent[k] = bad[r.IntN(len(bad))]
			f.corruption = "dead parent"
		}
	case 4: // move a source to another target's list (same counts overall)
		m := lists[[]int{0, 2}[r.IntN(2)]]
		if k, ok := pick(m); ok {
			other := 1 + r.IntN(lpAlive)
			l := m[k]
			i := r.IntN(len(l))
			m[other] = append(m[other], l[i])
			m[k] = slices.Delete(l, i, i+1)
			f.corruption = "moved"
		}
	case 5: // a Multi source with no target, or with one value too few or many
		k := 1 + r.IntN(lpAlive)
		if r.IntN(2) == 0 {
			f.targets[k] = []lpRef{}
			f.values[k] = 0
		} else {
			f.values[k] += []int{-1, 1}[r.IntN(2)]
		}
		f.corruption = "targets and values"
	case 6: // an empty list of sources: sound
		f.sources[1+r.IntN(lpAlive)] = f.sources[1+r.IntN(lpAlive)][:0]
	}
	return f
}

// pickParent picks a ChildOf source of f.
func pickParent(r *rand.Rand, f *lpFile) (int, bool) {
	var ks []int
	for k := range f.parent {
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return 0, false
	}
	slices.Sort(ks)
	return ks[r.IntN(len(ks))], true
}

// sound is the reference verdict on f, worked out plainly: both sides of
// each relation hold the same pairs of living entities, each once, every
// Multi source has one value per target and some target, and ChildOf has
// no cycle.
func (f *lpFile) sound() bool {
	living := func(e lpRef) bool { return e.index >= 1 && e.index <= lpAlive && e.gen == 0 }
	type pair struct{ s, t lpRef }
	set := func(m map[int][]lpRef, sourceSide bool) (map[pair]bool, bool) {
		out := map[pair]bool{}
		for k, l := range m {
			for _, e := range l {
				p := pair{lpRef{k, 0}, e}
				if !sourceSide {
					p = pair{e, lpRef{k, 0}}
				}
				if !living(e) || out[p] {
					return nil, false
				}
				out[p] = true
			}
		}
		return out, true
	}
	one := map[int][]lpRef{}
	for k, p := range f.parent {
		one[k] = []lpRef{p}
	}
	for k, l := range f.targets {
		if len(l) == 0 || f.values[k] != len(l) {
			return false
		}
	}
	for _, sides := range [][2]map[int][]lpRef{{one, f.children}, {f.targets, f.sources}} {
		a, okA := set(sides[0], true)
		b, okB := set(sides[1], false)
		if !okA || !okB || len(a) != len(b) {
			return false
		}
		for p := range a {
			if !b[p] {
				return false
			}
		}
	}
	for k := range f.parent {
		x := k
		for steps := 0; ; steps++ {
			p, ok := f.parent[x]
			if !ok {
				break
			}
			if x = p.index; x == k || steps > lpAlive {
				return false
			}
		}
	}
	return true
}

// encode writes f over the relation sparse sets of the base file.
func (f *lpFile) encode(t testing.TB, base []byte) []byte {
	ent := func(e lpRef) map[string]any { return map[string]any{"index": e.index, "generation": e.gen} }
	ents := func(l []lpRef) []any {
		out := []any{}
		for _, e := range l {
			out = append(out, ent(e))
		}
		return out
	}
	put := func(file map[string]any, prefix string, m map[int]any) {
		s := rfSparse(t, file, prefix)
		var ks []int
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		entities, values := []any{}, []any{}
		for _, k := range ks {
			entities, values = append(entities, k), append(values, m[k])
		}
		s["entities"], s["values"] = entities, values
	}
	return rfEditJSON(t, base, func(file map[string]any) {
		one, in, many, manyIn := map[int]any{}, map[int]any{}, map[int]any{}, map[int]any{}
		for k, p := range f.parent {
			one[k] = map[string]any{"Target": ent(p), "Value": map[string]any{}}
		}
		for k, l := range f.children {
			in[k] = map[string]any{"Sources": ents(l)}
		}
		for k, l := range f.targets {
			vals := []any{}
			for range f.values[k] {
				vals = append(vals, map[string]any{"V": k})
			}
			many[k] = map[string]any{"Targets": ents(l), "Values": vals}
		}
		for k, l := range f.sources {
			manyIn[k] = map[string]any{"Sources": ents(l)}
		}
		put(file, rfRelOne, one)
		put(file, rfRelIn, in)
		put(file, "github.com/tessera-ecs/tessera/ecs.relMany[", many)
		put(file, "github.com/tessera-ecs/tessera/ecs.relIn[github.com/tessera-ecs/tessera/ecs_test.lpMulti]", manyIn)
	})
}

// Load and Merge accept a file's relation pairs exactly when a plain
// reference check finds them sound (both sides agree, living entities,
// each pair once, a value per Multi pair, no ChildOf cycle), over many
// random files, sound and corrupted; a refused file leaves the world as
// it was, and an accepted one gives the world the file's pairs.
func TestLoadChecksPairsLikeReference(t *testing.T) {
	base := lpBase(t)
	seeds := testhelp.LongSize(t, 300, 2000)
	if strconv.IntSize == 32 { // 32-bit runs are emulated in CI
		seeds = 300
	}
	verdicts := map[string][2]int{}
	for seed := range uint64(seeds) {
		f := lpRandom(rand.New(rand.NewPCG(seed, 11)))
		file := f.encode(t, base)
		want := f.sound()
		for _, merge := range []bool{false, true} {
			w, h, rel := lpTarget()
			if merge {
				w.Spawn()
			}
			sum, n := w.Checksum(), w.Len()
			mapping := func(e lpRef) ecs.Entity { return ecs.Entity{} }
			var err error
			if merge {
				var m *ecs.EntityMapping
				if m, err = w.MergeJSON(bytes.NewReader(file)); err == nil {
					saved := map[int]ecs.Entity{}
					for s, l := range m.All() {
						saved[int(s.Index())] = l
					}
					mapping = func(e lpRef) ecs.Entity { return saved[e.index] }
				}
			} else if err = w.LoadJSON(bytes.NewReader(file)); err == nil {
				byN := map[int]ecs.Entity{}
				for r := range ecs.NewQuery1[rfTag](w).All() {
					byN[r.A.N] = r.Entity
				}
				mapping = func(e lpRef) ecs.Entity { return byN[e.index] }
			}
			if (err == nil) != want {
				t.Fatalf("seed %d, merge %v (%s): Load's error %v; the reference finds the pairs sound: %v\n%s", seed, merge, f.corruption, err, want, file)
			}
			if err != nil {
				if w.Checksum() != sum || w.Len() != n {
					t.Fatalf("seed %d, merge %v: a refused file (%v) changed the world", seed, merge, err)
				}
				continue
			}
			lpCompare(t, seed, f, h, rel, mapping)
		}
		v := verdicts[f.corruption]
		if want {
			v[0]++
		} else {
			v[1]++
		}
		verdicts[f.corruption] = v
	}
	for c, v := range verdicts {
		if c != "" && v[1] == 0 {
			t.Errorf("corruption %q never made an unsound file (%d sound)", c, v[0])
		}
	}
	if v := verdicts[""]; v[0] == 0 || v[1] == 0 {
		t.Errorf("uncorrupted files: %d sound, %d with a cycle: want both", v[0], v[1])
	}
	t.Logf("verdicts (sound, refused) per corruption: %v", verdicts)
}

// lpCompare checks that the loaded world holds f's pairs, in f's order
// of each list, and the Multi pairs' values.
func lpCompare(t *testing.T, seed uint64, f *lpFile, h *ecs.Hierarchy, rel *ecs.Relation[lpMulti], m func(lpRef) ecs.Entity) {
	t.Helper()
	for i := 1; i <= lpAlive; i++ {
		e := m(lpRef{i, 0})
		p, ok := h.Parent(e)
		if want, has := f.parent[i]; ok != has || (has && p != m(want)) {
			t.Fatalf("seed %d: entity %d's parent %v %v, want %v %v", seed, i, p, ok, want, has)
		}
		wantLists := [][]lpRef{f.children[i], f.targets[i], f.sources[i]}
		gotLists := [][]ecs.Entity{h.Children(e), rel.Targets(e), rel.Sources(e)}
		for k, want := range wantLists {
			var w []ecs.Entity
			for _, x := range want {
				w = append(w, m(x))
			}
			if !slices.Equal(w, gotLists[k]) {
				t.Fatalf("seed %d: entity %d's list %d is %v, want %v", seed, i, k, gotLists[k], w)
			}
		}
		for _, x := range rel.Targets(e) {
			if v := rel.Value(e, x); v == nil || v.V != i {
				t.Fatalf("seed %d: the value of (%v, %v) is %v, want %d", seed, e, x, v, i)
			}
		}
	}
}

// lpTarget returns a new world with the types of lpBase's.
func lpTarget() (*ecs.World, *ecs.Hierarchy, *ecs.Relation[lpMulti]) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	rel := ecs.NewRelation[lpMulti](w, ecs.Multi())
	ecs.NewMap[rfTag](w)
	return w, h, rel
}

// FuzzLoadRelations: no bytes make Load or Merge of a file of relation
// pairs panic (the seeds are sound files of TestLoadChecksPairsLikeReference,
// in the binary format); a refused file leaves the world as it was, and
// a merged one has pairs whose two sides agree, a value per Multi pair
// and no ChildOf cycle.
func FuzzLoadRelations(f *testing.F) {
	base := lpBase(f)
	for seed := range uint64(40) {
		lf := lpRandom(rand.New(rand.NewPCG(seed, 11)))
		if !lf.sound() {
			continue
		}
		w, _, _ := lpTarget()
		if err := w.LoadJSON(bytes.NewReader(lf.encode(f, base))); err != nil {
			f.Fatal(err)
		}
		f.Add(saveOf(f, w))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, data := range withSectionCRCs(data) {
			fuzzLoadRelationsOnce(t, data)
		}
	})
}

// fuzzLoadRelationsOnce is FuzzLoadRelations' check of one file.
func fuzzLoadRelationsOnce(t *testing.T, data []byte) {
	w, _, _ := lpTarget()
	if err := w.Load(bytes.NewReader(data)); err != nil && w.Len() != 0 {
		t.Fatalf("a refused load (%v) left %d entities", err, w.Len())
	}
	w, h, rel := lpTarget()
	w.Spawn()
	sum := w.Checksum()
	m, err := w.Merge(bytes.NewReader(data))
	if err != nil {
		if w.Checksum() != sum || w.Len() != 1 {
			t.Fatalf("a refused merge (%v) changed the world", err)
		}
		return
	}
	for _, e := range m.All() {
		if p, ok := h.Parent(e); ok && !slices.Contains(h.Children(p), e) {
			t.Fatalf("%v's parent %v does not list it", e, p)
		}
		if h.Depth(e) > w.Len() {
			t.Fatalf("%v is deeper than the world is large", e)
		}
		for _, c := range h.Children(e) {
			if p, _ := h.Parent(c); p != e {
				t.Fatalf("%v lists the child %v, whose parent is %v", e, c, p)
			}
		}
		for _, x := range rel.Targets(e) {
			if !slices.Contains(rel.Sources(x), e) || rel.Value(e, x) == nil {
				t.Fatalf("the pair (%v, %v) is on one side only, or has no value", e, x)
			}
		}
		for _, x := range rel.Sources(e) {
			if !rel.Has(x, e) {
				t.Fatalf("%v lists the source %v, which does not have it as a target", e, x)
			}
		}
	}
}
