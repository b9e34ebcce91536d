package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// withMemory makes the demo believe the machine has mem bytes of memory
// (ok false: that it cannot tell) until the test ends.
func withMemory(t *testing.T, mem uint64, ok bool) {
	t.Helper()
	saved := machineMemory
	machineMemory = func() (uint64, bool) { return mem, ok }
	t.Cleanup(func() { machineMemory = saved })
}

// wantUsage runs the command and checks that it exits with status 2,
// prints nothing on standard output and says each of msgs on standard
// error.
func wantUsage(t *testing.T, args []string, msgs ...string) {
	t.Helper()
	code, out, errOut := runCmd(args...)
	if code != 2 || out != "" {
		t.Errorf("%q: exit %d, stdout %q; want exit 2 and no output", args, code, out)
	}
	for _, m := range msgs {
		if !strings.Contains(errOut, m) {
			t.Errorf("%q: stderr %q lacks %q", args, errOut, m)
		}
	}
}

func TestDemoRefusesOutOfRangeFlags(t *testing.T) {
	withMemory(t, 1<<40, true) // 1 TiB: the caps bind, not the memory
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"-n", "0"}, "-n 0 out of range: want 1 to 100000000"},
		{[]string{"-n", "-1"}, "-n -1 out of range: want 1 to 100000000"},
		{[]string{"-n", "100000001"}, "-n 100000001 out of range: want 1 to 100000000 (the demo's cap"},
		{[]string{"-n", "2000000000"}, "-n 2000000000 out of range: want 1 to 100000000 (the demo's cap"},
		{[]string{"-ticks", "0"}, "-ticks 0 out of range: want 1 to 100000000"},
		{[]string{"-ticks", "-5"}, "-ticks -5 out of range: want 1 to 100000000"},
		{[]string{"-ticks", "100000001"}, "-ticks 100000001 out of range: want 1 to 100000000"},
		{[]string{"-ticks", "2000000000"}, "-ticks 2000000000 out of range: want 1 to 100000000"},
		{[]string{"-workers", "-2"}, "-workers -2 out of range: want 1 to 1024, or 0 for GOMAXPROCS"},
		{[]string{"-workers", "1025"}, "-workers 1025 out of range: want 1 to 1024"},
		{[]string{"-workers", "99999999999"}, "-workers 99999999999 out of range: want 1 to 1024"},
		{[]string{"-n", "99999999999999999999"}, "value out of range"}, // the flag package: not an int
	}
	for _, c := range cases {
		wantUsage(t, append([]string{"demo", "-quiet"}, c.args...), c.msg)
	}
	// The limits themselves are accepted.
	for _, args := range [][]string{
		{"-n", "100000000", "-ticks", "100000000", "-workers", "1024"},
		{"-n", "1", "-ticks", "1", "-workers", "1"},
		{"-workers", "0"},
	} {
		if _, err := parseDemo(args, io.Discard); err != nil {
			t.Errorf("%q refused: %v", args, err)
		}
	}
}

func TestDemoEntityLimitFollowsMemory(t *testing.T) {
	withMemory(t, 1<<30, true) // 1 GiB
	cases := []struct {
		scenario, storage string
		limit             int
	}{
		{"particle", "table", 1 << 30 / 96},
		{"particle", "sparse", 1 << 30 / 384},
		{"game", "table", 1 << 30 / 208},
		{"game", "sparse", 1 << 30 / 240},
		{"predator", "table", 1 << 30 / 336},
	}
	for _, c := range cases {
		flags := []string{"-scenario", c.scenario, "-storage", c.storage, "-n"}
		ok := append(flags[:len(flags):len(flags)], strconv.Itoa(c.limit))
		if _, err := parseDemo(ok, io.Discard); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
		over := strconv.Itoa(c.limit + 1)
		wantUsage(t, append(append([]string{"demo"}, flags...), over),
			"-n "+over+" out of range: want 1 to "+strconv.Itoa(c.limit)+" (the "+c.scenario+" scenario with "+c.storage+" storage",
			"this machine has 1.0 GiB")
	}

	// When the memory cannot be read, the cap alone applies.
	withMemory(t, 0, false)
	if _, err := parseDemo([]string{"-storage", "sparse", "-n", "100000000"}, io.Discard); err != nil {
		t.Errorf("without a memory size, -n 100000000 refused: %v", err)
	}
	wantUsage(t, []string{"demo", "-n", "100000001"}, "want 1 to 100000000 (the demo's cap")
}

// TestDemoChecksPlotBeforeRunning runs a scenario that takes a while
// unless the -plot target is refused before it starts: the refusal must
// come with exit status 2, no output (the header is printed once the
// scenario is built) and quickly.
func TestDemoChecksPlotBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	svgDir := filepath.Join(dir, "ticks.svg") // a directory with a plot's name
	if err := os.Mkdir(svgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	long := []string{"demo", "-quiet", "-n", "300000", "-ticks", "1000"} // seconds
	for _, c := range []struct{ path, msg string }{
		{svgDir, "is a directory"},
		{dir, "is a directory"},
		{filepath.Join(dir, "missing", "t.svg"), filepath.Join(dir, "missing") + ": "},
		{filepath.Join(file, "t.svg"), "not a directory"},
		{filepath.Join(dir, "t.pdf"), "must end in .svg or .png"},
	} {
		start := time.Now()
		wantUsage(t, append(long, "-plot", c.path), "-plot "+c.path+": ", c.msg)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("-plot %s refused after %v", c.path, d)
		}
	}

	// An existing file can be replaced, and the check leaves it as it was.
	old := filepath.Join(dir, "old.png")
	if err := os.WriteFile(old, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseDemo([]string{"-plot", old}, io.Discard); err != nil {
		t.Errorf("-plot %s refused: %v", old, err)
	}
	if b, _ := os.ReadFile(old); string(b) != "old" {
		t.Errorf("the check changed %s to %q", old, b)
	}
	if os.Geteuid() != 0 { // root may write anything
		if err := os.Chmod(old, 0o444); err != nil {
			t.Fatal(err)
		}
		wantUsage(t, append(long, "-plot", old), "-plot "+old+": cannot write there")
	}
}

func TestDemoPlotOfManyTicks(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "ticks.svg")
	ticks := 3*maxPlotPoints + 5
	code, out, errOut := runCmd("demo", "-quiet", "-n", "10", "-workers", "1", "-ticks", strconv.Itoa(ticks), "-plot", plot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "plot of the tick times written to") {
		t.Errorf("no plot reported:\n%s", out)
	}
	svg, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "mean of 4 ticks", "max of 4 ticks"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the plot lacks %q", want)
		}
	}
}
