package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Import paths of the packages whose importers are checked.
const (
	ecsPath   = "github.com/tessera-ecs/tessera/ecs"
	schedPath = "github.com/tessera-ecs/tessera/sched"
)

// Analyzer reports code that can make a Tessera world differ between
// machines, runs or numbers of scheduler workers. It reports only in
// packages that import the ecs or sched package, needs no facts and no
// other analyzer, and may run on any package. The package documentation
// describes every rule.
var Analyzer = &analysis.Analyzer{
	Name: "detcheck",
	Doc:  doc,
	Run:  run,
}

// doc is the Analyzer's Doc: its first line is the summary drivers print.
const doc = `report code that makes a Tessera world depend on the machine or the run

Tessera promises the same entity ids, iteration order and world checksum on
every architecture and for any number of scheduler workers. In packages that
import github.com/tessera-ecs/tessera/ecs or .../sched, detcheck reports what
breaks that promise: fusable float multiply-adds, complex products, ranging
over Go maps, global random sources, wall-clock time, goroutines in systems,
math functions whose last bit differs by architecture, select among ready
channels, work sized by the CPU or worker count, addresses used as data, and
int, uint and uintptr in types kept in a world.
Silence one report with a line comment
//tessera:nondeterministic-ok <reason> on its line or alone on the line above.`

func run(pass *analysis.Pass) (any, error) {
	if !reachesWorld(pass.Pkg) {
		return nil, nil
	}
	var list []stored
	checkers := make(map[*token.File]*checker, len(pass.Files))
	for _, f := range pass.Files {
		c := newChecker(pass, f)
		c.stored = &list
		checkers[c.tok] = c
		c.walk()
	}
	reportWordSize(list, checkers)
	return nil, nil
}

// reachesWorld reports whether pkg imports the ecs or sched package.
func reachesWorld(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if p := imp.Path(); p == ecsPath || p == schedPath {
			return true
		}
	}
	return false
}

// checker checks one file.
type checker struct {
	pass *analysis.Pass
	file *ast.File
	tok  *token.File
	src  []byte // the file's text, nil if unreadable
	ok   *suppressions
	test bool // a _test.go file: only world code is checked

	stack []frame
	// system counts the enclosing functions that are system code (they run
	// inside a tick: see opensScope); world those that are world code
	// (system code, and functions handed a world or command buffer).
	system, world int

	// assignments to and additions of local float variables: see products.go.
	varEvents map[*types.Var][]varEvent
	varOrder  []*types.Var

	// stored collects the package's types kept in a world: see wordsize.go.
	stored *[]stored
}

// frame is one node on the walk's stack and what it opened.
type frame struct {
	node          ast.Node
	system, world bool
}

func newChecker(pass *analysis.Pass, f *ast.File) *checker {
	tok := pass.Fset.File(f.FileStart)
	src, err := pass.ReadFile(tok.Name())
	if err != nil {
		src = nil
	}
	c := &checker{
		pass:      pass,
		file:      f,
		tok:       tok,
		src:       src,
		varEvents: make(map[*types.Var][]varEvent),
	}
	c.ok = c.parseDirectives()
	c.test = strings.HasSuffix(tok.Name(), "_test.go")
	return c
}

// walk visits every node of the file once, keeping the stack of enclosing
// nodes and counts of enclosing system and world functions.
func (c *checker) walk() {
	ast.Inspect(c.file, func(n ast.Node) bool {
		if n == nil {
			top := c.stack[len(c.stack)-1]
			c.stack = c.stack[:len(c.stack)-1]
			if top.system {
				c.system--
			}
			if top.world {
				c.world--
			}
			return true
		}
		fr := frame{node: n}
		fr.system, fr.world = c.opensScope(n)
		if fr.system {
			c.system++
		}
		if fr.world {
			c.world++
		}
		c.visit(n)
		c.stack = append(c.stack, fr)
		return true
	})
	c.reportProductVars()
}

// parent returns the k-th enclosing node of the node being visited (k = 0
// is its parent), or nil.
func (c *checker) parent(k int) ast.Node {
	i := len(c.stack) - 1 - k
	if i < 0 {
		return nil
	}
	return c.stack[i].node
}

// visit runs every rule that looks at n.
func (c *checker) visit(n ast.Node) {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		c.checkMultiplyAdd(n)
		c.checkComplexArith(n)
	case *ast.AssignStmt:
		c.checkAssignMultiplyAdd(n)
		c.checkComplexAssign(n)
		c.collectProductVars(n)
	case *ast.IncDecStmt:
		c.noteIncDec(n)
	case *ast.ValueSpec:
		c.collectProductSpec(n)
	case *ast.RangeStmt:
		c.checkRange(n)
	case *ast.GoStmt:
		c.checkGo(n)
	case *ast.SelectStmt:
		c.checkSelect(n)
	case *ast.CallExpr:
		c.checkAddress(n)
	case *ast.Ident:
		c.checkUse(n)
		c.noteStored(n)
	}
}

// report reports a diagnostic of rule at node unless a directive silences it.
func (c *checker) report(rule string, node ast.Node, msg string, fixes ...analysis.SuggestedFix) {
	c.reportAt(rule, node.Pos(), node.End(), msg, fixes...)
}

func (c *checker) reportAt(rule string, pos, end token.Pos, msg string, fixes ...analysis.SuggestedFix) {
	if c.test && c.world == 0 || c.ok.covers(c.tok, pos) {
		return
	}
	c.pass.Report(analysis.Diagnostic{
		Pos:            pos,
		End:            end,
		Category:       rule,
		Message:        rule + ": " + msg,
		SuggestedFixes: fixes,
	})
}

// text returns the source text of node, or "" if the file is unreadable.
func (c *checker) text(node ast.Node) string {
	if c.src == nil {
		return ""
	}
	start, end := c.tok.Offset(node.Pos()), c.tok.Offset(node.End())
	if start < 0 || end > len(c.src) || start > end {
		return ""
	}
	return string(c.src[start:end])
}
