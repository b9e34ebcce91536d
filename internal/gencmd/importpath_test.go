package gencmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModulePath(t *testing.T) {
	for gomod, want := range map[string]string{
		"module example.com/m\n\ngo 1.26\n":        "example.com/m",
		"// a comment\nmodule \"example.com/q\"\n": "example.com/q",
		"module\texample.com/t // the module\n":    "example.com/t",
		"modules example.com/x\n":                  "",
		"go 1.26\n":                                "",
		"module \"unterminated\n":                  "",
	} {
		if got := modulePath([]byte(gomod)); got != want {
			t.Errorf("modulePath(%q) = %q, want %q", gomod, got, want)
		}
	}
}

// writeModule writes a go.mod for example.com/m in a new directory, with
// a package directory game, and returns both.
func writeModule(t *testing.T) (root, game string) {
	t.Helper()
	root = t.TempDir()
	game = filepath.Join(root, "game")
	if err := os.MkdirAll(game, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, game
}

func TestImportPath(t *testing.T) {
	root, game := writeModule(t)
	if got := importPath(game); got != "example.com/m/game" {
		t.Errorf("importPath(game) = %q", got)
	}
	if got := importPath(root); got != "example.com/m" {
		t.Errorf("importPath(root) = %q", got)
	}
}

// TestRunRefusesADefaultStableName: the generator reads the package's import
// path from go.mod and refuses a stable name that is another component's
// default, on which the generated Register would panic.
func TestRunRefusesADefaultStableName(t *testing.T) {
	_, game := writeModule(t)
	defs := filepath.Join(game, "defs.json")
	src := `{"package": "game", "components": [{"name": "Health"}, {"name": "Shield", "stableName": "example.com/m/game.Health"}]}`
	if err := os.WriteFile(defs, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Run("tessera-gen", []string{"-o", filepath.Join(game, "defs_gen.go"), defs}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), `:1:56: component Shield: stable name "example.com/m/game.Health" is the default stable name of component Health`) {
		t.Errorf("exit %d:\n%s", code, stderr.String())
	}
}
