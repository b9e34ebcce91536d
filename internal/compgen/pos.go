package compgen

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a place in a definition file: 1-based line and column (in bytes).
type Pos struct {
	File      string
	Line, Col int
}

// String formats p as file:line:col, the form editors and go vet use.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is one problem in a definition file, at its place.
type Error struct {
	Pos Pos
	Msg string
}

// Error formats e as "file:line:col: message".
func (e Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errors is every problem found, in file order: the generator reports
// them all at once, not just the first.
type Errors []Error

// Error lists the problems, one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sort orders es by file, line and column, keeping the order of finding
// for problems at one place.
func (es Errors) sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Pos, es[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// lineIndex turns byte offsets of one file into positions.
type lineIndex struct {
	file   string
	starts []int // offset of each line's first byte
}

func newLineIndex(file string, data []byte) lineIndex {
	li := lineIndex{file: file, starts: []int{0}}
	for i, b := range data {
		if b == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

func (li lineIndex) pos(off int) Pos {
	line := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	return Pos{li.file, line + 1, off - li.starts[line] + 1}
}
