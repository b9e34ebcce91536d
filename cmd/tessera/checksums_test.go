package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/desync"
	"github.com/tessera-ecs/tessera/ecs"
)

// readChecksums returns the checksums of a -checksums file, one entry per
// tick (the world's and every part's, as one string), after checking that
// its ticks count from 1 and that each line has the entity index's part.
func readChecksums(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	frames, err := desync.ReadLog(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var sums []string
	for i, fr := range frames {
		if fr.Tick != uint64(i+1) || len(fr.Parts) == 0 || fr.Parts[0].Kind != ecs.PartEntities {
			t.Fatalf("%s line %d is %+v: want the tick %d and the parts, entity index first", path, i+1, fr, i+1)
		}
		line := string(desync.AppendFrame(nil, fr))
		_, rest, _ := strings.Cut(line, " ")
		sums = append(sums, rest)
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
