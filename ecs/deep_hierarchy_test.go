package ecs_test

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// dhNode marks each entity of the deep-hierarchy tests with its place:
// 0 for the root, then 1 to n in the order they were attached.
type dhNode struct{ N int32 }

// dhSizes returns the sizes a deep-hierarchy test runs: small always,
// large too with TESSERA_LONG=1 (testhelp.LongEnv; not under -short), and
// never on a 32-bit machine (whose address space the large files and
// worlds crowd, and where the save tests run under an emulator).
func dhSizes(t *testing.T, small, large int) []int {
	if strconv.IntSize == 32 {
		return []int{small}
	}
	if n := testhelp.LongSize(t, small, large); n == small {
		return []int{small}
	}
	return []int{small, large}
}

// dhWorld returns a world of n+1 dhNode entities under ChildOf: a chain
// (each entity the parent of the next, n deep) or a star (a root with n
// children).
func dhWorld(n int, chain bool) (*ecs.World, *ecs.Hierarchy) {
	w, h, nodes := dhTarget()
	parent := nodes.Spawn(dhNode{0})
	for i := 1; i <= n; i++ {
		e := nodes.Spawn(dhNode{int32(i)})
		h.SetParent(e, parent)
		if chain {
			parent = e
		}
	}
	return w, h
}

// dhTarget returns a new world with the types of dhWorld's.
func dhTarget() (*ecs.World, *ecs.Hierarchy, *ecs.Map[dhNode]) {
	w := ecs.NewWorld()
	return w, ecs.NewHierarchy(w), ecs.NewMap[dhNode](w)
}

// dhWithin runs f, which returns an error, and fails t when it returns one
// or has not returned after limit, so that a slow (quadratic) path fails
// the test instead of hanging the suite.
func dhWithin(t *testing.T, limit time.Duration, what string, f func() error) time.Duration {
	t.Helper()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(limit):
		t.Fatalf("%s did not finish within %v", what, limit)
	}
	took := time.Since(start)
	t.Logf("%s: %v", what, took)
	return took
}

// dhCheck checks that w holds the n+1 nodes of dhWorld(n, chain), plus
// extra entities without dhNode, with the same parents.
func dhCheck(t *testing.T, w *ecs.World, h *ecs.Hierarchy, n, extra int, chain bool) {
	t.Helper()
	if w.Len() != n+1+extra {
		t.Fatalf("%d entities, want %d", w.Len(), n+1+extra)
	}
	byN := make([]ecs.Entity, n+1)
	for r := range ecs.NewQuery1[dhNode](w).All() {
		byN[r.A.N] = r.Entity
	}
	root := byN[0]
	if _, ok := h.Parent(root); ok {
		t.Fatalf("the root %v has a parent", root)
	}
	for i := 1; i <= n; i++ {
		want := root
		if chain {
			want = byN[i-1]
		}
		if p, ok := h.Parent(byN[i]); !ok || p != want {
			t.Fatalf("node %d (%v): parent %v %v, want %v", i, byN[i], p, ok, want)
		}
	}
	if chain {
		if h.Depth(byN[n]) != n || h.Root(byN[n]) != root {
			t.Fatalf("the last node's depth %d and root %v, want %d and %v", h.Depth(byN[n]), h.Root(byN[n]), n, root)
		}
	} else if h.NumChildren(root) != n {
		t.Fatalf("the root has %d children, want %d", h.NumChildren(root), n)
	}
}

// dhLimit bounds one load, merge or spawn of n entities: far above what
// linear work takes, even under the race detector, and below what
// quadratic work takes from 100,000 entities on.
func dhLimit(n int) time.Duration { return 10*time.Second + time.Duration(n)*60*time.Microsecond }

// A save of a deep chain of ChildOf (every entity the parent of the next)
// loads and merges, from both formats, in time linear in the file, and
// keeps every pair.
func TestDeepChainSaveLoadMerge(t *testing.T) {
	dhFormats(t, true)
}

// A save of a root with many children loads and merges in linear time.
func TestWideRootSaveLoadMerge(t *testing.T) {
	dhFormats(t, false)
}

// dhFormats runs dhLoadMerge in the binary format (100,000 entities,
// and 1,000,000) and in JSON, whose encoding/json decoding is much
// slower, at a tenth of the sizes (10,000, and 100,000).
func dhFormats(t *testing.T, chain bool) {
	for _, n := range dhSizes(t, 100_000, 1_000_000) {
		t.Run(fmt.Sprintf("binary/%d", n), func(t *testing.T) { dhLoadMerge(t, n, chain, false) })
	}
	for _, n := range dhSizes(t, 10_000, 100_000) {
		t.Run(fmt.Sprintf("JSON/%d", n), func(t *testing.T) { dhLoadMerge(t, n, chain, true) })
	}
}

// dhLoadMerge saves dhWorld(n, chain) in one format, then loads it into a
// new world and merges it into a world with entities already, checking
// both.
func dhLoadMerge(t *testing.T, n int, chain, asJSON bool) {
	w, _ := dhWorld(n, chain)
	var file bytes.Buffer
	save, load, merge := w.Save, (*ecs.World).Load, (*ecs.World).Merge
	if asJSON {
		save, load, merge = w.SaveJSON, (*ecs.World).LoadJSON, (*ecs.World).MergeJSON
	}
	dhWithin(t, dhLimit(n), "save", func() error { return save(&file) })
	t.Logf("%d bytes", file.Len())

	dst, h, _ := dhTarget()
	dhWithin(t, dhLimit(n), "load", func() error { return load(dst, bytes.NewReader(file.Bytes())) })
	dhCheck(t, dst, h, n, 0, chain)

	dst, h, _ = dhTarget()
	for range 3 {
		dst.Spawn() // the merged entities get other indices than the file's
	}
	dhWithin(t, dhLimit(n), "merge", func() error {
		_, err := merge(dst, bytes.NewReader(file.Bytes()))
		return err
	})
	dhCheck(t, dst, h, n, 3, chain)
}

// The first spawn of a prefab of a deep chain (which works out the spawn
// plan) takes time linear in the prefab, as later spawns do.
func TestDeepPrefabFirstSpawn(t *testing.T) {
	for _, n := range dhSizes(t, 100_000, 1_000_000) {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			w, h := dhWorld(n, true)
			var root ecs.Entity
			for r := range ecs.NewQuery1[dhNode](w).All() {
				if r.A.N == 0 {
					root = r.Entity
				}
			}
			p := ecs.NewPrefab(w, root)
			if p.Len() != n+1 {
				t.Fatalf("prefab of %d nodes, want %d", p.Len(), n+1)
			}
			for i := range 2 {
				var inst []ecs.Entity
				dhWithin(t, dhLimit(n), fmt.Sprintf("spawn %d", i+1), func() error {
					p.SpawnBatchFunc(1, func(_ int, es []ecs.Entity) { inst = append(inst, es...) })
					return nil
				})
				last := inst[len(inst)-1]
				if h.Depth(last) != n || h.Root(last) != inst[0] {
					t.Fatalf("spawn %d: the last node's depth %d and root %v, want %d and %v", i+1, h.Depth(last), h.Root(last), n, inst[0])
				}
				if par, _ := h.Parent(inst[n/2+1]); par != inst[n/2] {
					t.Fatalf("spawn %d: node %d's parent is %v, want %v", i+1, n/2+1, par, inst[n/2])
				}
			}
		})
	}
}

// Restore and CopyEntity do no walk of the hierarchy: a snapshot of a deep
// chain, or of a root with many children, restores after a despawn of
// the whole tree, and a clone of the deepest node, or of a child of the
// wide root, is a sibling, in time linear in the world (Restore) or
// independent of its shape (CopyEntity).
func TestDeepHierarchyRestoreAndCopyEntity(t *testing.T) {
	for _, n := range dhSizes(t, 100_000, 1_000_000) {
		for _, chain := range []bool{true, false} {
			t.Run(fmt.Sprintf("chain=%v/%d", chain, n), func(t *testing.T) {
				w, h := dhWorld(n, chain)
				nodes := ecs.NewMap[dhNode](w)
				byN := make([]ecs.Entity, n+1)
				for r := range ecs.NewQuery1[dhNode](w).All() {
					byN[r.A.N] = r.Entity
				}
				var s ecs.Snapshot
				dhWithin(t, dhLimit(n), "snapshot, despawn, restore", func() error {
					w.Snapshot(&s)
					w.Despawn(byN[0]) // the whole tree goes
					if w.Len() != 0 {
						return fmt.Errorf("%d entities left after the root's despawn", w.Len())
					}
					w.Restore(&s)
					return nil
				})
				dhCheck(t, w, h, n, 0, chain)
				var c ecs.Entity
				dhWithin(t, dhLimit(n), "clone", func() error {
					c = w.CopyEntity(byN[n])
					return nil
				})
				parent := byN[0]
				if chain {
					parent = byN[n-1]
				}
				if p, _ := h.Parent(c); p != parent || nodes.Get(c).N != int32(n) {
					t.Fatalf("the clone of node %d has the parent %v and node %d, want %v and %d", n, p, nodes.Get(c).N, parent, n)
				}
				if chain && h.Depth(c) != n {
					t.Fatalf("the clone's depth is %d, want %d", h.Depth(c), n)
				}
			})
		}
	}
}
