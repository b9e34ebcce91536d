package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// storesType lists the functions of the ecs package whose type arguments
// are types kept in a world: components, resources, events and relations.
var storesType = map[string]bool{
	"NewMap": true, "NewMap2": true, "NewMap3": true, "NewMap4": true, "NewMap5": true,
	"NewMap6": true, "NewMap7": true, "NewMap8": true, "NewMap9": true, "NewMap10": true,
	"NewMap11": true, "NewMap12": true,
	"Register": true, "NewResource": true, "AddResource": true, "EventsOf": true, "NewRelation": true,
}

// stored is a type argument of a function of storesType, at the identifier
// that names the function.
type stored struct {
	c   *checker // the checker of the file holding id
	id  *ast.Ident
	fn  string
	typ types.Type
}

// noteStored records the type arguments of id if it names a function of
// storesType. Calls in _test.go files are left out: a test's world is a
// fixture, and tests keep ints in it on purpose (to test how they are
// saved and checksummed). So are calls in generated files: the report
// belongs with the definition the code is generated from, and code that
// keeps the type in a world reaches it.
func (c *checker) noteStored(id *ast.Ident) {
	inst, ok := c.pass.TypesInfo.Instances[id]
	if !ok || c.test || ast.IsGenerated(c.file) {
		return
	}
	fn, ok := c.pass.TypesInfo.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != ecsPath || !storesType[fn.Name()] {
		return
	}
	for i := range inst.TypeArgs.Len() {
		*c.stored = append(*c.stored, stored{c: c, id: id, fn: fn.Name(), typ: inst.TypeArgs.At(i)})
	}
}

// reportWordSize reports, once per package, every int, uint and uintptr
// that a type kept in a world holds (see the wordsize rule in doc.go).
// checkers maps each file of the package to its checker, for directives.
func reportWordSize(list []stored, checkers map[*token.File]*checker) {
	w := wordSize{checkers: checkers, done: make(map[wordKey]bool)}
	if len(list) > 0 {
		pkg := list[0].c.pass.Pkg
		w.qualifier = func(p *types.Package) string {
			if p == pkg {
				return ""
			}
			return p.Name()
		}
	}
	for _, s := range list {
		w.at = s
		w.seen = make(map[types.Type]bool)
		w.walk(s.typ, types.TypeString(s.typ, w.qualifier), nil)
	}
}

type wordSize struct {
	checkers map[*token.File]*checker
	done     map[wordKey]bool
	at       stored              // the instantiation being walked
	seen     map[types.Type]bool // named types on the path, against cycles
	// qualifier names other packages by their name in messages.
	qualifier types.Qualifier
}

// wordKey identifies a report: the declaration (a field, a named type, or
// none for an unnamed root) and the type found there.
type wordKey struct {
	decl token.Pos
	typ  string
}

// walk looks for int, uint and uintptr in t, as far as checksums and save
// files reach: struct fields, arrays and slices, not pointers, maps,
// channels, functions or interfaces. field is the field whose type is t, or
// nil for the stored type itself; path names the value in messages.
func (w *wordSize) walk(t types.Type, path string, field *types.Var) {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if w.seen[n] {
			return
		}
		w.seen[n] = true
		defer delete(w.seen, n)
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if k := u.Kind(); k == types.Int || k == types.Uint || k == types.Uintptr {
			w.report(t, u, path, field)
		}
	case *types.Array:
		w.walk(u.Elem(), path+"[i]", field)
	case *types.Slice:
		w.walk(u.Elem(), path+"[i]", field)
	case *types.Struct:
		pkg := w.at.c.pass.Pkg
		for f := range u.Fields() {
			if f.Name() == "_" || f.Pkg() != pkg && !f.Exported() {
				continue // blank: holds nothing; another package's unexported field: not ours to change
			}
			w.walk(f.Type(), path+"."+f.Name(), f)
		}
	}
}

// report reports the int-sized b found at path: at the field's declaration
// (or the named type's) when this package declares it as such, else at the
// instantiation.
func (w *wordSize) report(t types.Type, b *types.Basic, path string, field *types.Var) {
	pkg := w.at.c.pass.Pkg
	var decl types.Object
	switch {
	case field != nil && field.Origin().Pkg() == pkg && isWordSized(field.Origin().Type()):
		decl = field.Origin()
	case field == nil:
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == pkg {
			decl = n.Obj()
		}
	}
	key := wordKey{typ: types.TypeString(t, nil)}
	c, pos, end := w.at.c, w.at.id.Pos(), w.at.id.End()
	if decl != nil {
		if dc := w.checkers[c.pass.Fset.File(decl.Pos())]; dc != nil {
			c, pos, end = dc, decl.Pos(), decl.Pos()+token.Pos(len(decl.Name()))
			key.decl = decl.Pos()
		}
	}
	if key.decl == token.NoPos && field != nil {
		key.decl = field.Origin().Pos()
	}
	if key.decl == token.NoPos {
		key.typ = path + " " + key.typ
	}
	if w.done[key] {
		return
	}
	w.done[key] = true
	what := path + " is " + article(b.Name()) + " " + b.Name()
	if name := types.TypeString(t, w.qualifier); b != t && name != path {
		what = path + " is a " + name + ", " + article(b.Name()) + " " + b.Name() + ","
	}
	wrap := "2^31 (signed)"
	if b.Kind() != types.Int {
		wrap = "2^32"
	}
	fix := "int32 if its values fit, int64 otherwise"
	if b.Kind() != types.Int {
		fix = "uint32 if its values fit, uint64 otherwise"
	}
	msg := what + " kept in the world (ecs." + w.at.fn + "): it is 64 bits on amd64, arm64 and wasm " +
		"but 32 bits on 386 and arm, so arithmetic on it wraps at " + wrap + " there, and a counter, " +
		"sum or hash that passes that gives a different world on 32-bit machines (checksums and save " +
		"files widen it to 64 bits, so only overflow differs); use " + fix
	// Directives apply as at any report; test files were left out when
	// the instantiation was noted.
	if c.ok.covers(c.tok, pos) {
		return
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: "wordsize", Message: "wordsize: " + msg})
}

// isWordSized reports whether t holds an int, uint or uintptr directly or
// as the element of arrays and slices.
func isWordSized(t types.Type) bool {
	for {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			k := u.Kind()
			return k == types.Int || k == types.Uint || k == types.Uintptr
		case *types.Array:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		default:
			return false
		}
	}
}

func article(word string) string {
	if word != "" && word[0] == 'i' {
		return "an"
	}
	return "a"
}
