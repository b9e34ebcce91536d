package detcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// fmaWhy says why a fusable multiply-add makes results differ.
const fmaWhy = "the Go spec lets the compiler fuse a product and an addition into one " +
	"multiply-add that rounds once instead of twice, and it does on arm64, ppc64le, s390x, " +
	"riscv64, loong64 and amd64 with GOAMD64=v3 but not on 386, wasm or plain amd64, " +
	"so the result differs by machine"

// checkMultiplyAdd reports x*y + z, z + x*y, x*y - z and z - x*y, with
// parentheses and signs around the product, on floats.
func (c *checker) checkMultiplyAdd(b *ast.BinaryExpr) {
	if b.Op != token.ADD && b.Op != token.SUB {
		return
	}
	if c.isConstant(b) || !c.fusable(c.pass.TypesInfo.TypeOf(b)) {
		return
	}
	for _, x := range []ast.Expr{b.X, b.Y} {
		if wrap, prod := c.bareProduct(x); prod != nil {
			c.reportProduct(wrap, prod, "is added to or subtracted from another value")
		} else {
			c.noteAddUse(x)
		}
	}
}

// checkAssignMultiplyAdd reports z += x*y and z -= x*y on floats.
func (c *checker) checkAssignMultiplyAdd(a *ast.AssignStmt) {
	if a.Tok != token.ADD_ASSIGN && a.Tok != token.SUB_ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return
	}
	if !c.fusable(c.pass.TypesInfo.TypeOf(a.Lhs[0])) {
		return
	}
	c.noteAddUse(a.Lhs[0])
	if wrap, prod := c.bareProduct(a.Rhs[0]); prod != nil {
		how := "is added to " + c.describe(a.Lhs[0]) + " by +="
		if a.Tok == token.SUB_ASSIGN {
			how = "is subtracted from " + c.describe(a.Lhs[0]) + " by -="
		}
		c.reportProduct(wrap, prod, how)
		return
	}
	c.noteAddUse(a.Rhs[0])
}

// reportProduct reports the bare product prod (wrap is what to wrap in a
// conversion: prod or a parenthesis around it) with a fix that wraps it.
func (c *checker) reportProduct(wrap ast.Expr, prod *ast.BinaryExpr, how string) {
	t := c.pass.TypesInfo.TypeOf(prod)
	name := c.typeName(t, prod.Pos())
	conv := "T"
	if name != "" {
		conv = name
	}
	msg := fmt.Sprintf("the product %s %s: %s; wrap the product in an explicit conversion, "+
		"which rounds it (the spec: a conversion prevents fusion): %s", c.describe(prod), how, fmaWhy, c.wrapped(conv, wrap))
	var fixes []analysis.SuggestedFix
	if name != "" {
		fixes = append(fixes, c.wrapFix(name, wrap))
	}
	c.report("fma", prod, msg, fixes...)
}

// wrapped returns the text of wrap wrapped in a conversion to conv.
func (c *checker) wrapped(conv string, wrap ast.Expr) string {
	s := c.text(wrap)
	if s == "" || len(s) > 40 {
		return conv + "(x*y)"
	}
	if _, ok := wrap.(*ast.ParenExpr); ok {
		return conv + s
	}
	return conv + "(" + s + ")"
}

// wrapFix wraps wrap in a conversion to the type named name.
func (c *checker) wrapFix(name string, wrap ast.Expr) analysis.SuggestedFix {
	edits := []analysis.TextEdit{{Pos: wrap.Pos(), End: wrap.Pos(), NewText: []byte(name + "(")},
		{Pos: wrap.End(), End: wrap.End(), NewText: []byte(")")}}
	if _, ok := wrap.(*ast.ParenExpr); ok {
		edits = edits[:1]
		edits[0].NewText = []byte(name)
	}
	return analysis.SuggestedFix{Message: "Wrap the product in a conversion to " + name, TextEdits: edits}
}

// describe returns the source text of e, shortened to about 40 bytes.
func (c *checker) describe(e ast.Expr) string {
	s := c.text(e)
	if s == "" || len(s) > 40 || strings.ContainsAny(s, "\n/") {
		s = types.ExprString(e)
	}
	if len(s) <= 40 {
		return s
	}
	r := []rune(s)
	return string(r[:min(len(r), 36)]) + "…"
}

// bareProduct returns the float product that e is, under parentheses and
// unary signs, and the expression to wrap in a conversion: the product, or
// the parenthesis just around it. It returns nil if e is not such a product
// or is constant.
func (c *checker) bareProduct(e ast.Expr) (wrap ast.Expr, prod *ast.BinaryExpr) {
	inner, wrap := unwrapSigns(e)
	if x, ok := inner.(*ast.BinaryExpr); ok && x.Op == token.MUL && !c.isConstant(x) && c.fusable(c.pass.TypesInfo.TypeOf(x)) {
		return wrap, x
	}
	return nil, nil
}

// unwrapSigns strips parentheses and unary + and - from e. It returns what
// is left, and the expression just below the last sign (e itself when
// there is none): the part a conversion must wrap to keep the sign outside.
func unwrapSigns(e ast.Expr) (inner, belowSign ast.Expr) {
	belowSign = e
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			if x.Op == token.SUB || x.Op == token.ADD {
				e = x.X
				belowSign = e
				continue
			}
		}
		return e, belowSign
	}
}

// isConstant reports whether e is a constant expression.
func (c *checker) isConstant(e ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil
}

// fusable reports whether t is a float type, or a type parameter whose
// type set holds one.
func (c *checker) fusable(t types.Type) bool {
	if t == nil {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return hasFloatTerm(tp.Constraint(), 0)
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// hasFloatTerm reports whether the constraint t lists a float type.
func hasFloatTerm(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		for i := range u.NumEmbeddeds() {
			if hasFloatTerm(u.EmbeddedType(i), depth+1) {
				return true
			}
		}
	case *types.Union:
		for i := range u.Len() {
			if hasFloatTerm(u.Term(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Basic:
		return u.Info()&types.IsFloat != 0
	}
	return false
}

// typeName returns how the file names t at pos (float32, a local type, a
// type of an imported package, a type parameter), or "" if it cannot.
func (c *checker) typeName(t types.Type, pos token.Pos) string {
	var obj *types.TypeName
	switch t := t.(type) {
	case *types.Basic:
		obj, _ = types.Universe.Lookup(t.Name()).(*types.TypeName)
	case *types.Named:
		if t.TypeArgs().Len() > 0 {
			return ""
		}
		obj = t.Obj()
	case *types.Alias:
		if t.TypeArgs().Len() > 0 {
			return ""
		}
		obj = t.Obj()
	case *types.TypeParam:
		obj = t.Obj()
	}
	if obj == nil {
		return ""
	}
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	if obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		if _, found := scope.LookupParent(obj.Name(), pos); found == obj {
			return obj.Name()
		}
		return ""
	}
	// A type of another package: find the file's name for that package.
	for _, imp := range c.file.Imports {
		pn := c.pass.TypesInfo.PkgNameOf(imp)
		if pn == nil || pn.Imported() != obj.Pkg() {
			continue
		}
		if pn.Name() == "." {
			if _, found := scope.LookupParent(obj.Name(), pos); found == obj {
				return obj.Name()
			}
			return ""
		}
		if _, found := scope.LookupParent(pn.Name(), pos); found == pn {
			return pn.Name() + "." + obj.Name()
		}
	}
	return ""
}
