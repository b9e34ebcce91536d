package detcheck

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// opensScope reports whether n is a function whose body is system code
// (it runs inside a tick or a world operation) and whether it is world code
// (system code, or a function handed the world or a command buffer).
//
// System code is a function or method with a *sched.Context parameter (a
// system's Update, Init or Finalize, a function passed to AddFunc or
// sched.Func), and a function literal passed as an argument to any exported
// function or method of the ecs or sched packages (hooks, SpawnFunc initialisers,
// sched.ForEach bodies). World code adds functions and literals with an
// *ecs.World or *ecs.Commands parameter. Functions nested in them count too.
func (c *checker) opensScope(n ast.Node) (system, world bool) {
	var ft *ast.FuncType
	switch n := n.(type) {
	case *ast.FuncDecl:
		ft = n.Type
	case *ast.FuncLit:
		ft = n.Type
		if c.isCallbackOfTessera(n) {
			return true, true
		}
	default:
		return false, false
	}
	for _, field := range ft.Params.List {
		t := c.pass.TypesInfo.TypeOf(field.Type)
		switch {
		case isPointerTo(t, schedPath, "Context"):
			return true, true
		case isPointerTo(t, ecsPath, "World"), isPointerTo(t, ecsPath, "Commands"):
			world = true
		}
	}
	return false, world
}

// isCallbackOfTessera reports whether lit is an argument of a call to an
// exported function or method declared in the ecs or sched package.
func (c *checker) isCallbackOfTessera(lit *ast.FuncLit) bool {
	call, ok := c.parent(0).(*ast.CallExpr)
	if !ok {
		return false
	}
	inArgs := false
	for _, a := range call.Args {
		if a == ast.Expr(lit) {
			inArgs = true
		}
	}
	if !inArgs {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || !fn.Exported() {
		return false
	}
	p := fn.Pkg().Path()
	return p == ecsPath || p == schedPath
}

// isPointerTo reports whether t is *path.name.
func isPointerTo(t types.Type, path, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), path, name)
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == path && obj.Name() == name
}
