package gentest

import (
	"bytes"
	"fmt"
	"image/color"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// The reflection twins: the same fields, none of the generated methods,
// so World.Save and World.Load use their reflection codec for them.
type (
	plainPosition  Position
	plainScalars   Scalars
	plainHealth    Health
	plainInventory Inventory
	plainDeep      Deep
)

// stableName returns the name w's save files give T.
func stableName[T any]() string {
	w := ecs.NewWorld()
	Register(w)
	for _, c := range w.Reflect().Components() {
		if c.GoType == reflect.TypeFor[T]() {
			return c.Name
		}
	}
	panic(fmt.Sprintf("%T is not registered", *new(T)))
}

// registerPlain registers the reflection twins under the generated types'
// stable names and storages, and the types without a codec as they are.
func registerPlain(w *ecs.World) {
	ecs.Register[plainPosition](w, ecs.Name(stableName[Position]()))
	ecs.Register[plainScalars](w, ecs.Name(stableName[Scalars]()))
	ecs.Register[plainHealth](w, ecs.Name(stableName[Health]()), ecs.Sparse())
	ecs.Register[plainInventory](w, ecs.Name(stableName[Inventory]()))
	ecs.Register[Painted](w)
	ecs.Register[plainDeep](w, ecs.Name(stableName[Deep]())) // in Register's order: ids are saved
	ecs.Register[Frozen](w, ecs.Sparse())
	ecs.Register[Player](w)
}

// randomInventory returns an inventory with random contents, entities
// taken from live.
func randomInventory(r *rand.Rand, live []ecs.Entity) Inventory {
	pick := func() ecs.Entity {
		if len(live) == 0 || r.IntN(3) == 0 {
			return ecs.Entity{}
		}
		return live[r.IntN(len(live))]
	}
	inv := Inventory{Owner: pick(), Home: Position{r.NormFloat64(), r.NormFloat64()}}
	for i := range inv.Slots {
		inv.Slots[i] = Health{r.Int32N(200), r.Int32N(200)}
	}
	for range r.IntN(3) {
		inv.Names = append(inv.Names, strings.Repeat("ab", r.IntN(3)))
	}
	for i := range inv.Grid {
		for range r.IntN(3) {
			inv.Grid[i] = append(inv.Grid[i], pick())
		}
	}
	for range r.IntN(3) {
		inv.Counts = append(inv.Counts, [2]uint16{uint16(r.Uint32()), uint16(r.Uint32())})
	}
	inv.Gaps = make([][0]int8, r.IntN(3))
	for range r.IntN(3) {
		st := Stack{Item: fmt.Sprint(r.IntN(9)), Count: uint16(r.Uint32())}
		for range r.IntN(3) {
			st.Labels = append(st.Labels, fmt.Sprint(r.IntN(9)))
		}
		inv.Stacks = append(inv.Stacks, st)
	}
	return inv
}

func randomScalars(r *rand.Rand) Scalars {
	return Scalars{B: r.IntN(2) == 1, I: int(r.Int32()), I8: int8(r.Uint32()), I16: int16(r.Uint32()), I32: int32(r.Uint32()),
		I64: int64(r.Uint64()), U: uint(r.Uint64()), U8: uint8(r.Uint32()), U16: uint16(r.Uint32()), U32: r.Uint32(), U64: r.Uint64(),
		F32: float32(r.NormFloat64()), F64: r.NormFloat64(), S: fmt.Sprint(r.IntN(1000))}
}

// randomWorld fills w (with the generated types, or their twins when
// plain) from seed: the same calls either way, so the two worlds hold the
// same values.
func randomWorld(w *ecs.World, seed uint64, plain bool) {
	r := rand.New(rand.NewPCG(seed, 11))
	var live []ecs.Entity
	for range 50 + r.IntN(50) {
		e := w.Spawn()
		live = append(live, e)
		if r.IntN(2) == 0 {
			add(w, plain, e, Position{r.NormFloat64(), r.NormFloat64()})
		}
		if r.IntN(3) == 0 {
			add(w, plain, e, randomScalars(r))
		}
		if r.IntN(3) == 0 {
			add(w, plain, e, Health{r.Int32N(100), 100})
		}
		if r.IntN(2) == 0 {
			add(w, plain, e, randomInventory(r, live))
		}
		if r.IntN(3) == 0 {
			add(w, plain, e, randomDeep(r, live))
		}
		if r.IntN(4) == 0 {
			ecs.NewMap[Painted](w).Add(e, Painted{Tint: color.RGBA{uint8(r.Uint32()), 2, 3, 4}, Layer: uint8(r.Uint32())})
		}
		if r.IntN(5) == 0 {
			ecs.NewMap[Frozen](w).Add(e, Frozen{})
		}
		if r.IntN(5) == 0 {
			ecs.NewMap[Player](w).Add(e, Player{})
		}
		if r.IntN(6) == 0 && len(live) > 1 {
			i := r.IntN(len(live) - 1)
			w.Despawn(live[i])
			live = append(live[:i], live[i+1:]...)
		}
	}
}

// add gives e the value v, or its reflection twin when plain.
func add(w *ecs.World, plain bool, e ecs.Entity, v any) {
	switch v := v.(type) {
	case Position:
		if plain {
			ecs.NewMap[plainPosition](w).Add(e, plainPosition(v))
		} else {
			ecs.NewMap[Position](w).Add(e, v)
		}
	case Scalars:
		if plain {
			ecs.NewMap[plainScalars](w).Add(e, plainScalars(v))
		} else {
			ecs.NewMap[Scalars](w).Add(e, v)
		}
	case Health:
		if plain {
			ecs.NewMap[plainHealth](w).Add(e, plainHealth(v))
		} else {
			ecs.NewMap[Health](w).Add(e, v)
		}
	case Inventory:
		if plain {
			ecs.NewMap[plainInventory](w).Add(e, plainInventory(v))
		} else {
			ecs.NewMap[Inventory](w).Add(e, v)
		}
	case Deep:
		if plain {
			ecs.NewMap[plainDeep](w).Add(e, plainDeep(v))
		} else {
			ecs.NewMap[Deep](w).Add(e, v)
		}
	}
}

func save(t *testing.T, w *ecs.World) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := w.Save(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCodecs: the generated types have the codec methods, except the one
// with an imported field, which falls back to reflection.
func TestCodecs(t *testing.T) {
	for _, v := range []any{&Position{}, &Scalars{}, &Health{}, &Inventory{}, &Deep{}, &Tuning{}, &Rig{}, &Frozen{}, &Player{}} {
		if _, ok := v.(ecs.BinaryCodec); !ok {
			t.Errorf("%T has no generated codec", v)
		}
	}
	if _, ok := any(&Painted{}).(ecs.BinaryCodec); ok {
		t.Error("Painted has a generated codec, but its color.RGBA field cannot be encoded without reflection")
	}
}

// TestSaveLoadRoundTrip: random worlds of the generated types save and
// load back to the same checksum and the same bytes; the generated codecs
// write byte for byte what the reflection codec writes, and each side's
// file loads into the other.
func TestSaveLoadRoundTrip(t *testing.T) {
	for seed := range uint64(30) {
		gen, plain := ecs.NewWorld(), ecs.NewWorld()
		Register(gen)
		registerPlain(plain)
		randomWorld(gen, seed, false)
		randomWorld(plain, seed, true)
		file := save(t, gen)
		if other := save(t, plain); !bytes.Equal(file, other) {
			t.Fatalf("seed %d: the generated codecs save %d bytes, reflection %d, and they differ", seed, len(file), len(other))
		}
		back := ecs.NewWorld()
		Register(back)
		if err := back.Load(bytes.NewReader(file)); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if back.Checksum() != gen.Checksum() {
			t.Fatalf("seed %d: checksum %x after load, %x before", seed, back.Checksum(), gen.Checksum())
		}
		if again := save(t, back); !bytes.Equal(again, file) {
			t.Fatalf("seed %d: the loaded world saves to other bytes", seed)
		}
		twin := ecs.NewWorld()
		registerPlain(twin)
		if err := twin.Load(bytes.NewReader(file)); err != nil {
			t.Fatalf("seed %d: reflection load of the generated save: %v", seed, err)
		}
		if again := save(t, twin); !bytes.Equal(again, file) {
			t.Fatalf("seed %d: loaded by reflection, the world saves to other bytes", seed)
		}
	}
}

// TestArchetypes: the spawners give the defaults, with the archetype's
// own on top, in one table; batches give each entity its own slices.
func TestArchetypes(t *testing.T) {
	w := ecs.NewWorld()
	Register(w)
	heroes := NewHero(w)
	h := heroes.Spawn()
	pos, health, inv := ecs.NewMap[Position](w), ecs.NewMap[Health](w), ecs.NewMap[Inventory](w)
	if got := *health.Get(h); got != (Health{HP: 250, Max: 100}) {
		t.Errorf("hero health %v, want HP 250 (archetype) and Max 100 (component)", got)
	}
	if got := inv.Get(h); len(got.Names) != 1 || got.Names[0] != "sword" || got.Slots[0] != (Health{1, 100}) || got.Home.Y != -2.5 {
		t.Errorf("hero inventory %v", got)
	}
	if !ecs.NewMap[Player](w).Has(h) || pos.Get(h).Y != -2.5 {
		t.Errorf("hero lacks Player, or has position %v", pos.Get(h))
	}
	custom := heroes.SpawnWith(Position{X: 7}, Health{1, 2}, Inventory{}, Player{})
	if pos.Get(custom).X != 7 || health.Get(custom).Max != 2 {
		t.Errorf("SpawnWith gave %v and %v", pos.Get(custom), health.Get(custom))
	}

	heroes.SpawnBatch(3)
	var made []ecs.Entity
	heroes.SpawnBatchFunc(3, func(e ecs.Entity, p *Position, _ *Health, inv *Inventory, _ *Player) {
		if inv.Names[0] != "sword" {
			t.Errorf("SpawnBatchFunc's init saw %v, not the defaults", inv.Names)
		}
		p.X = float64(len(made))
		made = append(made, e)
	})
	all := slices.Collect(w.Reflect().Entities([]ecs.ComponentType{ecs.C[Player]()}, nil))
	n := len(all)
	if n != 8 {
		t.Fatalf("%d heroes, want 8", n)
	}
	inv.Get(all[2]).Names[0] = "changed"
	for _, e := range all[3:] {
		if inv.Get(e).Names[0] != "sword" {
			t.Fatalf("a batch shares its slices: changing one hero's names changed %v's", e)
		}
	}
	for i, e := range made {
		if pos.Get(e).X != float64(i) {
			t.Errorf("hero %d of SpawnBatchFunc has X %v", i, pos.Get(e).X)
		}
	}
	var tables []string
	for _, tb := range w.Stats().Tables {
		if tb.Rows > 0 && slices.Contains(tb.Components, reflect.TypeFor[Player]()) {
			tables = append(tables, fmt.Sprint(tb.Components))
		}
	}
	if len(tables) != 1 {
		t.Errorf("heroes spread over %d tables: %v", len(tables), tables)
	}

	crates := NewCrate(w)
	c := crates.Spawn()
	if got := *ecs.NewMap[Scalars](w).Get(c); got != DefaultScalars() || !got.B || got.U != 1<<32-1 || got.I != -1<<31 || got.S != "quote \" and newline \n" {
		t.Errorf("crate scalars %+v", got)
	}
	NewMarker(w).SpawnBatch(4)
	if n := len(slices.Collect(w.Reflect().Entities([]ecs.ComponentType{ecs.C[Position]()}, []ecs.ComponentType{ecs.C[Player]()}))); n != 4 {
		t.Errorf("%d markers, want 4", n)
	}
}

// TestCloneAndSnapshots: Clone copies deeply, so snapshots accept the
// types with slices and a restore brings back the values from before.
func TestCloneAndSnapshots(t *testing.T) {
	a := randomInventory(rand.New(rand.NewPCG(1, 2)), nil)
	a.Names = append([]string{"y"}, a.Names...)
	a.Stacks = append([]Stack{{Labels: []string{"x"}}}, a.Stacks...)
	a.Grid[1] = append([]ecs.Entity{{}}, a.Grid[1]...)
	b := a.Clone()
	b.Names[0] = "changed"
	b.Stacks[0].Labels[0] = "changed"
	b.Grid[1][0] = ecs.NewWorld().Spawn()
	if a.Names[0] == "changed" || a.Stacks[0].Labels[0] == "changed" || len(a.Grid[1]) == 0 || a.Grid[1][0] != (ecs.Entity{}) {
		t.Fatal("Clone shares memory with its source")
	}

	w := ecs.NewWorld()
	Register(w)
	e := NewHero(w).Spawn()
	if err := w.CanSnapshot(); err != nil {
		t.Fatal(err)
	}
	var snap ecs.Snapshot
	w.Snapshot(&snap)
	ecs.NewMap[Inventory](w).Get(e).Names[0] = "changed"
	w.Restore(&snap)
	if got := ecs.NewMap[Inventory](w).Get(e).Names[0]; got != "sword" {
		t.Fatalf("after Restore the hero's first item is %q", got)
	}
}

// TestChecksumSeesSlices: the generated Checksum makes World.Checksum
// see what an Inventory's slices hold.
func TestChecksumSeesSlices(t *testing.T) {
	sum := func(inv Inventory) uint64 {
		w := ecs.NewWorld()
		Register(w)
		ecs.NewMap[Inventory](w).Spawn(inv)
		return w.Checksum()
	}
	a := Inventory{Names: []string{"rope"}, Stacks: []Stack{{Item: "x", Labels: []string{"l"}}}}
	if sum(a) != sum(a.Clone()) {
		t.Fatal("a clone has another checksum")
	}
	b := a.Clone()
	b.Stacks[0].Labels[0] = "m"
	c := a.Clone()
	c.Names = append(c.Names, "lamp")
	if sum(b) == sum(a) || sum(c) == sum(a) {
		t.Fatal("the checksum does not see a change inside a slice")
	}
	if _, ok := any(&Position{}).(ecs.Checksummer); ok {
		t.Error("Position, which holds no slice, has a Checksum method it does not need")
	}
}

func TestString(t *testing.T) {
	inv := Inventory{Names: []string{"a b"}, Home: Position{1, 2}}
	got := inv.String()
	for _, want := range []string{`Names: ["a b"]`, "Home: Position{X: 1, Y: 2}", "Slots: [Health{HP: 0, Max: 0}"} {
		if !strings.Contains(got, want) {
			t.Errorf("Inventory.String() = %s, lacks %s", got, want)
		}
	}
	if got := (Frozen{}).String(); got != "Frozen{}" {
		t.Errorf("Frozen{}.String() = %s", got)
	}
}

// FuzzLoad: no bytes make a load through the generated codecs panic, and
// a failed load leaves the world empty.
func FuzzLoad(f *testing.F) {
	w := ecs.NewWorld()
	Register(w)
	r := rand.New(rand.NewPCG(5, 5))
	ecs.NewMap[Inventory](w).Spawn(randomInventory(r, nil))
	ecs.NewMap[Scalars](w).Spawn(randomScalars(r))
	var b bytes.Buffer
	if err := w.Save(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		w := ecs.NewWorld()
		Register(w)
		if err := w.Load(bytes.NewReader(data)); err != nil && w.Len() != 0 {
			t.Fatalf("a failed load (%v) left %d entities", err, w.Len())
		}
	})
}
