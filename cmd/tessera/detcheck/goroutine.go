package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"
)

// goWhy says why goroutines in systems make results differ.
const goWhy = "goroutines finish in any order and run beside the scheduler's workers, so " +
	"what they write, append, send or record can differ from run to run (and may race with " +
	"other systems); split the work with sched.ForEach, which runs the items on the " +
	"scheduler's workers and returns when all are done"

// checkGo reports go statements in system code.
func (c *checker) checkGo(g *ast.GoStmt) {
	if c.system > 0 {
		c.reportAt("goroutine", g.Go, g.Go+token.Pos(len("go")), "a go statement in system code: "+goWhy)
	}
}

// checkSelect reports, in system code, a select with two or more
// communication cases: when several are ready, it picks one at random.
func (c *checker) checkSelect(s *ast.SelectStmt) {
	if c.system == 0 {
		return
	}
	n := 0
	for _, cc := range s.Body.List {
		if cc.(*ast.CommClause).Comm != nil {
			n++
		}
	}
	if n >= 2 {
		c.reportAt("select", s.Select, s.Select+token.Pos(len("select")), "a select with several "+
			"channel cases in system code picks one at random when more than one is ready, so the "+
			"outcome can differ from run to run; receive in a fixed order, or pass data between "+
			"systems through the world (events, sched.Output) rather than channels")
	}
}

// checkAddress reports uintptr(unsafe.Pointer(p)) whose value is used as
// data: not turned back into a pointer (unsafe.Pointer(uintptr(p) + off)),
// and not an alignment test (uintptr(p) % n, uintptr(p) & mask).
func (c *checker) checkAddress(call *ast.CallExpr) {
	if len(call.Args) != 1 || !c.isConversionTo(call, types.Uintptr) {
		return
	}
	if t := c.pass.TypesInfo.TypeOf(call.Args[0]); t == nil || !isUnsafePointer(t) {
		return
	}
	// Walk up through parentheses and pointer arithmetic.
up:
	for k := 0; ; k++ {
		switch p := c.parent(k).(type) {
		case *ast.ParenExpr:
		case *ast.BinaryExpr:
			switch p.Op {
			case token.REM, token.AND:
				return // alignment test
			case token.ADD, token.SUB:
			default:
				break up
			}
		case *ast.CallExpr:
			if tv, ok := c.pass.TypesInfo.Types[p.Fun]; ok && tv.IsType() && isUnsafePointer(tv.Type) {
				return // back to a pointer
			}
			break up
		default:
			break up
		}
	}
	c.report("address", call, "uintptr(unsafe.Pointer(...)) turns an address into a number; "+
		"addresses change from run to run (allocation order, garbage collection, address-space "+
		"randomisation) and between machines, so ordering, hashing or keying by them is not "+
		"reproducible; order by entity id or by a value held in the data")
}

// isConversionTo reports whether call converts to the basic type kind.
func (c *checker) isConversionTo(call *ast.CallExpr, kind types.BasicKind) bool {
	tv, ok := c.pass.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Kind() == kind
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}
