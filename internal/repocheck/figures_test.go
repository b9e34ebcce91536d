package repocheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No doc comment quotes a measured figure. Measured timings go out of date
// with the code and the machine, and godoc does not say how they were
// measured: they belong in the README's Performance section, with the
// command that measured them.
//
// A doc comment is a package's doc comment, or a comment attached to a
// declaration, a spec of one, a struct field or an interface method (its
// doc or its trailing comment), in a Go file of the repository that is
// neither a test file (Example functions included) nor generated ("Code
// generated ... DO NOT EDIT."). The programs under examples/ are held to
// the rule.
//
// A measured figure is a number followed by
//
//   - a unit of time: ns, µs, us, ms, s, sec, second(s), min, minute(s)
//     ("12.5 ns", "3µs", "1.2 ms");
//   - a unit per second or per operation ("40 MB/s", "12 ns/op",
//     "2 allocs/op");
//   - an x for a ratio ("1.85x", "0.41×"), or "times" after a number with a
//     decimal point ("3.3 times").
//
// A figure inside a phrase that matches one of the specifications below
// is not a measurement but a value the code is made with (a default, a
// period, a frame): it stays. Each specification must match somewhere.
func TestNoMeasuredFiguresInDocComments(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	used := make([]bool, len(specifications))
	docs := 0
	for _, rel := range goFiles(t, root) {
		if strings.HasSuffix(rel, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		for _, g := range docComments(f) {
			docs++
			for _, fig := range measuredFigures(g.Text(), used) {
				t.Errorf("%s:%d: a measured figure in a doc comment: %q (put it in README.md's Performance section, with its command)",
					filepath.ToSlash(rel), commentLine(fset, g, fig.at), fig.text)
			}
		}
	}
	if docs < 1000 {
		t.Errorf("found only %d doc comments", docs)
	}
	for i, s := range specifications {
		if !used[i] {
			t.Errorf("the specification %q (%s) matches no doc comment: drop it", s.re, s.why)
		}
	}
}

// specifications are the phrases whose figures are values the code is
// made with, not measurements.
var specifications = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`(?i:\b(every|after|default|up to))\s+\d+\s?(ms|s|seconds?)\b`), "a period, a delay, a default or a bound"},
	{regexp.MustCompile(`\b\d+\s?(ms|s|seconds?)\s+by\s+default\b`), "a default"},
	{regexp.MustCompile(`\b1/60\s+s\b`), "the fixed time step"},
	{regexp.MustCompile(`\b\d+\s?(ms|s)\s+at\s+60\s+ticks\s+a\s+second\b`), "a number of ticks at the tick rate"},
	{regexp.MustCompile(`\b16\.7\s+ms\s+frame\b`), "a frame at 60 frames a second"},
	{regexp.MustCompile(`\bto\s+\d+\s?(µs|ns)\s+from\s+a\s+(milli|micro)second\s+up\b`), "a rounding step"},
}

// figure is a measured figure found in a comment's text, at byte offset at.
type figure struct {
	text string
	at   int
}

// figurePattern matches a number and the unit that makes it a figure, in
// its first group: a number that does not follow a letter, a digit, a
// slash or a point ("float64s", "1/60 s" are not figures by it).
var figurePattern = regexp.MustCompile(`(?:^|[^\w/.])(\d+(?:[.,]\d+)*(?:` +
	`\s?[A-Za-zµμ]*/(?:s|sec|op)\b` + // per second, per operation
	`|\s?(?:ns|µs|μs|us|ms|s|sec|seconds?|min|minutes?)\b` + // time
	`|x\b|×` + // a ratio
	`|\.\d+\s+times\b))`) // a ratio in words

// measuredFigures returns the measured figures of text, marking in used
// the specifications that exempt one.
func measuredFigures(text string, used []bool) []figure {
	var figs []figure
	var exempt [][2]int
	for i, s := range specifications {
		for _, m := range s.re.FindAllStringIndex(text, -1) {
			used[i] = true
			exempt = append(exempt, [2]int{m[0], m[1]})
		}
	}
next:
	for _, m := range figurePattern.FindAllStringSubmatchIndex(text, -1) {
		lo, hi := m[2], m[3]
		for _, e := range exempt {
			if lo < e[1] && hi > e[0] {
				continue next
			}
		}
		figs = append(figs, figure{text[lo:hi], lo})
	}
	return figs
}

// docComments returns f's doc comments: the package's, and those of its
// declarations, specs, struct fields and interface methods.
func docComments(f *ast.File) []*ast.CommentGroup {
	var gs []*ast.CommentGroup
	add := func(g ...*ast.CommentGroup) {
		for _, c := range g {
			if c != nil {
				gs = append(gs, c)
			}
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			add(n.Doc)
			return false // a function's body has no doc comments
		case *ast.GenDecl:
			add(n.Doc)
		case *ast.TypeSpec:
			add(n.Doc, n.Comment)
		case *ast.ValueSpec:
			add(n.Doc, n.Comment)
		case *ast.ImportSpec:
			add(n.Doc, n.Comment)
		case *ast.Field:
			add(n.Doc, n.Comment)
		}
		return true
	})
	return gs
}

// commentLine returns the line of the byte at offset at of g.Text(): the
// text drops the comment markers, so the line is found by counting the
// text's newlines (a /* */ comment's first line may start later).
func commentLine(fset *token.FileSet, g *ast.CommentGroup, at int) int {
	return fset.Position(g.Pos()).Line + strings.Count(g.Text()[:at], "\n")
}

// The pattern and the specifications on phrases from this repository's
// history and on their look-alikes.
func TestMeasuredFigurePattern(t *testing.T) {
	for text, want := range map[string]string{
		"costs 1.05 against 0.67 ns per entity":        "0.67 ns",
		"about 0.4 µs and 3 small allocations":         "0.4 µs",
		"a tick of 250µs":                              "250µs",
		"1.2 ms":                                       "1.2 ms",
		"writes 40 MB/s":                               "40 MB/s",
		"12 ns/op and 2 allocs/op":                     "12 ns/op, 2 allocs/op",
		"1.85x the speed, 0.41x the memory":            "1.85x, 0.41x",
		"2× slower":                                    "2×",
		"takes 3.3 times as long":                      "3.3 times",
		"1,000 targets and 10,000 parents":             "",
		"float32s and float64s":                        "",
		"three times, 0x1F, 3x3 matrices":              "",
		"5 x 5 cells":                                  "",
		"O(relations + 3 x relationLimit)":             "",
		"a line every 5 s":                             "",
		"the [Wait] time (5 s by default)":             "",
		"rewinds up to 10 s":                           "",
		"the fixed time step: 1/60 s.":                 "",
		"under two ticks (33 ms at 60 ticks a second)": "",
		"inside a 16.7 ms frame":                       "",
		"a line every 5.5 s":                           "5.5 s",
		"about 5 s":                                    "5 s",
	} {
		var got []string
		for _, f := range measuredFigures(text, make([]bool, len(specifications))) {
			got = append(got, f.text)
		}
		if g := strings.Join(got, ", "); g != want {
			t.Errorf("%q: figures %q, want %q", text, g, want)
		}
	}
}
