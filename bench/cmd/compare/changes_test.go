package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/bench/changes"
)

// TestChangesReport runs the changes suite at its quick sizes, one short
// run per row, and checks that the report has a section and a summary
// line per comparison, Ark's missing change detection, and no NaN.
func TestChangesReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds worlds of 100,000 entities")
	}
	dir := t.TempDir()
	cfg := changesConfig{sizes: changes.Quick(), quick: true, count: 1, benchtime: time.Millisecond}
	old := benchtime
	t.Cleanup(func() {
		if err := setBenchtime(old); err != nil {
			t.Error(err)
		}
	})
	if err := runChanges(dir, cfg, "cmd", func(string) {}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "CHANGES.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	want := []string{"**Quick run**", "Ark has no change detection", "| plain slice + 2 cursors (floor) |",
		"| Ark full pass, GetColumns (peer) (full pass) |", "ns per changed entity"}
	for _, name := range changes.Names() {
		want = append(want, "\n## "+name+"\n", "\n| "+name+" | ")
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the report lacks %q", w)
		}
	}
	if strings.Contains(text, "NaN") {
		t.Error("the report holds a NaN")
	}
}

// TestChangesFlags checks -quick, -benchtime's default, and that -sizes
// is refused.
func TestChangesFlags(t *testing.T) {
	cfg, err := changesFlags(true, 5, time.Second, "", "")
	if err != nil || !cfg.quick || cfg.count != 1 || cfg.sizes != changes.Quick() {
		t.Errorf("quick: %+v, %v", cfg, err)
	}
	cfg, err = changesFlags(false, 5, 100*time.Millisecond, "", "events")
	if err != nil || cfg.count != 5 || cfg.benchtime != fixedSuiteBenchtime || cfg.sizes != changes.Full() || cfg.only != "events" {
		t.Errorf("full: %+v, %v", cfg, err)
	}
	if _, err := changesFlags(false, 5, time.Second, "1000", ""); err == nil {
		t.Error("-sizes accepted")
	}
	if _, err := changesFlags(false, 0, time.Second, "", ""); err == nil {
		t.Error("-count 0 accepted")
	}
}
