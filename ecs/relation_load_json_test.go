package ecs_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// rfEditJSON decodes a SaveJSON file, lets edit change it, and encodes it.
func rfEditJSON(t testing.TB, data []byte, edit func(f map[string]any)) []byte {
	t.Helper()
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	edit(f)
	out, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rfSparse returns the sparse entry of the file whose type name starts
// with prefix.
func rfSparse(t testing.TB, f map[string]any, prefix string) map[string]any {
	t.Helper()
	for _, s := range f["sparse"].([]any) {
		m := s.(map[string]any)
		if strings.HasPrefix(m["type"].(string), prefix) {
			return m
		}
	}
	t.Fatalf("no sparse set %s in the file", prefix)
	return nil
}

func rfEnt(i int) map[string]any { return map[string]any{"index": i, "generation": 0} }

const (
	rfRelOne = "github.com/tessera-ecs/tessera/ecs.relOne[github.com/tessera-ecs/tessera/ecs.ChildOf]"
	rfRelIn  = "github.com/tessera-ecs/tessera/ecs.relIn[github.com/tessera-ecs/tessera/ecs.ChildOf]"
)

// rfTwoNodeFile saves a world of entities 1 and 2 (each with an rfTag),
// 2 the child of 1.
func rfTwoNodeFile(t *testing.T) []byte {
	t.Helper()
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	tags := ecs.NewMap[rfTag](w)
	a, b := tags.Spawn(rfTag{1}), tags.Spawn(rfTag{2})
	h.SetParent(b, a)
	var buf bytes.Buffer
	if err := w.SaveJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rfLoad loads file into a new world with the hierarchy and rfTag, or
// merges it (after two spawns of the world's own), and returns the world,
// its hierarchy and its rfTag entities by their N.
func rfLoad(t *testing.T, file []byte, merge bool) (*ecs.World, *ecs.Hierarchy, map[int]ecs.Entity, error) {
	t.Helper()
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	ecs.NewMap[rfTag](w)
	var err error
	if merge {
		w.Spawn()
		w.Spawn()
		_, err = w.MergeJSON(bytes.NewReader(file))
	} else {
		err = w.LoadJSON(bytes.NewReader(file))
	}
	byN := map[int]ecs.Entity{}
	for r := range ecs.NewQuery1[rfTag](w).All() {
		byN[r.A.N] = r.Entity
	}
	return w, h, byN, err
}

// A save file with a cycle in ChildOf (both sides consistent), loaded or
// merged, is either refused or leaves Ancestors and Descendants ending
// (and so Root and Depth returning). The walks are cut after 1000 steps
// here so that a regression fails instead of hanging.
func TestChildOfCycleInAFileNeverMakesEndlessWalks(t *testing.T) {
	file := rfEditJSON(t, rfTwoNodeFile(t), func(f map[string]any) {
		one := rfSparse(t, f, rfRelOne) // 2 -> 1, now also 1 -> 2
		one["entities"] = []any{2, 1}
		one["values"] = []any{map[string]any{"Target": rfEnt(1), "Value": map[string]any{}},
			map[string]any{"Target": rfEnt(2), "Value": map[string]any{}}}
		in := rfSparse(t, f, rfRelIn) // 1: [2], now also 2: [1]
		in["entities"] = []any{1, 2}
		in["values"] = []any{map[string]any{"Sources": []any{rfEnt(2)}},
			map[string]any{"Sources": []any{rfEnt(1)}}}
	})
	for _, merge := range []bool{false, true} {
		_, h, byN, err := rfLoad(t, file, merge)
		if err != nil {
			t.Logf("merge %v: the file is refused (fine): %v", merge, err)
			continue
		}
		e := byN[1]
		up, down := 0, 0
		for range h.Ancestors(e) {
			if up++; up > 1000 {
				break
			}
		}
		for range h.Descendants(e) {
			if down++; down > 1000 {
				break
			}
		}
		if up > 1000 || down > 1000 {
			t.Errorf("merge %v: a ChildOf cycle was accepted from the file: Ancestors(%v) and Descendants(%v) go on past 1000 steps (%v, %v), so Root and Depth never return",
				merge, e, e, up > 1000, down > 1000)
		}
	}
}

// A save file whose ChildOf pair is on one side only (the child names its
// parent, the parent does not list it), or names a dead entity, loaded or
// merged, is either refused or leaves no child with a dead parent, also
// after the parent is despawned.
func TestBrokenChildOfPairsInAFileLeaveNoDeadParent(t *testing.T) {
	oneSided := rfEditJSON(t, rfTwoNodeFile(t), func(f map[string]any) {
		in := rfSparse(t, f, rfRelIn)
		in["entities"] = []any{}
		in["values"] = []any{}
	})
	toDead := rfEditJSON(t, rfTwoNodeFile(t), func(f map[string]any) {
		f["next"] = 4
		f["generations"] = []any{0, 0, 1} // index 3 was used and freed
		f["free"] = []any{3}
		one := rfSparse(t, f, rfRelOne)
		one["values"] = []any{map[string]any{"Target": rfEnt(3), "Value": map[string]any{}}} // 3v0: dead
		in := rfSparse(t, f, rfRelIn)
		in["entities"] = []any{}
		in["values"] = []any{}
	})
	for name, file := range map[string][]byte{"one-sided": oneSided, "dead target": toDead} {
		for _, merge := range []bool{false, true} {
			w, h, byN, err := rfLoad(t, file, merge)
			if err != nil {
				t.Logf("%s, merge %v: refused (fine): %v", name, merge, err)
				continue
			}
			child := byN[2]
			if name == "one-sided" {
				w.Despawn(byN[1])
			}
			if p, ok := h.Parent(child); ok && !w.Alive(p) {
				t.Errorf("%s, merge %v: the file loaded without an error, and %v's parent is %v, not alive", name, merge, child, p)
			}
		}
	}
}

// SaveJSON and LoadJSON carry a Multi relation with values, the hierarchy
// and a guard, with the checksum and every list.
func TestRelationsRoundTripThroughJSON(t *testing.T) {
	rw, es := relationScene()
	want := describeRelations(rw, es, same)
	var buf bytes.Buffer
	if err := rw.w.SaveJSON(&buf); err != nil {
		t.Fatal(err)
	}
	loaded := newRelWorld()
	if err := loaded.w.LoadJSON(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	byIndex := map[uint32]ecs.Entity{}
	for r := range ecs.NewQuery1[mergePos](loaded.w).All() {
		byIndex[r.Entity.Index()] = r.Entity
	}
	if got := describeRelations(loaded, es, func(e ecs.Entity) ecs.Entity { return byIndex[e.Index()] }); got != want {
		t.Fatalf("after LoadJSON:\n%s\nwant:\n%s", got, want)
	}
	if loaded.w.Checksum() != rw.w.Checksum() {
		t.Fatal("checksum after LoadJSON")
	}
	var all []ecs.Entity
	for _, e := range byIndex {
		all = append(all, e)
	}
	rfCheckPairs(t, loaded.w, loaded.likes, all)
	rfCheckPairs(t, loaded.w, loaded.h.Relation(), all)
	rfCheckPairs(t, loaded.w, loaded.guards, all)
}
