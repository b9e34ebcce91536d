package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// demoSave runs a short demo that saves its world to a file in dir.
func demoSave(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	file := filepath.Join(dir, name)
	base := []string{"demo", "-quiet", "-n", "300", "-workers", "1", "-save", file}
	if code, out, errOut := runCmd(append(base, args...)...); code != 0 {
		t.Fatalf("demo %v: exit %d\n%s%s", args, code, out, errOut)
	}
	return file
}

// TestDiffOfDemoSaves: two demo runs a tick apart differ, and the report
// names entities, components and fields with both values; a save against
// itself (or a save of the same run) has none; -n and -json shape the
// output.
func TestDiffOfDemoSaves(t *testing.T) {
	dir := t.TempDir()
	a := demoSave(t, dir, "a.sav", "-scenario", "game", "-ticks", "5")
	again := demoSave(t, dir, "again.sav", "-scenario", "game", "-ticks", "5")
	b := demoSave(t, dir, "b.sav", "-scenario", "game", "-ticks", "6")
	code, out, errOut := runCmd("diff", a, b)
	if code != 1 || errOut != "" {
		t.Fatalf("diff of 5 and 6 ticks: exit %d, stderr %q\n%s", code, errOut, out)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(first, " differences on ") || !strings.Contains(out, "(the first 20 below)") {
		t.Fatalf("summary line %q\n%s", first, out)
	}
	if !strings.Contains(out, "\nentity ") || !strings.Contains(out, " component ") || !strings.Contains(out, " field ") || !strings.Contains(out, ": differs: A ") {
		t.Fatalf("the report names no entity, component and field with values:\n%s", out)
	}
	for _, same := range [][2]string{{a, a}, {a, again}} {
		if code, out, errOut := runCmd("diff", same[0], same[1]); code != 0 || out != "no differences\n" || errOut != "" {
			t.Fatalf("diff %s %s: exit %d, %q, %q", same[0], same[1], code, out, errOut)
		}
	}
	code, out, _ = runCmd("diff", "-n", "3", a, b)
	if code != 1 || !strings.Contains(out, "(the first 3 below)") || strings.Count(out, "\nentity ") > 3 {
		t.Fatalf("-n 3: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd("diff", "-json", "-n", "2", a, b)
	var r struct {
		Equal       bool
		Total       int
		Differences []struct{ Kind, Part, Type, Entity, Field, A, B string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Equal || r.Total == 0 || len(r.Differences) != 2 || r.Differences[0].Kind == "" {
		t.Fatalf("-json: exit %d, %v, %+v\n%s", code, err, r, out)
	}
	// Other seeds give other worlds.
	c := demoSave(t, dir, "c.sav", "-seed", "2", "-ticks", "3")
	d := demoSave(t, dir, "d.sav", "-seed", "3", "-ticks", "3")
	if code, out, _ := runCmd("diff", c, d); code != 1 || !strings.Contains(out, "component ") {
		t.Fatalf("seeds 2 and 3: exit %d\n%s", code, out)
	}
}

// TestDiffRefusesBadFiles: a truncated or missing file, or bad usage, is
// exit status 2 with a message naming the file.
func TestDiffRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	a := demoSave(t, dir, "a.sav", "-ticks", "2")
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.sav")
	if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"diff", a, cut}, "tessera diff: " + cut + ": ecs: DiffSaves: B: at byte"},
		{[]string{"diff", cut, a}, "tessera diff: " + cut + ": ecs: DiffSaves: A: at byte"},
		{[]string{"diff", a, filepath.Join(dir, "missing.sav")}, "missing.sav: no such file"},
		{[]string{"diff", a}, "name two save files, not 1"},
		{[]string{"diff", "-n", "-1", a, a}, "-n -1 out of range"},
		{[]string{"diff", "-bogus", a, a}, "flag provided but not defined"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errOut, c.msg)
		}
	}
	if code, _, errOut := runCmd("diff", "-h"); code != 0 || !strings.Contains(errOut, "Usage: tessera diff") {
		t.Errorf("-h: exit %d, %q", code, errOut)
	}
}
