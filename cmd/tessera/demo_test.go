package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runCmd(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDemoRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"demo", "-scenario", "space"}, `unknown scenario "space"`},
		{[]string{"demo", "-storage", "disk"}, `unknown storage "disk"`},
		{[]string{"demo", "-plot", filepath.Join(dir, "missing", "t.svg")}, "cannot write there"},
		{[]string{"demo", "-plot", filepath.Join(dir, "t.txt")}, "must end in .svg or .png"},
		{[]string{"demo", "-show"}, "-show needs -scenario game"},
		{[]string{"demo", "-rollback", "-1"}, "-rollback -1 out of range: want 0 to 64"},
		{[]string{"demo", "-rollback", "65"}, "-rollback 65 out of range"},
		{[]string{"demo", "extra"}, `unexpected argument "extra"`},
		{[]string{"demo", "-bogus"}, "flag provided but not defined"},
		{[]string{"demo", "-n", "ten"}, "invalid value"},
		{[]string{"launch"}, `unknown command "launch"`},
		{[]string{"demo", "-tps", "30"}, "-tps needs -inspect"},
		{[]string{"demo", "-token", "x"}, "-token needs -inspect"},
		{[]string{"demo", "-history", "60"}, "-history needs -inspect"},
		{[]string{"demo", "-inspect", "127.0.0.1:0", "-history", "-1"}, "-history -1 out of range: want 0 to 100000"},
		{[]string{"demo", "-inspect", "127.0.0.1:0", "-history", "100001"}, "-history 100001 out of range"},
		{[]string{"demo", "-inspect", "127.0.0.1:0", "-tps", "-1"}, "-tps -1 out of range"},
		{[]string{"demo", "-inspect", "127.0.0.1:0", "-scenario", "game", "-show"}, "-show and -inspect"},
		{nil, "Usage: tessera"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(c.args...)
		if code != 2 || !strings.Contains(errOut, c.msg) || out != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2 and %q", c.args, code, errOut, out, c.msg)
		}
	}
	if code, out, _ := runCmd("demo", "-h"); code != 0 || out != "" {
		t.Errorf("-h: exit %d", code)
	}
}

var hashLine = regexp.MustCompile(`world state hash: ([0-9a-f]{16})`)

func demoHash(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCmd(append([]string{"demo", "-quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errOut)
	}
	m := hashLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no hash in %q", out)
	}
	return m[1]
}

func TestDemoParticleSummary(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "ticks.svg")
	code, out, errOut := runCmd("demo", "-n", "3000", "-ticks", "60", "-plot", plot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"particle scenario, 3000 entities, 60 ticks", "entities alive:", "ticks per second:",
		"mean", "p50", "p99", "max", "heap per entity:", "time per system", "emit", "gravity", "move", "age", "stats",
		"time per stage", "sync phases", "stage 3", "run", "merge", "apply",
		"plot of the tick times written to"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	svg, err := os.ReadFile(plot)
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("plot: %v, %d bytes", err, len(svg))
	}
	if errOut != "" { // stderr is a buffer, not a terminal: no progress bar
		t.Errorf("stderr not a terminal, but written to: %q", errOut)
	}
}

func TestShowProgress(t *testing.T) {
	for _, c := range []struct{ quiet, terminal, want bool }{
		{false, true, true},
		{true, true, false},
		{false, false, false},
		{true, false, false},
	} {
		if got := showProgress(c.quiet, c.terminal); got != c.want {
			t.Errorf("showProgress(quiet %v, terminal %v) = %v, want %v", c.quiet, c.terminal, got, c.want)
		}
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range []io.Writer{&bytes.Buffer{}, f, io.Discard} {
		if isTerminal(w) {
			t.Errorf("%T taken for a terminal", w)
		}
	}
}

// TestDemoProgressBarOnTerminal runs the demo as if stderr were a terminal:
// the bar is drawn, unless -quiet.
func TestDemoProgressBarOnTerminal(t *testing.T) {
	args := []string{"-n", "1000", "-ticks", "20", "-workers", "1"}
	for _, quiet := range []bool{false, true} {
		a := args
		if quiet {
			a = append([]string{"-quiet"}, args...)
		}
		var out, errOut bytes.Buffer
		if code := runDemo(a, &out, &errOut, true); code != 0 {
			t.Fatalf("%q: exit %d: %s", a, code, errOut.String())
		}
		drawn := strings.Contains(errOut.String(), "ticks")
		if drawn == quiet {
			t.Errorf("%q on a terminal: progress bar drawn %v, stderr %q", a, drawn, errOut.String())
		}
	}
}

func TestDemoHashesAreReproducible(t *testing.T) {
	for _, sc := range []string{"particle", "game", "predator"} {
		a := demoHash(t, "-scenario", sc, "-n", "2000", "-ticks", "40", "-workers", "1", "-seed", "5")
		b := demoHash(t, "-scenario", sc, "-n", "2000", "-ticks", "40", "-workers", "2", "-seed", "5")
		c := demoHash(t, "-scenario", sc, "-n", "2000", "-ticks", "40", "-workers", "2", "-seed", "5")
		if a != b || b != c {
			t.Errorf("%s: hashes %s (1 worker), %s and %s (2 workers)", sc, a, b, c)
		}
		if d := demoHash(t, "-scenario", sc, "-n", "2000", "-ticks", "40", "-seed", "6"); d == a {
			t.Errorf("%s: seeds 5 and 6 gave the same hash", sc)
		}
	}
}

var checksumLine = regexp.MustCompile(`world checksum:   ([0-9a-f]{16})`)

// TestDemoRollbackMatchesStraightRun: rolling back K ticks after every tick
// and simulating them again ends in the straight run's world, in every
// scenario and storage, on 1 and 2 workers.
func TestDemoRollbackMatchesStraightRun(t *testing.T) {
	for _, sc := range []string{"particle", "game", "predator"} {
		for _, storage := range []string{"table", "sparse"} {
			args := []string{"demo", "-quiet", "-scenario", sc, "-storage", storage, "-n", "3000", "-ticks", "40", "-seed", "3"}
			sums := map[string]string{}
			for _, extra := range [][]string{{"-workers", "1"}, {"-rollback", "8", "-workers", "1"}, {"-rollback", "3", "-workers", "2"}} {
				code, out, errOut := runCmd(append(args, extra...)...)
				if code != 0 {
					t.Fatalf("%s %s %q: exit %d: %s", sc, storage, extra, code, errOut)
				}
				m := checksumLine.FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("%s %s %q: no checksum in %q", sc, storage, extra, out)
				}
				sums[strings.Join(extra, " ")] = m[1]
				if len(extra) > 2 && (!strings.Contains(out, "ticks simulated again") || !strings.Contains(out, "snapshot save:") || !strings.Contains(out, "snapshot restore:")) {
					t.Errorf("%s %s %q: the summary lacks the rollback lines:\n%s", sc, storage, extra, out)
				}
			}
			if len(sums) != 3 || sums["-workers 1"] != sums["-rollback 8 -workers 1"] || sums["-workers 1"] != sums["-rollback 3 -workers 2"] {
				t.Errorf("%s %s: checksums differ: %v", sc, storage, sums)
			}
		}
	}
}

func TestDemoGameShow(t *testing.T) {
	code, out, errOut := runCmd("demo", "-quiet", "-scenario", "game", "-n", "3000", "-ticks", "30", "-show")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	i := strings.Index(out, "frame 320x240")
	if i < 0 {
		t.Fatalf("no frame in:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out[i:]), "\n")[1:]
	if len(lines) < 10 || !strings.HasPrefix(lines[0], "+--") || !strings.HasPrefix(lines[len(lines)-1], "+--") {
		t.Fatalf("frame without a border:\n%s", out[i:])
	}
	width := len(lines[0])
	body := strings.Join(lines[1:len(lines)-1], "")
	for _, l := range lines {
		if len(l) != width {
			t.Fatalf("ragged frame: %d and %d columns", len(l), width)
		}
	}
	if width > 80 || !strings.ContainsAny(body, "@kh") {
		t.Fatalf("frame %d wide, sprites drawn: %v", width, strings.ContainsAny(body, "@kh"))
	}
}
