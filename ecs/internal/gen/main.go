// Command gen writes the fixed-arity generic types of package ecs from the
// templates in this directory: query_gen.go (Query1..Query8, Row, Chunk and
// Cursor types) and map_gen.go (Map2..Map12), and their tests,
// query_gen_test.go and map_gen_test.go, which run every method of every
// arity, and differential_gen_test.go, the differential test's drivers of
// those arities. Run it with go generate in ecs.
package main

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"os"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var templates embed.FS

// The largest number of component types a query takes, and a map (spawn
// and add handles go further: entities often start with many components).
const (
	maxQueryArity = 8
	maxMapArity   = 12
	// The differential test's harness has six component kinds.
	maxDifferentialArity = 6
)

// arity describes one generated type: N type parameters named A, B, ...
type arity struct {
	N     int
	Types []string // "A", "B", ...
}

// Params returns "A, B any" for declarations.
func (a arity) Params() string { return strings.Join(a.Types, ", ") + " any" }

// Args returns "A, B" for instantiations.
func (a arity) Args() string { return strings.Join(a.Types, ", ") }

func main() {
	funcs := template.FuncMap{
		"lower": strings.ToLower,
		"add":   func(a, b int) int { return a + b },
		"sub":   func(a, b int) int { return a - b },
		"last":  func(s []string) string { return s[len(s)-1] },
		"tri":   func(n int) int { return n * (n - 1) / 2 }, // 0 + 1 + ... + n-1
	}
	tmpl := template.Must(template.New("").Funcs(funcs).ParseFS(templates, "*.tmpl"))
	outputs := []struct {
		template, file string
		data           any
	}{
		{"query.tmpl", "query_gen.go", arities(1, maxQueryArity)},
		{"map.tmpl", "map_gen.go", arities(2, maxMapArity)},
		// The tests of every arity, generated with the code they test.
		{"query_test.tmpl", "query_gen_test.go", arities(1, maxQueryArity)},
		{"map_test.tmpl", "map_gen_test.go", arities(2, maxMapArity)},
		// The differential test's drivers: up to the number of distinct
		// component kinds its harness has.
		{"differential_test.tmpl", "differential_gen_test.go", struct{ Maps, Queries []arity }{
			arities(2, maxDifferentialArity), arities(1, maxDifferentialArity)}},
	}
	for _, o := range outputs {
		var buf bytes.Buffer
		if err := tmpl.ExecuteTemplate(&buf, o.template, o.data); err != nil {
			fail(err)
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			os.WriteFile(o.file+".broken", buf.Bytes(), 0o644)
			fail(fmt.Errorf("%s: %w", o.file, err))
		}
		if err := os.WriteFile(o.file, src, 0o644); err != nil {
			fail(err)
		}
	}
}

// arities describes the generated types with from to to type parameters.
func arities(from, to int) []arity {
	var as []arity
	for n := from; n <= to; n++ {
		a := arity{N: n}
		for i := range n {
			a.Types = append(a.Types, string(rune('A'+i)))
		}
		as = append(as, a)
	}
	return as
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
