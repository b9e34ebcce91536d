package ecs_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

func saveJSONOf(t testing.TB, w *ecs.World) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := w.SaveJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSaveJSONRoundTrip: random worlds saved as JSON load back into a new
// world with the same state and checksum, and the same as the binary
// format gives.
func TestSaveJSONRoundTrip(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 11))
		s := newSnapWorld()
		var live []ecs.Entity
		for range r.IntN(150) {
			s.step(r, &live)
		}
		data := saveJSONOf(t, s.w)
		back := newSnapWorld()
		if err := back.w.LoadJSON(bytes.NewReader(data)); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		if got, want := back.dump(), s.dump(); got != want {
			t.Fatalf("seed %d: loaded world differs\nsaved:\n%s\nloaded:\n%s", seed, want, got)
		}
		if back.w.Checksum() != s.w.Checksum() {
			t.Fatalf("seed %d: checksum differs after a JSON round trip", seed)
		}
		if again := saveJSONOf(t, back.w); !bytes.Equal(again, data) {
			t.Fatalf("seed %d: the loaded world saves to other JSON", seed)
		}
	}
}

type jsonRef struct {
	Target ecs.Entity
	Note   string `json:"note"`
}

type jsonRefV2 struct {
	Note   string `json:"note"`
	Extra  int
	Target ecs.Entity
}

// TestLoadJSONEntitiesAndEvolution: entities inside values come back alive
// in the new world; fields are matched by name; a wrong kind is an error
// naming the field, and leaves the world as it was.
func TestLoadJSONEntitiesAndEvolution(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[jsonRef](w, ecs.Name("ref"))
	refs := ecs.NewMap[jsonRef](w)
	a := w.Spawn()
	b := refs.Spawn(jsonRef{Target: a, Note: "hi"})
	data := saveJSONOf(t, w)
	if !bytes.Contains(data, []byte(`"Target": {`)) || !bytes.Contains(data, []byte(`"note": "hi"`)) {
		t.Fatalf("the JSON does not show the fields:\n%s", data)
	}

	w2 := ecs.NewWorld()
	ecs.Register[jsonRefV2](w2, ecs.Name("ref"))
	refs2 := ecs.NewMap[jsonRefV2](w2)
	if err := w2.LoadJSON(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	for r := range ecs.NewQuery1[jsonRefV2](w2).All() {
		if r.Entity.Index() != b.Index() || r.A.Note != "hi" || r.A.Extra != 0 || !w2.Alive(r.A.Target) || r.A.Target.Index() != a.Index() {
			t.Fatalf("loaded %v %+v (target alive: %v)", r.Entity, *r.A, w2.Alive(r.A.Target))
		}
		_ = refs2
	}

	bad := bytes.Replace(data, []byte(`"note": "hi"`), []byte(`"note": 5`), 1)
	w3 := ecs.NewWorld()
	ecs.Register[jsonRef](w3, ecs.Name("ref"))
	ecs.NewMap[jsonRef](w3)
	before := w3.Checksum()
	err := w3.LoadJSON(bytes.NewReader(bad))
	if err == nil || !strings.Contains(err.Error(), "jsonRef.note") {
		t.Fatalf("a number for a string: %v", err)
	}
	if w3.Checksum() != before || w3.Len() != 0 {
		t.Fatal("a failed LoadJSON changed the world")
	}
	for _, junk := range []string{"", "{", `{"format":"other"}`, `{"format":"tessera","version":3}`, `{"format":"tessera","version":1,"next":3,"generations":[0]}`} {
		if err := w3.LoadJSON(strings.NewReader(junk)); err == nil {
			t.Errorf("%q loaded", junk)
		}
	}
}

// TestSaveJSONGolden pins the JSON format, version 2, and loads version 1,
// as TestSaveGolden does the binary one (-update rewrites version 2).
func TestSaveJSONGolden(t *testing.T) { checkGolden(t, jsonFormat) }

// FuzzLoadJSON: no input makes LoadJSON panic, and a failed load leaves
// the world as it was.
func FuzzLoadJSON(f *testing.F) { fuzzLoad(f, jsonFormat) }
