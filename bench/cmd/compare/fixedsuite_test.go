package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// restoreBenchtime puts the measurements' benchtime back when t ends.
func restoreBenchtime(t *testing.T) {
	old := benchtime
	t.Cleanup(func() {
		if err := setBenchtime(old); err != nil {
			t.Error(err)
		}
	})
}

// checkFixedReport runs s at its quick sizes, one short run per row, and
// checks that its report holds every string of want, a section and a
// summary line for each comparison of names, and no NaN. It skips under
// -short: the quick sizes still build worlds of up to 100,000 entities.
func checkFixedReport[S, C, R any](t *testing.T, s *fixedSuite[S, C, R], names []string, want ...string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("builds the %s suite's worlds", s.name)
	}
	dir := t.TempDir()
	cfg := fixedConfig[S]{sizes: s.quick, quick: true, count: 1, benchtime: time.Millisecond}
	restoreBenchtime(t)
	if err := s.run(dir, cfg, "cmd", func(string) {}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, s.file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, name := range names {
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

// checkFixedFlags checks s's flags: -quick, -benchtime's default, that
// -workloads passes only through, and that -sizes and -count 0 are
// refused.
func checkFixedFlags[S comparable, C, R any](t *testing.T, s *fixedSuite[S, C, R], only string) {
	t.Helper()
	cfg, err := s.flags(true, 5, time.Second, "", "")
	if err != nil || !cfg.quick || cfg.count != 1 || cfg.sizes != s.quick {
		t.Errorf("quick: %+v, %v", cfg, err)
	}
	cfg, err = s.flags(false, 5, 100*time.Millisecond, "", only)
	if err != nil || cfg.count != 5 || cfg.benchtime != fixedSuiteBenchtime || cfg.sizes != s.full || cfg.only != only {
		t.Errorf("full: %+v, %v", cfg, err)
	}
	if _, err := s.flags(false, 5, time.Second, "1000", ""); err == nil {
		t.Error("-sizes accepted")
	}
	if _, err := s.flags(false, 0, time.Second, "", ""); err == nil {
		t.Error("-count 0 accepted")
	}
}
