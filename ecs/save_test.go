package ecs_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden save files in testdata")

// saveOf saves w, failing the test on error.
func saveOf(t testing.TB, w *ecs.World) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := w.Save(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSaveLoadRoundTrip: random worlds saved and loaded into a new world
// built the same way come back with the same checksum, rows, values,
// resources and next spawned ids.
func TestSaveLoadRoundTrip(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 9))
		s := newSnapWorld()
		var live []ecs.Entity
		for range r.IntN(150) {
			s.step(r, &live)
		}
		data := saveOf(t, s.w)
		back := newSnapWorld()
		if err := back.w.Load(bytes.NewReader(data)); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got, want := back.dump(), s.dump(); got != want {
			t.Fatalf("seed %d: loaded world differs\nsaved:\n%s\nloaded:\n%s", seed, want, got)
		}
		if got, want := back.w.Checksum(), s.w.Checksum(); got != want {
			t.Fatalf("seed %d: checksum %x after load, %x before save", seed, got, want)
		}
		for i := range 5 {
			a, b := s.w.Spawn(), back.w.Spawn()
			if a.Index() != b.Index() || a.Generation() != b.Generation() {
				t.Fatalf("seed %d: spawn %d after load gave %v, the saved world %v", seed, i, b, a)
			}
		}
		if a, b := saveOf(t, s.w), saveOf(t, back.w); !bytes.Equal(a, b) {
			t.Fatalf("seed %d: after the same spawns, the loaded world saves to other bytes than the saved one", seed)
		}
	}
}

type evoV1 struct {
	A int32
	B string
	C float64
	L []uint16
}

type evoV2 struct {
	C float64
	D int64
	A int32
	L []uint16
}

type evoV3 struct{ A int64 }

// TestLoadSchemaEvolution: fields are matched by name; a new field is zero,
// a dropped one skipped, a changed kind an error naming type and field.
func TestLoadSchemaEvolution(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[evoV1](w, ecs.Name("game.Evo"))
	m := ecs.NewMap[evoV1](w)
	e := m.Spawn(evoV1{A: 7, B: "gone", C: 2.5, L: []uint16{1, 2}})
	data := saveOf(t, w)

	w2 := ecs.NewWorld()
	ecs.Register[evoV2](w2, ecs.Name("game.Evo"))
	m2 := ecs.NewMap[evoV2](w2)
	if err := w2.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if n := ecs.NewQuery1[evoV2](w2).Count(); n != 1 {
		t.Fatalf("%d entities loaded, want 1", n)
	}
	for r := range ecs.NewQuery1[evoV2](w2).All() {
		v := *r.A
		if r.Entity.Index() != e.Index() || v.A != 7 || v.C != 2.5 || v.D != 0 || !slices.Equal(v.L, []uint16{1, 2}) || !m2.Has(r.Entity) {
			t.Fatalf("loaded %v %+v, want index %d with A 7, C 2.5, D 0, L [1 2]", r.Entity, v, e.Index())
		}
	}

	w3 := ecs.NewWorld()
	ecs.Register[evoV3](w3, ecs.Name("game.Evo"))
	ecs.NewMap[evoV3](w3)
	err := w3.Load(bytes.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), `"game.Evo"`) || !strings.Contains(err.Error(), "evoV3.A was saved as int32 and is now int64") {
		t.Fatalf("a changed kind: %v", err)
	}
	if w3.Len() != 0 || w3.Checksum() != ecs.NewWorld().Checksum() {
		t.Fatal("a failed load changed the world")
	}
}

// TestLoadRefusesAndKeepsTheWorld: every prefix of a save and every
// mismatch fails with an error and leaves the target as it was.
func TestLoadRefusesAndKeepsTheWorld(t *testing.T) {
	s := newSnapWorld()
	r := rand.New(rand.NewPCG(1, 2))
	var live []ecs.Entity
	for range 60 {
		s.step(r, &live)
	}
	data := saveOf(t, s.w)
	target := newSnapWorld()
	empty := target.w.Checksum()
	for n := range len(data) {
		if err := target.w.Load(bytes.NewReader(data[:n])); err == nil {
			t.Fatalf("a save cut to %d of %d bytes loaded", n, len(data))
		}
		if target.w.Checksum() != empty {
			t.Fatalf("a failed load of %d bytes changed the world", n)
		}
	}
	cases := []struct {
		name string
		mk   func() *ecs.World
		want string
	}{
		{"unknown type", func() *ecs.World { return ecs.NewWorld() }, "is not known to this world"},
		{"not new", func() *ecs.World { w := newSnapWorld(); w.w.Spawn(); return w.w }, "load into a new world"},
	}
	for _, c := range cases {
		w := c.mk()
		before := w.Checksum()
		if err := w.Load(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
		if w.Checksum() != before {
			t.Errorf("%s: the failed load changed the world", c.name)
		}
	}
	src := ecs.NewWorld()
	ecs.Register[snapHeat](src, ecs.Sparse())
	ecs.NewMap[snapHeat](src).Add(src.Spawn(), snapHeat{V: 1})
	dst := ecs.NewWorld()
	ecs.NewMap[snapHeat](dst)
	if err := dst.Load(bytes.NewReader(saveOf(t, src))); err == nil || !strings.Contains(err.Error(), "saved with sparse storage, and this world has table") {
		t.Errorf("another storage: %v", err)
	}
	if err := target.w.Load(strings.NewReader("not a save file at all")); err == nil || !strings.Contains(err.Error(), "not a Tessera save file") {
		t.Errorf("garbage: %v", err)
	}
}

type savePtr struct{ P *int }

func TestSaveRefusesPointers(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[savePtr](w).Spawn(savePtr{})
	err := w.Save(&bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "savePtr.P is a ptr") {
		t.Fatalf("saving a pointer field: %v", err)
	}
}

// saveTree holds itself through a slice.
type saveTree struct {
	V    int32
	Kids []saveTree
}

// TestSaveRefusesSelfHoldingTypes: a type that holds itself has no finite
// schema: Save and SaveJSON return an error naming the path, and do not
// recurse forever.
func TestSaveRefusesSelfHoldingTypes(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[saveTree](w).Spawn(saveTree{V: 1, Kids: []saveTree{{V: 2}}})
	for name, save := range map[string]func(io.Writer) error{"Save": w.Save, "SaveJSON": w.SaveJSON} {
		err := save(&bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "saveTree.Kids[] is a ecs_test.saveTree, inside a ecs_test.saveTree: a type that holds itself cannot be saved") {
			t.Errorf("%s of a self-holding type: %v", name, err)
		}
	}
}

// goldenWorld is the world of the golden save files: fixed calls, every
// kind of value the format holds. The files of version 1 hold it as it is.
func goldenWorld() *snapWorld {
	s := newSnapWorld()
	r := rand.New(rand.NewPCG(42, 42))
	var live []ecs.Entity
	for range 120 {
		s.step(r, &live)
	}
	return s
}

// goldenHit and goldenPing are the event types of the golden world of
// version 2: goldenHit holds the kinds whose size depends on the machine
// (int, uint, uintptr, saved as 64 bits everywhere), an entity and a
// string.
type goldenHit struct {
	Target ecs.Entity
	Amount int
	Weight uint
	Tag    uintptr
	Scale  float32
	Note   string
}

type goldenPing struct{ N int32 }

// goldenWorld2 is goldenWorld with events, as the files of version 2 hold
// it: goldenHit has a reader that read all but the last of its 4 events
// and one that read none, goldenPing 2 events every reader has read.
func goldenWorld2() *snapWorld {
	s := goldenWorld()
	hits := ecs.EventsOf[goldenHit](s.w)
	done, behind := hits.NewReader(), hits.NewReader()
	_ = behind
	target := firstPos(s)
	for i := range 3 {
		hits.Send(goldenHit{Target: target, Amount: -1 - i, Weight: uint(1) << 31, Tag: uintptr(7 * i), Scale: 0.5, Note: fmt.Sprint("hit ", i)})
	}
	done.Read()
	hits.Send(goldenHit{Amount: 1 << 30, Note: "last"})
	pings := ecs.EventsOf[goldenPing](s.w)
	r := pings.NewReader()
	pings.SendAll([]goldenPing{{1}, {2}})
	r.Read()
	return s
}

// firstPos returns the first entity with a snapPos, in iteration order.
func firstPos(s *snapWorld) ecs.Entity {
	for r := range ecs.NewQuery1[snapPos](s.w).All() {
		return r.Entity
	}
	return ecs.Entity{}
}

// loadGolden2 loads data, a save of goldenWorld2, as the same program
// would: the goldenHit queue made before the load (the file holds events
// of it that a reader has not read), its readers after it, and the
// goldenPing queue after it too.
func loadGolden2(t *testing.T, f saveFormat, data []byte) *snapWorld {
	t.Helper()
	back := newSnapWorld()
	hits := ecs.EventsOf[goldenHit](back.w)
	if err := f.load(back.w, data); err != nil {
		t.Fatal(err)
	}
	want := goldenWorld2()
	if back.w.Checksum() != want.w.Checksum() {
		t.Fatal("the loaded world's checksum differs from the saved one's before the readers are made")
	}
	if !bytes.Equal(f.save(t, back.w), data) {
		t.Fatal("the loaded world saves to other bytes than it loaded, before the readers are made")
	}
	done, behind := hits.NewReader(), hits.NewReader()
	pings := ecs.EventsOf[goldenPing](back.w)
	if back.dump() != want.dump() || back.w.Checksum() != want.w.Checksum() {
		t.Fatal("the loaded world differs from the saved one")
	}
	if !bytes.Equal(f.save(t, back.w), data) {
		t.Fatal("the loaded world saves to other bytes than it loaded, once its readers are made")
	}
	if hits.Sent() != 4 || pings.Sent() != 2 || done.Len() != 1 || behind.Len() != 4 {
		t.Fatalf("loaded queues: %d and %d sent, readers with %d and %d left; want 4, 2, 1, 4", hits.Sent(), pings.Sent(), done.Len(), behind.Len())
	}
	target := firstPos(back)
	got := behind.Read()
	if len(got) != 4 || got[0].Target != target || !back.w.Alive(got[0].Target) || got[2].Amount != -3 || got[1].Weight != 1<<31 ||
		got[2].Tag != 14 || got[1].Scale != 0.5 || got[3].Note != "last" || got[3].Amount != 1<<30 {
		t.Fatalf("loaded events %+v", got)
	}
	if done.Read()[0].Note != "last" {
		t.Fatal("the reader that had read 3 events reads another than the last")
	}
	return back
}

// saveFormat is one of the two save formats, for the tests both share.
type saveFormat struct {
	golden1 string // the golden file of version 1, in testdata: loaded only
	golden  string // the golden file of the current version
	save    func(testing.TB, *ecs.World) []byte
	load    func(*ecs.World, []byte) error
	// crafted are files Save never writes, for a snapWorld, seeded into
	// the format's fuzz target so it starts from the shapes loaders have
	// got wrong.
	crafted func() [][]byte
}

var (
	binaryFormat = saveFormat{"save_v1.bin", "save_v2.bin", saveOf, func(w *ecs.World, b []byte) error { return w.Load(bytes.NewReader(b)) }, craftedBinary}
	jsonFormat   = saveFormat{"save_v1.json", "save_v2.json", saveJSONOf, func(w *ecs.World, b []byte) error { return w.LoadJSON(bytes.NewReader(b)) }, craftedJSON}
)

// checkGolden pins a format: goldenWorld2 saves to the committed bytes of
// the current version, on any machine, and they load back to its
// checksum, values and events; the committed file of version 1 (written
// before version 2 existed) loads to goldenWorld's checksum and values.
// -update rewrites the file of the current version.
func checkGolden(t *testing.T, f saveFormat) {
	path := filepath.Join("testdata", f.golden)
	data := f.save(t, goldenWorld2().w)
	if *updateGolden {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, golden) {
		t.Fatalf("the golden world saves to %d bytes that differ from %s (%d bytes): the format changed", len(data), path, len(golden))
	}
	loadGolden2(t, f, golden)

	old, err := os.ReadFile(filepath.Join("testdata", f.golden1))
	if err != nil {
		t.Fatal(err)
	}
	v1 := newSnapWorld()
	ecs.EventsOf[goldenPing](v1.w).NewReader()
	if err := f.load(v1.w, old); err != nil {
		t.Fatalf("%s: %v", f.golden1, err)
	}
	if want := goldenWorld(); v1.dump() != want.dump() || v1.w.Checksum() != want.w.Checksum() {
		t.Fatalf("%s loads to another world than the one it holds", f.golden1)
	}
}

// fuzzLoad checks that no input makes a format's load panic, that a failed
// load leaves the world as it was, and that a loaded world saves again.
func fuzzLoad(f *testing.F, format saveFormat) {
	for _, name := range []string{format.golden1, format.golden} {
		if golden, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(golden)
		}
	}
	f.Add(format.save(f, newSnapWorld().w))
	for _, b := range format.crafted() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, data := range withSectionCRCs(data) {
			s := newSnapWorld()
			ecs.EventsOf[goldenHit](s.w) // the golden file has events of it
			before := s.w.Checksum()
			if err := format.load(s.w, data); err != nil {
				if s.w.Checksum() != before || s.w.Len() != 0 {
					t.Fatalf("a failed load (%v) changed the world", err)
				}
				continue
			}
			format.save(t, s.w)
		}
	})
}

// craftedBinary: snapTag saved with a field of each zeroSizeSchemas
// schema, which Load skips.
func craftedBinary() [][]byte { return zeroSizeSeeds(defaultName[snapTag](), false) }

// craftedJSON: a JSON save carries no schemas (LoadJSON reads each column
// with its type's own), so nothing there claims values that take no
// bytes; the nearest is a value with unknown fields of nested empty
// arrays and an empty object, which encoding/json skips.
func craftedJSON() [][]byte {
	tag := defaultName[snapTag]()
	return [][]byte{[]byte(`{"format": "tessera", "version": 1, "next": 2, "generations": [0], "free": [],
 "types": [{"name": "` + tag + `", "storage": "table"}],
 "tables": [{"types": ["` + tag + `"], "entities": [1], "columns": [[{"Gone": [[[], []], [[]], []], "E": {}}]]}],
 "sparse": [], "resources": []}`)}
}

// TestSaveGolden pins the binary format: version 2 as Save writes it on
// any machine (go test ./ecs -run SaveGolden -update rewrites the file),
// and version 1 as Load still reads it.
func TestSaveGolden(t *testing.T) { checkGolden(t, binaryFormat) }

// FuzzLoad: no bytes make Load panic, and a failed load leaves the world
// as it was.
func FuzzLoad(f *testing.F) { fuzzLoad(f, binaryFormat) }

type nameA struct{ V int }

type nameB struct{ V int }

// TestStableNamesAreUnique: a Name that is another type's default name is
// refused, whichever comes first.
func TestStableNamesAreUnique(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[nameA](w, ecs.Name("github.com/tessera-ecs/tessera/ecs_test.nameB"))
	testhelp.MustPanic(t, func() { ecs.NewMap[nameB](w) }, "is taken by", "nameA")
	w2 := ecs.NewWorld()
	ecs.NewMap[nameB](w2)
	testhelp.MustPanic(t, func() {
		ecs.Register[nameA](w2, ecs.Name("github.com/tessera-ecs/tessera/ecs_test.nameB"))
	}, "is taken by")
}
