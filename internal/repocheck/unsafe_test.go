package repocheck

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every use of package unsafe that needs a reason has a "// SAFETY:"
// comment saying why it is sound. Test files are held to the rule too.
//
// A use that needs a reason is:
//
//   - a call of unsafe.Add, unsafe.Slice, unsafe.SliceData, unsafe.String
//     or unsafe.StringData (pointer arithmetic, and memory read as another
//     shape);
//   - a conversion to unsafe.Pointer of a value of another type (a pointer
//     or a uintptr);
//   - a conversion of an unsafe.Pointer to another type ((*T)(p), uintptr(p)).
//
// The types come from go/types: the repository's packages are checked
// from source (the files of every build configuration together), the
// standard library's are read from the go command's export data, and
// other modules' (the nested modules' dependencies) are not loaded. A
// conversion whose operand's type is therefore unknown counts if it
// converts to a pointer type or to uintptr in a file that imports unsafe,
// so that no use goes unseen for want of a type. Not counted: unsafe.Sizeof,
// unsafe.Alignof and unsafe.Offsetof (constants, computed by the compiler),
// and unsafe.Pointer named as a type (a field, a parameter, a variable):
// such values are only passed around, and are turned into something else
// only by a conversion, which counts.
//
// A use has its reason if a comment group with a line that begins
// "SAFETY:" (or "SAFETY (test):", "SAFETY (benchmark):")
//
//   - starts on a line from the first line of the innermost statement that
//     holds the use to the use's own line (a trailing comment, or one
//     inside the statement before the use); or
//   - ends on the line just above a statement that holds the use (the
//     innermost or one enclosing it, in the same function or outside a
//     function literal that holds it; a case clause is a statement), or
//     just above the first statement of that statement's paragraph: the
//     statements of a block that follow one another with no blank line or
//     comment line between them (case clauses are each a paragraph); or
//   - ends on the line just above the declaration, or the spec of a
//     declaration, that holds a use outside any function.
//
// A function's doc comment does not count: it is for the function's users.
func TestUnsafeHasSafetyComment(t *testing.T) {
	root := repoRoot(t)
	c := newUnsafeChecker(t, root)
	if n := len(c.groups); n < 20 {
		t.Fatalf("found only %d packages under %s", n, root)
	}
	var keys []pkgKey
	for k := range c.groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b pkgKey) int { return strings.Compare(a.dir+" "+a.name, b.dir+" "+b.name) })
	uses := 0
	for _, k := range keys {
		info := c.check(k)
		for _, f := range c.groups[k] {
			found := unsafeUses(f, info)
			uses += len(found)
			var missing []string // the uses with no reason on the line of found[i]
			for i, u := range found {
				if !hasSafetyComment(c.fset, f, u) {
					missing = append(missing, u.what)
				}
				pos := c.fset.Position(u.expr.Pos())
				if len(missing) > 0 && (i+1 == len(found) || c.fset.Position(found[i+1].expr.Pos()).Line != pos.Line) {
					rel, _ := filepath.Rel(root, pos.Filename)
					t.Errorf("%s:%d: no // SAFETY: comment on the statement or just above it for %s",
						filepath.ToSlash(rel), pos.Line, strings.Join(missing, "; "))
					missing = missing[:0]
				}
			}
		}
	}
	// The repository converts through unsafe in hundreds of places: finding
	// few means the check lost its way (the types went missing).
	if uses < 200 {
		t.Errorf("found only %d uses of unsafe that need a reason", uses)
	}
	t.Logf("%d uses of unsafe that need a reason, in %d packages", uses, len(keys))
}

// pkgKey names the files of one package: those in a folder with the same
// package clause ("ecs" with its in-package tests, or "ecs_test").
type pkgKey struct{ dir, name string }

// unsafeChecker type-checks the repository's packages from source: the
// standard library's packages are read from the go command's export data,
// the repository's own are checked on demand, and other modules' are left
// unknown (their identifiers get invalid types, and errors are ignored).
type unsafeChecker struct {
	t       *testing.T
	root    string
	fset    *token.FileSet
	groups  map[pkgKey][]*ast.File
	main    map[string]pkgKey // import path -> the package other packages import
	infos   map[pkgKey]*types.Info
	pkgs    map[string]*types.Package
	busy    map[string]bool
	std     types.Importer
	exports map[string]string // standard import path -> export data file
}

func newUnsafeChecker(t *testing.T, root string) *unsafeChecker {
	c := &unsafeChecker{
		t: t, root: root, fset: token.NewFileSet(),
		groups: map[pkgKey][]*ast.File{}, main: map[string]pkgKey{},
		infos: map[pkgKey]*types.Info{}, pkgs: map[string]*types.Package{}, busy: map[string]bool{},
	}
	std := map[string]bool{}
	for _, rel := range goFiles(t, root) {
		f, err := parser.ParseFile(c.fset, filepath.Join(root, rel), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		k := pkgKey{filepath.Dir(rel), f.Name.Name}
		c.groups[k] = append(c.groups[k], f)
		if !strings.HasSuffix(rel, "_test.go") && !strings.HasSuffix(k.name, "_test") {
			if old, ok := c.main[importPath(k.dir)]; !ok || len(c.groups[k]) > len(c.groups[old]) {
				c.main[importPath(k.dir)] = k
			}
		}
		for _, s := range f.Imports {
			p := strings.Trim(s.Path.Value, `"`)
			if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") && p != "C" && p != "unsafe" {
				std[p] = true
			}
		}
	}
	c.exports = c.exportData(slices.Sorted(maps.Keys(std)))
	c.std = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := c.exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	return c
}

// exportData asks the go command where the export data of the standard
// packages paths is, building it if need be.
func (c *unsafeChecker) exportData(paths []string) map[string]string {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		c.t.Fatalf("the go command is needed to load the standard library's types: %v", err)
	}
	cmd := exec.Command(goCmd, append([]string{"list", "-e", "-export", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...)...)
	cmd.Dir = c.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		c.t.Fatalf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok {
			m[path] = file
		}
	}
	if m["reflect"] == "" {
		c.t.Fatalf("go list -export gave no export data for reflect:\n%s%s", out, stderr.Bytes())
	}
	return m
}

// Import gives go/types the package at path.
func (c *unsafeChecker) Import(path string) (*types.Package, error) {
	switch {
	case path == "unsafe":
		return types.Unsafe, nil
	case path == modulePath || strings.HasPrefix(path, modulePath+"/"):
		k, ok := c.main[path]
		if !ok || c.busy[path] {
			return nil, fmt.Errorf("cannot import %s", path)
		}
		c.check(k)
		return c.pkgs[path], nil
	case c.std == nil:
		return nil, fmt.Errorf("no standard library to import %s from", path)
	default:
		return c.std.Import(path)
	}
}

// check type-checks the package k once and returns its types.
func (c *unsafeChecker) check(k pkgKey) *types.Info {
	if info, ok := c.infos[k]; ok {
		return info
	}
	path := importPath(k.dir)
	if strings.HasSuffix(k.name, "_test") {
		path += "_test"
	}
	c.busy[path] = true
	defer delete(c.busy, path)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: c, FakeImportC: true, Error: func(error) {}}
	pkg, _ := conf.Check(path, c.fset, c.groups[k], info) // errors: build tags, other modules
	if c.main[path] == k {
		c.pkgs[path] = pkg
	}
	c.infos[k] = info
	return info
}

// unsafeUse is one use of unsafe that needs a reason, with the nodes that
// enclose it, outermost first.
type unsafeUse struct {
	expr  ast.Expr
	what  string
	stack []ast.Node
}

// unsafeUses returns the uses in f that need a reason, by the rule of
// TestUnsafeHasSafetyComment.
func unsafeUses(f *ast.File, info *types.Info) []unsafeUse {
	importsUnsafe := false
	for _, s := range f.Imports {
		importsUnsafe = importsUnsafe || s.Path.Value == `"unsafe"`
	}
	var uses []unsafeUse
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if what := unsafeCall(call, info, importsUnsafe); what != "" {
			uses = append(uses, unsafeUse{call, what, slices.Clone(stack)})
		}
		return true
	})
	return uses
}

// unsafeCall says what call is if it is a use that needs a reason, and
// returns "" otherwise.
func unsafeCall(call *ast.CallExpr, info *types.Info, importsUnsafe bool) string {
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported() == types.Unsafe {
				switch sel.Sel.Name {
				case "Add", "Slice", "SliceData", "String", "StringData":
					return "unsafe." + sel.Sel.Name
				}
			}
		}
	}
	fun, ok := info.Types[call.Fun]
	if !ok || !fun.IsType() || len(call.Args) != 1 {
		return ""
	}
	to := fun.Type
	from := info.Types[call.Args[0]].Type
	switch {
	case isUnsafePointer(to) && !isUnsafePointer(from):
		return fmt.Sprintf("a conversion of %s to unsafe.Pointer", typeName(from))
	case isUnsafePointer(from) && !isUnsafePointer(to):
		return fmt.Sprintf("a conversion of unsafe.Pointer to %s", typeName(to))
	case importsUnsafe && (from == nil || from == types.Typ[types.Invalid]) && pointerOrUintptr(to):
		return fmt.Sprintf("a conversion to %s of a value of unknown type", typeName(to))
	}
	return ""
}

func isUnsafePointer(t types.Type) bool {
	return t != nil && t.Underlying() == types.Typ[types.UnsafePointer]
}

func pointerOrUintptr(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ptr := t.Underlying().(*types.Pointer)
	return ptr || t.Underlying() == types.Typ[types.Uintptr]
}

func typeName(t types.Type) string {
	if t == nil {
		return "a value of unknown type"
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// safetyLine matches a comment line that gives a reason: "SAFETY:", or
// "SAFETY (test):" and the like in tests and benchmarks.
var safetyLine = regexp.MustCompile(`(?m)^SAFETY( \([a-z]+\))?:`)

// hasSafetyComment reports whether u has its reason, by the rule of
// TestUnsafeHasSafetyComment.
func hasSafetyComment(fset *token.FileSet, f *ast.File, u unsafeUse) bool {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var safety [][2]int // first and last line of each SAFETY comment group
	for _, g := range f.Comments {
		if safetyLine.MatchString(g.Text()) {
			safety = append(safety, [2]int{line(g.Pos()), line(g.End())})
		}
	}
	above := func(n ast.Node) bool {
		for _, s := range safety {
			if s[1] == line(n.Pos())-1 {
				return true
			}
		}
		return false
	}
	useLine := line(u.expr.Pos())
	innermost := true
	for i := len(u.stack) - 1; i >= 0; i-- {
		switch n := u.stack[i].(type) {
		case *ast.BlockStmt:
			// A function's body is not a statement of its own; a block
			// in a list of statements is, and a block that is an if's or
			// a loop's body is covered by the if or the loop.
			switch u.stack[i-1].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				if above(n) || above(paragraphHead(fset, u.stack[i-1], n)) {
					return true
				}
			}
		case ast.Stmt:
			if innermost {
				innermost = false
				for _, s := range safety {
					if s[0] >= line(n.Pos()) && s[0] <= useLine {
						return true
					}
				}
			}
			if above(n) || above(paragraphHead(fset, u.stack[i-1], n)) {
				return true
			}
		case *ast.ValueSpec, *ast.TypeSpec:
			if above(n) {
				return true
			}
		case ast.Decl:
			if _, fn := n.(*ast.FuncDecl); !fn && above(n) {
				return true
			}
		}
	}
	return false
}

// paragraphHead returns the first statement of the paragraph of s in its
// parent block: s, or the first of the statements before it that each
// start on the line after the one before ends.
func paragraphHead(fset *token.FileSet, parent ast.Node, s ast.Stmt) ast.Stmt {
	var list []ast.Stmt
	switch p := parent.(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	switch s.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return s
	}
	i := slices.Index(list, s)
	for i > 0 && fset.Position(list[i].Pos()).Line == fset.Position(list[i-1].End()).Line+1 {
		i--
	}
	if i < 0 {
		return s
	}
	return list[i]
}
