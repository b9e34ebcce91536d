package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoSyncTestPassesEveryScenario(t *testing.T) {
	for _, sc := range []string{"particle", "game", "predator"} {
		code, out, errOut := runCmd("demo", "-quiet", "-scenario", sc, "-n", "1500", "-ticks", "12", "-workers", "2", "-synctest", "3")
		if code != 0 || !strings.Contains(out, "sync test:        12 ticks, each run again after rolling back 3: every part agreed") {
			t.Fatalf("%s: exit %d\n%s%s", sc, code, out, errOut)
		}
	}
	for _, bad := range [][]string{{"-synctest", "-1"}, {"-synctest", "2", "-rollback", "2"}, {"-synctest", "2", "-inspect", "127.0.0.1:0"}} {
		if code, _, errOut := runCmd(append([]string{"demo", "-quiet", "-n", "10", "-ticks", "2"}, bad...)...); code != 2 || !strings.Contains(errOut, "-synctest") {
			t.Errorf("%v: exit %d, %q; want 2 and a message naming -synctest", bad, code, errOut)
		}
	}
}

func TestDesyncNamesTheFirstTickAndTypes(t *testing.T) {
	dir := t.TempDir()
	log := func(name string, args ...string) string {
		path := filepath.Join(dir, name)
		base := []string{"demo", "-quiet", "-scenario", "game", "-n", "1500", "-ticks", "20", "-checksums", path}
		if code, _, errOut := runCmd(append(base, args...)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		return path
	}
	one, two := log("w1.log", "-workers", "1"), log("w2.log", "-workers", "2")
	code, out, errOut := runCmd("desync", one, two)
	if code != 0 || !strings.Contains(out, "the logs agree on every tick both hold (20 and 20 ticks)") {
		t.Fatalf("1 and 2 workers: exit %d\n%s%s", code, out, errOut)
	}
	other := log("seed.log", "-seed", "2")
	code, out, _ = runCmd("desync", one, other)
	if code != 1 || !strings.Contains(out, "first divergent tick 1:") || !strings.Contains(out, "component ") {
		t.Fatalf("two seeds: exit %d\n%s", code, out)
	}
	bad := filepath.Join(dir, "bad.log")
	if err := os.WriteFile(bad, []byte("1 nothex\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd("desync", one, bad); code != 2 || !strings.Contains(errOut, "bad.log: desync: line 1") {
		t.Fatalf("a bad log: exit %d, %q", code, errOut)
	}
	if code, _, _ := runCmd("desync", one); code != 2 {
		t.Fatalf("one log: exit %d, want 2", code)
	}
}
