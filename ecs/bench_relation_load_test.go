package ecs_test

import (
	"bytes"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// hierarchyFile saves a world of dhNode entities under ChildOf: as many
// trees as roots, each a root, three children and six grandchildren (10
// entities), or, when roots is 0, one chain depth entities deep.
func hierarchyFile(b *testing.B, roots, depth int) []byte {
	w, h, nodes := dhTarget()
	if roots == 0 {
		parent := nodes.Spawn(dhNode{0})
		for i := 1; i < depth; i++ {
			e := nodes.Spawn(dhNode{int32(i)})
			h.SetParent(e, parent)
			parent = e
		}
	}
	for range roots {
		root := nodes.Spawn(dhNode{0})
		for range 3 {
			kid := nodes.Spawn(dhNode{1})
			h.SetParent(kid, root)
			for range 2 {
				h.SetParent(nodes.Spawn(dhNode{2}), kid)
			}
		}
	}
	var buf bytes.Buffer
	if err := w.Save(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

//go:noinline
func loadHierarchy(data []byte) *ecs.World {
	w, _, _ := dhTarget()
	if err := w.Load(bytes.NewReader(data)); err != nil {
		panic(err)
	}
	return w
}

// BenchmarkLoadHierarchy times World.Load of 10,000 entities under
// ChildOf: 1,000 small trees (the usual shape), and one chain 2,000 deep,
// a shape that only a check of the pairs linear in the file loads as fast.
// MB/s counts the file's bytes.
func BenchmarkLoadHierarchy(b *testing.B) {
	for _, c := range []struct {
		name         string
		roots, depth int
	}{{"shape=trees", 1_000, 0}, {"shape=chain", 0, 2_000}} {
		b.Run(c.name, func(b *testing.B) {
			data := hierarchyFile(b, c.roots, c.depth)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				loadHierarchy(data)
			}
		})
	}
}

// BenchmarkPrefabFirstSpawn times the spawn of one instance of a
// 4-entity prefab (a root and three children) that works out the spawn
// plan first, as the first spawn after NewPrefab or PrefabValue does,
// against one with the plan made (name=planned); each instance is
// despawned in the loop.
func BenchmarkPrefabFirstSpawn(b *testing.B) {
	for _, replan := range []bool{true, false} {
		name := "name=planned"
		if replan {
			name = "name=first"
		}
		b.Run(name, func(b *testing.B) {
			w, p, _ := prefabBenchWorld()
			b.ReportAllocs()
			for b.Loop() {
				if replan {
					ecs.PrefabValue[cpPos](p, 0) // the plan is made again
				}
				w.Despawn(p.Spawn())
			}
		})
	}
}
