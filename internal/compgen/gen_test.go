package compgen

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// generateFile parses and generates one definition file of testdata.
func generateFile(t *testing.T, name string) []byte {
	t.Helper()
	defs, errs := Parse(readFile(t, name))
	if errs != nil {
		t.Fatalf("%s:\n%v", name, errs)
	}
	out, err := Generate(defs, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGenerateGolden compares the generator's output for each good
// definition file with its golden file (go test -update rewrites them).
func TestGenerateGolden(t *testing.T) {
	for _, name := range []string{"good.json", "tags.json"} {
		got := generateFile(t, name)
		golden := filepath.Join("testdata", strings.TrimSuffix(name, ".json")+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s generates other code than %s (go test -update rewrites it after review):\n%s", name, golden, got)
		}
	}
}

// TestGeneratedPackageIsCurrent: the committed gentest package is what the
// generator writes from its definitions today, so its tests test this
// generator.
func TestGeneratedPackageIsCurrent(t *testing.T) {
	data, err := os.ReadFile("gentest/defs.json")
	if err != nil {
		t.Fatal(err)
	}
	defs, errs := Parse(File{"defs.json", data})
	if errs != nil {
		t.Fatal(errs)
	}
	got, err := Generate(defs, []string{"defs.json"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("gentest/defs_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("gentest/defs_gen.go is stale: run go generate ./internal/compgen/gentest")
	}
}

// TestGenerateTagsOnly: a file of tags needs no fmt, and says so.
func TestGenerateTagsOnly(t *testing.T) {
	out := generateFile(t, "tags.json")
	f, err := parser.ParseFile(token.NewFileSet(), "tags.go", out, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Imports) != 1 || f.Imports[0].Path.Value != `"`+ecsPath+`"` {
		t.Errorf("a file of tags imports %d packages", len(f.Imports))
	}
	for _, want := range []string{"ecs.Register[Selected](w, ecs.Sparse(), ecs.Name(\"marks.selected\"))",
		"// Enemy marks the entities that attack the player.", "a.m.SpawnBatch(n, v0, v1)"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("tags.json's code lacks %s", want)
		}
	}
}

// TestParseReportsGeneratorProblems: the names the generated code would
// clash on, the fields that would shadow its methods, defaults it cannot
// write and archetypes too large are reported with their places.
func TestParseReportsGeneratorProblems(t *testing.T) {
	_, errs := Parse(readFile(t, "bad_gen.json"))
	want := []string{
		"bad_gen.json:4:5: component Health's generated function DefaultHealth: the name DefaultHealth is taken by component DefaultHealth (at bad_gen.json:9:5)",
		"bad_gen.json:5:7: component Health: field String has the name of a generated method (Checksum, Clone, DecodeSave, EncodeSave, String)",
		"bad_gen.json:6:63: default of Health.Tint: a field of a Go type by import path (image/color.RGBA) takes no default",
		"bad_gen.json:7:55: default of Health.Scale: 1e39 is out of the range of float32",
		"bad_gen.json:10:5: component Register: the name Register is taken by the generated function Register",
		"bad_gen.json:18:5: archetype Big: 13 components, more than the 12 its spawn helpers take (ecs.Map12)",
		"bad_gen.json:19:5: archetype Ship's generated function NewShip: the name NewShip is taken by component NewShip (at bad_gen.json:11:5)",
	}
	if len(errs) != len(want) {
		t.Errorf("%d problems, want %d:\n%v", len(errs), len(want), errs)
	}
	for i := range min(len(errs), len(want)) {
		if errs[i].Error() != want[i] {
			t.Errorf("problem %d:\n got %s\nwant %s", i, errs[i].Error(), want[i])
		}
	}
}

func TestParamNames(t *testing.T) {
	got := paramNames([]string{"URLPath", "Position", "Type", "URL", "E", "V0", "UrlPath"})
	want := []string{"urlPath", "position", "typeValue", "url", "eValue", "v0Value", "urlPath2"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("paramNames: %v, want %v", got, want)
			break
		}
	}
}

// generateString parses one definition file given as text and generates
// it, failing the test on any error.
func generateString(t *testing.T, src string) string {
	t.Helper()
	defs, errs := Parse(File{"x.json", []byte(src)})
	if errs != nil {
		t.Fatalf("%v", errs)
	}
	out, err := Generate(defs, []string{"x.json"})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestGenerateAwkwardInputs: inputs that once made code that does not
// compile now make code that does (each case checked by its telling line).
func TestGenerateAwkwardInputs(t *testing.T) {
	out := generateString(t, `{"package": "p", "components": [
		{"name": "A", "doc": "has a NUL \u0000 and a BOM \ufeff in its doc.", "fields": [
			{"name": "C", "type": "[]example.com/c.T"},
			{"name": "S", "type": "[]example.com/string.T"},
			{"name": "I", "type": "[]example.com/i0.T", "default": []},
			{"name": "Z", "type": "[2][0]int"},
			{"name": "F", "type": "float64", "default": 1e-4000000000},
			{"name": "G", "type": "float32", "default": 0.1}
		]}],
		"archetypes": [{"name": "B", "components": ["A"], "defaults": {"A": {"G": 2}}}]}`)
	for _, want := range []string{
		`c2 "example.com/c"`, `pkgstring "example.com/string"`, `pkgi0 "example.com/i0"`,
		"// A has a NUL   and a BOM   in its doc.",
		"out.C = append([]c2.T(nil), c.C...)",
		"F: 0, G: 0.1", "I: []pkgi0.T{}",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the generated code lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "range c.Z") {
		t.Errorf("a loop over an array that holds nothing was written:\n%s", out)
	}
}

// TestParseRefusesWhatCannotCompile: a blank package, int defaults past 32
// bits and arrays too large for memory are refused with their places.
func TestParseRefusesWhatCannotCompile(t *testing.T) {
	_, errs := Parse(File{"x.json", []byte(`{"package": "_", "components": [{"name": "A", "fields": [
		{"name": "I", "type": "int", "default": 2147483648},
		{"name": "U", "type": "uint", "default": -1},
		{"name": "Big", "type": "[1048576][1048576]uint8"}]}]}`)})
	for _, want := range []string{
		`x.json:1:13: package "_" is not a Go identifier that names a package`,
		"x.json:2:43: default of A.I: 2147483648 is not a value of int on 32-bit machines (use int64)",
		"x.json:3:44: default of A.U: -1 is not a value of uint on 32-bit machines (use uint64)",
		"x.json:4:27: field Big: type \"[1048576][1048576]uint8\": nested arrays of more than 1048576 elements in all",
	} {
		if !strings.Contains(errs.Error(), want) {
			t.Errorf("the errors lack %q:\n%v", want, errs)
		}
	}
}
