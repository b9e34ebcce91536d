package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/bench/persist"
)

// TestPersistReport runs the persist suite at a small size, one short run
// per row, and checks that the report has a section and a summary line per
// comparison and the Ark ratios.
func TestPersistReport(t *testing.T) {
	dir := t.TempDir()
	cfg := persistConfig{n: 200, count: 1, benchtime: time.Millisecond}
	restoreBenchtime(t)
	if err := runPersist(dir, cfg, "cmd", func(string) {}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "PERSIST.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"## snapshot", "## checksum", "## binary_save", "## binary_load", "## json_save", "## json_load",
		"## entities", "| snapshot | World.Snapshot |", "| entities | World.Save + World.Load |", "Not judged at 200 particles",
		"World.Save + World.Load / Ark DumpEntities + bytes + LoadEntities = "} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(text, "NaN |") || strings.Contains(text, "| NaN") {
		t.Error("the report's tables hold a NaN")
	}
}

// TestSnapshotVerdict checks the goal's two conditions, each on its own.
func TestSnapshotVerdict(t *testing.T) {
	c := &persist.Comparison{Rows: []persist.Row{{Name: "copy()", Kind: persist.Floor}, {Name: "World.Snapshot", Kind: persist.Tessera}}}
	for _, tc := range []struct {
		floor, ns float64
		want      string
	}{
		{400e3, 500e3, "World.Snapshot: met"},
		{400e3, 700e3, "World.Snapshot: not met"}, // 1.75x the floor
		{700e3, 900e3, "World.Snapshot: not met"}, // over 0.8 ms
	} {
		got := snapshotVerdict(c, []rowResult{{ns: tc.floor}, {ns: tc.ns}}, snapshotGoalN)
		if !strings.HasPrefix(got, tc.want+" (") {
			t.Errorf("floor %v ns, snapshot %v ns: %q, want %q", tc.floor, tc.ns, got, tc.want)
		}
	}
}

// TestPersistFlags checks -quick, -benchtime's default and -sizes.
func TestPersistFlags(t *testing.T) {
	cfg, err := persistFlags(true, 5, time.Second, "", "")
	if err != nil || cfg.n != 1_000 || cfg.count != 1 {
		t.Errorf("quick: %+v, %v", cfg, err)
	}
	cfg, err = persistFlags(false, 5, 100*time.Millisecond, "5000", "snap")
	if err != nil || cfg.n != 5000 || cfg.count != 5 || cfg.benchtime != persistBenchtime || cfg.only != "snap" {
		t.Errorf("-sizes 5000: %+v, %v", cfg, err)
	}
	if _, err := persistFlags(false, 5, time.Second, "16,1024", ""); err == nil {
		t.Error("two sizes accepted")
	}
}
