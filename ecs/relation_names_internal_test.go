package ecs

import "testing"

// TestSavedRelationNames reads the stable names a save file gives a
// relation's types, and shortens them as reflect prints types.
func TestSavedRelationNames(t *testing.T) {
	for _, c := range []struct{ name, pair, kind, label string }{
		{"github.com/tessera-ecs/tessera/ecs.relOne[main.Claims]", "main.Claims", "relOne", "the pairs of Relation[main.Claims]"},
		{"github.com/tessera-ecs/tessera/ecs.relMany[github.com/x/game.Pair[github.com/x/geo.Cell,int]]",
			"github.com/x/game.Pair[github.com/x/geo.Cell,int]", "relMany", "the pairs of Relation[game.Pair[geo.Cell,int]]"},
		{"github.com/tessera-ecs/tessera/ecs.relIn[github.com/tessera-ecs/tessera/ecs.ChildOf]",
			"github.com/tessera-ecs/tessera/ecs.ChildOf", "relIn", "the pairs of Relation[ecs.ChildOf]"},
		{"github.com/x/game.relOne[main.Claims]", "", "", `component type "github.com/x/game.relOne[main.Claims]"`},
		{"github.com/tessera-ecs/tessera/ecs.relOther[main.Claims]", "", "", `component type "github.com/tessera-ecs/tessera/ecs.relOther[main.Claims]"`},
		{"main.Pos", "", "", `component type "main.Pos"`},
	} {
		pair, kind, ok := savedRelation(c.name)
		if pair != c.pair || kind != c.kind || ok != (c.kind != "") {
			t.Errorf("savedRelation(%q) = %q, %q, %v; want %q, %q", c.name, pair, kind, ok, c.pair, c.kind)
		}
		if got := savedTypeLabel(c.name); got != c.label {
			t.Errorf("savedTypeLabel(%q) = %q, want %q", c.name, got, c.label)
		}
	}
	for in, want := range map[string]string{
		"main.Claims":                          "main.Claims",
		"github.com/x/game.Claims":             "game.Claims",
		"github.com/x/game.P[*a/b.C, []d/e.F]": "game.P[*b.C, []e.F]",
		"map[string]github.com/x/y.Z":          "map[string]y.Z",
	} {
		if got := shortTypeName(in); got != want {
			t.Errorf("shortTypeName(%q) = %q, want %q", in, got, want)
		}
	}
}
