// Package gencmd is the command line of Tessera's component generator:
// it reads definition files, checks them with internal/compgen and writes
// the generated Go file. Two commands run it: tessera-gen
// (github.com/tessera-ecs/tessera/cmd/tessera-gen, of the root module and
// the standard library alone, for go run at a version and go tool) and
// the tessera command's gen subcommand.
package gencmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/tessera-ecs/tessera/internal/compgen"
	"github.com/tessera-ecs/tessera/internal/wholefile"
)

// Run runs the generator on the command-line arguments args (the flags
// and the definition files, without the program's name). prog names the
// program in the usage and at the start of its messages ("tessera-gen",
// "tessera gen"). The code goes to the file of -o, written whole or not
// at all, or else to stdout; problems and usage go to stderr. Run returns
// the exit status: 0 when the code was written (or -h asked for the
// usage), 1 when the definitions have problems or a file cannot be read
// or written (each problem of each file is one line, file:line:col:
// message, and nothing is written), 2 for bad usage. It never panics on
// the files' bytes.
func Run(prog string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the Go file here (default: standard output)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage(prog))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "%s: name at least one definition file\n", prog)
		fs.Usage()
		return 2
	}
	if msg := sameFiles(fs.Args(), *out); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", prog, msg)
		return 2
	}
	files := make([]compgen.File, fs.NArg())
	names := make([]string, fs.NArg())
	for i, name := range fs.Args() {
		data, err := readAtMost(name, compgen.MaxFileBytes+1) // compgen reports a larger one
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", prog, err)
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
		fmt.Fprintf(stderr, "%s: %d problem(s); nothing written\n", prog, len(errs))
		return 1
	}
	code, err := compgen.Generate(defs, names)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	if *out == "" {
		if _, err := stdout.Write(code); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", prog, err)
			return 1
		}
		return 0
	}
	if err := wholefile.Write(*out, func(w io.Writer) error { _, err := w.Write(code); return err }); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	return 0
}
