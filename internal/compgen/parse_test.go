package compgen

import (
	"os"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) File {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return File{name, data}
}

func TestParseGood(t *testing.T) {
	defs, errs := Parse(readFile(t, "good.json"))
	if errs != nil {
		t.Fatalf("errors:\n%v", errs)
	}
	if defs.Package != "game" || len(defs.Components) != 4 || len(defs.Archetypes) != 1 {
		t.Fatalf("defs %+v", defs)
	}
	cargo := defs.Components[3]
	kinds := []TypeKind{EntityRef, Array, Slice, Slice, Imported}
	for i, f := range cargo.Fields {
		if f.Type.Kind != kinds[i] {
			t.Errorf("Cargo.%s: kind %d, want %d", f.Name, f.Type.Kind, kinds[i])
		}
	}
	if s := cargo.Fields[1].Type; s.Len != 4 || s.Elem.Kind != Named || s.Elem.Name != "Health" {
		t.Errorf("Slots type %+v", s)
	}
	if tint := cargo.Fields[4].Type; tint.Path != "image/color" || tint.Name != "RGBA" {
		t.Errorf("Tint type %+v", tint)
	}
	if f := defs.Components[2]; !f.Tag || f.Storage != "sparse" {
		t.Errorf("Frozen %+v", f)
	}
	if p := defs.Components[0].Pos; p.Line != 4 || p.Col != 5 {
		t.Errorf("Position at %v, want good.json:4:5", p)
	}
}

// TestParseReportsEveryProblem checks that a file with many mistakes gets
// each reported at its line and column, sorted, in one pass.
func TestParseReportsEveryProblem(t *testing.T) {
	_, errs := Parse(readFile(t, "bad.json"))
	want := []string{
		`bad.json:3:3: the file: unknown field "colour" (want one of "archetypes", "components", "package")`,
		`bad.json:5:37: field X: unknown type "float33"`,
		`bad.json:6:5: component Position defined twice (first at bad.json:5:5)`,
		`bad.json:7:5: component name "lower" is not an exported Go identifier`,
		`bad.json:7:34: storage "disk": want table or sparse`,
		`bad.json:9:30: component A holds itself (A.B -> B.As -> A): a save file cannot describe such a type`,
		`bad.json:11:49: default of Health.HP: 300 is not a value of int8`,
		`bad.json:12:53: default of Health.Name: want a string, got a number`,
		`bad.json:13:7: component Health: field HP defined twice`,
		`bad.json:14:55: default of Health.Target: an Entity has no default`,
		`bad.json:15:7: field Ghost: unknown type "Nowhere"`,
		`bad.json:17:5: component Mark is a tag: it cannot have fields`,
		`bad.json:20:5: archetype Ship: unknown component "Wing"`,
		`bad.json:20:81: archetype Ship: defaults for "Health", which is not one of its components`,
	}
	if len(errs) != len(want) {
		t.Errorf("%d problems, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, w := range want {
		if i >= len(errs) || !strings.HasPrefix(errs[i].Error(), w) {
			got := "(none)"
			if i < len(errs) {
				got = errs[i].Error()
			}
			t.Errorf("problem %d:\n got %s\nwant %s…", i, got, w)
		}
	}
}

func TestParseSyntaxAndFiles(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"{\n  \"package\": \"game\",\n  \"components\": [\n", "x.json:4:1: unexpected end of the file"},
		{"{\"package\": \"game\"} []", "x.json:1:21: data after the JSON value"},
		{"{\"package\": \"game\",\n \"components\": [}]}", "x.json:2:17: invalid JSON"},
		{"[]", "x.json:1:1: the file: want an object, got an array"},
		{"{}", `x.json:1:1: the file needs a "package"`},
		{strings.Repeat("[", 100), "nested deeper than 64 levels"},
	} {
		_, errs := Parse(File{"x.json", []byte(c.data)})
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.data, errs, c.want)
		}
	}
	// Problems of several files, each in its own; names shared across them.
	_, errs := Parse(File{"a.json", []byte(`{"package": "game", "components": [{"name": "P"}]}`)},
		File{"b.json", []byte(`{"package": "other", "components": [{"name": "P"}]}`)},
		File{"c.json", []byte(`{"package": `)})
	got := errs.Error()
	for _, w := range []string{`b.json:1:13: package "other": another file says "game"`, "c.json:1:13: unexpected end of the file"} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}

// FuzzParse: no bytes make Parse or, on definitions it accepts, Generate
// panic; Parse returns definitions or errors with places, and Generate
// writes code that parses.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"good.json", "bad.json", "bad_gen.json", "tags.json", "../gentest/defs.json"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// Deep nesting, near and past the limits: types, components that hold
	// components, defaults, and values that take long defaults.
	for _, typ := range []string{strings.Repeat("[]", 63) + "int32", strings.Repeat("[]", 70) + "int32",
		strings.Repeat("[1]", 63) + "Entity", strings.Repeat("[][2]", 31) + "string", strings.Repeat("[0]", 40) + "int8"} {
		f.Add(oneField(typ, "").Data)
	}
	f.Add(oneField(strings.Repeat("[]", 5)+"uint8", strings.Repeat("[", 5)+"1"+strings.Repeat("]", 5)).Data)
	f.Add(oneField("[]int8", strings.Repeat("[", 70)+strings.Repeat("]", 70)).Data)
	f.Add([]byte(`{"package": "p", "components": [
{"name": "C0", "fields": [{"name": "A", "type": "[][][][]C1"}, {"name": "B", "type": "C1", "default": {"X": {"S": ["s"]}}}]},
{"name": "C1", "fields": [{"name": "X", "type": "C2"}, {"name": "Y", "type": "[2]C2", "default": [{}, {"N": 2}]}]},
{"name": "C2", "stableName": "p.C0", "fields": [{"name": "N", "type": "int64", "default": 1}, {"name": "S", "type": "[][]string"}]}],
"archetypes": [{"name": "Arch", "components": ["C0", "C2"], "defaults": {"C2": {"S": [["a"]]}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defs, errs := Parse(File{"f.json", data})
		if (defs == nil) == (len(errs) == 0) {
			t.Fatalf("defs %v with %d errors", defs != nil, len(errs))
		}
		for _, e := range errs {
			if e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("bad position in %v", e)
			}
		}
		if defs != nil {
			// Whatever definitions pass Parse, the generator writes Go
			// that parses (Generate runs it through go/format).
			if _, err := Generate(defs, []string{"f.json"}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
