package ecs_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// meddler is a component whose own methods (a BinaryCodec, a Cloner and
// a Checksummer) do whatever its test sets in meddle: what a careless or
// hostile type might do to the world that is saving, loading, cloning or
// hashing it.
type meddler struct {
	N int32
	S string // not plain memory, so Save and Load call the codec
}

var meddle func()

func (m *meddler) EncodeSave(e *ecs.SaveEncoder) {
	if meddle != nil {
		meddle()
	}
	e.Int32(m.N)
	e.String(m.S)
}

func (m *meddler) DecodeSave(d *ecs.SaveDecoder) {
	m.N, m.S = d.Int32(), d.String()
	if meddle != nil {
		meddle()
	}
}

func (m *meddler) Clone() meddler {
	if meddle != nil {
		meddle()
	}
	return *m
}

func (m *meddler) Checksum() uint64 {
	if meddle != nil {
		meddle()
	}
	return uint64(m.N)
}

func meddlerWorld() (*ecs.World, *ecs.Map[meddler]) {
	w := ecs.NewWorld()
	m := ecs.NewMap[meddler](w)
	for i := range 4 {
		m.Spawn(meddler{N: int32(i), S: "x"})
	}
	return w, m
}

// TestOwnMethodsMustNotChangeTheWorld: a component's EncodeSave, DecodeSave,
// Clone or Checksum method that changes the world running it, or calls
// Save, Load, Snapshot or Restore on it, panics naming the change and the
// operation, and leaves the world as it was and usable.
func TestOwnMethodsMustNotChangeTheWorld(t *testing.T) {
	defer func() { meddle = nil }()
	type attempt struct {
		name  string
		run   func(w *ecs.World) // the operation that calls the methods
		wants []string
	}
	for _, op := range []attempt{
		{"Save", func(w *ecs.World) { w.Save(&bytes.Buffer{}) }, []string{"while Save runs"}},
		{"Snapshot", func(w *ecs.World) { var s ecs.Snapshot; w.Snapshot(&s) }, []string{"while Snapshot runs"}},
		{"Checksum", func(w *ecs.World) { w.Checksum() }, []string{"while Checksum runs"}},
	} {
		for _, change := range []struct {
			name string
			do   func(w *ecs.World, m *ecs.Map[meddler], e ecs.Entity)
			want string
		}{
			{"spawn", func(w *ecs.World, _ *ecs.Map[meddler], _ ecs.Entity) { w.Spawn() }, "ecs: Spawn:"},
			{"despawn", func(w *ecs.World, _ *ecs.Map[meddler], e ecs.Entity) { w.Despawn(e) }, "ecs: Despawn"},
			{"remove", func(_ *ecs.World, m *ecs.Map[meddler], e ecs.Entity) { m.Remove(e) }, "(Add or Remove)"},
			{"save inside", func(w *ecs.World, _ *ecs.Map[meddler], _ ecs.Entity) { w.Save(&bytes.Buffer{}) }, "ecs: Save:"},
			{"snapshot inside", func(w *ecs.World, _ *ecs.Map[meddler], _ ecs.Entity) { var s ecs.Snapshot; w.Snapshot(&s) }, "ecs: Snapshot:"},
		} {
			t.Run(op.name+"/"+change.name, func(t *testing.T) {
				w, m := meddlerWorld()
				before := w.Checksum()
				first := ecs.Entity{}
				for r := range ecs.NewQuery1[meddler](w).All() {
					first = r.Entity
					break
				}
				meddle = func() { change.do(w, m, first) }
				testhelp.MustPanic(t, func() { op.run(w) }, append([]string{change.want}, op.wants...)...)
				meddle = nil
				if w.Checksum() != before || w.Len() != 4 {
					t.Fatalf("the world changed: %d entities", w.Len())
				}
				m.Spawn(meddler{N: 9}) // usable afterwards
				if w.Len() != 5 {
					t.Fatalf("a spawn after the panic left %d entities, want 5", w.Len())
				}
			})
		}
	}
}

// TestDecodeSaveMustNotChangeTheLoadingWorld: a DecodeSave that spawns into
// the world being loaded panics naming Load, and the world stays new: a
// load without the meddling then succeeds.
func TestDecodeSaveMustNotChangeTheLoadingWorld(t *testing.T) {
	defer func() { meddle = nil }()
	src, _ := meddlerWorld()
	var file bytes.Buffer
	if err := src.Save(&file); err != nil {
		t.Fatal(err)
	}
	w := ecs.NewWorld()
	ecs.NewMap[meddler](w)
	refusedThenLoaded(t, src, w, "Load", func() error { return w.Load(bytes.NewReader(file.Bytes())) })
}

// refusedThenLoaded checks that load, the op of w, panics naming op while
// a method spawns into w, and then, with the method tamed, loads the world
// src saved.
func refusedThenLoaded(t *testing.T, src, w *ecs.World, op string, load func() error) {
	t.Helper()
	meddle = func() { w.Spawn() }
	testhelp.MustPanic(t, func() { load() }, "ecs: Spawn:", "while "+op+" runs")
	meddle = nil
	if err := load(); err != nil {
		t.Fatalf("a load after the refused one: %v", err)
	}
	if w.Checksum() != src.Checksum() {
		t.Fatal("the loaded world differs from the saved one")
	}
}

// jsonMeddler is meddler's twin for the JSON save format: its MarshalJSON
// and UnmarshalJSON do what meddle says.
type jsonMeddler struct{ N int }

func (m jsonMeddler) MarshalJSON() ([]byte, error) {
	if meddle != nil {
		meddle()
	}
	return []byte(strconv.Itoa(m.N)), nil
}

func (m *jsonMeddler) UnmarshalJSON(b []byte) error {
	if meddle != nil {
		meddle()
	}
	n, err := strconv.Atoi(string(b))
	m.N = n
	return err
}

// TestJSONMethodsMustNotChangeTheWorld: a MarshalJSON that spawns into the
// world SaveJSON is writing, or an UnmarshalJSON that spawns into the world
// LoadJSON is reading into, panics naming both, and the worlds stay as
// they were: a clean LoadJSON afterwards gives the saved world.
func TestJSONMethodsMustNotChangeTheWorld(t *testing.T) {
	defer func() { meddle = nil }()
	src := ecs.NewWorld()
	m := ecs.NewMap[jsonMeddler](src)
	for i := range 3 {
		m.Spawn(jsonMeddler{N: i})
	}
	meddle = func() { src.Spawn() }
	testhelp.MustPanic(t, func() { src.SaveJSON(&bytes.Buffer{}) }, "ecs: Spawn:", "while SaveJSON runs")
	meddle = nil
	if src.Len() != 3 {
		t.Fatalf("the saving world has %d entities, want 3", src.Len())
	}
	var file bytes.Buffer
	if err := src.SaveJSON(&file); err != nil {
		t.Fatal(err)
	}
	w := ecs.NewWorld()
	ecs.NewMap[jsonMeddler](w)
	refusedThenLoaded(t, src, w, "LoadJSON", func() error { return w.LoadJSON(bytes.NewReader(file.Bytes())) })
}

// TestRestoreRefusesAHalfTakenSnapshot: a Clone that panics while Snapshot
// fills a snapshot leaves it incomplete, and Restore refuses it rather
// than put back a world that is neither the old one nor the new one;
// taken again, it restores.
func TestRestoreRefusesAHalfTakenSnapshot(t *testing.T) {
	defer func() { meddle = nil }()
	w, m := meddlerWorld()
	var snap ecs.Snapshot
	w.Snapshot(&snap)
	want := w.Checksum()
	m.Spawn(meddler{N: 7, S: "later"})
	calls := 0
	meddle = func() {
		if calls++; calls == 3 {
			panic("a Clone with a bug")
		}
	}
	testhelp.MustPanic(t, func() { w.Snapshot(&snap) }, "a Clone with a bug")
	meddle = nil
	testhelp.MustPanic(t, func() { w.Restore(&snap) }, "ecs: Restore: the snapshot is incomplete")
	if w.Len() != 5 {
		t.Fatalf("the refused restore changed the world: %d entities", w.Len())
	}
	w.Snapshot(&snap)
	again := w.Checksum()
	m.Spawn(meddler{N: 8})
	w.Restore(&snap)
	if w.Len() != 5 || w.Checksum() != again || again == want {
		t.Fatalf("a snapshot taken again restores %d entities (checksum as taken: %v)", w.Len(), w.Checksum() == again)
	}
}

// TestCloneMethodsMustNotChangeTheWorldInNewPrefab: a Clone method that spawns while
// NewPrefab copies the template panics naming NewPrefab, and the world
// stays as it was and usable.
func TestCloneMethodsMustNotChangeTheWorldInNewPrefab(t *testing.T) {
	defer func() { meddle = nil }()
	w, m := meddlerWorld()
	e := m.Spawn(meddler{N: 5, S: "template"})
	meddle = func() { w.Spawn() }
	testhelp.MustPanic(t, func() { ecs.NewPrefab(w, e) }, "ecs: Spawn:", "while NewPrefab runs")
	meddle = nil
	if w.Len() != 5 {
		t.Fatalf("%d entities after the refused spawn, want 5", w.Len())
	}
	if p := ecs.NewPrefab(w, e); !w.Alive(p.Spawn()) {
		t.Fatal("no prefab spawn after the panic")
	}
}

// TestCloneMethodsInsideStructuralChanges: a Clone method that spawns while
// World.CopyEntity or Prefab.Spawn copies values panics naming the operation
// (not "another goroutine"), and Recover makes the world usable again.
func TestCloneMethodsInsideStructuralChanges(t *testing.T) {
	defer func() { meddle = nil }()
	for _, op := range []struct {
		name string
		// prepare returns the call to attack; what it does first
		// (NewPrefab's own copies) runs with meddle still off.
		prepare func(w *ecs.World, e ecs.Entity) func()
	}{
		{"World.CopyEntity", func(w *ecs.World, e ecs.Entity) func() { return func() { w.CopyEntity(e) } }},
		{"Prefab.Spawn", func(w *ecs.World, e ecs.Entity) func() { p := ecs.NewPrefab(w, e); return func() { p.Spawn() } }},
	} {
		t.Run(op.name, func(t *testing.T) {
			w, m := meddlerWorld()
			run := op.prepare(w, m.Spawn(meddler{N: 5, S: "template"}))
			meddle = func() { w.Spawn() }
			testhelp.MustPanic(t, run, "ecs: Spawn:", "while "+op.name+" runs")
			meddle = nil
			w.Recover()
			if got := m.Spawn(meddler{N: 6}); !w.Alive(got) {
				t.Fatal("no spawn after Recover")
			}
		})
	}
}
