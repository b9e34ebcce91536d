package repocheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// The rule of TestUnsafeHasSafetyComment on small sources: which uses
// count, and which comments give them their reason. In each source, a
// line that ends with "// want" holds one use with no reason, and a line
// that ends with "// ok" one use with a reason.
func TestUnsafeRule(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"not uses", `
type slot struct{ p unsafe.Pointer }
func size(v *int64, s slot) (uintptr, unsafe.Pointer) {
	n := unsafe.Sizeof(*v) + unsafe.Alignof(*v) + unsafe.Offsetof(s.p)
	var q unsafe.Pointer = s.p
	return n, unsafe.Pointer(q)
}`},
		{"each kind of use", `
func uses(v *int64, s string, b []byte, p unsafe.Pointer) {
	_ = unsafe.Pointer(v) // want
	_ = (*int32)(p) // want
	_ = uintptr(p) // want
	_ = unsafe.Add(p, 1) // want
	_ = unsafe.Slice(&b[0], 1) // want
	_ = unsafe.SliceData(b) // want
	_ = unsafe.String(&b[0], 1) // want
	_ = unsafe.StringData(s) // want
}`},
		{"operands of unknown type", `
import "example.com/missing"
func g() {
	_ = (*int32)(missing.Pointer()) // want
	_ = uintptr(missing.Word()) // want
	_ = int(missing.Word())
}`},
		{"where the reason may be", `
// SAFETY: a doc comment is for the function's users.
func f(p unsafe.Pointer, n int) {
	_ = (*int32)(p) // want
	_ = (*int32)(p) // SAFETY: trailing. ok

	// A comment block
	// SAFETY: just above, after another line.
	_ = (*int32)(p) // ok
	_ = (*int32)(p) // ok: same paragraph
	x := 1
	_ = (*int32)(p) // ok: same paragraph still

	_ = (*int32)(p) // want: after a blank line
	// Not a reason.
	_ = (*int32)(p) // want: after another comment
	_ = x

	// SAFETY: above an enclosing statement.
	for range n {
		if n > 1 {
			_ = (*int32)(p) // ok
		}
	}
	// SAFETY: above the statement that holds a function literal.
	g := func() { _ = (*int32)(p) } // ok
	_ = g
	// SAFETY (test): the tests' form.
	_ = (*int32)(p) // ok
	// safety: lower case is not the form.
	_ = (*int32)(p) // want
	_ = x // SAFETY: about x, not the use below.

	_ = (*int32)(p) // want
	switch {
	// SAFETY: above a case clause.
	case n > 0:
		_ = (*int32)(p) // ok
	case n < 0:
		_ = (*int32)(p) // want: a case clause is a paragraph
	default:
		// SAFETY: above a statement of a case clause.
		_ = (*int32)(p) // ok
	}
	{
		_ = (*int32)(p) // want: a block is no reason
	}
	// SAFETY: above a block.
	{
		_ = (*int32)(p) // ok
	}
}

// SAFETY: above a declaration outside a function.
var v = unsafe.Pointer(new(int)) // ok
var w = unsafe.Pointer(new(int)) // want`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "package p\n\nimport \"unsafe\"\n" + tc.src + "\n"
			missing := strings.Contains(src, "example.com/missing")
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
			conf := types.Config{Importer: &unsafeChecker{}, Error: func(error) {}}
			if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil && !missing {
				t.Fatal(err)
			}
			got := map[int]string{} // line -> "want" or "ok"
			for _, u := range unsafeUses(f, info) {
				line := fset.Position(u.expr.Pos()).Line
				if _, dup := got[line]; dup {
					t.Fatalf("line %d: two uses", line)
				}
				got[line] = "ok"
				if !hasSafetyComment(fset, f, u) {
					got[line] = "want"
				}
			}
			for i, text := range strings.Split(src, "\n") {
				want := ""
				if _, c, ok := strings.Cut(text, "// "); ok && (strings.HasPrefix(c, "want") || strings.HasSuffix(c, "ok") || strings.HasPrefix(c, "ok")) {
					want = "ok"
					if strings.HasPrefix(c, "want") {
						want = "want"
					}
				}
				if got[i+1] != want {
					t.Errorf("line %d %q: got %q, want %q", i+1, strings.TrimSpace(text), got[i+1], want)
				}
			}
		})
	}
}
