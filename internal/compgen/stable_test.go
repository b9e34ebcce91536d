package compgen

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// StableA and StableB stand for two generated component types of this
// package, registered as the generated Register would.
type (
	StableA struct{ V int8 }
	StableB struct{ V int8 }
)

// thisPath is the import path of this package, of which ecs makes the
// default stable names of StableA and StableB.
var thisPath = reflect.TypeFor[StableA]().PkgPath()

// registerPanics registers StableA and StableB in a new world, in the
// order given, with the stable names given ("" for none), and reports
// whether Register panicked.
func registerPanics(aFirst bool, aName, bName string) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	w := ecs.NewWorld()
	reg := func(register func(*ecs.World, ...ecs.ComponentOption), name string) {
		if name == "" {
			register(w)
		} else {
			register(w, ecs.Name(name))
		}
	}
	a, b := ecs.Register[StableA], ecs.Register[StableB]
	if aFirst {
		reg(a, aName)
		reg(b, bName)
	} else {
		reg(b, bName)
		reg(a, aName)
	}
	return false
}

// stableDefs is a definition file of StableA and StableB in that order,
// or the other, with the stable names given.
func stableDefs(aFirst bool, aName, bName string) File {
	comp := func(name, stable string) string {
		s := fmt.Sprintf(`{"name": %q, "fields": [{"name": "V", "type": "int8"}]`, name)
		if stable != "" {
			s += fmt.Sprintf(`, "stableName": %q`, stable)
		}
		return s + "}"
	}
	comps := []string{comp("StableA", aName), comp("StableB", bName)}
	if !aFirst {
		comps[0], comps[1] = comps[1], comps[0]
	}
	return File{"x.json", []byte(`{"package": "compgen", "components": [` + "\n" + strings.Join(comps, ",\n") + "]}")}
}

// TestStableNameClashesMirrorRegister: the generator refuses a stable
// name that is another component's default stable name exactly when the
// generated Register would panic on it: every order, with and without a
// stable name of the other's own, checked against ecs.Register itself.
func TestStableNameClashesMirrorRegister(t *testing.T) {
	bDefault := thisPath + ".StableB"
	for _, c := range []struct {
		aFirst       bool
		aName, bName string
		panics       bool
	}{
		{true, bDefault, "", true},
		{false, bDefault, "", true},
		{true, bDefault, "b", true},   // B takes its default name before its own
		{false, bDefault, "b", false}, // B is renamed before A takes its default name
		{true, bDefault + "x", "", false},
		{true, thisPath + ".StableA", "", false}, // its own default name
		{true, "other/path.StableB", "", false},
	} {
		if panics := registerPanics(c.aFirst, c.aName, c.bName); panics != c.panics {
			t.Fatalf("A first %v, A named %q, B named %q: ecs.Register panics %v, want %v", c.aFirst, c.aName, c.bName, panics, c.panics)
		}
		_, errs := ParseWith(Options{ImportPath: thisPath}, stableDefs(c.aFirst, c.aName, c.bName))
		if refused := errs != nil; refused != c.panics {
			t.Errorf("A first %v, A named %q, B named %q: Register panics %v, the generator refuses %v (%v)",
				c.aFirst, c.aName, c.bName, c.panics, refused, errs)
		}
	}
}

// TestStableNameClashMessages: the clash is reported at the component
// that takes the name, with the default name's owner; with files of one
// package given together; and, with no import path, for a path that ends
// in the package's name.
func TestStableNameClashMessages(t *testing.T) {
	a := File{"a.json", []byte(`{"package": "game", "components": [
  {"name": "Health", "fields": [{"name": "HP", "type": "int32"}]}]}`)}
	b := File{"b.json", []byte(`{"package": "game", "components": [
  {"name": "Shield", "stableName": "example.com/game.Health"},
  {"name": "Armor", "stableName": "game.Health2"}]}`)}
	_, errs := ParseWith(Options{ImportPath: "example.com/game"}, a, b)
	want := `b.json:2:3: component Shield: stable name "example.com/game.Health" is the default stable name of component Health ` +
		`(at a.json:2:3; its import path and type name): Register would panic; choose another name`
	if errs.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", errs, want)
	}
	if _, errs := ParseWith(Options{ImportPath: "example.com/other"}, a, b); errs != nil {
		t.Errorf("another import path: %v", errs)
	}
	_, errs = Parse(a, b)
	if got := errs.Error(); !strings.Contains(got, "b.json:2:3: component Shield:") || !strings.Contains(got, "if the import path, not known here, ends in /game") {
		t.Errorf("no import path: %v", errs)
	}
	// A package main's program names its types main.T.
	m := File{"m.json", []byte(`{"package": "main", "components": [{"name": "A", "stableName": "main.B"}, {"name": "B"}]}`)}
	if _, errs := Parse(m); errs == nil || !strings.Contains(errs.Error(), `stable name "main.B" is the default stable name of component B`) {
		t.Errorf("package main: %v", errs)
	}
}
