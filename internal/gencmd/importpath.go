package gencmd

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// importPath returns the import path of the package in dir, as the go
// command gives it in module mode: the path of the module whose go.mod is
// the nearest at or above dir, and dir's place under it. It returns ""
// when there is no such go.mod, or it names no module.
func importPath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for root := abs; ; {
		data, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err == nil {
			mod := modulePath(data)
			rel, err := filepath.Rel(root, abs)
			switch {
			case mod == "" || err != nil:
				return ""
			case rel == ".":
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(root)
		if parent == root {
			return ""
		}
		root = parent
	}
}

// modulePath returns the path a go.mod's module directive names, or "".
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || !strings.ContainsAny(rest[:1], " \t\"") {
			continue
		}
		rest, _, _ = strings.Cut(rest, "//")
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, `"`) {
			if p, err := strconv.Unquote(rest); err == nil {
				return p
			}
			return ""
		}
		return rest
	}
	return ""
}
