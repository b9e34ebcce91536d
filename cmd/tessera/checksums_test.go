package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readChecksums returns the checksum column of a -checksums file, one entry
// per tick, after checking that its ticks count from 1.
func readChecksums(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sums []string
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		tick, sum, ok := strings.Cut(line, " ")
		if !ok || len(sum) != 16 || tick != strconv.Itoa(i+1) {
			t.Fatalf("%s line %d is %q: want the tick %d and 16 hex digits", path, i+1, line, i+1)
		}
		sums = append(sums, sum)
	}
	return sums
}

// TestDemoChecksumsAgreeTickByTick: the -checksums file of a run has one
// line per tick; on 1 and 2 workers and with rollback the lines are equal,
// and a run resumed from a save continues the straight run's lines.
func TestDemoChecksumsAgreeTickByTick(t *testing.T) {
	dir := t.TempDir()
	for _, sc := range []string{"particle", "game", "predator"} {
		base := []string{"demo", "-quiet", "-scenario", sc, "-n", "2000", "-seed", "4"}
		run := func(name string, extra ...string) []string {
			t.Helper()
			path := filepath.Join(dir, sc+"-"+name+".sums")
			code, out, errOut := runCmd(append(append(base, extra...), "-checksums", path)...)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", sc, name, code, errOut)
			}
			if !strings.Contains(out, "checksum per tick written to "+path) {
				t.Errorf("%s %s: the summary does not name the checksum file:\n%s", sc, name, out)
			}
			return readChecksums(t, path)
		}
		straight := run("straight", "-ticks", "30", "-workers", "1")
		if len(straight) != 30 {
			t.Fatalf("%s: %d lines for 30 ticks", sc, len(straight))
		}
		if straight[0] == straight[29] {
			t.Errorf("%s: the checksum did not change in 30 ticks", sc)
		}
		for name, extra := range map[string][]string{
			"two-workers": {"-ticks", "30", "-workers", "2"},
			"rollback":    {"-ticks", "30", "-workers", "2", "-rollback", "4"},
		} {
			if got := run(name, extra...); strings.Join(got, ",") != strings.Join(straight, ",") {
				t.Errorf("%s %s: checksums per tick differ from the straight run's:\n%v\n%v", sc, name, got, straight)
			}
		}
		save := filepath.Join(dir, sc+".sav")
		first := run("first-half", "-ticks", "12", "-save", save)
		second := run("second-half", "-ticks", "18", "-load", save)
		if got := append(first, second...); strings.Join(got, ",") != strings.Join(straight, ",") {
			t.Errorf("%s: 12 ticks, save, load, 18 ticks gave other checksums than 30 straight ticks:\n%v\n%v", sc, got, straight)
		}
	}
}
