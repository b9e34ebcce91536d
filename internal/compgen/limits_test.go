package compgen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// guard is how long a call of these tests may take: each takes a small
// part of a second (some once ran for very long, or out of memory), and
// the margin keeps a loaded machine from failing them.
const guard = 3 * time.Second

// parseErrors parses the files within the guard and returns the problems,
// failing the test when there are none.
func parseErrors(t *testing.T, files ...File) string {
	t.Helper()
	var errs Errors
	testhelp.FinishesWithin(t, guard, "Parse", func() { _, errs = Parse(files...) })
	if len(errs) == 0 {
		t.Fatal("no error")
	}
	return errs.Error()
}

// oneField is a definition file of one component A with one field F of
// type typ and, unless "", the default def.
func oneField(typ, def string) File {
	field := fmt.Sprintf(`{"name": "F", "type": %q`, typ)
	if def != "" {
		field += `, "default": ` + def
	}
	return File{"x.json", []byte(`{"package": "p", "components": [{"name": "A", "fields": [
` + field + "}]}]}")}
}

// wantError fails the test unless got, the problems, starts with want.
func wantError(t *testing.T, got, want string) {
	t.Helper()
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%.600s\nwant it to start with\n%s", got, want)
	}
}

// TestDeepTypesRefused: a type string nested past MaxTypeDepth is refused
// at its place in time linear in its length (3000 levels of [] once cost
// time and memory quadratic in the depth; 10000 of [1] ran out of memory).
func TestDeepTypesRefused(t *testing.T) {
	for _, c := range []struct{ prefix, want string }{
		{"[]", `x.json:2:23: field F: type "[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]"... (6005 bytes): ` +
			"more than 63 levels of [] and [N]: with the field, its values would nest deeper than 64 levels (compgen.MaxTypeDepth)"},
		{"[1]", `x.json:2:23: field F: type "[1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1]"... (30005 bytes): ` +
			"more than 63 levels of [] and [N]"},
	} {
		n := map[string]int{"[]": 3000, "[1]": 10000}[c.prefix]
		wantError(t, parseErrors(t, oneField(strings.Repeat(c.prefix, n)+"int32", "")), c.want)
	}
	// At the limit: 63 levels of [] and the field make 64.
	if _, errs := Parse(oneField(strings.Repeat("[]", 63)+"int32", "")); errs != nil {
		t.Errorf("63 levels of []: %v", errs)
	}
	wantError(t, parseErrors(t, oneField(strings.Repeat("[]", 64)+"int32", "")), "x.json:2:23: field F: type")
}

// TestDeepComponentsRefused: components held by value add their levels:
// a field too deep through another component is reported once, at the
// field that crosses the limit.
func TestDeepComponentsRefused(t *testing.T) {
	src := `{"package": "p", "components": [
{"name": "Outer", "fields": [{"name": "In", "type": "[]Inner"}]},
{"name": "Inner", "fields": [{"name": "Deep", "type": "[]Leaf"}]},
{"name": "Leaf", "fields": [{"name": "V", "type": "` + strings.Repeat("[]", 62) + `uint8"}]},
{"name": "Fine", "fields": [{"name": "L", "type": "Leaf"}]}]}`
	got := parseErrors(t, File{"x.json", []byte(src)})
	want := "x.json:3:30: component Inner: field Deep nests its values 65 levels deep (one for the field, each [] and [N], and each component held), " +
		"more than 64 (compgen.MaxTypeDepth): ecs.World.Load refuses such a type"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTooManyComponents: 400,000 components (a 9 MB file, which ran out
// of memory) are refused for the file's size, at the byte past the
// limit; 5000 in a smaller file at the first one past MaxComponents.
func TestTooManyComponents(t *testing.T) {
	const head = "{\"package\": \"p\", \"components\": [\n"
	line := func(i int) string { return fmt.Sprintf("{\"name\": \"C%06d\"},\n", i) } // 21 bytes
	build := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(head)
		for i := range n {
			b.WriteString(line(i))
		}
		b.WriteString("{\"name\": \"Last\"}]}\n")
		return b.Bytes()
	}
	data := build(400_000)
	lineLen := len(line(0))
	off := MaxFileBytes - len(head)
	want := fmt.Sprintf("x.json:%d:%d: the file is larger than 4194304 bytes (compgen.MaxFileBytes); not read", 2+off/lineLen, 1+off%lineLen)
	if got := parseErrors(t, File{"x.json", data}); got != want {
		t.Errorf("400,000 components:\n got %s\nwant %s", got, want)
	}

	data = build(5000)
	want = fmt.Sprintf("x.json:%d:1: more than 4096 components (compgen.MaxComponents); this one and the rest are not read", 2+MaxComponents)
	if got := parseErrors(t, File{"x.json", data}); got != want {
		t.Errorf("5000 components:\n got %s\nwant %s", got, want)
	}
}

// TestHugeDefaults: a default of 25,000,000 elements (50 MB, which ran
// out of memory) is refused for the file's size; one of 600,000 in a
// 1.2 MB file at the first value past MaxValues.
func TestHugeDefaults(t *testing.T) {
	// The default's first element, and the column of a byte of line 2.
	build := func(n int) (f File, first int, col func(int) int) {
		f = oneField("[]uint8", "["+strings.Repeat("0,", n-1)+"0]")
		line2 := bytes.IndexByte(f.Data, '\n') + 1
		return f, bytes.LastIndex(f.Data, []byte(`"default": [`)) + len(`"default": [`), func(off int) int { return off - line2 + 1 }
	}
	f, _, col := build(25_000_000)
	want := fmt.Sprintf("x.json:2:%d: the file is larger than 4194304 bytes (compgen.MaxFileBytes); not read", col(MaxFileBytes))
	if got := parseErrors(t, f); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}

	// Ten values come before the default's elements: the file, "p", the
	// components, A, its name, its fields, F, its name, its type and the
	// default itself; so the element past the limit is the
	// (MaxValues-10)th from 0, two bytes each.
	f, first, col := build(600_000)
	want = fmt.Sprintf("x.json:2:%d: more than 524288 JSON values in one file (compgen.MaxValues)", col(first+2*(MaxValues-10)))
	if got := parseErrors(t, f); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// TestCountLimits: fields, archetypes, names and the list of problems
// have their limits too, each reported at its place.
func TestCountLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"package": "p", "components": [{"name": "A", "fields": [` + "\n")
	for i := range MaxFields + 5 {
		fmt.Fprintf(&b, "{\"name\": \"F%04d\", \"type\": \"int8\"},\n", i)
	}
	b.WriteString(`{"name": "Last", "type": "int8"}]}], "archetypes": [` + "\n")
	for i := range MaxArchetypes + 5 {
		fmt.Fprintf(&b, "{\"name\": \"R%04d\", \"components\": [\"A\"]},\n", i)
	}
	b.WriteString(`{"name": "` + strings.Repeat("N", 300) + `", "components": ["A"]}]}`)
	got := parseErrors(t, File{"x.json", []byte(b.String())})
	for _, want := range []string{
		fmt.Sprintf("x.json:%d:1: more than 1024 fields in one component (compgen.MaxFields)", 2+MaxFields),
		fmt.Sprintf("x.json:%d:1: more than 4096 archetypes (compgen.MaxArchetypes)", 2+MaxFields+6+MaxArchetypes),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%.2000s", want, got)
		}
	}
	if strings.Count(got, "\n") != 1 {
		t.Errorf("each limit is reported once; got\n%.2000s", got)
	}

	long := `{"package": "p", "components": [{"name": "` + strings.Repeat("N", 256) + `"}]}`
	wantError(t, parseErrors(t, File{"x.json", []byte(long)}), "x.json:1:33: component name of 256 bytes, longer than 255 (compgen.MaxNameBytes)")

	// 1500 problems: the first MaxErrors found, then the next with the
	// count of the rest.
	b.Reset()
	b.WriteString(`{"package": "p", "components": [`)
	for i := range 1500 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name": "lower%d"}`, i)
	}
	b.WriteString("]}")
	var errs Errors
	testhelp.FinishesWithin(t, guard, "Parse", func() { _, errs = Parse(File{"x.json", []byte(b.String())}) })
	if len(errs) != MaxErrors+1 || !strings.HasSuffix(errs[MaxErrors].Msg, "(and 499 more problems, not listed: compgen.MaxErrors)") {
		t.Errorf("%d problems, the last %v", len(errs), errs[len(errs)-1])
	}
}

// TestErrorsStayShort: a message names a long type, key or number cut,
// not whole: a default of many bad values with a long type printed the
// type once per value.
func TestErrorsStayShort(t *testing.T) {
	path := "example.com/" + strings.Repeat("p", 100_000)
	got := parseErrors(t, oneField("[]"+path+".T", "["+strings.Repeat("1,", 10_000)+"1]"))
	if len(got) > 200*MaxErrors {
		t.Errorf("%d bytes of messages", len(got))
	}
	wantError(t, got, `x.json:2:100055: default of A.F[]: a field of a Go type by import path ("example.com/pppppppppppppppppppppppppppppppppppppppppppppppp"... (100012 bytes).T) takes no default`)
}
