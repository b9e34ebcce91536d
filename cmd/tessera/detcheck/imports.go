package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// importNames returns the names by which code at pos can refer to the
// standard packages paths, and the edits that import those the file lacks.
// It fails if a name is taken at pos by something else.
func (c *checker) importNames(pos token.Pos, paths ...string) (names []string, edits []analysis.TextEdit, ok bool) {
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return nil, nil, false
	}
	var missing []string
	for _, path := range paths {
		name := c.importedAs(path)
		if name == "" {
			name = path[strings.LastIndexByte(path, '/')+1:]
			if _, obj := scope.LookupParent(name, pos); obj != nil {
				return nil, nil, false
			}
			missing = append(missing, path)
		} else if _, obj := scope.LookupParent(name, pos); obj == nil {
			return nil, nil, false
		} else if pn, isPkg := obj.(*types.PkgName); !isPkg || pn.Imported().Path() != path {
			return nil, nil, false
		}
		names = append(names, name)
	}
	return names, c.addImports(missing), true
}

// importedAs returns the name under which the file imports path, or "".
func (c *checker) importedAs(path string) string {
	for _, imp := range c.file.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != path {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name == "_" || imp.Name.Name == "." {
				continue
			}
			return imp.Name.Name
		}
		return path[strings.LastIndexByte(path, '/')+1:]
	}
	return ""
}

// addImports returns the edits that import the standard packages paths:
// into the file's first parenthesised import declaration, among its
// standard-library imports in sorted order; else after its first import
// declaration; else after the package clause.
func (c *checker) addImports(paths []string) []analysis.TextEdit {
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	var decl *ast.GenDecl
	for _, d := range c.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			decl = gd
			break
		}
	}
	if decl == nil || !decl.Lparen.IsValid() {
		at := c.file.Name.End()
		if decl != nil {
			at = decl.End()
		}
		var b strings.Builder
		for _, p := range paths {
			b.WriteString("\n\nimport " + strconv.Quote(p))
		}
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(b.String())}}
	}
	// Group the new paths by where they go.
	type insert struct {
		pos    token.Pos
		before bool // before an existing import, else after one
		paths  []string
	}
	var inserts []*insert
	var std []*ast.ImportSpec
	for _, spec := range decl.Specs {
		is := spec.(*ast.ImportSpec)
		if p, err := strconv.Unquote(is.Path.Value); err == nil && !strings.Contains(strings.Split(p, "/")[0], ".") {
			std = append(std, is)
		}
	}
	for _, p := range paths {
		var in *insert
		for _, is := range std {
			if q, _ := strconv.Unquote(is.Path.Value); q > p {
				in = &insert{pos: is.Pos(), before: true}
				break
			}
		}
		if in == nil && len(std) > 0 {
			in = &insert{pos: std[len(std)-1].End()}
		}
		if in == nil {
			in = &insert{pos: decl.Specs[0].Pos(), before: true}
		}
		if n := len(inserts); n > 0 && inserts[n-1].pos == in.pos {
			in = inserts[n-1]
		} else {
			inserts = append(inserts, in)
		}
		in.paths = append(in.paths, p)
	}
	var edits []analysis.TextEdit
	for _, in := range inserts {
		var b strings.Builder
		for _, p := range in.paths {
			if in.before {
				b.WriteString(strconv.Quote(p) + "\n\t")
			} else {
				b.WriteString("\n\t" + strconv.Quote(p))
			}
		}
		if in.before && len(std) == 0 {
			b.WriteString("\n\t")
		}
		edits = append(edits, analysis.TextEdit{Pos: in.pos, End: in.pos, NewText: []byte(b.String())})
	}
	return edits
}
