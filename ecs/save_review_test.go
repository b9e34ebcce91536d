package ecs_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type dupRow struct{ V int32 }

// TestLoadRefusesTwoTablesOfOneSet: a file listing two tables of the same
// types would make both fill one table; it is refused.
func TestLoadRefusesTwoTablesOfOneSet(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap[dupRow](w)
	for i := range 4 {
		m.Spawn(dupRow{int32(i)})
	}
	var f map[string]any
	if err := json.Unmarshal(saveJSONOf(t, w), &f); err != nil {
		t.Fatal(err)
	}
	table := f["tables"].([]any)[0].(map[string]any)
	ents, vals := table["entities"].([]any), table["columns"].([]any)[0].([]any)
	a := map[string]any{"types": table["types"], "entities": ents[:2], "columns": []any{vals[:2]}}
	b := map[string]any{"types": table["types"], "entities": ents[2:], "columns": []any{vals[2:]}}
	f["tables"] = []any{a, b}
	data, _ := json.Marshal(f)
	target := ecs.NewWorld()
	ecs.NewMap[dupRow](target)
	err := target.LoadJSON(bytes.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), "two tables of the same component types") {
		t.Fatalf("two tables of one type set: %v", err)
	}
}

type growFrom struct{ S []struct{} }
type growTo struct{ S []struct{ P [256]int64 } }

// TestLoadBoundsMemory: a small file cannot make Load allocate much, even
// through a type that grew since the save.
func TestLoadBoundsMemory(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[growFrom](w, ecs.Name("grow"))
	ecs.NewMap[growFrom](w).Spawn(growFrom{S: make([]struct{}, 60000)})
	data := saveOf(t, w)
	target := ecs.NewWorld()
	ecs.Register[growTo](target, ecs.Name("grow"))
	ecs.NewMap[growTo](target)
	err := target.Load(bytes.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), "more memory than a save of this size may need") {
		t.Fatalf("a %d-byte file asking for 120 MB: %v", len(data), err)
	}
}

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

type blanky struct {
	A int32
	_ int32
	B bool
	_ [3]byte
	N [0]func()
}

type refTo ecs.Entity

type holdsRef struct{ R refTo }

// TestSaveOddFields: blank fields, zero-length arrays of anything and types
// defined from Entity save and load.
func TestSaveOddFields(t *testing.T) {
	w := ecs.NewWorld()
	target := w.Spawn()
	ecs.NewMap[blanky](w).Spawn(blanky{A: 3, B: true})
	ecs.NewMap[holdsRef](w).Spawn(holdsRef{R: refTo(target)})
	data := saveOf(t, w)
	back := ecs.NewWorld()
	ecs.NewMap[blanky](back)
	ecs.NewMap[holdsRef](back)
	if err := back.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	for r := range ecs.NewQuery1[blanky](back).All() {
		if r.A.A != 3 || !r.A.B {
			t.Fatalf("blanky loaded as %+v", *r.A)
		}
	}
	for r := range ecs.NewQuery1[holdsRef](back).All() {
		if e := ecs.Entity(r.A.R); !back.Alive(e) || e.Index() != target.Index() {
			t.Fatalf("a refTo loaded as %v, alive %v", e, back.Alive(e))
		}
	}
	if err := ecs.NewWorld().LoadJSON(bytes.NewReader(append(saveJSONOf(t, ecs.NewWorld()), []byte(" {}")...))); err == nil {
		t.Fatal("LoadJSON accepted data after the save")
	}
}
