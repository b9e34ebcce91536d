package detcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// productSite is where a local variable is given a bare float product:
// t := x*y (prod and wrap set) or t *= y (only stmt set).
type productSite struct {
	wrap  ast.Expr
	prod  *ast.BinaryExpr
	stmt  ast.Node
	used  token.Pos // the first addition that sees the product, if any
	world int       // the checker's world count at the site
}

// varEvent is an assignment to a local float variable (def, with site set
// if it assigns a bare product) or its use as an operand of an addition.
type varEvent struct {
	pos  token.Pos // for a def, where it takes effect: the end of its statement
	def  bool
	site *productSite
}

// collectProductVars records the assignments to local float variables, and
// which of them assign a bare product (t := x*y, t = x*y, t *= y). The
// compiler keeps such a variable in a register and may fuse the product
// into a later t + z, "possibly across statements" as the spec says:
// rounding happens at an explicit conversion, not at an assignment.
func (c *checker) collectProductVars(a *ast.AssignStmt) {
	for i, lhs := range a.Lhs {
		v := c.localVar(lhs)
		if v == nil || !c.fusable(v.Type()) {
			continue
		}
		var site *productSite
		switch a.Tok {
		case token.DEFINE, token.ASSIGN:
			if len(a.Lhs) == len(a.Rhs) {
				if wrap, prod := c.bareProduct(a.Rhs[i]); prod != nil {
					site = &productSite{wrap: wrap, prod: prod, world: c.world}
				}
			}
		case token.MUL_ASSIGN:
			site = &productSite{stmt: a, world: c.world}
		}
		c.addVarEvent(v, varEvent{pos: a.End(), def: true, site: site})
	}
}

// collectProductSpec records var t = x*y and other var declarations.
func (c *checker) collectProductSpec(s *ast.ValueSpec) {
	for i, name := range s.Names {
		v := c.localVar(name)
		if v == nil || !c.fusable(v.Type()) {
			continue
		}
		var site *productSite
		if len(s.Names) == len(s.Values) {
			if wrap, prod := c.bareProduct(s.Values[i]); prod != nil {
				site = &productSite{wrap: wrap, prod: prod, world: c.world}
			}
		}
		c.addVarEvent(v, varEvent{pos: s.End(), def: true, site: site})
	}
}

// noteIncDec records x++ and x-- on a float variable: an addition that
// uses x, then an assignment.
func (c *checker) noteIncDec(s *ast.IncDecStmt) {
	if v := c.localVar(s.X); v != nil && c.fusable(v.Type()) {
		c.addVarEvent(v, varEvent{pos: s.X.Pos()})
		c.addVarEvent(v, varEvent{pos: s.End(), def: true})
	}
}

func (c *checker) addVarEvent(v *types.Var, e varEvent) {
	if _, seen := c.varEvents[v]; !seen {
		c.varOrder = append(c.varOrder, v)
	}
	c.varEvents[v] = append(c.varEvents[v], e)
}

// noteAddUse records that e, if a local variable, is an operand of a float
// addition or subtraction.
func (c *checker) noteAddUse(e ast.Expr) {
	e, _ = unwrapSigns(e)
	if v := c.localVar(e); v != nil && c.fusable(v.Type()) {
		c.addVarEvent(v, varEvent{pos: e.Pos()})
	}
}

// localVar returns the variable e names if it is a function's variable or
// parameter (not a field, not a package-level variable).
func (c *checker) localVar(e ast.Expr) *types.Var {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// reportProductVars reports the product assignments whose value reaches an
// addition; it runs after the walk, so it restores the world count of each
// site while reporting it. It follows the source order: a use sees the last assignment
// above it (so a product assigned later in a loop, or in one branch of an
// if above another assignment, is not followed).
func (c *checker) reportProductVars() {
	for _, v := range c.varOrder {
		events := c.varEvents[v]
		sort.SliceStable(events, func(i, j int) bool { return events[i].pos < events[j].pos })
		var cur *productSite
		var sites []*productSite
		for _, e := range events {
			switch {
			case e.def:
				cur = e.site
				if cur != nil {
					sites = append(sites, cur)
				}
			case cur != nil && !cur.used.IsValid():
				cur.used = e.pos
			}
		}
		for _, s := range sites {
			if !s.used.IsValid() {
				continue
			}
			c.world = s.world
			line := c.pass.Fset.Position(s.used).Line
			if s.prod == nil {
				c.report("fma", s.stmt, fmt.Sprintf("%s *= makes %s a product, and %s is added to or "+
					"subtracted from at line %d, possibly fused across statements: %s; "+
					"round the product explicitly: %s = %s(%s * y)",
					v.Name(), v.Name(), v.Name(), line, fmaWhy, v.Name(), c.typeNameOr(v.Type(), s.stmt.Pos()), v.Name()))
				continue
			}
			c.reportProduct(s.wrap, s.prod, fmt.Sprintf("is stored in %s and %s is added to or "+
				"subtracted from at line %d (a variable does not round it: the compiler may fuse "+
				"across statements)", v.Name(), v.Name(), line))
		}
	}
	c.world = 0
}

// typeNameOr returns typeName(t, pos), or "T" if t has no name there.
func (c *checker) typeNameOr(t types.Type, pos token.Pos) string {
	if n := c.typeName(t, pos); n != "" {
		return n
	}
	return "T"
}

// complexWhy says why complex products and quotients differ by machine.
const complexWhy = "a complex product computes its parts as a*c - b*d and a*d + b*c, and a " +
	"quotient runs Go code of the same shape, which the compiler fuses into multiply-adds " +
	"on arm64, ppc64le, s390x, riscv64 and loong64 but not on amd64, 386 or wasm, so the " +
	"result differs by machine"

// checkComplexArith reports non-constant complex x*y and x/y.
func (c *checker) checkComplexArith(b *ast.BinaryExpr) {
	if b.Op != token.MUL && b.Op != token.QUO || c.isConstant(b) || !isComplex(c.pass.TypesInfo.TypeOf(b)) {
		return
	}
	c.report("complex", b, fmt.Sprintf("complex %s: %s; write the parts out with real and imag "+
		"and wrap each product in a conversion: complex(float64(a*c)-float64(b*d), float64(a*d)+float64(b*c))",
		map[token.Token]string{token.MUL: "multiplication", token.QUO: "division"}[b.Op], complexWhy))
}

// checkComplexAssign reports z *= x and z /= x on complex numbers.
func (c *checker) checkComplexAssign(a *ast.AssignStmt) {
	if a.Tok != token.MUL_ASSIGN && a.Tok != token.QUO_ASSIGN || len(a.Lhs) != 1 ||
		!isComplex(c.pass.TypesInfo.TypeOf(a.Lhs[0])) {
		return
	}
	c.report("complex", a, fmt.Sprintf("complex %s: %s; write the parts out with real and imag "+
		"and wrap each product in a conversion: complex(float64(a*c)-float64(b*d), float64(a*d)+float64(b*c))",
		a.Tok, complexWhy))
}

func isComplex(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsComplex != 0
}
