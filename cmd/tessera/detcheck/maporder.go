package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// mapWhy says why map order makes results differ.
const mapWhy = "the order is random and changes from run to run, so whatever the loop feeds " +
	"(spawn order, entity ids, which value wins, float sums, output) can differ"

// checkRange reports ranging over a Go map, or over maps.Keys, maps.Values
// or maps.All, unless the body is order-independent (see orderIndependent).
func (c *checker) checkRange(r *ast.RangeStmt) {
	what := ""
	if t := c.pass.TypesInfo.TypeOf(r.X); t != nil {
		if _, ok := t.Underlying().(*types.Map); ok {
			what = "a Go map"
		}
	}
	if what == "" {
		call, ok := ast.Unparen(r.X).(*ast.CallExpr)
		if !ok {
			return
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "maps" ||
			fn.Name() != "Keys" && fn.Name() != "Values" && fn.Name() != "All" {
			return
		}
		what = "maps." + fn.Name()
	}
	if c.orderIndependent(r) {
		return
	}
	msg := "ranging over " + what + ": " + mapWhy + "; range over the sorted keys instead: " +
		"for _, k := range slices.Sorted(maps.Keys(m)) { v := m[k]; ... }"
	var fixes []analysis.SuggestedFix
	if what == "a Go map" {
		if fix, ok := c.sortedKeysFix(r); ok {
			fixes = append(fixes, fix)
		}
	}
	c.reportAt("maporder", r.Pos(), r.X.End(), msg, fixes...)
}

// orderIndependent reports whether the loop's result cannot depend on the
// order of its iterations, by a simple rule: it uses neither key nor value
// (for range m), or every statement of its body is one of
//
//   - delete(...);
//   - x++, x--, or x op= e on an integer x, with op one of + - | & ^;
//   - x = c, with c a constant (every iteration writes the same value);
//   - x := e, declaring variables that live for one iteration;
//   - m2[k] = e, where k is the loop's key (each key written once);
//   - s = append(s, ...), when the statement right after the loop sorts s
//     with a Sort function of package sort or slices;
//   - continue;
//   - an if statement whose init statement and branches hold only such
//     statements;
//   - a nested range loop that declares its variables (or has none) and
//     whose body holds only such statements;
//
// and no expression in them calls a function (conversions, the builtins
// len, cap, min, max, real, imag and complex, and side-effect-free functions
// of strconv, strings, unicode, unicode/utf8, math, math/bits, cmp and fmt's
// Sprint family are allowed).
func (c *checker) orderIndependent(r *ast.RangeStmt) bool {
	if isBlank(r.Key) && isBlank(r.Value) {
		return true
	}
	var key types.Object
	if id, ok := r.Key.(*ast.Ident); ok {
		key = c.pass.TypesInfo.ObjectOf(id)
	}
	var appended []types.Object
	if !c.commutes(r.Body.List, key, &appended) {
		return false
	}
	for _, s := range appended {
		if !c.sortedNext(r, s) {
			return false
		}
	}
	return true
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return e == nil || ok && id.Name == "_"
}

// commutes reports whether every statement of list is of the kinds that
// orderIndependent allows; it adds the slices that are appended to.
func (c *checker) commutes(list []ast.Stmt, key types.Object, appended *[]types.Object) bool {
	for _, s := range list {
		if !c.commutesStmt(s, key, appended) {
			return false
		}
	}
	return true
}

func (c *checker) commutesStmt(s ast.Stmt, key types.Object, appended *[]types.Object) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		return ok && c.isBuiltin(call.Fun, "delete") && c.callFree(call.Args...)
	case *ast.IncDecStmt:
		return isInteger(c.pass.TypesInfo.TypeOf(s.X)) && c.callFree(s.X)
	case *ast.BranchStmt:
		return s.Tok == token.CONTINUE && s.Label == nil
	case *ast.BlockStmt:
		return c.commutes(s.List, key, appended)
	case *ast.RangeStmt:
		// A nested loop: its key is not the outer key, so m2[k] = e in it
		// does not count as written once.
		return s.Tok != token.ASSIGN && c.callFree(s.X) && c.commutes(s.Body.List, key, appended)
	case *ast.IfStmt:
		if s.Init != nil && !c.commutesStmt(s.Init, key, appended) ||
			!c.callFree(s.Cond) || !c.commutes(s.Body.List, key, appended) {
			return false
		}
		return s.Else == nil || c.commutesStmt(s.Else, key, appended)
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			// Variables declared in the body live for one iteration.
			return c.callFree(s.Rhs...)
		}
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return false
		}
		lhs, rhs := s.Lhs[0], s.Rhs[0]
		if s.Tok == token.ASSIGN && c.isConstant(rhs) {
			return c.callFree(lhs) // every iteration writes the same value
		}
		switch s.Tok {
		case token.ADD_ASSIGN, token.SUB_ASSIGN, token.OR_ASSIGN, token.AND_ASSIGN, token.XOR_ASSIGN:
			return isInteger(c.pass.TypesInfo.TypeOf(lhs)) && c.callFree(lhs, rhs)
		case token.ASSIGN:
			if ix, ok := lhs.(*ast.IndexExpr); ok {
				isMap := false
				if t := c.pass.TypesInfo.TypeOf(ix.X); t != nil {
					_, isMap = t.Underlying().(*types.Map)
				}
				id, isIdent := ast.Unparen(ix.Index).(*ast.Ident)
				return isMap && isIdent && key != nil && c.pass.TypesInfo.ObjectOf(id) == key &&
					c.callFree(ix.X, rhs)
			}
			if id, ok := lhs.(*ast.Ident); ok {
				call, ok := rhs.(*ast.CallExpr)
				if !ok || !c.isBuiltin(call.Fun, "append") || len(call.Args) == 0 || !c.callFree(call.Args...) {
					return false
				}
				first, ok := call.Args[0].(*ast.Ident)
				obj := c.pass.TypesInfo.ObjectOf(id)
				if !ok || obj == nil || c.pass.TypesInfo.ObjectOf(first) != obj {
					return false
				}
				*appended = append(*appended, obj)
				return true
			}
		}
	}
	return false
}

// sortedNext reports whether the statement after the loop r sorts the
// slice variable s.
func (c *checker) sortedNext(r *ast.RangeStmt, s types.Object) bool {
	var stmt ast.Stmt = r
	k := 0
	if l, ok := c.parent(0).(*ast.LabeledStmt); ok {
		stmt, k = l, 1
	}
	var list []ast.Stmt
	switch p := c.parent(k).(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for i, x := range list {
		if x != stmt || i+1 == len(list) {
			continue
		}
		es, ok := list[i+1].(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return false
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil {
			return false
		}
		path, name := fn.Pkg().Path(), fn.Name()
		sorts := path == "slices" && strings.HasPrefix(name, "Sort") ||
			path == "sort" && (name == "Strings" || name == "Ints" || name == "Float64s" ||
				name == "Slice" || name == "SliceStable")
		id, ok := call.Args[0].(*ast.Ident)
		return sorts && ok && c.pass.TypesInfo.ObjectOf(id) == s
	}
	return false
}

// isBuiltin reports whether fun names the builtin function name.
func (c *checker) isBuiltin(fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// callFree reports whether the expressions call no function other than
// conversions, the builtins len, cap, min, max, real, imag and complex, and
// the pure functions of isPure, and hold no function literal.
func (c *checker) callFree(es ...ast.Expr) bool {
	free := true
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				free = false
			case *ast.CallExpr:
				if tv, ok := c.pass.TypesInfo.Types[n.Fun]; ok && tv.IsType() {
					return free
				}
				if fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func); ok && isPure(fn) {
					return free
				}
				id, ok := ast.Unparen(n.Fun).(*ast.Ident)
				if !ok {
					free = false
					break
				}
				switch b, _ := c.pass.TypesInfo.Uses[id].(*types.Builtin); {
				case b == nil:
					free = false
				case b.Name() == "len", b.Name() == "cap", b.Name() == "min", b.Name() == "max",
					b.Name() == "real", b.Name() == "imag", b.Name() == "complex":
				default:
					free = false
				}
			}
			return free
		})
	}
	return free
}

// isPure reports whether fn is a function (not a method) of a standard
// package whose functions have no side effects: strconv, strings, unicode,
// unicode/utf8, math, math/bits and cmp, and fmt's Sprint, Sprintf and
// Sprintln.
func isPure(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "strconv", "strings", "unicode", "unicode/utf8", "math", "math/bits", "cmp":
		return true
	case "fmt":
		return fn.Name() == "Sprint" || fn.Name() == "Sprintf" || fn.Name() == "Sprintln"
	}
	return false
}

func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
