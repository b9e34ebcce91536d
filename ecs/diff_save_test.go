package ecs_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// diffSavesOf saves a and b and compares the files.
func diffSavesOf(t testing.TB, a, b *ecs.World, limit int) ecs.DiffReport {
	t.Helper()
	r, err := ecs.DiffSaves(bytes.NewReader(saveOf(t, a)), bytes.NewReader(saveOf(t, b)), limit)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sameReport fails t unless DiffSaves' report got is Diff's want: the
// same counts, and the same differences in the same order, entities
// compared by index and generation (a file holds no world's tag).
func sameReport(t *testing.T, what string, got, want ecs.DiffReport) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: "+format+"\nDiffSaves:\n%vDiff:\n%v", append(append([]any{what}, args...), &got, &want)...)
	}
	if got.Total != want.Total || got.Entities != want.Entities || len(got.Differences) != len(want.Differences) {
		fail("total %d, entities %d, kept %d; want %d, %d, %d", got.Total, got.Entities, len(got.Differences),
			want.Total, want.Entities, len(want.Differences))
	}
	if len(got.Parts) != len(want.Parts) {
		fail("%d parts, want %d", len(got.Parts), len(want.Parts))
	}
	for i := range got.Parts {
		if got.Parts[i] != want.Parts[i] {
			fail("part %d: %+v, want %+v", i, got.Parts[i], want.Parts[i])
		}
	}
	for i := range got.Differences {
		g, w := got.Differences[i], want.Differences[i]
		if g.Entity.Index() != w.Entity.Index() || g.Entity.Generation() != w.Entity.Generation() {
			fail("difference %d on entity %v, want %v", i, g.Entity, w.Entity)
		}
		g.Entity, w.Entity = ecs.Entity{}, ecs.Entity{}
		if g != w {
			fail("difference %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

type dfOwner struct{}
type dfNamed struct {
	On   bool
	Hits [3]uint16
}

// dfWorldX is dfWorld with an exclusive relation of a pair type of no
// size (every fourth entity owned by the first) and a component type
// registered under a name of its own.
func dfWorldX(n int) (*ecs.World, []ecs.Entity) {
	w, es := dfWorld(n)
	ecs.Register[dfNamed](w, ecs.Name("df/named"))
	owner, named := ecs.NewRelation[dfOwner](w), ecs.NewMap[dfNamed](w)
	for i := 4; i < n; i += 4 {
		owner.Add(es[i], es[0])
		named.Set(es[i], dfNamed{On: true, Hits: [3]uint16{uint16(i)}})
	}
	return w, es
}

// mutateDF makes up to four random changes to b, one of dfWorld's worlds
// (es its entities), of every kind Diff reports: values (a float, a
// slice's element and length, a string), components and sparse values
// added and removed, despawns and spawns, relation pairs, the resource,
// and rows moved so that the iteration order changes.
func mutateDF(rng *rand.Rand, b *ecs.World, es []ecs.Entity) {
	pos, vel, mark, bag := ecs.NewMap[dfPos](b), ecs.NewMap[dfVel](b), ecs.NewMap[dfMark](b), ecs.NewMap[dfBag](b)
	link := ecs.NewRelation[dfLink](b, ecs.Multi())
	owner, named := ecs.NewRelation[dfOwner](b), ecs.NewMap[dfNamed](b)
	for range rng.IntN(5) {
		e := es[rng.IntN(len(es))]
		if !b.Alive(e) {
			continue
		}
		switch rng.IntN(17) {
		case 0:
			pos.Get(e).Y += 0.5
		case 1:
			vel.Set(e, dfVel{2, 2})
		case 2:
			mark.Remove(e)
		case 3:
			b.Despawn(e)
		case 4:
			link.Set(e, es[rng.IntN(len(es))], dfLink{-1})
		case 5:
			pos.Set(e, *pos.Get(e)) // no change
		case 6:
			bag.Set(e, dfBag{Name: "bag", Items: []int32{int32(rng.IntN(4))}, Grid: [2][2]int8{{1, 2}, {3, int8(rng.IntN(3))}}})
		case 7:
			if x, ok := bag.TryGet(e); ok {
				x.Items = append(x.Items, 7)
				x.Name += "!"
			}
		case 8:
			mark.Set(e, dfMark{N: rng.IntN(3)})
		case 9:
			vel.Set(e, dfVel{})
			vel.Remove(e) // the row moves to the table's end
		case 10:
			pos.Spawn(dfPos{X: 1})
		case 11:
			if c := ecs.GetResource[dfClock](b); c != nil {
				c.Tick += int64(rng.IntN(2))
			}
		case 12:
			if rng.IntN(2) == 0 {
				ecs.RemoveResource[dfClock](b)
			}
		case 13:
			link.Remove(e, es[rng.IntN(len(es))])
		case 14:
			if t := es[rng.IntN(len(es))]; t != e && b.Alive(t) {
				owner.Set(e, t, dfOwner{})
			}
		case 15:
			owner.RemoveTargets(e)
		case 16:
			if x, ok := named.TryGet(e); ok {
				x.Hits[rng.IntN(3)]++
				x.On = rng.IntN(2) == 0
			} else {
				named.Set(e, dfNamed{})
			}
		}
	}
}

// TestDiffSavesAgreesWithDiff: for two random worlds, comparing their save
// files reports what comparing the worlds reports, difference for
// difference, in the same order, with the same counts.
func TestDiffSavesAgreesWithDiff(t *testing.T) {
	differing, seen := 0, map[string]bool{}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 5))
		a, esa := dfWorldX(30)
		b, es := dfWorldX(30)
		if seed%4 == 0 {
			mutateDF(rng, a, esa) // changes on both sides
		}
		mutateDF(rng, b, es)
		limit := 1000
		if seed%5 == 0 {
			limit = 3
		}
		want := ecs.Diff(a, b, limit)
		got := diffSavesOf(t, a, b, limit)
		sameReport(t, "seed "+strconv.Itoa(int(seed)), got, want)
		if !want.Equal() {
			differing++
		}
		for _, d := range want.Differences {
			seen[d.Kind.String()+" "+d.Part.String()] = true
		}
	}
	if differing < 200 {
		t.Fatalf("only %d of 300 pairs differ: the mutations are too weak to test anything", differing)
	}
	for _, k := range []string{"only in A entities", "only in B entities", "differs entities", "only in A component",
		"only in B component", "differs component", "order differs component", "only in A relation", "only in B relation",
		"differs relation", "differs resource", "only in A resource"} {
		if !seen[k] {
			t.Errorf("no pair differs as %q: the mutations miss it (seen %v)", k, seen)
		}
	}
}

// TestDiffSavesAgreesWithDiffOnSnapWorlds runs the same check on the
// save tests' worlds, whose types hold more kinds of values, after a
// common start and then random steps apart. snapBag is no Checksummer, so
// Diff (as the checksum) does not see its slice's elements, which the
// files hold: DiffSaves reports them too, and only them besides.
func TestDiffSavesAgreesWithDiffOnSnapWorlds(t *testing.T) {
	bags := 0
	for seed := range uint64(80) {
		a, b := newSnapWorld(), newSnapWorld()
		var la, lb []ecs.Entity
		ra, rb := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
		for range 60 {
			a.step(ra, &la)
			b.step(rb, &lb)
		}
		ra, rb = rand.New(rand.NewPCG(seed, 2)), rand.New(rand.NewPCG(seed, 3))
		for range int(seed % 4) {
			a.step(ra, &la)
			b.step(rb, &lb)
		}
		got, want := diffSavesOf(t, a.w, b.w, 1e6), ecs.Diff(a.w, b.w, 1e6)
		var kept []ecs.Difference
		for _, d := range got.Differences {
			if d.Kind == ecs.ValueDiffers && d.Type == pfx+"snapBag" && strings.HasPrefix(d.Field, "Items[") {
				bags++
				continue
			}
			kept = append(kept, d)
		}
		got = ecs.DiffReport{Differences: kept, Total: len(kept), Entities: entitiesIn(kept), Parts: partsOf(kept)}
		want.Entities = entitiesIn(want.Differences)
		sameReport(t, "seed "+strconv.Itoa(int(seed)), got, want)
	}
	if bags == 0 {
		t.Fatal("no bag's items differ: the slices are not tested")
	}
}

// entitiesIn counts the entities named in ds.
func entitiesIn(ds []ecs.Difference) int {
	seen := map[uint32]bool{}
	for _, d := range ds {
		if !d.Entity.IsZero() {
			seen[d.Entity.Index()] = true
		}
	}
	return len(seen)
}

// partsOf counts the differences of ds per part, as DiffReport.Parts.
func partsOf(ds []ecs.Difference) []ecs.PartCount {
	var out []ecs.PartCount
	for _, d := range ds {
		i := slices.IndexFunc(out, func(p ecs.PartCount) bool { return p.Part == d.Part && p.Type == d.Type })
		if i < 0 {
			out = append(out, ecs.PartCount{Part: d.Part, Type: d.Type})
			i = len(out) - 1
		}
		out[i].N++
	}
	slices.SortFunc(out, func(x, y ecs.PartCount) int {
		if x.Part != y.Part {
			return int(x.Part) - int(y.Part)
		}
		return strings.Compare(x.Type, y.Type)
	})
	return out
}

// TestDiffSavesNamesTheField checks paths and values of each kind of
// place against fixed expectations, not only against Diff.
func TestDiffSavesNamesTheField(t *testing.T) {
	a, _ := dfWorld(20)
	b, es := dfWorld(20)
	ecs.NewMap[dfPos](b).Get(es[7]).Y = 1.5
	ecs.NewMap[dfBag](b).Get(es[0]).Items[2] = 9
	ecs.NewRelation[dfLink](b, ecs.Multi()).Set(es[3], es[4], dfLink{0.25})
	ecs.GetResource[dfClock](b).Tick = 8
	r := diffSavesOf(t, a, b, 100)
	want := []string{
		"entity 8v0 component " + pfx + "dfPos field Y: differs: A 14, B 1.5",
		"entity 1v0 component " + pfx + "dfBag field Items[2]: differs: A 3, B 9",
		"entity 4v0 relation Relation[" + pfx + "dfLink] field Values[0].W: differs: A 4, B 0.25",
		"resource " + pfx + "dfClock field Tick: differs: A 7, B 8",
	}
	if r.Total != len(want) {
		t.Fatalf("%d differences, want %d:\n%v", r.Total, len(want), &r)
	}
	for i, d := range r.Differences {
		if d.String() != want[i] {
			t.Errorf("difference %d:\n got %s\nwant %s", i, d, want[i])
		}
	}
}

// TestDiffSavesOfGoldenFiles: the committed file of version 1 holds the
// world of version 2 without its events, so the two differ in the event
// queues only; a file compared with itself has no difference.
func TestDiffSavesOfGoldenFiles(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("testdata", "save_v1.bin"))
	if err != nil {
		t.Fatal(err)
	}
	v2, err := os.ReadFile(filepath.Join("testdata", "save_v2.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range [][]byte{v1, v2} {
		if r, err := ecs.DiffSaves(bytes.NewReader(f), bytes.NewReader(f), 10); err != nil || !r.Equal() {
			t.Fatalf("a file against itself: %v\n%v", err, &r)
		}
	}
	r, err := ecs.DiffSaves(bytes.NewReader(v1), bytes.NewReader(v2), 10)
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 2 || r.Entities != 0 {
		t.Fatalf("version 1 against 2: want the two event queues only:\n%v", &r)
	}
	for _, d := range r.Differences {
		if d.Part != ecs.PartEvents || d.Kind != ecs.OnlyInB {
			t.Fatalf("version 1 against 2: %v", d)
		}
	}
	if d := r.Differences[0]; d.Type != pfx+"goldenHit" || d.B != "4 sent, 4 unread" {
		t.Fatalf("first queue: %v", d)
	}
	// An event of the queue changed: named by its place and field.
	w := goldenWorld2()
	ecs.EventsOf[goldenHit](w.w).Send(goldenHit{Note: "more"})
	r, err = ecs.DiffSaves(bytes.NewReader(v2), bytes.NewReader(saveOf(t, w.w)), 10)
	if err != nil {
		t.Fatal(err)
	}
	got := r.String()
	for _, s := range []string{"field sent: differs: A 4, B 5", "field unread.len: differs: A 4, B 5", "field readers' events left: differs: A [1 4], B [2 5]"} {
		if !strings.Contains(got, s) {
			t.Errorf("report lacks %q:\n%s", s, got)
		}
	}
}

// TestDiffSavesRefusesBadFiles: a damaged section is an error naming the
// section and the file; so are a truncated file, another format and a
// JSON save, never a panic.
func TestDiffSavesRefusesBadFiles(t *testing.T) {
	a, _ := dfWorld(20)
	good := saveOf(t, a)
	flipped := bytes.Clone(good)
	flipped[len(flipped)-30] ^= 1
	var js bytes.Buffer
	if err := a.SaveJSON(&js); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		a, b []byte
		file string
		msg  string
	}{
		{"flipped bit", good, flipped, "B", "is corrupt: its CRC-32C is"},
		{"truncated", good[:len(good)/2], good, "A", "bytes left"},
		{"empty", good, nil, "B", "not a Tessera save file"},
		{"json", js.Bytes(), good, "A", "a JSON save"},
		{"version", append([]byte("tessera\x00\x07"), good[9:]...), good, "A", "version 7"},
	}
	for _, c := range cases {
		_, err := ecs.DiffSaves(bytes.NewReader(c.a), bytes.NewReader(c.b), 10)
		var fe *ecs.SaveFileError
		if !errors.As(err, &fe) || fe.File != c.file || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "ecs: DiffSaves: "+c.file+":") || errors.Unwrap(fe) != fe.Err {
			t.Errorf("%s: %v (file %v), want an error of file %s saying %q", c.name, err, fe, c.file, c.msg)
		}
	}
	// The section is named: the flipped bit lies in the resource section,
	// the last of this file.
	_, err := ecs.DiffSaves(bytes.NewReader(good), bytes.NewReader(flipped), 10)
	if err == nil || !strings.Contains(err.Error(), "resource 1 of 1") {
		t.Errorf("the damaged section is not named: %v", err)
	}
}

// TestDiffSavesBoundedWork: values of no size claimed by the billion, in
// a few bytes, cost neither time nor memory (compared and formatted at
// once), and a long string or slice is formatted only up to the cut.
func TestDiffSavesBoundedWork(t *testing.T) {
	type huge struct {
		Tags []struct{}
		Big  [1 << 30]struct{}
		Text string
		Nums []int64
	}
	a, b := ecs.NewWorld(), ecs.NewWorld()
	ecs.NewMap[huge](a).Spawn(huge{Tags: make([]struct{}, 1<<30), Text: strings.Repeat("x", 1<<20), Nums: make([]int64, 1<<16)})
	ecs.NewMap[dfPos](b).Spawn(dfPos{})
	done := make(chan ecs.DiffReport, 1)
	go func() { done <- diffSavesOf(t, a, b, 10) }()
	select {
	case r := <-done:
		d := r.Differences[1]
		if r.Total != 2 || len(d.A) != 203 || !strings.HasSuffix(d.A, "...") || !strings.HasPrefix(d.A, "{Tags:[{} {}") {
			t.Fatalf("report:\n%v", &r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("DiffSaves of values of no size did not finish in 5 s")
	}
}

// FuzzDiffSaves: whatever the bytes, DiffSaves returns a report or an
// error, never panics, and a file compared with itself has no difference.
func FuzzDiffSaves(f *testing.F) {
	for _, name := range []string{"save_v1.bin", "save_v2.bin"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b)
		}
	}
	w, _ := dfWorld(12)
	f.Add(saveOf(f, w))
	f.Add(saveOf(f, newSnapWorld().w))
	for _, b := range craftedBinary() {
		f.Add(b)
	}
	ref := saveOf(f, w)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, data := range withSectionCRCs(data) {
			r, err := ecs.DiffSaves(bytes.NewReader(data), bytes.NewReader(data), 5)
			if err != nil {
				var fe *ecs.SaveFileError
				if !errors.As(err, &fe) || fe.File != "A" {
					t.Fatalf("error %v, want a SaveFileError of file A", err)
				}
				continue
			}
			if !r.Equal() {
				t.Fatalf("a file differs from itself:\n%v", &r)
			}
			if _, err := ecs.DiffSaves(bytes.NewReader(ref), bytes.NewReader(data), 5); err != nil {
				t.Fatalf("a file read once fails the second time: %v", err)
			}
		}
	})
}

// BenchmarkDiffSaves compares the save files of two worlds of 100,000
// entities with three components each (two of fixed size, one holding a
// string), a hundred values apart.
func BenchmarkDiffSaves(b *testing.B) {
	build := func(changed bool) []byte {
		w := ecs.NewWorld()
		pos, vel, name := ecs.NewMap[dfPos](w), ecs.NewMap[dfVel](w), ecs.NewMap[snapName](w)
		for i := range 100_000 {
			e := w.Spawn()
			pos.Set(e, dfPos{float32(i), 1})
			vel.Set(e, dfVel{1, float32(i % 7)})
			name.Set(e, snapName{S: "entity " + strconv.Itoa(i)})
			if changed && i%1000 == 0 {
				pos.Get(e).Y = 2
			}
		}
		return saveOf(b, w)
	}
	fa, fb := build(false), build(true)
	b.SetBytes(int64(len(fa) + len(fb)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := ecs.DiffSaves(bytes.NewReader(fa), bytes.NewReader(fb), 20)
		if err != nil || r.Total != 100 {
			b.Fatalf("%v, %d differences", err, r.Total)
		}
	}
}

// TestDiffSavesManyColumns: a table that lists 200,000 types (of no size,
// so its rows take no bytes beyond their entity) is read and compared in
// time linear in the file, not in the square of its columns.
func TestDiffSavesManyColumns(t *testing.T) {
	const k = 200_000
	b := saveHeader(1).uv(k)
	for i := range k {
		b = b.str("t" + strconv.Itoa(i))
		b = append(b, 0) // table storage
		b = append(b, structOf()...)
	}
	b = b.uv(1, k) // one table of k columns
	for i := range k {
		b = b.uv(uint64(i))
	}
	b = b.uv(1, 1, 0, 0) // one row, entity 1; no sparse set, no resource
	done := make(chan error, 1)
	go func() {
		r, err := ecs.DiffSaves(bytes.NewReader(b), bytes.NewReader(b), 10)
		if err == nil && !r.Equal() {
			err = errors.New(r.String())
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("DiffSaves of a table of 200,000 columns did not finish in 10 s")
	}
}
