package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Types with references and no Clone method, one per place a value can
// live, and a Cloner, for the tests of Shallow.
type (
	shMesh   struct{ Verts []float32 }  // a table component
	shFrames struct{ F []int }          // a sparse component
	shLink   struct{ Note *string }     // the pair value of an exclusive relation
	shLinks  struct{ Note *string }     // the pair value of a Multi relation
	shHit    struct{ P *int }           // an event
	shAsset  struct{ M map[string]int } // a resource
	shBag    struct{ Items []int }      // a Cloner
)

func (b shBag) Clone() shBag { return shBag{Items: slices.Clone(b.Items)} }

// shallowWorld holds one value of each kind, and the references they
// were given, so a test can tell a shared reference from a copied one.
type shallowWorld struct {
	w      *ecs.World
	mesh   *ecs.Map[shMesh]
	frames *ecs.Map[shFrames]
	link   *ecs.Relation[shLink]
	links  *ecs.Relation[shLinks]
	hits   *ecs.Events[shHit]
	reader *ecs.EventReader[shHit]
	e, t   ecs.Entity
	verts  []float32
	f      []int
	note   *string
	hit    *int
	asset  map[string]int
}

func newShallowWorld(w *ecs.World) *shallowWorld {
	s := &shallowWorld{w: w, verts: []float32{1}, f: []int{2}, note: new(string), hit: new(int), asset: map[string]int{"a": 1}}
	ecs.Register[shFrames](w, ecs.Sparse())
	s.mesh, s.frames = ecs.NewMap[shMesh](w), ecs.NewMap[shFrames](w)
	s.link, s.links = ecs.NewRelation[shLink](w), ecs.NewRelation[shLinks](w, ecs.Multi())
	s.hits = ecs.EventsOf[shHit](w)
	s.reader = s.hits.NewReader()
	s.e, s.t = s.mesh.Spawn(shMesh{Verts: s.verts}), w.Spawn()
	s.frames.Add(s.e, shFrames{F: s.f})
	s.link.Set(s.e, s.t, shLink{Note: s.note})
	s.links.Set(s.e, s.t, shLinks{Note: s.note})
	s.hits.Send(shHit{P: s.hit})
	ecs.AddResource(w, &shAsset{M: s.asset})
	return s
}

// declareAll declares every kind's type Shallow, checking after each that
// CanSnapshot no longer names it, and that it accepts the world at the end.
func (s *shallowWorld) declareAll(t *testing.T) {
	t.Helper()
	for _, d := range []struct {
		name    string
		declare func(*ecs.World)
	}{
		{"shMesh", ecs.Shallow[shMesh]},
		{"shFrames", ecs.Shallow[shFrames]},
		{"shLink", ecs.Shallow[shLink]},
		{"shLinks", ecs.Shallow[shLinks]},
		{"shHit", ecs.Shallow[shHit]},
		{"shAsset", ecs.Shallow[shAsset]},
	} {
		d.declare(s.w)
		if err := s.w.CanSnapshot(); err != nil && strings.Contains(err.Error(), "ecs_test."+d.name+" ") {
			t.Fatalf("after Shallow[%s], CanSnapshot still names it: %v", d.name, err)
		}
	}
	if err := s.w.CanSnapshot(); err != nil {
		t.Fatalf("CanSnapshot after Shallow of every type: %v", err)
	}
}

// checkShared fails unless every value of the world still shares its
// references with those it was given: a plain copy, not a deep one.
func (s *shallowWorld) checkShared(t *testing.T, e ecs.Entity, what string) {
	t.Helper()
	if &s.mesh.Get(e).Verts[0] != &s.verts[0] {
		t.Errorf("%s: the table component's slice was copied", what)
	}
	if &s.frames.Get(e).F[0] != &s.f[0] {
		t.Errorf("%s: the sparse component's slice was copied", what)
	}
	if s.link.Value(e, s.t).Note != s.note {
		t.Errorf("%s: the exclusive pair's pointer was copied", what)
	}
	if s.links.Value(e, s.t).Note != s.note {
		t.Errorf("%s: the Multi pair's pointer was copied", what)
	}
}

// TestShallowWhereverValuesLive: one Shallow[T] per type makes snapshots
// and CopyEntity copy T plainly as a table or sparse component, as the
// pair value of an exclusive or a Multi relation, as an event and as a
// resource, whether it comes before the type's first use or after it.
func TestShallowWhereverValuesLive(t *testing.T) {
	for _, before := range []bool{true, false} {
		name := "after first use"
		if before {
			name = "before first use"
		}
		t.Run(name, func(t *testing.T) {
			w := ecs.NewWorld()
			var s *shallowWorld
			if before {
				ecs.Shallow[shMesh](w)
				ecs.Shallow[shFrames](w)
				ecs.Shallow[shLink](w)
				ecs.Shallow[shLinks](w)
				ecs.Shallow[shHit](w)
				ecs.Shallow[shAsset](w)
				s = newShallowWorld(w)
				if err := w.CanSnapshot(); err != nil {
					t.Fatalf("CanSnapshot with every type declared first: %v", err)
				}
			} else {
				s = newShallowWorld(w)
				err := w.CanSnapshot()
				if err == nil || !strings.Contains(err.Error(), "declare it with ecs.Shallow[") {
					t.Fatalf("CanSnapshot before any Shallow = %v, want a refusal naming ecs.Shallow", err)
				}
				testhelp.MustPanic(t, func() { w.CopyEntity(s.e) }, "CopyEntity", "ecs.Shallow[")
				s.declareAll(t)
			}
			var snap ecs.Snapshot
			w.Snapshot(&snap)
			s.hits.Send(shHit{P: new(int)})
			s.mesh.Set(s.e, shMesh{})
			ecs.GetResource[shAsset](w).M = nil
			w.Restore(&snap)
			s.checkShared(t, s.e, "after Restore")
			if got := s.reader.Read(); len(got) != 1 || got[0].P != s.hit {
				t.Errorf("after Restore the reader reads %v, want the one event with the pointer sent", got)
			}
			if m := ecs.GetResource[shAsset](w).M; m == nil || m["a"] != 1 {
				t.Fatalf("after Restore the resource's map is %v", m)
			}
			ecs.GetResource[shAsset](w).M["b"] = 2
			if s.asset["b"] != 2 {
				t.Error("after Restore the resource's map was copied")
			}
			s.checkShared(t, w.CopyEntity(s.e), "CopyEntity")
		})
	}
}

// TestShallowKeepsClone: a Cloner declared Shallow is still copied through
// its Clone method, as a component and as an exclusive relation's pair
// value, declared before or after its first use.
func TestShallowKeepsClone(t *testing.T) {
	for _, before := range []bool{true, false} {
		w := ecs.NewWorld()
		if before {
			ecs.Shallow[shBag](w)
		}
		bags := ecs.NewMap[shBag](w)
		rel := ecs.NewRelation[shBag](w)
		items, pairItems := []int{1}, []int{2}
		e, target := bags.Spawn(shBag{Items: items}), w.Spawn()
		rel.Set(e, target, shBag{Items: pairItems})
		if !before {
			ecs.Shallow[shBag](w)
		}
		var snap ecs.Snapshot
		w.Snapshot(&snap)
		w.Restore(&snap)
		if &bags.Get(e).Items[0] == &items[0] {
			t.Errorf("before=%v: the component was not cloned", before)
		}
		if &rel.Value(e, target).Items[0] == &pairItems[0] {
			t.Errorf("before=%v: the pair value was not cloned", before)
		}
	}
}

// TestShallowRefusedUntilDeclared: without Shallow, every kind of place
// makes Snapshot panic with a message naming the type and the call.
func TestShallowRefusedUntilDeclared(t *testing.T) {
	for _, c := range []struct {
		name string
		use  func(w *ecs.World)
	}{
		{"component", func(w *ecs.World) { ecs.NewMap[shMesh](w).Spawn(shMesh{}) }},
		{"exclusive pair", func(w *ecs.World) { ecs.NewRelation[shLink](w).Add(w.Spawn(), w.Spawn()) }},
		{"multi pair", func(w *ecs.World) { ecs.NewRelation[shLinks](w, ecs.Multi()).Add(w.Spawn(), w.Spawn()) }},
		{"event", func(w *ecs.World) { ecs.EventsOf[shHit](w) }},
		{"resource", func(w *ecs.World) { ecs.AddResource(w, &shAsset{}) }},
	} {
		w := ecs.NewWorld()
		c.use(w)
		var snap ecs.Snapshot
		testhelp.MustPanic(t, func() { w.Snapshot(&snap) }, "ecs: Snapshot:", "declare it with ecs.Shallow[ecs_test.sh")
	}
}

// TestShallowInsideParallelSection: Shallow changes how snapshots treat
// the world's types, which a running system must not do.
func TestShallowInsideParallelSection(t *testing.T) {
	w := ecs.NewWorld()
	w.Parallel().Begin()
	testhelp.MustPanic(t, func() { ecs.Shallow[shMesh](w) }, "Shallow", "parallel section")
	w.Parallel().End()
	ecs.Shallow[shMesh](w)
}
