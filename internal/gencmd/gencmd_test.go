package gencmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyDefs copies a definition file of internal/compgen's testdata into
// dir and returns its new path.
func copyDefs(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "compgen", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunWritesTheFile(t *testing.T) {
	dir := t.TempDir()
	defs := copyDefs(t, dir, "good.json")
	out := filepath.Join(dir, "good_gen.go")
	var stdout, stderr bytes.Buffer
	if code := Run("tessera-gen", []string{"-o", out, defs}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../compgen/testdata/good.golden")
	if err != nil {
		t.Fatal(err)
	}
	// The golden file names its source "good.json"; here it is the path given.
	want := bytes.Replace(golden, []byte("from good.json;"), []byte("from "+filepath.ToSlash(defs)+";"), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("the generator wrote other code than the generator's golden file:\n%s", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the directory holds %d files, want the definitions and the output (no temporary left)", len(entries))
	}

	stdout.Reset()
	if code := Run("tessera-gen", []string{defs}, &stdout, &stderr); code != 0 || !bytes.Equal(stdout.Bytes(), got) {
		t.Errorf("without -o: exit %d, %d bytes on stdout, want the same file", code, stdout.Len())
	}
}

// TestRunReportsEveryProblem: a bad file gets every problem as
// file:line:col, exit status 1, and no output: an existing file is left
// as it was.
func TestRunReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	bad := copyDefs(t, dir, "bad.json")
	badGen := copyDefs(t, dir, "bad_gen.json")
	out := filepath.Join(dir, "out.go")
	if err := os.WriteFile(out, []byte("package kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Run("tessera-gen", []string{"-o", out, bad, badGen}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	for _, want := range []string{
		bad + `:3:3: the file: unknown field "colour"`,
		bad + `:5:37: field X: unknown type "float33"`,
		bad + `:7:5: component name "lower" is not an exported Go identifier`,
		bad + `:9:30: component A holds itself (A.B -> B.As -> A)`,
		bad + `:11:49: default of Health.HP: 300 is not a value of int8`,
		badGen + `:7:55: default of Health.Scale: 1e39 is out of the range of float32`,
	} {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(l, filepath.ToSlash(want))
		}
		if !found {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	// One line per problem, then the count.
	if last, want := lines[len(lines)-1], fmt.Sprintf("tessera-gen: %d problem(s); nothing written", len(lines)-1); last != want || len(lines) < 20 {
		t.Errorf("%d lines, the last %q, want %q after at least 19 problems", len(lines), last, want)
	}
	if got, _ := os.ReadFile(out); string(got) != "package kept\n" {
		t.Errorf("the output file was changed to %q", got)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
}

func TestRunUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Run("tessera-gen", nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "tessera-gen: name at least one definition file") {
		t.Errorf("no files: exit %d, %s", code, stderr.String())
	}
	stderr.Reset()
	if code := Run("tessera-gen", []string{"-h"}, &stdout, &stderr); code != 0 {
		t.Errorf("-h: exit %d, %s", code, stderr.String())
	}
	for _, want := range []string{
		"Usage: tessera-gen [-o out.go] defs.json...",
		"//go:generate go run github.com/tessera-ecs/tessera/cmd/tessera-gen -o components_gen.go components.json",
		"//go:generate go tool tessera-gen -o components_gen.go components.json",
		"go get -tool github.com/tessera-ecs/tessera/cmd/tessera-gen",
		"cmd/tessera-gen@v",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, stderr.String())
		}
	}
	if code := Run("tessera-gen", []string{"-bogus", "x.json"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown flag: exit %d", code)
	}
	stderr.Reset()
	if code := Run("tessera-gen", []string{filepath.Join(t.TempDir(), "missing.json")}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "missing.json") {
		t.Errorf("missing file: exit %d, %s", code, stderr.String())
	}
	dir := t.TempDir()
	defs := copyDefs(t, dir, "tags.json")
	if code := Run("tessera-gen", []string{"-o", filepath.Join(dir, "no", "such", "dir.go"), defs}, &stdout, &stderr); code != 1 {
		t.Errorf("unwritable output: exit %d", code)
	}
}

// TestRunRefusesTheSameFile: an input given twice, or the output naming an
// input, is refused before anything is read or written.
func TestRunRefusesTheSameFile(t *testing.T) {
	dir := t.TempDir()
	defs := copyDefs(t, dir, "tags.json")
	before, _ := os.ReadFile(defs)
	var stdout, stderr bytes.Buffer
	if code := Run("tessera-gen", []string{"-o", defs, defs}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "is the definition file") {
		t.Errorf("output = input: exit %d, %s", code, stderr.String())
	}
	if after, _ := os.ReadFile(defs); !bytes.Equal(after, before) {
		t.Error("the definition file was overwritten")
	}
	stderr.Reset()
	other := filepath.Join(dir, ".", "tags.json")
	if code := Run("tessera-gen", []string{defs, other}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "is given twice") {
		t.Errorf("a file twice: exit %d, %s", code, stderr.String())
	}
}

// TestRunRefusesALargeFile: a definition file past compgen.MaxFileBytes
// is refused at the byte past the limit, without being read whole.
func TestRunRefusesALargeFile(t *testing.T) {
	defs := filepath.Join(t.TempDir(), "big.json")
	data := append([]byte("{\"package\": \"p\",\n\"components\": ["), bytes.Repeat([]byte(`{"name": "A"},`), 1_000_000)...)
	if err := os.WriteFile(defs, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Run("tessera-gen", []string{defs}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), ":2:4194288: the file is larger than 4194304 bytes") {
		t.Errorf("exit %d:\n%s", code, stderr.String())
	}
}
