package ecs_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// The pair types of the relations below.
type (
	nameClaims struct{ N int }
	nameFunc   struct{ F func() }
	namePtr    struct{ P *int }
)

// internalRelationNames are the names of the component types a relation
// keeps its pairs in, which no message may show: users cannot name them.
var internalRelationNames = []string{"relOne", "relMany", "relIn", "ecs.rel"}

// checkMessage fails unless msg holds every one of parts and none of the
// internal names.
func checkMessage(t *testing.T, what, msg string, parts ...string) {
	t.Helper()
	if msg == "" {
		t.Errorf("%s: no error or panic", what)
		return
	}
	for _, n := range internalRelationNames {
		if strings.Contains(msg, n) {
			t.Errorf("%s: the message names an internal type (%s): %s", what, n, msg)
		}
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("%s: %q does not say %q", what, msg, p)
		}
	}
}

// panicOf returns the message f panics with, or "".
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// savedWith returns the binary and JSON saves of a world in which decl
// declares a relation and links two entities.
func savedWith(t *testing.T, decl func(w *ecs.World, a, b ecs.Entity)) (bin, js []byte) {
	t.Helper()
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	decl(w, a, b)
	var bb, jb bytes.Buffer
	if err := w.Save(&bb); err != nil {
		t.Fatal(err)
	}
	if err := w.SaveJSON(&jb); err != nil {
		t.Fatal(err)
	}
	return bb.Bytes(), jb.Bytes()
}

// loadErrors returns the errors of Load, LoadJSON and Merge of the saves
// into fresh worlds prepared by prep.
func loadErrors(bin, js []byte, prep func(w *ecs.World)) map[string]string {
	fresh := func() *ecs.World {
		w := ecs.NewWorld()
		prep(w)
		return w
	}
	_, merr := fresh().Merge(bytes.NewReader(bin))
	return map[string]string{
		"Load":     errText(fresh().Load(bytes.NewReader(bin))),
		"LoadJSON": errText(fresh().LoadJSON(bytes.NewReader(js))),
		"Merge":    errText(merr),
	}
}

// TestLoadNamesUndeclaredRelations: loading a file whose relation the
// world has not declared, or has declared with the other kind, names the
// relation and the call that declares it, never the types that hold its
// pairs (which no Map or Register can reach).
func TestLoadNamesUndeclaredRelations(t *testing.T) {
	bin, js := savedWith(t, func(w *ecs.World, a, b ecs.Entity) { ecs.NewRelation[nameClaims](w).Set(a, b, nameClaims{3}) })
	for op, msg := range loadErrors(bin, js, func(*ecs.World) {}) {
		checkMessage(t, op+" of an undeclared relation", msg,
			"relation ecs_test.nameClaims (github.com/tessera-ecs/tessera/ecs_test.nameClaims) is not declared in this world",
			"declare it with ecs.NewRelation[ecs_test.nameClaims](w), with the options it was saved with, before Load")
	}
	for op, msg := range loadErrors(bin, js, func(w *ecs.World) { ecs.NewRelation[nameClaims](w, ecs.Multi()) }) {
		checkMessage(t, op+" of an exclusive relation into a Multi one", msg,
			"relation ecs_test.nameClaims was saved exclusive (one target per source), and this world declares it Multi",
			"ecs.NewRelation[ecs_test.nameClaims](w) without ecs.Multi()")
	}

	bin, js = savedWith(t, func(w *ecs.World, a, b ecs.Entity) { ecs.NewRelation[nameClaims](w, ecs.Multi()).Add(a, b) })
	for op, msg := range loadErrors(bin, js, func(w *ecs.World) { ecs.NewRelation[nameClaims](w) }) {
		checkMessage(t, op+" of a Multi relation into an exclusive one", msg,
			"relation ecs_test.nameClaims was saved Multi (any number of targets per source), and this world declares it exclusive",
			"ecs.NewRelation[ecs_test.nameClaims](w, ecs.Multi())")
	}

	bin, js = savedWith(t, func(w *ecs.World, a, b ecs.Entity) { ecs.NewHierarchy(w).SetParent(a, b) })
	for op, msg := range loadErrors(bin, js, func(*ecs.World) {}) {
		checkMessage(t, op+" of an undeclared hierarchy", msg,
			"relation ecs.ChildOf (github.com/tessera-ecs/tessera/ecs.ChildOf) is not declared in this world",
			"ecs.NewHierarchy(w) or ecs.NewRelation[ecs.ChildOf](w)")
	}
	// Other types keep their message.
	bin, js = savedWith(t, func(w *ecs.World, a, _ ecs.Entity) { ecs.NewMap[nameClaims](w).Add(a, nameClaims{}) })
	for op, msg := range loadErrors(bin, js, func(*ecs.World) {}) {
		checkMessage(t, op+" of an unknown component", msg,
			`component type "github.com/tessera-ecs/tessera/ecs_test.nameClaims" is not known to this world; use its Map or Register it before Load`)
	}
}

// TestLoadJSONNamesRelationOfBadValues: a JSON file whose pair values do
// not decode names the relation.
func TestLoadJSONNamesRelationOfBadValues(t *testing.T) {
	_, js := savedWith(t, func(w *ecs.World, a, b ecs.Entity) { ecs.NewRelation[nameClaims](w).Set(a, b, nameClaims{3}) })
	bad := strings.Replace(string(js), `"N": 3`, `"N": "three"`, 1)
	if bad == string(js) {
		t.Fatalf("the file has no value to spoil:\n%s", js)
	}
	w := ecs.NewWorld()
	ecs.NewRelation[nameClaims](w)
	checkMessage(t, "LoadJSON", errText(w.LoadJSON(strings.NewReader(bad))), "ecs: LoadJSON: the pairs of Relation[ecs_test.nameClaims]: ")
}

// TestSaveNamesRelationOfUnsaveablePairs: Save and SaveJSON refuse a pair
// type they cannot hold, naming the relation and the field.
func TestSaveNamesRelationOfUnsaveablePairs(t *testing.T) {
	for _, multi := range []bool{false, true} {
		w := ecs.NewWorld()
		var opts []ecs.RelationOption
		field := "Relation[ecs_test.nameFunc].Value.F is a func"
		if multi {
			opts, field = append(opts, ecs.Multi()), "Relation[ecs_test.nameFunc].Values[].F is a func"
		}
		ecs.NewRelation[nameFunc](w, opts...).Add(w.Spawn(), w.Spawn())
		checkMessage(t, "Save", errText(w.Save(&bytes.Buffer{})), "ecs: Save: the pairs of Relation[ecs_test.nameFunc]: "+field)
		checkMessage(t, "SaveJSON", errText(w.SaveJSON(&bytes.Buffer{})), "the pairs of Relation[ecs_test.nameFunc]: "+field)
	}
}

// TestCopyEntityNamesRelationOfUncopyablePairs: CopyEntity refuses pairs
// whose values a copy would share, naming the relation and the way out.
func TestCopyEntityNamesRelationOfUncopyablePairs(t *testing.T) {
	w := ecs.NewWorld()
	r := ecs.NewRelation[namePtr](w)
	a := w.Spawn()
	r.Add(a, w.Spawn())
	checkMessage(t, "CopyEntity", panicOf(func() { w.CopyEntity(a) }),
		"ecs: CopyEntity: the pair type ecs_test.namePtr of Relation[ecs_test.namePtr] holds pointers", "ecs.Shallow[ecs_test.namePtr](w)")
	checkMessage(t, "CanSnapshot", errText(w.CanSnapshot()),
		"ecs: Snapshot: the pair type ecs_test.namePtr of Relation[ecs_test.namePtr] holds pointers", "ecs.Shallow[ecs_test.namePtr](w)")
}

// TestQueryMessagesNameRelationFilters: a query's messages, and the
// ComponentType of a relation filter, name the filter as it was written.
func TestQueryMessagesNameRelationFilters(t *testing.T) {
	w := ecs.NewWorld()
	r := ecs.NewRelation[nameClaims](w)
	if got, want := r.AsSource().String(), "Relation[ecs_test.nameClaims].AsSource()"; got != want {
		t.Errorf("AsSource().String() = %q, want %q", got, want)
	}
	if got, want := r.AsTarget().String(), "Relation[ecs_test.nameClaims].AsTarget()"; got != want {
		t.Errorf("AsTarget().String() = %q, want %q", got, want)
	}
	checkMessage(t, "NewQuery1", panicOf(func() { ecs.NewQuery1[Position](w, ecs.With(r.AsSource()), ecs.Without(r.AsSource())) }),
		"ecs: NewQuery1: Relation[ecs_test.nameClaims].AsSource() is both required and excluded (Without)")

	// A loop left open names its query, filters included.
	pos := ecs.NewMap[Position](w)
	a := w.Spawn()
	pos.Add(a, Position{})
	r.Add(a, w.Spawn())
	q := ecs.NewQuery1[Position](w, ecs.With(r.AsSource()), ecs.Without(r.AsTarget()))
	cur := q.Iter()
	cur.Next()
	msg := panicOf(func() { w.Apply(w.NewCommands()) })
	cur.Close()
	checkMessage(t, "Apply in a loop", msg, "Query1[ecs_test.Position] With[Relation[ecs_test.nameClaims].AsSource()] Without[Relation[ecs_test.nameClaims].AsTarget()]")
}

// TestRelationCommandMessagesNameTheOperation: the panics of a relation's
// Cmd methods name the relation's operation alone.
func TestRelationCommandMessagesNameTheOperation(t *testing.T) {
	w := ecs.NewWorld()
	r := ecs.NewRelation[nameClaims](w)
	c, other := w.NewCommands(), ecs.NewWorld().NewCommands()
	a, dead := w.Spawn(), w.Spawn()
	w.Despawn(dead)
	for op, f := range map[string]func(c *ecs.Commands){
		"AddCmd":           func(c *ecs.Commands) { r.AddCmd(c, dead, a) },
		"SetCmd":           func(c *ecs.Commands) { r.SetCmd(c, dead, a, nameClaims{}) },
		"RemoveCmd":        func(c *ecs.Commands) { r.RemoveCmd(c, dead, a) },
		"RemoveTargetsCmd": func(c *ecs.Commands) { r.RemoveTargetsCmd(c, dead) },
	} {
		checkMessage(t, op, panicOf(func() { f(c) }), "ecs: Relation[ecs_test.nameClaims]."+op+": entity "+dead.String()+" is not alive")
		checkMessage(t, op+" into another world's buffer", panicOf(func() { f(other) }),
			"ecs: Relation[ecs_test.nameClaims]."+op+": the Commands buffer belongs to another world")
	}
	checkMessage(t, "AddCmd (target)", panicOf(func() { r.AddCmd(c, a, dead) }),
		"ecs: Relation[ecs_test.nameClaims].AddCmd (target): entity "+dead.String()+" is not alive")
}

// TestRelationSide tells a relation's types from others, with the pair
// type and the side, for every kind of relation.
func TestRelationSide(t *testing.T) {
	w := ecs.NewWorld()
	for _, c := range []struct {
		rel interface {
			RelationTypes() (reflect.Type, reflect.Type)
		}
		pair reflect.Type
	}{
		{ecs.NewRelation[nameClaims](w), reflect.TypeFor[nameClaims]()},
		{ecs.NewRelation[namePtr](w, ecs.Multi()), reflect.TypeFor[namePtr]()},
		{ecs.NewHierarchy(w).Relation(), reflect.TypeFor[ecs.ChildOf]()},
	} {
		src, dst := c.rel.RelationTypes()
		if pair, source, ok := ecs.RelationSide(src); pair != c.pair || !source || !ok {
			t.Errorf("RelationSide(%v) = %v, %v, %v; want %v, true, true", src, pair, source, ok, c.pair)
		}
		if pair, source, ok := ecs.RelationSide(dst); pair != c.pair || source || !ok {
			t.Errorf("RelationSide(%v) = %v, %v, %v; want %v, false, true", dst, pair, source, ok, c.pair)
		}
	}
	for _, typ := range []reflect.Type{nil, reflect.TypeFor[Position](), reflect.TypeFor[ecs.ChildOf](), reflect.TypeFor[ecs.Entity](), reflect.TypeFor[*int]()} {
		if pair, source, ok := ecs.RelationSide(typ); pair != nil || source || ok {
			t.Errorf("RelationSide(%v) = %v, %v, %v; want nil, false, false", typ, pair, source, ok)
		}
	}
}

// Misuse with entities of another world and dead entities: each panic
// names the relation and the entity.
func TestRelationMessagesNameForeignAndDeadEntities(t *testing.T) {
	w, other := ecs.NewWorld(), ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	link := ecs.NewRelation[rfLink](w, ecs.Multi())
	a := w.Spawn()
	f := other.Spawn()
	dead := w.Spawn()
	w.Despawn(dead)
	cases := map[string]struct {
		fn  func()
		ent ecs.Entity
	}{
		"Add foreign source":   {func() { link.Add(f, a) }, f},
		"Add foreign target":   {func() { link.Add(a, f) }, f},
		"Remove foreign":       {func() { link.Remove(a, f) }, f},
		"RemoveTargets dead":   {func() { link.RemoveTargets(dead) }, dead},
		"Sources foreign":      {func() { link.Sources(f) }, f},
		"NumSources dead":      {func() { link.NumSources(dead) }, dead},
		"Root foreign":         {func() { h.Root(f) }, f},
		"Descendants dead":     {func() { h.Descendants(dead) }, dead},
		"SetParent dead":       {func() { h.SetParent(a, dead) }, dead},
		"Value foreign source": {func() { link.Value(f, a) }, f},
	}
	for name, tc := range cases {
		msg := panicOf(tc.fn)
		if !strings.Contains(msg, "Relation[") || !strings.Contains(msg, tc.ent.String()) {
			t.Errorf("%s: panic %q", name, msg)
		}
	}
	if link.Has(f, a) || link.Has(a, f) || link.HasTargets(f) {
		t.Error("Has with a foreign entity")
	}
	// Inside a loop the checks are made at the call, not when applied.
	msg := ""
	tags := ecs.NewMap[rfTag](w)
	tags.Spawn(rfTag{})
	for range ecs.NewQuery1[rfTag](w).All() {
		msg = panicOf(func() { link.Add(a, f) })
		break
	}
	if !strings.Contains(msg, "another world") {
		t.Errorf("deferred Add with a foreign target: %q", msg)
	}
}
