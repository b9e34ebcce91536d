package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/analysis"
)

// sortedKeysFix rewrites for k, v := range m into
// for _, k := range slices.Sorted(maps.Keys(m)) { v := m[k]. It offers the
// fix only when that does the same work in sorted order: k is declared by
// the loop and has an integer or string type (not float: NaN keys cannot be
// looked up), m is a variable or a field path (evaluating it again gives the
// same map), the body neither deletes from m, clears it nor writes it, and
// the file's Go version has slices.Sorted and maps.Keys (go1.23).
func (c *checker) sortedKeysFix(r *ast.RangeStmt) (analysis.SuggestedFix, bool) {
	var none analysis.SuggestedFix
	key, ok := r.Key.(*ast.Ident)
	if !ok || key.Name == "_" || r.Tok != token.DEFINE || !isPath(r.X) {
		return none, false
	}
	kt := c.pass.TypesInfo.TypeOf(key)
	if kt == nil {
		return none, false
	}
	if b, ok := kt.Underlying().(*types.Basic); !ok || b.Info()&(types.IsInteger|types.IsString) == 0 {
		return none, false
	}
	if v := c.pass.TypesInfo.FileVersions[c.file]; v != "" && version.Compare(v, "go1.23") < 0 {
		return none, false
	}
	if c.writesMap(r.Body, r.X) {
		return none, false
	}
	names, importEdits, ok := c.importNames(r.Pos(), "maps", "slices")
	if !ok {
		return none, false
	}
	m := types.ExprString(r.X)
	edits := []analysis.TextEdit{{
		Pos:     r.Key.Pos(),
		End:     r.X.End(),
		NewText: []byte("_, " + key.Name + " := range " + names[1] + ".Sorted(" + names[0] + ".Keys(" + m + "))"),
	}}
	if v, ok := r.Value.(*ast.Ident); ok && v.Name != "_" {
		if declares(r.Body, v.Name) {
			return none, false
		}
		edits = append(edits, analysis.TextEdit{
			Pos:     r.Body.Lbrace + 1,
			End:     r.Body.Lbrace + 1,
			NewText: []byte("\n" + c.indent(r.Pos()) + "\t" + v.Name + " := " + m + "[" + key.Name + "]"),
		})
	}
	edits = append(edits, importEdits...)
	return analysis.SuggestedFix{Message: "Range over the sorted keys", TextEdits: edits}, true
}

// declares reports whether a statement of block (not of a nested block)
// declares name.
func declares(block *ast.BlockStmt, name string) bool {
	for _, s := range block.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				continue
			}
			for _, lhs := range s.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name == name {
					return true
				}
			}
		case *ast.DeclStmt:
			gd, ok := s.Decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch spec := spec.(type) {
				case *ast.ValueSpec:
					for _, id := range spec.Names {
						if id.Name == name {
							return true
						}
					}
				case *ast.TypeSpec:
					if spec.Name.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// isPath reports whether e is a variable or a chain of field selections.
func isPath(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return false
		}
	}
}

// writesMap reports whether body deletes from, clears, assigns or writes an
// element of the map written m.
func (c *checker) writesMap(body *ast.BlockStmt, m ast.Expr) bool {
	want := types.ExprString(m)
	same := func(e ast.Expr) bool { return types.ExprString(ast.Unparen(e)) == want }
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if (c.isBuiltin(n.Fun, "delete") || c.isBuiltin(n.Fun, "clear")) && len(n.Args) > 0 && same(n.Args[0]) {
				found = true
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && same(ix.X) || same(lhs) {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && same(n.X) {
				found = true
			}
		}
		return !found
	})
	return found
}

// indent returns the blanks that begin the line of pos.
func (c *checker) indent(pos token.Pos) string {
	if c.src == nil {
		return ""
	}
	start := c.tok.Offset(c.tok.LineStart(c.tok.Line(pos)))
	end := start
	for end < len(c.src) && (c.src[end] == '\t' || c.src[end] == ' ') {
		end++
	}
	return string(c.src[start:end])
}
