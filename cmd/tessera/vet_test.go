package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestIsVetTool(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-json", "/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-fix", "-diff", "/tmp/go-build1/b001/vet.cfg"}, true},
		{nil, false},
		{[]string{"vet"}, false},
		{[]string{"vet", "./..."}, false},
		{[]string{"gen", "defs.cfg"}, false},
		{[]string{"demo", "-n", "10"}, false},
		{[]string{"-h"}, false},
	}
	for _, c := range cases {
		if got := isVetTool(c.args); got != c.want {
			t.Errorf("isVetTool(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestVetArgs(t *testing.T) {
	cases := []struct {
		args, want []string
	}{
		{nil, []string{"vet", "-vettool=/bin/tessera", "./..."}},
		{[]string{"-fix", "-diff"}, []string{"vet", "-vettool=/bin/tessera", "-fix", "-diff", "./..."}},
		{[]string{"./ecs"}, []string{"vet", "-vettool=/bin/tessera", "./ecs"}},
		{[]string{"-json", "./a", "./b"}, []string{"vet", "-vettool=/bin/tessera", "-json", "./a", "./b"}},
	}
	for _, c := range cases {
		if got := vetArgs("/bin/tessera", c.args); !slices.Equal(got, c.want) {
			t.Errorf("vetArgs(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

func TestVetHelp(t *testing.T) {
	code, out, _ := runCmd("vet", "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"go vet -vettool=$(command -v tessera) ./...", "//tessera:nondeterministic-ok <reason>", "maporder", "fma"} {
		if !strings.Contains(out, want) {
			t.Errorf("tessera vet -h does not mention %q", want)
		}
	}
	if _, out, _ := runCmd("help"); !strings.Contains(out, "vet ") {
		t.Errorf("tessera help does not list vet:\n%s", out)
	}
}

// gameSource is a package with a violation of the fma and maporder rules.
const gameSource = `package game

import "github.com/tessera-ecs/tessera/sched"

type Pos struct{ X, V float32 }

func Register(s *sched.Scheduler, ps []Pos, speed map[int]float32) {
	s.AddFunc("move", func(ctx *sched.Context) {
		for i := range ps {
			ps[i].X += ps[i].V * 0.1
		}
		for k, v := range speed {
			ps[k].V = v
		}
	})
}
`

// TestVetEndToEnd builds the tessera binary into a temporary directory and
// runs it on a temporary module with violations: as go vet's tool
// (go vet -vettool=.../tessera), through tessera vet, and with -fix -diff.
func TestVetEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tessera binary and runs go vet")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on the PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tessera")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, "game")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	goMod := "module example.com/game\n\ngo 1.26\n\nrequire github.com/tessera-ecs/tessera v0.0.0\n\n" +
		"replace github.com/tessera-ecs/tessera => " + filepath.ToSlash(root) + "\n"
	writeTestFile(t, filepath.Join(mod, "go.mod"), goMod)
	writeTestFile(t, filepath.Join(mod, "game.go"), gameSource)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")

	runIn := func(name string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = mod, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode(), out.String()
		} else if err != nil {
			t.Fatalf("%s %q: %v", name, args, err)
		}
		return 0, out.String()
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{goCmd, []string{"vet", "-vettool=" + bin, "./..."}},
		{bin, []string{"vet"}},
	} {
		code, out := runIn(c.name, c.args...)
		if code != 1 {
			t.Errorf("%s %q: exit %d, want 1\n%s", filepath.Base(c.name), c.args, code, out)
		}
		for _, want := range []string{
			"game.go:10:15: fma: the product ps[i].V * 0.1 is added to ps[i].X by +=",
			"float32(ps[i].V * 0.1)",
			"game.go:12:3: maporder: ranging over a Go map",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s %q: output lacks %q:\n%s", filepath.Base(c.name), c.args, want, out)
			}
		}
	}
	code, out := runIn(bin, "vet", "-fix", "-diff")
	if code != 1 {
		t.Errorf("tessera vet -fix -diff: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"+\t\t\tps[i].X += float32(ps[i].V * 0.1)",
		"+\t\tfor _, k := range slices.Sorted(maps.Keys(speed)) {",
		"+\t\t\tv := speed[k]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tessera vet -fix -diff: output lacks %q:\n%s", want, out)
		}
	}
}

func writeTestFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVetHelpListsEveryRule checks that tessera vet -h names every rule
// that detcheck's package documentation describes (a "# rule: ..." heading),
// and no other.
func TestVetHelpListsEveryRule(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("detcheck", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^// # ([a-z]+):`).FindAllStringSubmatch(string(src), -1) {
		documented = append(documented, m[1])
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+) {2,}`).FindAllStringSubmatch(vetUsage, -1) {
		listed = append(listed, m[1])
	}
	if len(documented) < 11 || !slices.Equal(documented, listed) {
		t.Errorf("rules in detcheck's doc.go: %q\nrules in tessera vet -h: %q\nwant the same, in the same order", documented, listed)
	}
}
