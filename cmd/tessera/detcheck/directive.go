package detcheck

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// directive is the comment that silences a report.
const directive = "//tessera:nondeterministic-ok"

// suppressions are the places that directives silence.
type suppressions struct {
	lines map[int]bool // lines on which no report is made
	spans []span       // statements on which no report is made
}

type span struct{ pos, end token.Pos }

// covers reports whether a report at pos is silenced.
func (s *suppressions) covers(tok *token.File, pos token.Pos) bool {
	if s.lines[tok.Line(pos)] {
		return true
	}
	for _, sp := range s.spans {
		if sp.pos <= pos && pos < sp.end {
			return true
		}
	}
	return false
}

// parseDirectives finds the file's //tessera:nondeterministic-ok comments.
// One silences reports on its own line; when it stands alone on its line,
// it also silences the next line and the whole of a simple statement (an
// assignment, expression, return, declaration, send, go, defer, ++ or --)
// that begins there. A directive without a reason silences nothing and is
// reported.
func (c *checker) parseDirectives() *suppressions {
	s := &suppressions{lines: make(map[int]bool)}
	next := make(map[int]bool) // lines after a directive alone on its line
	for _, g := range c.file.Comments {
		for _, cm := range g.List {
			rest, ok := strings.CutPrefix(cm.Text, directive)
			if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				continue
			}
			if strings.TrimSpace(rest) == "" {
				c.pass.Report(analysis.Diagnostic{
					Pos: cm.Pos(), End: cm.End(), Category: "directive",
					Message: "directive: " + directive + " needs a reason after it (why the result " +
						"cannot differ, or why it may), so that a reader can judge it; " +
						"it silences nothing until it has one",
				})
				continue
			}
			line := c.tok.Line(cm.Pos())
			s.lines[line] = true
			if c.aloneOnLine(cm) {
				s.lines[line+1] = true
				next[line+1] = true
			}
		}
	}
	if len(next) == 0 {
		return s
	}
	ast.Inspect(c.file, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.AssignStmt, *ast.ExprStmt, *ast.ReturnStmt, *ast.DeclStmt, *ast.SendStmt,
			*ast.GoStmt, *ast.DeferStmt, *ast.IncDecStmt:
			if next[c.tok.Line(n.Pos())] {
				s.spans = append(s.spans, span{n.Pos(), n.End()})
			}
		}
		return true
	})
	return s
}

// aloneOnLine reports whether only blanks precede cm on its line.
func (c *checker) aloneOnLine(cm *ast.Comment) bool {
	if c.src == nil {
		return false
	}
	start := c.tok.Offset(c.tok.LineStart(c.tok.Line(cm.Pos())))
	end := c.tok.Offset(cm.Pos())
	if start < 0 || end > len(c.src) || start > end {
		return false
	}
	return strings.TrimLeft(string(c.src[start:end]), " \t") == ""
}
