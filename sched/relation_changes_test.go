package sched_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Likes and Holds are the pair types of the relations below: one
// exclusive, one Multi.
type (
	Likes struct{}
	Holds struct{ N int }
)

// relCase is one relation of a fresh world, through the operations the
// tests below need, whatever its pair type.
type relCase struct {
	w     *ecs.World
	pos   *ecs.Map[Pos]
	rel   sched.Relation
	pair  string // the pair type as messages name it
	link  func(e, t ecs.Entity)
	has   func(e, t ecs.Entity) bool
	read  func(e ecs.Entity) // Target, Targets, Sources, NumSources, Has
	add   func(c *ecs.Commands, e, t ecs.Entity)
	set   func(c *ecs.Commands, e, t ecs.Entity)
	rm    func(c *ecs.Commands, e, t ecs.Entity)
	rmAll func(c *ecs.Commands, e ecs.Entity)
}

func newRelCase[T any](w *ecs.World, r *ecs.Relation[T], pair string) *relCase {
	var zero T
	return &relCase{
		w: w, pos: ecs.NewMap[Pos](w), rel: r, pair: pair,
		link: func(e, t ecs.Entity) { r.Add(e, t) },
		has:  r.Has,
		read: func(e ecs.Entity) {
			r.Target(e)
			r.Targets(e)
			r.Sources(e)
			r.NumSources(e)
			r.Has(e, e)
			r.HasTargets(e)
		},
		add:   r.AddCmd,
		set:   func(c *ecs.Commands, e, t ecs.Entity) { r.SetCmd(c, e, t, zero) },
		rm:    r.RemoveCmd,
		rmAll: r.RemoveTargetsCmd,
	}
}

// relationKinds makes a world with one relation of each kind: exclusive,
// Multi, and the hierarchy.
var relationKinds = []struct {
	name string
	make func() *relCase
}{
	{"exclusive", func() *relCase {
		w := ecs.NewWorld()
		return newRelCase(w, ecs.NewRelation[Likes](w), "sched_test.Likes")
	}},
	{"multi", func() *relCase {
		w := ecs.NewWorld()
		return newRelCase(w, ecs.NewRelation[Holds](w, ecs.Multi()), "sched_test.Holds")
	}},
	{"hierarchy", func() *relCase {
		w := ecs.NewWorld()
		return newRelCase(w, ecs.NewHierarchy(w).Relation(), "ecs.ChildOf")
	}},
}

// internalNames are the names of the component types package ecs keeps a
// relation's pairs in, which no message may show.
var internalNames = []string{"relOne", "relMany", "relIn", "ecs.rel"}

// mustNotNameInternals fails if msg names one of the internal types.
func mustNotNameInternals(t *testing.T, msg string) {
	t.Helper()
	for _, n := range internalNames {
		if strings.Contains(msg, n) {
			t.Errorf("message names an internal type (%s): %s", n, msg)
		}
	}
}

// runOnce runs a Debug scheduler over w with one system, f with opts, and
// returns the panic message of the run, or "".
func runOnce(w *ecs.World, f func(c *ecs.Commands), opts ...sched.Option) (msg string) {
	s := sched.New(w, sched.Debug())
	defer s.Close()
	s.AddFunc("cull", func(ctx *sched.Context) { f(ctx.Commands()) }, opts...)
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	s.Run()
	return ""
}

// TestChangesRelationCoversEveryPath: in Debug mode, ChangesRelation(r)
// declares every structural change to r's pairs a command buffer records:
// a despawn of a source or of a target (the pairs go with it), AddCmd,
// SetCmd, RemoveCmd and RemoveTargetsCmd, for every kind of relation.
// Without it, each panics, naming the relation and the option, never the
// types ecs keeps the pairs in.
func TestChangesRelationCoversEveryPath(t *testing.T) {
	type path struct {
		name string
		do   func(rc *relCase, c *ecs.Commands, src, dst, free ecs.Entity)
		want func(rc *relCase, src, dst, free ecs.Entity) bool // the effect, after the run
		says string                                            // what the panic without the option says
	}
	paths := []path{
		{"despawn source", func(rc *relCase, c *ecs.Commands, src, _, _ ecs.Entity) { c.Despawn(src) },
			func(rc *relCase, src, _, _ ecs.Entity) bool { return !rc.w.Alive(src) }, "despawns an entity with pairs of relation"},
		{"despawn target", func(rc *relCase, c *ecs.Commands, _, dst, _ ecs.Entity) { c.Despawn(dst) },
			func(rc *relCase, _, dst, _ ecs.Entity) bool { return !rc.w.Alive(dst) }, "despawns an entity with pairs of relation"},
		{"AddCmd", func(rc *relCase, c *ecs.Commands, _, dst, free ecs.Entity) { rc.add(c, free, dst) },
			func(rc *relCase, _, dst, free ecs.Entity) bool { return rc.has(free, dst) }, "adds pairs of relation"},
		{"SetCmd", func(rc *relCase, c *ecs.Commands, _, dst, free ecs.Entity) { rc.set(c, free, dst) },
			func(rc *relCase, _, dst, free ecs.Entity) bool { return rc.has(free, dst) }, "adds pairs of relation"},
		{"RemoveCmd", func(rc *relCase, c *ecs.Commands, src, dst, _ ecs.Entity) { rc.rm(c, src, dst) },
			func(rc *relCase, src, dst, _ ecs.Entity) bool { return !rc.has(src, dst) }, "removes pairs of relation"},
		{"RemoveTargetsCmd", func(rc *relCase, c *ecs.Commands, src, _, _ ecs.Entity) { rc.rmAll(c, src) },
			func(rc *relCase, src, dst, _ ecs.Entity) bool { return !rc.has(src, dst) }, "removes pairs of relation"},
	}
	for _, kind := range relationKinds {
		for _, p := range paths {
			t.Run(kind.name+"/"+p.name, func(t *testing.T) {
				setup := func() (*relCase, ecs.Entity, ecs.Entity, ecs.Entity) {
					rc := kind.make()
					src, dst, free := rc.w.Spawn(), rc.w.Spawn(), rc.w.Spawn()
					for _, e := range []ecs.Entity{src, dst, free} {
						rc.pos.Add(e, Pos{})
					}
					rc.link(src, dst)
					return rc, src, dst, free
				}
				rc, src, dst, free := setup()
				if msg := runOnce(rc.w, func(c *ecs.Commands) { p.do(rc, c, src, dst, free) },
					sched.Despawns[Pos](), sched.ChangesRelation(rc.rel)); msg != "" {
					t.Fatalf("declared with ChangesRelation, the run panicked: %s", msg)
				}
				if !p.want(rc, src, dst, free) {
					t.Fatalf("the change was not applied")
				}

				rc, src, dst, free = setup()
				msg := runOnce(rc.w, func(c *ecs.Commands) { p.do(rc, c, src, dst, free) }, sched.Despawns[Pos]())
				for _, part := range []string{`system "cull" ` + p.says + " " + rc.pair, "add sched.ChangesRelation(r) to its options"} {
					if !strings.Contains(msg, part) {
						t.Errorf("without ChangesRelation: panic %q does not say %q", msg, part)
					}
				}
				mustNotNameInternals(t, msg)
			})
		}
	}
}

// TestDespawnCascadeIsChecked: a despawn that takes a subtree away (the
// hierarchy despawns a parent's children with it) is checked against the
// types of the whole subtree, and the message says where the type came
// from.
func TestDespawnCascadeIsChecked(t *testing.T) {
	setup := func() (*ecs.World, *ecs.Hierarchy, ecs.Entity, ecs.Entity, ecs.Entity) {
		w := ecs.NewWorld()
		h := ecs.NewHierarchy(w)
		pos, vel := ecs.NewMap[Pos](w), ecs.NewMap[Vel](w)
		root, kid, grandkid := w.Spawn(), w.Spawn(), w.Spawn()
		pos.Add(root, Pos{})
		pos.Add(kid, Pos{})
		vel.Add(grandkid, Vel{})
		h.SetParent(kid, root)
		h.SetParent(grandkid, kid)
		return w, h, root, kid, grandkid
	}
	w, h, root, _, grandkid := setup()
	msg := runOnce(w, func(c *ecs.Commands) { c.Despawn(root) }, sched.Despawns[Pos](), sched.ChangesRelation(h.Relation()))
	for _, part := range []string{
		`system "cull" despawns an entity with component sched_test.Vel (Despawn of ` + root.String() + `, cascading through Relation[ecs.ChildOf])`,
		"add sched.Despawns[sched_test.Vel]()",
	} {
		if !strings.Contains(msg, part) {
			t.Errorf("panic %q does not say %q", msg, part)
		}
	}
	if !w.Alive(grandkid) {
		t.Error("the refused despawn was applied")
	}

	w, h, root, kid, grandkid := setup()
	if msg := runOnce(w, func(c *ecs.Commands) { c.Despawn(root) },
		sched.Despawns[Pos](), sched.Despawns[Vel](), sched.ChangesRelation(h.Relation())); msg != "" {
		t.Fatalf("with every type declared, the run panicked: %s", msg)
	}
	for _, e := range []ecs.Entity{root, kid, grandkid} {
		if w.Alive(e) {
			t.Errorf("%v survived the despawn of its root", e)
		}
	}

	// The pairs the cascade takes away need ChangesRelation too: here the
	// grandchild likes another entity.
	w, h, root, _, grandkid = setup()
	likes := ecs.NewRelation[Likes](w)
	likes.Add(grandkid, w.Spawn())
	msg = runOnce(w, func(c *ecs.Commands) { c.Despawn(root) },
		sched.Despawns[Pos](), sched.Despawns[Vel](), sched.ChangesRelation(h.Relation()))
	for _, part := range []string{
		"despawns an entity with pairs of relation sched_test.Likes (Despawn of " + root.String() + ", cascading through Relation[ecs.ChildOf])",
		"add sched.ChangesRelation(r) to its options, r the relation's handle (from ecs.NewRelation[sched_test.Likes])",
	} {
		if !strings.Contains(msg, part) {
			t.Errorf("panic %q does not say %q", msg, part)
		}
	}
	mustNotNameInternals(t, msg)
	if msg := runOnce(w, func(c *ecs.Commands) { c.Despawn(root) }, sched.Despawns[Pos](), sched.Despawns[Vel](),
		sched.ChangesRelation(h.Relation()), sched.ChangesRelation(likes)); msg != "" {
		t.Fatalf("with every type and relation declared, the run panicked: %s", msg)
	}
	if w.Alive(grandkid) {
		t.Error("the grandchild survived the despawn of its root")
	}
}

// TestChangesRelationImpliesReadsRelation: a system that changes a
// relation may read it, as Writes[T] implies Reads[T]; and it is placed
// like a reader: after a system that writes the relation's values.
func TestChangesRelationImpliesReadsRelation(t *testing.T) {
	for _, kind := range relationKinds {
		t.Run(kind.name, func(t *testing.T) {
			rc := kind.make()
			a, b := rc.w.Spawn(), rc.w.Spawn()
			rc.link(a, b)
			msg := runOnce(rc.w, func(c *ecs.Commands) {
				rc.read(a)
				rc.read(b)
				rc.rm(c, a, b)
			}, sched.ChangesRelation(rc.rel))
			if msg != "" {
				t.Fatalf("a system declared with ChangesRelation alone read the relation and panicked: %s", msg)
			}
			if rc.has(a, b) {
				t.Fatal("the change was not applied")
			}

			s := sched.New(rc.w, sched.Workers(1))
			defer s.Close()
			noop := func() {}
			mustAdd(t, s, "write", noop, sched.WritesRelation(rc.rel))
			mustAdd(t, s, "change", noop, sched.ChangesRelation(rc.rel))
			if st := stageOf(s); st["change"] <= st["write"] {
				t.Errorf("the changer runs in stage %d, the writer in %d: they race on the relation\n%s", st["change"], st["write"], s.Plan())
			}
			plan := s.Plan()
			if want := `change: after "write" (relation ` + rc.pair + `)`; !strings.Contains(plan, want) {
				t.Errorf("the plan does not say %q:\n%s", want, plan)
			}
			mustNotNameInternals(t, plan)
		})
	}
}

// TestRelationAccessMessages: the messages of Debug mode for reads and
// writes of a relation name the relation and the option to add, and the
// plan names relations as relations.
func TestRelationAccessMessages(t *testing.T) {
	for _, kind := range relationKinds {
		t.Run(kind.name, func(t *testing.T) {
			rc := kind.make()
			a, b := rc.w.Spawn(), rc.w.Spawn()
			rc.link(a, b)
			var msgs []string
			msg := runOnce(rc.w, func(*ecs.Commands) { rc.read(a) })
			if !strings.Contains(msg, `system "cull" reads relation `+rc.pair) || !strings.Contains(msg, "add sched.ReadsRelation(r), r ") {
				t.Errorf("read: %s", msg)
			}
			msgs = append(msgs, msg)
			msg = runOnce(rc.w, func(*ecs.Commands) { rc.read(b) }, sched.Reads[Pos]())
			if !strings.Contains(msg, `system "cull" reads relation `+rc.pair) {
				t.Errorf("read of a target: %s", msg)
			}
			msgs = append(msgs, msg)

			s := sched.New(rc.w, sched.Workers(1))
			defer s.Close()
			noop := func() {}
			mustAdd(t, s, "attach", noop, sched.ChangesRelation(rc.rel))
			mustAdd(t, s, "walk", noop, sched.ReadsRelation(rc.rel))
			plan := s.Plan()
			if want := `walk: after "attach" (structural changes to relation ` + rc.pair + `)`; !strings.Contains(plan, want) {
				t.Errorf("the plan does not say %q:\n%s", want, plan)
			}
			msgs = append(msgs, plan)
			for _, m := range msgs {
				mustNotNameInternals(t, m)
			}
			if slices.Contains(msgs, "") {
				t.Errorf("a check did not panic: %q", msgs)
			}
		})
	}
}
