package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// dfMeddler is a Checksummer whose method despawns an entity: a structural
// change from inside Checksum, which must panic, naming it.
type dfMeddler struct{ W *ecs.World }

var meddleTarget ecs.Entity

func (m *dfMeddler) Checksum() uint64 {
	if m.W != nil {
		m.W.Despawn(meddleTarget)
	}
	return 1
}

func TestDiffAndChecksumsRefuseMisuse(t *testing.T) {
	w, es := dfWorld(10)
	other, _ := dfWorld(10)
	t.Run("parallel section", func(t *testing.T) {
		w.Parallel().Begin()
		defer w.Parallel().End()
		testhelp.MustPanic(t, func() { w.Checksums(nil) }, "Checksums", "parallel section")
		testhelp.MustPanic(t, func() { ecs.Diff(w, other, 1) }, "Diff", "parallel section")
		testhelp.MustPanic(t, func() { ecs.Diff(other, w, 1) }, "Diff", "parallel section")
	})
	t.Run("empty snapshot", func(t *testing.T) {
		testhelp.MustPanic(t, func() { ecs.Diff(&ecs.Snapshot{}, w, 1) }, "Diff", "snapshot is empty")
		testhelp.MustPanic(t, func() { ecs.Diff(w, (*ecs.Snapshot)(nil), 1) }, "Diff", "snapshot is empty")
	})
	t.Run("structural change inside a Checksum method", func(t *testing.T) {
		a, b := ecs.NewWorld(), ecs.NewWorld()
		meddleTarget = a.Spawn()
		b.Spawn()
		ecs.NewMap[dfMeddler](a).Spawn(dfMeddler{W: a})
		ecs.NewMap[dfMeddler](b).Spawn(dfMeddler{})
		testhelp.MustPanic(t, func() { a.Checksums(nil) }, "Despawn", "Checksums")
		if !a.Alive(meddleTarget) {
			t.Fatalf("the refused despawn happened")
		}
		testhelp.MustPanic(t, func() { ecs.Diff(a, b, 1) }, "Despawn", "Diff")
		if !a.Alive(meddleTarget) {
			t.Fatalf("the refused despawn happened")
		}
	})
	t.Run("inside a query loop", func(t *testing.T) {
		// Reading is allowed inside a loop: Diff and Checksums see the
		// state the loop sees, and leave it alone.
		before := w.Checksum()
		q := ecs.NewQuery1[dfPos](w)
		n := 0
		for range q.All() {
			if n == 0 {
				if r := ecs.Diff(w, w, 1); !r.Equal() {
					t.Fatalf("a world differs from itself inside a loop:\n%v", &r)
				}
				_ = w.Checksums(nil)
			}
			n++
		}
		if w.Checksum() != before || n != len(es) {
			t.Fatalf("the loop saw %d entities, checksum %x -> %x", n, before, w.Checksum())
		}
	})
}

// TestDiffReportsHandlesOfEachSide: a difference on an entity both states
// have carries A's handle, one only B has carries B's, so that each can be
// used with its own world.
func TestDiffReportsHandlesOfEachSide(t *testing.T) {
	a, ea := dfWorld(5)
	b, eb := dfWorld(5)
	ecs.NewMap[dfPos](b).Get(eb[1]).X = 42
	extra := b.Spawn()
	r := ecs.Diff(a, b, 10)
	var sawValue, sawExtra bool
	for _, d := range r.Differences {
		switch {
		case d.Kind == ecs.ValueDiffers && d.Part == ecs.PartComponent:
			sawValue = d.Entity == ea[1] && a.Alive(d.Entity)
		case d.Kind == ecs.OnlyInB && d.Part == ecs.PartEntities:
			sawExtra = d.Entity == extra && b.Alive(d.Entity)
		}
	}
	if !sawValue || !sawExtra {
		t.Fatalf("handles: value on A's %v %v, extra B's %v %v\n%v", ea[1], sawValue, extra, sawExtra, &r)
	}
}
