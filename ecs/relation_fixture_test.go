package ecs_test

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Types of the relation tests that share relation_fixture_test.go.
type (
	rfTag     struct{ N int }
	rfNodeA   struct{ N int }
	rfNodeB   struct{ N int }
	rfLink    struct{ W int }
	rfGuard   struct{}
	rfFollows struct{}
	// rfMapVal is a pair value with a map and no Clone method: as a plain
	// component it makes Snapshot refuse.
	rfMapVal struct{ M map[string]int }
	// rfNames is a pair value with a slice and both a Clone and a
	// Checksum method.
	rfNames struct{ Names []string }
)

func (n rfNames) Clone() rfNames { return rfNames{Names: slices.Clone(n.Names)} }

func (n rfNames) Checksum() uint64 {
	var h uint64 = 14695981039346656037
	for _, s := range n.Names {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h = (h ^ 0xff) * 1099511628211
	}
	return h
}

// rfCheckPairs checks the two sides of rel over the living entities of es:
// t is in Targets(e) exactly when e is in Sources(t), and no list names a
// dead entity.
func rfCheckPairs[T any](t *testing.T, w *ecs.World, rel *ecs.Relation[T], es []ecs.Entity) {
	t.Helper()
	for _, e := range es {
		if !w.Alive(e) {
			continue
		}
		for _, x := range rel.Targets(e) {
			if !w.Alive(x) {
				t.Errorf("%v has the dead target %v", e, x)
				continue
			}
			if !slices.Contains(rel.Sources(x), e) {
				t.Errorf("%v targets %v, which does not list it among its sources %v", e, x, rel.Sources(x))
			}
		}
		for _, s := range rel.Sources(e) {
			if !w.Alive(s) {
				t.Errorf("%v has the dead source %v", e, s)
				continue
			}
			if !slices.Contains(rel.Targets(s), e) {
				t.Errorf("%v lists the source %v, whose targets %v do not include it", e, s, rel.Targets(s))
			}
		}
	}
}
