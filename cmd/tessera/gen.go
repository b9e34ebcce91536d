package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tessera-ecs/tessera/internal/compgen"
	"github.com/tessera-ecs/tessera/internal/wholefile"
)

// genUsage is the help of tessera gen.
var genUsage = fmt.Sprintf(`Usage: tessera gen [-o out.go] defs.json...

Reads component definitions written in JSON and writes one gofmt'ed Go file:
the component types, DefaultX functions, String, Clone for types with slices,
save codecs without reflection (ecs.BinaryCodec), one Register(w), and typed
spawn helpers per archetype. The format is described in the README
("Components from JSON") and in the package internal/compgen.

In a package, with the tessera command on the PATH (go install ./cmd/tessera
from a checkout of Tessera):

	//go:generate tessera gen -o components_gen.go components.json

Every problem of every file is reported as file:line:col: message, and then
nothing is written and the exit status is 1.

A stableName that is another component's default stable name (the import
path of the package, a dot and the type's name) is refused, as the generated
Register would panic on it. The import path is read from the go.mod above the
directory of -o (or the current directory, where go generate runs); without
one, it is taken to end in the package's name.

The definitions are bounded, so that any of them give an error quickly or
code linear in their size: a file of at most %d bytes, %d JSON
values and %d levels of nesting; %d components and %d archetypes
in all; %d fields per component; names of %d bytes; a component's
values nested at most %d levels deep (a level per field, per [] or [N] and
per component held, so a field's type has at most %d levels of [] and
[N]), the depth ecs.World.Load reads; and %d problems listed. A limit
crossed is reported at its file:line:col. See go doc ./internal/compgen.

Flags:
`, compgen.MaxFileBytes, compgen.MaxValues, compgen.MaxJSONDepth, compgen.MaxComponents, compgen.MaxArchetypes,
	compgen.MaxFields, compgen.MaxNameBytes, compgen.MaxTypeDepth, compgen.MaxTypeDepth-1, compgen.MaxErrors)

// gen runs "tessera gen": 0 when the file was written, 1 when the
// definitions have problems or a file cannot be read or written, 2 for
// bad usage.
func gen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tessera gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the Go file here (default: standard output)")
	fs.Usage = func() {
		fmt.Fprint(stderr, genUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "tessera gen: name at least one definition file")
		fs.Usage()
		return 2
	}
	if msg := sameFiles(fs.Args(), *out); msg != "" {
		fmt.Fprintf(stderr, "tessera gen: %s\n", msg)
		return 2
	}
	files := make([]compgen.File, fs.NArg())
	names := make([]string, fs.NArg())
	for i, name := range fs.Args() {
		data, err := readAtMost(name, compgen.MaxFileBytes+1) // compgen reports a larger one
		if err != nil {
			fmt.Fprintf(stderr, "tessera gen: %v\n", err)
			return 1
		}
		names[i] = filepath.ToSlash(name)
		files[i] = compgen.File{Name: names[i], Data: data}
	}
	dir := "." // where go generate runs, in the package's directory
	if *out != "" {
		dir = filepath.Dir(*out)
	}
	defs, errs := compgen.ParseWith(compgen.Options{ImportPath: importPath(dir)}, files...)
	if errs != nil {
		for _, e := range errs {
			fmt.Fprintln(stderr, e.Error())
		}
		fmt.Fprintf(stderr, "tessera gen: %d problem(s); nothing written\n", len(errs))
		return 1
	}
	code, err := compgen.Generate(defs, names)
	if err != nil {
		fmt.Fprintf(stderr, "tessera gen: %v\n", err)
		return 1
	}
	if *out == "" {
		if _, err := stdout.Write(code); err != nil {
			fmt.Fprintf(stderr, "tessera gen: %v\n", err)
			return 1
		}
		return 0
	}
	if err := wholefile.Write(*out, func(w io.Writer) error { _, err := w.Write(code); return err }); err != nil {
		fmt.Fprintf(stderr, "tessera gen: %v\n", err)
		return 1
	}
	return 0
}

// readAtMost reads the first n bytes of the file name, or all of it when
// it is shorter: a definition file past the limit is not read whole.
func readAtMost(name string, n int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// sameFiles says which file is given twice, or is both an input and the
// output (which would be overwritten with Go), or "" when none is.
// Names that do not exist are left to the reads and the write to report.
func sameFiles(inputs []string, out string) string {
	stats := make([]os.FileInfo, len(inputs))
	for i, name := range inputs {
		st, err := os.Stat(name)
		if err != nil {
			continue
		}
		for j := range i {
			if stats[j] != nil && os.SameFile(stats[j], st) {
				return fmt.Sprintf("%s is given twice (as %s too)", name, inputs[j])
			}
		}
		stats[i] = st
	}
	if out == "" {
		return ""
	}
	st, err := os.Stat(out)
	if err != nil {
		return ""
	}
	for i, in := range stats {
		if in != nil && os.SameFile(in, st) {
			return fmt.Sprintf("the output %s is the definition file %s; name another with -o", out, inputs[i])
		}
	}
	return ""
}
