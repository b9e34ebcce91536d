package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type inspFollow struct{ Target ecs.Entity }
type inspScore struct{ Points int }

// inspWorld has table types Position and Velocity, the sparse type
// Burning and a resource: 30 entities in three tables, every third one
// burning.
func inspWorld() (*ecs.World, []ecs.Entity) {
	w, burn := sparseWorld()
	pos, pv := ecs.NewMap[Position](w), ecs.NewMap2[Position, Velocity](w)
	var es []ecs.Entity
	for i := range 30 {
		var e ecs.Entity
		switch i % 3 {
		case 0:
			e = pos.Spawn(Position{X: float64(i)})
		case 1:
			e = pv.Spawn(Position{X: float64(i)}, Velocity{Y: 1})
		default:
			e = w.Spawn()
		}
		if i%3 == 0 {
			burn.Add(e, Burning{})
		}
		es = append(es, e)
	}
	ecs.AddResource(w, &inspScore{Points: 7})
	return w, es
}

func TestComponentsAndNames(t *testing.T) {
	w, _ := inspWorld()
	got := map[string]ecs.ComponentInfo{}
	for _, c := range w.Reflect().Components() {
		got[c.GoType.Name()] = c
	}
	if c := got["Position"]; c.Count != 20 || c.Storage != ecs.TableStorage || !strings.HasSuffix(c.Name, "/ecs_test.Position") {
		t.Errorf("Position: %+v", c)
	}
	if c := got["Burning"]; c.Count != 10 || c.Storage != ecs.SparseStorage {
		t.Errorf("Burning: %+v", c)
	}
	ct, ok := w.Reflect().ComponentNamed(got["Velocity"].Name)
	if !ok || ct.String() != ecs.C[Velocity]().String() || ct.Type() != reflect.TypeFor[Velocity]() {
		t.Errorf("ComponentNamed(Velocity) = %v, %v", ct, ok)
	}
	if typ := (ecs.ComponentType{}).Type(); typ != nil {
		t.Errorf("the zero ComponentType names %v, want nil", typ)
	}
	if _, ok := w.Reflect().ComponentNamed("no.Such"); ok {
		t.Error("ComponentNamed found an unknown name")
	}
}

func TestEntityAtComponentsOfValue(t *testing.T) {
	w, es := inspWorld()
	e, ok := w.Reflect().EntityAt(es[3].Index())
	if !ok || e != es[3] {
		t.Fatalf("EntityAt(%d) = %v, %v; want %v", es[3].Index(), e, ok, es[3])
	}
	w.Despawn(es[4])
	if _, ok := w.Reflect().EntityAt(es[4].Index()); ok {
		t.Error("EntityAt found a despawned index")
	}
	if _, ok := w.Reflect().EntityAt(0); ok {
		t.Error("EntityAt(0) found an entity")
	}
	if _, ok := w.Reflect().EntityAt(1 << 30); ok {
		t.Error("EntityAt past the index found an entity")
	}
	var names []string
	for _, c := range w.Reflect().ComponentsOf(es[3], nil) {
		names = append(names, c.String())
	}
	if want := []string{"ecs_test.Position", "ecs_test.Burning"}; !slices.Equal(names, want) {
		t.Errorf("ComponentsOf = %v, want %v", names, want)
	}
	v, ok := w.Reflect().Value(es[3], ecs.C[Position]())
	if p, isPos := v.(Position); !ok || !isPos || p.X != 3 {
		t.Errorf("Value(Position) = %#v, %v", v, ok)
	}
	if v, ok := w.Reflect().Value(es[3], ecs.C[Burning]()); !ok || reflect.TypeOf(v) != reflect.TypeFor[Burning]() {
		t.Errorf("Value(Burning) = %#v, %v", v, ok)
	}
	if _, ok := w.Reflect().Value(es[3], ecs.C[Velocity]()); ok {
		t.Error("Value of a missing component")
	}
	if _, ok := w.Reflect().Value(es[3], ecs.C[inspFollow]()); ok {
		t.Error("Value of a type the world never met")
	}
	if _, ok := w.Reflect().Value(es[4], ecs.C[Position]()); ok {
		t.Error("Value of a dead entity")
	}
	testhelp.MustPanic(t, func() { w.Reflect().ComponentsOf(es[4], nil) }, "ComponentsOf: entity")
}

// TestReflectionEntities checks the entities of every filter against
// those a brute-force walk in table order selects, and that a loop may
// stop early.
func TestReflectionEntities(t *testing.T) {
	w, _ := inspWorld()
	r := w.Reflect()
	cts := []ecs.ComponentType{ecs.C[Position](), ecs.C[Velocity](), ecs.C[Burning]()}
	full := slices.Collect(r.Entities(nil, nil))
	if len(full) != 30 {
		t.Fatalf("unfiltered: %d entities, want 30", len(full))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var with, without []ecs.ComponentType
		for _, c := range cts {
			switch rng.IntN(3) {
			case 0:
				with = append(with, c)
			case 1:
				without = append(without, c)
			}
		}
		var want []ecs.Entity
		for _, e := range full {
			has := func(c ecs.ComponentType) bool { _, ok := r.Value(e, c); return ok }
			if !slices.ContainsFunc(with, func(c ecs.ComponentType) bool { return !has(c) }) &&
				!slices.ContainsFunc(without, has) {
				want = append(want, e)
			}
		}
		if got := slices.Collect(r.Entities(with, without)); !slices.Equal(got, want) {
			t.Fatalf("with %v without %v: got %v, want %v", with, without, got, want)
		}
		stop := rng.IntN(len(want) + 1)
		var got []ecs.Entity
		for e := range r.Entities(with, without) {
			if len(got) == stop {
				break
			}
			got = append(got, e)
		}
		if !slices.Equal(got, want[:stop]) {
			t.Fatalf("with %v without %v, stopped after %d: got %v, want %v", with, without, stop, got, want[:stop])
		}
	}
	if got := slices.Collect(r.Entities([]ecs.ComponentType{ecs.C[inspFollow]()}, nil)); len(got) != 0 {
		t.Errorf("a type never met matched %d", len(got))
	}
	if w.IsIterating() {
		t.Error("a loop that stopped early left the world iterating")
	}
}

// TestReflectionEntitiesDefersChanges: structural changes made in the
// loop body wait until the loop ends, as in a query loop, so the loop
// sees every entity that matched when it began.
func TestReflectionEntitiesDefersChanges(t *testing.T) {
	w, _ := inspWorld()
	pos := []ecs.ComponentType{ecs.C[Position]()}
	seen := 0
	for e := range w.Reflect().Entities(pos, nil) {
		w.Despawn(e)
		if !w.Alive(e) {
			t.Fatal("a despawn in the loop body was not deferred")
		}
		seen++
	}
	if seen != 20 || w.Len() != 10 {
		t.Fatalf("saw %d entities, %d left after the loop; want 20 and 10", seen, w.Len())
	}
}

func TestEntitiesTableOrderIsQueryOrder(t *testing.T) {
	w, _ := inspWorld()
	var want []ecs.Entity
	for r := range ecs.NewQuery1[Position](w).All() {
		want = append(want, r.Entity)
	}
	got := slices.Collect(w.Reflect().Entities([]ecs.ComponentType{ecs.C[Position]()}, nil))
	if !slices.Equal(got, want) {
		t.Errorf("Entities = %v, query order %v", got, want)
	}
}

func TestResourcesListing(t *testing.T) {
	w, _ := inspWorld()
	rs := w.Reflect().Resources()
	if len(rs) != 1 || !strings.HasSuffix(rs[0].Name, "ecs_test.inspScore") || rs[0].GoType != reflect.TypeFor[inspScore]() {
		t.Fatalf("Resources = %+v", rs)
	}
	rs[0].Value.(*inspScore).Points = 9
	if ecs.GetResource[inspScore](w).Points != 9 {
		t.Error("Resources' Value does not point at the world's value")
	}
}

func TestSetValueRemoveValue(t *testing.T) {
	w, es := inspWorld()
	var sets, adds, removes int
	ecs.OnSet(w, func(ecs.Entity, *Position) { sets++ })
	ecs.OnAdd(w, func(ecs.Entity, *Velocity) { adds++ })
	ecs.OnRemove(w, func(ecs.Entity, *Burning) { removes++ })
	cmds := w.NewCommands()
	v, err := w.Reflect().DecodeValue(ecs.C[Position](), []byte(`{"X": 5, "Y": -1}`))
	if err != nil {
		t.Fatal(err)
	}
	cmds.SetValue(es[0], v)
	cmds.SetValue(es[0], Velocity{X: 2})
	cmds.RemoveValue(es[0], ecs.C[Burning]())
	w.Apply(cmds)
	if p := ecs.NewMap[Position](w).Get(es[0]); *p != (Position{5, -1}) {
		t.Errorf("Position = %+v", *p)
	}
	if ecs.NewMap[Velocity](w).Get(es[0]).X != 2 || ecs.NewMap[Burning](w).Has(es[0]) {
		t.Error("SetValue or RemoveValue not applied")
	}
	if sets != 1 || adds != 1 || removes != 1 {
		t.Errorf("hooks: %d sets, %d adds, %d removes; want 1 each", sets, adds, removes)
	}
	testhelp.MustPanic(t, func() { cmds.SetValue(es[0], "text") }, "SetValue: entity 1v0: string is not a component type")
	testhelp.MustPanic(t, func() { cmds.SetValue(es[0], nil) }, "is not a component type")
	testhelp.MustPanic(t, func() { cmds.RemoveValue(es[0], ecs.C[inspFollow]()) }, "RemoveValue: entity 1v0: ecs_test.inspFollow is not a component type")
	w.Despawn(es[1])
	testhelp.MustPanic(t, func() { cmds.SetValue(es[1], Position{}) }, "SetValue")
	if cmds.Len() != 0 {
		t.Errorf("a refused change was recorded: %d", cmds.Len())
	}
}

func TestDecodeValue(t *testing.T) {
	w, es := inspWorld()
	follow := ecs.NewMap[inspFollow](w)
	follow.Add(es[0], inspFollow{es[3]})
	v, err := w.Reflect().DecodeValue(ecs.C[inspFollow](), []byte(`{"Target": {"index": 4, "generation": 0}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.(inspFollow).Target; got != es[3] || !w.Alive(got) {
		t.Errorf("decoded Target %v (alive %v), want %v: the world's tag is missing", got, w.Alive(got), es[3])
	}
	for _, c := range []struct{ in, want string }{
		{`{"X": "five"}`, "Position.X of type float64"},
		{`{"Z": 1}`, `unknown field "Z"`},
		{`{"X": 1} {}`, "data after the value"},
		{`{"X": 1`, "unexpected EOF"},
		{``, "EOF"},
		{`[1]`, "cannot unmarshal array"},
	} {
		_, err := w.Reflect().DecodeValue(ecs.C[Position](), []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeValue(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
	if _, err := w.Reflect().DecodeValue(ecs.C[inspScore](), []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "not a component type") {
		t.Errorf("DecodeValue of a resource type: %v", err)
	}
}

func FuzzDecodeValue(f *testing.F) {
	f.Add([]byte(`{"Target": {"index": 4, "generation": 0}}`))
	f.Add([]byte(`{"Target": {"index": 4294967295, "generation": 16777216}}`))
	f.Add([]byte(`null`))
	w, _ := inspWorld()
	ecs.NewMap[inspFollow](w)
	before := w.Checksum()
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := w.Reflect().DecodeValue(ecs.C[inspFollow](), data)
		if err == nil {
			if _, ok := v.(inspFollow); !ok {
				t.Fatalf("decoded a %T", v)
			}
		}
		if w.Checksum() != before {
			t.Fatal("decoding changed the world")
		}
	})
}

// A tool that knows no type: list the entities that have a component, in
// table order (2v0's table was made first: 1v0 moved to a new one when it
// gained a Position), show their components, and change one from JSON
// through a command buffer.
func ExampleReflection_Entities() {
	w := ecs.NewWorld()
	hp := ecs.NewMap[inspScore](w)
	pos := ecs.NewMap[Position](w)
	a := hp.Spawn(inspScore{Points: 1})
	pos.Add(a, Position{X: 2})
	hp.Spawn(inspScore{Points: 5})
	pos.Spawn(Position{})

	r := w.Reflect()
	ct, _ := r.ComponentNamed("github.com/tessera-ecs/tessera/ecs_test.inspScore")
	page := slices.Collect(r.Entities([]ecs.ComponentType{ct}, nil))
	fmt.Println(len(page), "entities have", ct)
	for _, e := range page {
		for _, c := range r.ComponentsOf(e, nil) {
			v, _ := r.Value(e, c)
			fmt.Printf("  %v %v %+v\n", e, c, v)
		}
	}
	v, err := r.DecodeValue(ct, []byte(`{"Points": 99}`))
	if err != nil {
		panic(err)
	}
	cmds := w.NewCommands()
	cmds.SetValue(page[1], v)
	w.Apply(cmds)
	fmt.Println(hp.Get(page[1]).Points)
	// Output:
	// 2 entities have ecs_test.inspScore
	//   2v0 ecs_test.inspScore {Points:5}
	//   1v0 ecs_test.inspScore {Points:1}
	//   1v0 ecs_test.Position {X:2 Y:0}
	// 99
}

// TestHiddenRelationTypes checks that the types a relation keeps its
// pairs in are not offered to tools, and cannot be written through them.
func TestHiddenRelationTypes(t *testing.T) {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	parent, child := w.Spawn(), w.Spawn()
	h.SetParent(child, parent)
	for _, c := range w.Reflect().Components() {
		if strings.Contains(c.Name, "rel") {
			t.Errorf("Components lists %s", c.Name)
		}
	}
	for _, e := range []ecs.Entity{parent, child} {
		if cs := w.Reflect().ComponentsOf(e, nil); len(cs) != 0 {
			t.Errorf("ComponentsOf(%v) = %v", e, cs)
		}
	}
	if _, ok := w.Reflect().ComponentNamed("github.com/tessera-ecs/tessera/ecs.relOne[github.com/tessera-ecs/tessera/ecs.ChildOf]"); ok {
		t.Error("ComponentNamed found a relation's pair type")
	}
	w.Despawn(parent)
	if w.Alive(child) {
		t.Error("the hierarchy no longer works")
	}
}

type walkNode struct {
	Ref  ecs.Entity
	Kids []walkNode
}

type walkLinks struct {
	P *ecs.Entity
	M map[string]ecs.Entity
	S []*walkNode
}

// TestDecodeValueDeepEntities decodes entities at every depth a value can
// hold them: a type that holds itself through a slice (whose walk must not
// recurse forever), pointers and maps.
func TestDecodeValueDeepEntities(t *testing.T) {
	ecs.NewWorld() // a second world, so w's tag is not 0
	w := ecs.NewWorld()
	e := w.Spawn()
	ecs.Register[walkNode](w)
	ecs.Shallow[walkNode](w)
	ecs.NewMap[walkLinks](w)
	ref := `{"index": 1, "generation": 0}`
	v, err := w.Reflect().DecodeValue(ecs.C[walkNode](), []byte(`{"Ref": `+ref+`, "Kids": [{"Ref": `+ref+`, "Kids": [{"Ref": `+ref+`}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	n := v.(walkNode)
	if n.Ref != e || n.Kids[0].Ref != e || n.Kids[0].Kids[0].Ref != e {
		t.Errorf("node %+v: want %v at every depth", n, e)
	}
	v, err = w.Reflect().DecodeValue(ecs.C[walkLinks](), []byte(`{"P": `+ref+`, "M": {"a": `+ref+`}, "S": [{"Ref": `+ref+`}]}`))
	if err != nil {
		t.Fatal(err)
	}
	l := v.(walkLinks)
	if *l.P != e || l.M["a"] != e || l.S[0].Ref != e {
		t.Errorf("links %v %v %v: want %v", *l.P, l.M, l.S[0].Ref, e)
	}
	if _, err := w.Reflect().DecodeValue(ecs.C[walkNode](), []byte(" null ")); err == nil || !strings.Contains(err.Error(), "null is not a value") {
		t.Errorf("null: %v", err)
	}
	// A prefab of the self-holding type: its walk is built too.
	p := ecs.NewPrefab(w, ecs.NewMap[walkNode](w).Spawn(walkNode{Kids: []walkNode{{}}}))
	if got := ecs.NewMap[walkNode](w).Get(p.Spawn()); len(got.Kids) != 1 {
		t.Errorf("prefab instance %+v", got)
	}
}
