package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// copyDefs copies a definition file of internal/compgen's testdata into
// dir and returns its new path.
func copyDefs(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "compgen", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGenWritesTheFile(t *testing.T) {
	dir := t.TempDir()
	defs := copyDefs(t, dir, "good.json")
	out := filepath.Join(dir, "good_gen.go")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"gen", "-o", out, defs}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../../internal/compgen/testdata/good.golden")
	if err != nil {
		t.Fatal(err)
	}
	// The golden file names its source "good.json"; here it is the path given.
	want := bytes.Replace(golden, []byte("from good.json;"), []byte("from "+filepath.ToSlash(defs)+";"), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("tessera gen wrote other code than the generator's golden file:\n%s", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the directory holds %d files, want the definitions and the output (no temporary left)", len(entries))
	}

	stdout.Reset()
	if code := run([]string{"gen", defs}, &stdout, &stderr); code != 0 || !bytes.Equal(stdout.Bytes(), got) {
		t.Errorf("without -o: exit %d, %d bytes on stdout, want the same file", code, stdout.Len())
	}
}

// TestGenIsTheGenerator: tessera gen runs the generator of
// internal/gencmd under its own name: a bad file's problems end with the
// count under that name, and -h gives the usage of "tessera gen".
func TestGenIsTheGenerator(t *testing.T) {
	dir := t.TempDir()
	bad := copyDefs(t, dir, "bad.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"gen", bad}, &stdout, &stderr); code != 1 || !regexp.MustCompile(`\ntessera gen: [0-9]+ problem\(s\); nothing written\n$`).MatchString(stderr.String()) {
		t.Errorf("a bad file: exit %d:\n%s", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"gen", "-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "Usage: tessera gen [-o out.go] defs.json...") {
		t.Errorf("-h: exit %d, %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"gen"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "tessera gen: name at least one definition file") {
		t.Errorf("no files: exit %d, %s", code, stderr.String())
	}
}
