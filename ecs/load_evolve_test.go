package ecs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// evolveGolden is a save file written by an earlier version of a program
// whose types have changed since: the V1 types below, a resource and an
// event queue (go test ./ecs -run LoadOldSchemas -update rewrites it from
// them). TestLoadOldSchemas loads it into today's types.
const evolveGolden = "evolve_v1.bin"

// The component types as version 1 declared them, under the stable names
// evolve.Unit and evolve.Bag (sparse storage).
type evolveUnitV1 struct {
	Name   string
	HP     int32
	Pos    [2]float32
	Tags   []string      // dropped since: a slice of strings
	Armor  evolveArmorV1 // gained a field, and reordered
	Grid   [2][3]int8    // dropped: a fixed-size array of arrays
	Log    [][]string    // dropped: slices of slices
	Notes  [2]string     // dropped: an array of strings
	Stamp  evolveStampV1 // dropped: a struct with a string
	Target ecs.Entity
	Alive  bool
}

type evolveArmorV1 struct {
	Kind  uint8
	Value int16
}

type evolveStampV1 struct {
	By   string
	Tick uint32
}

type evolveBagV1 struct {
	Gold  int64
	Items []evolveItemV1
}

type evolveItemV1 struct {
	ID    uint32
	Count int16 // dropped since
	Note  string
	Owner ecs.Entity
}

// Today's types: fields matched by name, in another order, some gained.
type evolveUnit struct {
	Alive  bool
	Target ecs.Entity
	HP     int32
	Name   string
	Pos    [2]float32
	Level  uint16   // gained: loads as zero
	Buffs  []string // gained: loads as nil
	Armor  evolveArmor
}

type evolveArmor struct {
	Value  int16
	Rating float64 // gained
	Kind   uint8
}

type evolveBag struct {
	Items []evolveItem
	Gold  int64
}

type evolveItem struct {
	Note   string
	Owner  ecs.Entity
	ID     uint32
	Weight float32 // gained
}

// evolveV1World builds the world the golden file holds. Its resource and
// event types are declared here, as version 1 declared them: a resource
// or an event queue is known by its Go type's name, which the types
// declared in TestLoadOldSchemas share.
func evolveV1World() *ecs.World {
	type evolveClock struct {
		Tick   uint64
		Paused bool // dropped since
		Speed  float32
	}
	type evolvePing struct {
		From ecs.Entity
		Seq  uint32
		Text string // dropped since
	}
	w := ecs.NewWorld()
	ecs.Register[evolveUnitV1](w, ecs.Name("evolve.Unit"))
	ecs.Register[evolveBagV1](w, ecs.Name("evolve.Bag"), ecs.Sparse())
	units, bags := ecs.NewMap[evolveUnitV1](w), ecs.NewMap[evolveBagV1](w)
	w.Despawn(w.Spawn()) // the archer takes index 1 again, at generation 1
	a := units.Spawn(evolveUnitV1{
		Name: "archer", HP: 40, Pos: [2]float32{1.5, -2}, Tags: []string{"ranged", "elf"},
		Armor: evolveArmorV1{Kind: 2, Value: -7}, Grid: [2][3]int8{{1, 2, 3}, {4, 5, 6}},
		Log: [][]string{{"spawned"}, {}, {"hit", "healed"}}, Notes: [2]string{"n1", ""},
		Stamp: evolveStampV1{By: "editor", Tick: 9}, Alive: true,
	})
	b := units.Spawn(evolveUnitV1{Name: "", HP: -1, Pos: [2]float32{0, 3}, Target: a})
	units.Get(a).Target = b
	bags.Add(a, evolveBagV1{Gold: 1 << 40, Items: []evolveItemV1{
		{ID: 7, Count: 3, Note: "rope", Owner: a},
		{ID: 8, Count: -1, Note: "", Owner: b},
	}})
	ecs.AddResource(w, &evolveClock{Tick: 1234, Paused: true, Speed: 0.5})
	pings := ecs.EventsOf[evolvePing](w)
	pings.NewReader()
	pings.Send(evolvePing{From: b, Seq: 1, Text: "first"})
	pings.Send(evolvePing{From: a, Seq: 2, Text: "second"})
	return w
}

// TestLoadOldSchemas: a save written by the V1 types loads into today's
// types: values of fields kept, wherever they moved; gained fields zero;
// dropped ones skipped, of every shape (fixed-size or not, nested); the
// saved entities, and references to them, as they were; the resource and
// the unread events, whose types changed too, likewise.
func TestLoadOldSchemas(t *testing.T) {
	path := filepath.Join("testdata", evolveGolden)
	if *updateGolden {
		if err := os.WriteFile(path, saveOf(t, evolveV1World()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	type evolveClock struct {
		Speed float32
		Tick  uint64
		Zone  string // gained
	}
	type evolvePing struct {
		Seq  uint32
		From ecs.Entity
		Loud bool // gained
	}
	w := ecs.NewWorld()
	ecs.Register[evolveUnit](w, ecs.Name("evolve.Unit"))
	ecs.Register[evolveBag](w, ecs.Name("evolve.Bag"), ecs.Sparse())
	ecs.NewResource[evolveClock](w)
	pings := ecs.EventsOf[evolvePing](w).NewReader()
	if err := w.Load(bytes.NewReader(golden)); err != nil {
		t.Fatal(err)
	}

	units := ecs.NewMap[evolveUnit](w)
	var a, b ecs.Entity
	for r := range ecs.NewQuery1[evolveUnit](w).All() {
		switch r.A.Name {
		case "archer":
			a = r.Entity
		case "":
			b = r.Entity
		}
	}
	if w.Len() != 2 || a.Index() != 1 || a.Generation() != 1 || b.Index() != 2 || b.Generation() != 0 || !w.Alive(a) || !w.Alive(b) {
		t.Fatalf("loaded %d entities, the archer %v and the other %v; want 2: 1v1 and 2v0", w.Len(), a, b)
	}
	wantA := evolveUnit{Alive: true, Target: b, HP: 40, Name: "archer", Pos: [2]float32{1.5, -2},
		Armor: evolveArmor{Value: -7, Kind: 2}}
	if got := *units.Get(a); !sameEvolveUnit(got, wantA) {
		t.Errorf("the archer loaded as %+v, want %+v", got, wantA)
	}
	wantB := evolveUnit{Target: a, HP: -1, Pos: [2]float32{0, 3}}
	if got := *units.Get(b); !sameEvolveUnit(got, wantB) {
		t.Errorf("the other unit loaded as %+v, want %+v", got, wantB)
	}
	bags := ecs.NewMap[evolveBag](w)
	if bags.Has(b) {
		t.Error("an entity saved without a bag has one")
	}
	bag := bags.Get(a)
	wantItems := []evolveItem{{Note: "rope", Owner: a, ID: 7}, {Note: "", Owner: b, ID: 8}}
	if bag.Gold != 1<<40 || !slices.Equal(bag.Items, wantItems) {
		t.Errorf("the bag loaded as %+v, want gold %d and items %+v", *bag, int64(1<<40), wantItems)
	}
	if clock := ecs.GetResource[evolveClock](w); *clock != (evolveClock{Speed: 0.5, Tick: 1234}) {
		t.Errorf("the clock loaded as %+v", *clock)
	}
	wantPings := []evolvePing{{Seq: 1, From: b}, {Seq: 2, From: a}}
	if got := pings.Read(); !slices.Equal(got, wantPings) {
		t.Errorf("the unread events loaded as %+v, want %+v", got, wantPings)
	}
	// The entity index is the file's: the next spawn takes index 3.
	if e := w.Spawn(); e.Index() != 3 || e.Generation() != 0 {
		t.Errorf("the first spawn after the load is %v, want 3v0", e)
	}
}

// evolveHost is what the crafted files of TestLoadSkipsTruncatedFields
// are loaded as: their one other field, Gone, it no longer has.
type evolveHost struct{ V int32 }

// TestLoadSkipsTruncatedFields: a version 1 file (no sections, so no
// lengths to check first) whose dropped field claims more than the file
// holds fails with an error, whatever the field's shape, and leaves the
// world empty.
func TestLoadSkipsTruncatedFields(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     saveBytes
		value saveBytes
		want  string
	}{
		{"[4]int64, 3 bytes left", arrayOf(4, kindOf(kindInt64)), saveBytes{1, 2, 3}, "1 values of 32 bytes do not fit"},
		// The file ends with two bytes of its own: no sparse set, no resource.
		{"[9]string, 3 bytes left", arrayOf(9, kindOf(kindString)), saveBytes{}.uv(0), "9 values of at least a byte do not fit"},
		{"[3]string, the first too long", arrayOf(3, kindOf(kindString)), saveBytes{}.uv(200, 0, 0, 0), "a count of 200, more than the file holds"},
		{"[]string of 9, 2 bytes left", sliceOf(kindOf(kindString)), saveBytes{}.uv(9, 0, 0), "9"},
		{"struct{string}, no byte left", structOf(schemaField{"S", kindOf(kindString)}), nil, "truncated"},
	} {
		s := structOf(schemaField{"Gone", c.s}, schemaField{"V", kindOf(kindInt32)})
		w := ecs.NewWorld()
		ecs.Register[evolveHost](w, ecs.Name("evolve.host"))
		err := w.Load(bytes.NewReader(componentFile("evolve.host", false, s, c.value)))
		if err == nil || !strings.Contains(err.Error(), c.want) || w.Len() != 0 {
			t.Errorf("%s: %v, %d entities; want an error containing %q and none", c.name, err, w.Len(), c.want)
		}
	}
}

func sameEvolveUnit(a, b evolveUnit) bool {
	return a.Alive == b.Alive && a.Target == b.Target && a.HP == b.HP && a.Name == b.Name &&
		a.Pos == b.Pos && a.Level == b.Level && slices.Equal(a.Buffs, b.Buffs) && a.Armor == b.Armor
}

// Types whose change since version 1 a load cannot bridge: a kind, an
// array's length or a slice's element changed.
type (
	evolveWiderHP struct{ HP int64 }
	evolveLongPos struct{ Pos [3]float32 }
	evolveFlatTag struct{ Tags string }
	evolveArmorI  struct{ Armor struct{ Value int32 } }
	evolveLongIDs struct{ Items []struct{ ID uint64 } }
	evolvePtrHP   struct{ HP *int32 }
	evolveGridOf  struct{ Grid [2][3]int16 }
)

// TestLoadOldSchemasRefused: a field whose kind changed, an array of
// another length, a slice become a string, a nested field or slice
// element of another kind, a field now of a type no save can hold: the
// load fails naming the saved type and the field's path, and leaves the
// world empty. Every cut of the file fails too, into today's types.
func TestLoadOldSchemasRefused(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", evolveGolden))
	if err != nil {
		t.Fatal(err)
	}
	type evolveClock struct{ Tick uint64 }
	type evolvePing struct{ Seq uint32 }
	world := func(register func(w *ecs.World)) *ecs.World {
		w := ecs.NewWorld()
		register(w)
		ecs.NewResource[evolveClock](w)
		ecs.EventsOf[evolvePing](w).NewReader()
		return w
	}
	unit := func(register func(*ecs.World, ...ecs.ComponentOption)) func(*ecs.World) {
		return func(w *ecs.World) {
			register(w, ecs.Name("evolve.Unit"))
			ecs.Register[evolveBag](w, ecs.Name("evolve.Bag"), ecs.Sparse())
		}
	}
	for _, c := range []struct {
		name     string
		register func(w *ecs.World)
		want     string
	}{
		{"a wider int", unit(ecs.Register[evolveWiderHP]), "evolveWiderHP.HP was saved as int32 and is now int64"},
		{"a longer array", unit(ecs.Register[evolveLongPos]), "evolveLongPos.Pos was saved as [2]float32 and is now [3]float32"},
		{"a slice become a string", unit(ecs.Register[evolveFlatTag]), "evolveFlatTag.Tags was saved as []string and is now string"},
		{"a nested field", unit(ecs.Register[evolveArmorI]), "evolveArmorI.Armor.Value was saved as int16 and is now int32"},
		{"an array's element", unit(ecs.Register[evolveGridOf]), "evolveGridOf.Grid[][] was saved as int8 and is now int16"},
		{"a pointer", unit(ecs.Register[evolvePtrHP]), "evolvePtrHP.HP is a ptr, which a save cannot hold"},
		{"a slice's element", func(w *ecs.World) {
			ecs.Register[evolveUnit](w, ecs.Name("evolve.Unit"))
			ecs.Register[evolveLongIDs](w, ecs.Name("evolve.Bag"), ecs.Sparse())
		}, "evolveLongIDs.Items[].ID was saved as uint32 and is now uint64"},
	} {
		w := world(c.register)
		err := w.Load(bytes.NewReader(golden))
		saved := `component type "evolve.Unit"`
		if strings.Contains(c.want, "Items") {
			saved = `component type "evolve.Bag"`
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), saved) {
			t.Errorf("%s: %v, want an error naming %s and containing %q", c.name, err, saved, c.want)
		}
		if w.Len() != 0 {
			t.Errorf("%s: the failed load left %d entities", c.name, w.Len())
		}
	}

	today := func(w *ecs.World) {
		ecs.Register[evolveUnit](w, ecs.Name("evolve.Unit"))
		ecs.Register[evolveBag](w, ecs.Name("evolve.Bag"), ecs.Sparse())
	}
	// The resource: absent from the world, or of a changed kind. It is
	// known by its Go type's name, which this scope's type shares.
	noClock := ecs.NewWorld()
	today(noClock)
	ecs.EventsOf[evolvePing](noClock).NewReader()
	if err := noClock.Load(bytes.NewReader(golden)); err == nil || !strings.Contains(err.Error(), "evolveClock\" is not in this world") {
		t.Errorf("a resource the world lacks: %v", err)
	}
	func() {
		type evolveClock struct{ Tick int32 }
		w := ecs.NewWorld()
		today(w)
		ecs.NewResource[evolveClock](w)
		ecs.EventsOf[evolvePing](w).NewReader()
		if err := w.Load(bytes.NewReader(golden)); err == nil || !strings.Contains(err.Error(), "Tick was saved as uint64 and is now int32") || w.Len() != 0 {
			t.Errorf("a resource's field of another kind: %v, %d entities", err, w.Len())
		}
	}()

	for n := range len(golden) {
		w := world(today)
		if err := w.Load(bytes.NewReader(golden[:n])); err == nil {
			t.Fatalf("the golden file cut to %d of %d bytes loaded", n, len(golden))
		}
		if w.Len() != 0 {
			t.Fatalf("a failed load of %d bytes left %d entities", n, w.Len())
		}
	}
}
