package ecs_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// despawnLog records the types a checker is told a despawn takes away,
// with the operation named.
type despawnLog struct{ got []string }

func (l *despawnLog) CheckAccess(kind ecs.AccessKind, typ reflect.Type, _ bool, op string) {
	if kind != ecs.DespawnAccess || typ == nil {
		return
	}
	name := typ.String()
	if pair, source, ok := ecs.RelationSide(typ); ok {
		name = map[bool]string{false: "targets of ", true: "sources of "}[source] + pair.String()
	}
	l.got = append(l.got, op+": "+name)
}

// TestAccessCheckerSeesDespawnCascades: a despawn recorded in a Commands
// buffer reports the types of the entities it takes away with it through
// a relation whose policy is DespawnSources (a hierarchy's subtree), and
// not the sources of a relation that only drops its pairs.
func TestAccessCheckerSeesDespawnCascades(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	likes := ecs.NewRelation[Tag](w, ecs.Multi())
	pos, vel, mass := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w), ecs.NewMap[Mass](w)
	root, kid, grandkid, fan := pos.Spawn(Position{}), vel.Spawn(Velocity{}), mass.Spawn(Mass{}), w.Spawn()
	h.SetParent(kid, root)
	h.SetParent(grandkid, kid)
	likes.Add(fan, root) // RemovePairs: the fan lives on
	c := w.NewCommands()
	var l despawnLog
	w.Parallel().SetAccessChecker(&l)
	c.Despawn(root)
	w.Parallel().SetAccessChecker(nil)
	via := "Despawn of " + root.String() + ", cascading through Relation[ecs.ChildOf]"
	want := []string{
		"Despawn: ecs_test.Position", "Despawn: targets of ecs.ChildOf", "Despawn: targets of ecs_test.Tag",
		via + ": ecs_test.Velocity", via + ": sources of ecs.ChildOf", via + ": targets of ecs.ChildOf",
		via + ": ecs_test.Mass", via + ": sources of ecs.ChildOf",
	}
	slices.Sort(l.got)
	slices.Sort(want)
	if !slices.Equal(l.got, want) {
		t.Fatalf("checker saw %q\nwant %q", l.got, want)
	}
	w.Apply(c)
	for _, e := range []ecs.Entity{root, kid, grandkid} {
		if w.Alive(e) {
			t.Errorf("%v survived", e)
		}
	}
	if !w.Alive(fan) {
		t.Error("the fan of a despawned target was despawned")
	}
}
