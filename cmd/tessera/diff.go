package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tessera-ecs/tessera/ecs"
)

// diffUsage is the help of tessera diff.
const diffUsage = `Usage: tessera diff [-n N] [-json] A.sav B.sav

Compares two save files (ecs.World.Save, as tessera demo -save writes them)
without the program that wrote them: each value is read by the schema the
file gives its type. Prints how many differences there are, per component
type, relation, resource and event queue, and the first N: entities in one
file only, components on one side, values field by field with both values,
the entity index and iteration order (see ecs.DiffSaves).

Exit status, as diff(1)'s: 0 when the files hold the same world, 1 when
they differ, 2 when a file cannot be read (named, with the section and
byte) or for bad usage.

Flags:
`

// diffSaves runs "tessera diff".
func diffSaves(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tessera diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 20, "print the first `N` differences; 0 prints the counts only")
	asJSON := fs.Bool("json", false, "print the report as JSON (the fields of ecs.DiffReport)")
	fs.Usage = func() {
		fmt.Fprint(stderr, diffUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case fs.NArg() != 2:
		fmt.Fprintf(stderr, "tessera diff: name two save files, not %d\n", fs.NArg())
		fs.Usage()
		return 2
	case *n < 0:
		fmt.Fprintf(stderr, "tessera diff: -n %d out of range: want 0 or more\n", *n)
		return 2
	}
	paths := [2]string{fs.Arg(0), fs.Arg(1)}
	var files [2]*os.File
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(stderr, "tessera diff: %v\n", err)
			return 2
		}
		defer f.Close()
		files[i] = f
	}
	r, err := ecs.DiffSaves(files[0], files[1], *n)
	if err != nil {
		var fe *ecs.SaveFileError
		if errors.As(err, &fe) && fe.File == "B" {
			fmt.Fprintf(stderr, "tessera diff: %s: %v\n", paths[1], err)
		} else {
			fmt.Fprintf(stderr, "tessera diff: %s: %v\n", paths[0], err)
		}
		return 2
	}
	if *asJSON {
		if err := writeDiffJSON(stdout, &r); err != nil {
			fmt.Fprintf(stderr, "tessera diff: %v\n", err)
			return 2
		}
	} else {
		fmt.Fprint(stdout, r.String())
	}
	if r.Equal() {
		return 0
	}
	return 1
}

// jsonDifference is a Difference as -json prints it: kinds and parts by
// name, the entity as 7v1.
type jsonDifference struct {
	Kind   string `json:"kind"`
	Part   string `json:"part"`
	Type   string `json:"type"`
	Entity string `json:"entity,omitempty"`
	Field  string `json:"field,omitempty"`
	A      string `json:"a,omitempty"`
	B      string `json:"b,omitempty"`
}

type jsonPartCount struct {
	Part string `json:"part"`
	Type string `json:"type"`
	N    int    `json:"n"`
}

type jsonDiffReport struct {
	Equal       bool             `json:"equal"`
	Total       int              `json:"total"`
	Entities    int              `json:"entities"`
	Parts       []jsonPartCount  `json:"parts"`
	Differences []jsonDifference `json:"differences"`
}

// writeDiffJSON writes r as one indented JSON object.
func writeDiffJSON(w io.Writer, r *ecs.DiffReport) error {
	out := jsonDiffReport{Equal: r.Equal(), Total: r.Total, Entities: r.Entities,
		Parts: []jsonPartCount{}, Differences: []jsonDifference{}}
	for _, p := range r.Parts {
		out.Parts = append(out.Parts, jsonPartCount{p.Part.String(), p.Type, p.N})
	}
	for _, d := range r.Differences {
		x := jsonDifference{Kind: d.Kind.String(), Part: d.Part.String(), Type: d.Type, Field: d.Field, A: d.A, B: d.B}
		if !d.Entity.IsZero() {
			x.Entity = d.Entity.String()
		}
		out.Differences = append(out.Differences, x)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(&out)
}
