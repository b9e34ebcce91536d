package main

import (
	"archive/zip"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modulePath is the path of Tessera's root module.
const modulePath = "github.com/tessera-ecs/tessera"

// writeProxy writes a module proxy in a new directory that serves the
// root module of the checkout at root as version, and returns its file://
// URL, for GOPROXY. The module's zip holds what a build of its packages
// reads under root: go.mod, the Go files and the licenses, without the
// nested modules (directories with a go.mod of their own, which the go
// command leaves out of a module's zip too), vendor and testdata
// directories, and names that start with a dot (whatever else lies in a
// checkout is left out, so that it cannot make the zip one the go command
// refuses).
func writeProxy(t *testing.T, root, version string) string {
	t.Helper()
	proxy := t.TempDir()
	dir := filepath.Join(proxy, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := `{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`
	writeFiles(t, dir, map[string]string{"list": version + "\n", version + ".info": info, version + ".mod": string(gomod)})

	f, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	prefix := modulePath + "@" + version + "/"
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if strings.HasPrefix(name, ".") || name == "vendor" || name == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		wanted := rel == "go.mod" || strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "LICENSE")
		if !wanted || strings.HasPrefix(name, ".") || !d.Type().IsRegular() {
			return nil
		}
		w, err := zw.Create(prefix + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(w, src)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.ToSlash(proxy)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/... on Windows
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
