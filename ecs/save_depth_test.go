package ecs_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// The deepest value a save file describes: a struct, its field, and 63
// array levels, 64 levels below the component; one more is refused by
// Save, never written for Load to refuse.
type (
	deepestSaved struct {
		V [1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1]int32
	}
	tooDeepToSave struct {
		V [1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1]int32
	}
)

func TestSaveRefusesTypesNestedDeeperThanLoadReads(t *testing.T) {
	w := ecs.NewWorld()
	ok := ecs.NewMap[deepestSaved](w)
	var v deepestSaved
	v.V[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0] = 7
	ok.Spawn(v)
	var file bytes.Buffer
	if err := w.Save(&file); err != nil {
		t.Fatalf("Save of a type nested 64 levels deep: %v", err)
	}
	back := ecs.NewWorld()
	ecs.NewMap[deepestSaved](back)
	if err := back.Load(bytes.NewReader(file.Bytes())); err != nil {
		t.Fatalf("Load of what Save wrote: %v", err)
	}
	if back.Checksum() != w.Checksum() {
		t.Fatal("the loaded world differs from the saved one")
	}

	ecs.NewMap[tooDeepToSave](w).Spawn(tooDeepToSave{})
	for name, save := range map[string]func() error{
		"Save":     func() error { return w.Save(&bytes.Buffer{}) },
		"SaveJSON": func() error { return w.SaveJSON(&bytes.Buffer{}) },
	} {
		err := save()
		if err == nil || !strings.Contains(err.Error(), "tooDeepToSave") || !strings.Contains(err.Error(), "nested 65 levels deep") {
			t.Errorf("%s of a type nested 65 levels deep: %v, want it refused", name, err)
		}
	}
}
