package sched_test

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
	"github.com/tessera-ecs/tessera/sched"
)

// A system that attaches children through its command buffer and a later
// one that reads the hierarchy: the reader runs in a later stage and sees
// the pairs, in Debug mode, which checks the declarations.
func TestRelationAccess(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	rel := h.Relation()
	root := w.Spawn()
	kids := []ecs.Entity{w.Spawn(), w.Spawn()}
	s := sched.New(w, sched.Debug())
	defer s.Close()
	s.AddFunc("attach", func(ctx *sched.Context) {
		for _, k := range kids {
			rel.SetCmd(ctx.Commands(), k, root, ecs.ChildOf{})
		}
	}, sched.ChangesRelation(rel))
	var seen []ecs.Entity
	s.AddFunc("read", func(*sched.Context) { seen = h.Children(root) }, sched.ReadsRelation(rel))
	s.Run()
	if !slices.Equal(seen, kids) {
		t.Fatalf("the reader saw %v, want %v", seen, kids)
	}

	// Reading without the declaration is caught.
	s2 := sched.New(w, sched.Debug())
	defer s2.Close()
	s2.AddFunc("sneak", func(*sched.Context) { _ = h.NumChildren(root) })
	testhelp.MustPanic(t, s2.Run, `system "sneak" reads relation ecs.ChildOf (Relation[ecs.ChildOf].NumSources) without declaring it; add sched.ReadsRelation(r), r the hierarchy's relation (h.Relation(), h from ecs.NewHierarchy), to its options`)
	s3 := sched.New(w, sched.Debug())
	defer s3.Close()
	s3.AddFunc("sneak", func(ctx *sched.Context) { rel.AddCmd(ctx.Commands(), root, kids[0]) }, sched.ReadsRelation(rel))
	testhelp.MustPanic(t, s3.Run, `add sched.ChangesRelation(r) to its options`)
}
