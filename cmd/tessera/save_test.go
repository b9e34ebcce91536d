package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets a test run the command in a process of its own: with
// TESSERA_DEMO_ARGS set, the test binary is the tessera command.
func TestMain(m *testing.M) {
	if args := os.Getenv("TESSERA_DEMO_ARGS"); args != "" {
		os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runProcess runs the tessera command in a new process and returns its
// standard output.
func runProcess(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TESSERA_DEMO_ARGS="+strings.Join(args, " "))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%q: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestDemoSaveLoadAcrossProcesses: 40 ticks, a save, a load in a new
// process and 40 more ticks end in the world of 80 ticks straight.
func TestDemoSaveLoadAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	for _, sc := range []string{"particle", "game", "predator"} {
		for _, storage := range []string{"table", "sparse"} {
			file := filepath.Join(dir, sc+"-"+storage+".sav")
			base := []string{"demo", "-quiet", "-scenario", sc, "-storage", storage, "-workers", "2"}
			straight := runProcess(t, append(base, "-n", "3000", "-ticks", "80")...)
			first := runProcess(t, append(base, "-n", "3000", "-ticks", "40", "-save", file)...)
			second := runProcess(t, append(base, "-ticks", "40", "-load", file)...)
			want := checksumLine.FindStringSubmatch(straight)
			got := checksumLine.FindStringSubmatch(second)
			if want == nil || got == nil || !strings.Contains(first, "world saved to") || !strings.Contains(second, "loaded from") {
				t.Fatalf("%s %s: unexpected output:\n%s\n%s\n%s", sc, storage, straight, first, second)
			}
			if got[1] != want[1] {
				t.Errorf("%s %s: 40 ticks, save, load, 40 ticks: checksum %s; 80 ticks straight: %s", sc, storage, got[1], want[1])
			}
		}
	}
	bad := filepath.Join(dir, "bad.sav")
	os.WriteFile(bad, []byte("tessera\x00\x01junk"), 0o644)
	if code, _, errOut := runCmd("demo", "-quiet", "-load", bad); code != 1 || !strings.Contains(errOut, "ecs: Load:") {
		t.Errorf("a corrupt save: exit %d, %q", code, errOut)
	}
	// A save of one scenario loaded as another is refused with a reason.
	particle := filepath.Join(dir, "particle-table.sav")
	if code, _, errOut := runCmd("demo", "-quiet", "-scenario", "predator", "-load", particle); code != 1 || !strings.Contains(errOut, "scenario: predator: ecs: Load:") {
		t.Errorf("a particle save loaded as predator: exit %d, %q", code, errOut)
	}
}
