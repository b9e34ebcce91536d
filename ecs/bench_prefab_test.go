package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// prefabBenchWorld holds a prefab of a root with four components and
// three children with two, linked by the hierarchy, its template
// despawned.
func prefabBenchWorld() (*ecs.World, *ecs.Prefab, *ecs.Query1[cpPos]) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	root := ecs.NewMap4[cpPos, cpVel, cpName, cpRare](w).Spawn(cpPos{1, 2}, cpVel{3, 4}, cpName{"r"}, cpRare{1})
	kids := ecs.NewMap2[cpPos, cpVel](w)
	for range 3 {
		h.SetParent(kids.Spawn(cpPos{5, 6}, cpVel{7, 8}), root)
	}
	p := ecs.NewPrefab(w, root)
	w.Despawn(root)
	return w, p, ecs.NewQuery1[cpPos](w)
}

//go:noinline
func prefabSpawnBatch(p *ecs.Prefab, n int) { p.SpawnBatch(n) }

// BenchmarkPrefabSpawnBatch spawns 10,000 instances of a 4-entity prefab
// per operation into warm tables (the previous batch is despawned with
// the timer stopped).
func BenchmarkPrefabSpawnBatch(b *testing.B) {
	w, p, all := prefabBenchWorld()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		w.DespawnMatching(all)
		b.StartTimer()
		prefabSpawnBatch(p, 10_000)
	}
}
