package compgen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// generatedSize parses and generates src within the guard and returns the
// size of the code.
func generatedSize(t *testing.T, src string) int {
	t.Helper()
	var out []byte
	var errs Errors
	var err error
	testhelp.FinishesWithin(t, guard, "Parse and Generate", func() {
		var defs *Defs
		if defs, errs = Parse(File{"x.json", []byte(src)}); errs == nil {
			out, err = Generate(defs, []string{"x.json"})
		}
	})
	if errs != nil || err != nil {
		t.Fatalf("%v %v", errs, err)
	}
	return len(out)
}

// growth is how much the code grows from n to 2n, per unit, against how
// much it grows from 0 to n: 1 when the code is linear in n, and 3 when it
// is quadratic.
func growth(t *testing.T, n int, src func(n int) string) float64 {
	t.Helper()
	s0, s1, s2 := generatedSize(t, src(0)), generatedSize(t, src(n)), generatedSize(t, src(2*n))
	return float64(s2-s1) / float64(s1-s0)
}

// TestNestedTypesGenerateLinearCode: the code for a field nested d deep
// is linear in d up to the limit (63 levels of [] and [N]): the type
// names, index expressions and indentation written once per level do not
// grow with the level (they once did, so code grew with the square of the
// depth).
func TestNestedTypesGenerateLinearCode(t *testing.T) {
	for name, src := range map[string]func(d int) string{
		"slices": func(d int) string { return string(oneField(strings.Repeat("[]", 2*d)+"int32", "").Data) },
		"arrays": func(d int) string { return string(oneField(strings.Repeat("[1]", 2*d)+"int32", "").Data) },
		"mixed, of a component with slices": func(d int) string {
			return `{"package": "p", "components": [{"name": "S", "fields": [{"name": "L", "type": "[]string"}]},
				{"name": "A", "fields": [{"name": "F", "type": "` + strings.Repeat("[][2]", d) + `S"}]}]}`
		},
	} {
		if g := growth(t, 15, src); g > 1.2 {
			t.Errorf("%s: the code grows %.2f times faster from 30 to 60 levels than from 0 to 30: not linear", name, g)
		}
	}
}

// TestNestedComponentsGenerateLinearCode: components that each hold the
// next twice, with defaults and slices, generate code linear in their
// number: their defaults, Clone and codecs are worked out and written
// once per component (defaults copied into every use once made code
// exponential in the length of the chain).
func TestNestedComponentsGenerateLinearCode(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"package": "p", "components": [`)
		for i := range n {
			fmt.Fprintf(&b, `{"name": "C%d", "fields": [{"name": "A", "type": "C%d"}, {"name": "B", "type": "C%d", "default": {}}]},`, i, i+1, i+1)
		}
		fmt.Fprintf(&b, `{"name": "C%d", "fields": [{"name": "X", "type": "int32", "default": 1}, {"name": "S", "type": "[]string", "default": ["s"]}]}]}`, n)
		return b.String()
	}
	// Each component is a level deeper: 60 of them, and a slice, are as
	// deep as a component's values may nest.
	if g := growth(t, 30, chain); g > 1.2 {
		t.Errorf("the code grows %.2f times faster from 30 to 60 components than from 0 to 30: not linear", g)
	}
}

// TestLongDefaultsWrittenOnce: values that take a component's long
// defaults call DefaultX instead of repeating them, so the code is linear
// in the number of such values.
func TestLongDefaultsWrittenOnce(t *testing.T) {
	values := func(n int) string {
		elems := strings.TrimSuffix(strings.Repeat(`{"B": 1},`, n), ",")
		return `{"package": "p", "components": [
			{"name": "Big", "fields": [{"name": "A", "type": "[]int64", "default": [` + strings.Repeat("1000000,", 200) + `1]}, {"name": "B", "type": "int8"}]},
			{"name": "Many", "fields": [{"name": "V", "type": "[]Big", "default": [` + elems + `]}]}]}`
	}
	if g := growth(t, 500, values); g > 1.2 {
		t.Errorf("the code grows %.2f times faster from 500 to 1000 values than from 0 to 500: not linear", g)
	}
	if size := generatedSize(t, values(1000)); size > 100_000 {
		t.Errorf("1000 values of a component with long defaults make %d bytes of code: the defaults are repeated", size)
	}
}

// TestShortDefaultsWrittenInPlace: a value that takes short defaults
// writes them in place, in field order, around the fields it sets.
func TestShortDefaultsWrittenInPlace(t *testing.T) {
	out := generateString(t, `{"package": "p", "components": [
		{"name": "S", "fields": [{"name": "A", "type": "int8", "default": 1}, {"name": "B", "type": "int8"},
			{"name": "C", "type": "int8", "default": 3}, {"name": "D", "type": "int8", "default": 4}]},
		{"name": "H", "fields": [{"name": "X", "type": "S", "default": {"C": 9, "B": 8}}, {"name": "Y", "type": "[2]S", "default": [{"D": 0, "A": 7, "C": 5}]}]}]}`)
	want := "func DefaultH() H { return H{X: S{A: 1, B: 8, C: 9, D: 4}, Y: [2]S{S{A: 7, C: 5, D: 0}}} }"
	if !strings.Contains(out, want) {
		t.Errorf("the code lacks %s:\n%s", want, out)
	}
}
