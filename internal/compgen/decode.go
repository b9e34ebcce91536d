package compgen

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// File is one definition file: its name, for positions, and its bytes.
type File struct {
	Name string
	Data []byte
}

// Options are what [ParseWith] needs to know beyond the files.
type Options struct {
	// ImportPath is the import path of the package the code is generated
	// into (example.com/game), of which ecs makes the default stable name
	// of each component type: the path, a dot and the type's name. For a
	// package main it is the path its tests see; its program sees "main".
	// "" when unknown.
	ImportPath string
}

// Parse reads and checks definition files, as [ParseWith] with no
// [Options]: the package's import path unknown.
func Parse(files ...File) (*Defs, Errors) { return ParseWith(Options{}, files...) }

// ParseWith reads and checks definition files. It returns every problem
// it finds, each at its place, sorted; a file that is not JSON stops at
// its first syntax error, and the others are still read. A limit crossed
// (see [MaxFileBytes] and the other limits) is reported where it is
// crossed. It never panics, whatever the bytes, and takes time and memory
// linear in the size of the files.
//
// A stable name that is another component's default stable name is
// refused, since Register would panic on it: the default is the import
// path, a dot and the type's name, with opts.ImportPath, and "main" for a
// package main. With no import path, a stable name is refused when it is
// pkg.T or ends in /pkg.T, for pkg the package's name and T another
// component: the default name of T when the path ends in the package's
// name, as paths usually do.
func ParseWith(opts Options, files ...File) (*Defs, Errors) {
	d := &decoder{defs: &Defs{}, opts: opts}
	for _, f := range files {
		if len(f.Data) > MaxFileBytes {
			li := newLineIndex(f.Name, f.Data[:MaxFileBytes+1])
			d.errorf(li.pos(MaxFileBytes), "the file is larger than %d bytes (compgen.MaxFileBytes); not read", MaxFileBytes)
			continue
		}
		root, err := parseTree(f.Name, f.Data)
		if err != nil {
			d.add(*err)
			continue
		}
		d.file(root)
	}
	d.check()
	d.errs.sort()
	if d.unlisted > 0 {
		e := d.firstUnlisted
		e.Msg += fmt.Sprintf(" (and %d more problems, not listed: compgen.MaxErrors)", d.unlisted-1)
		d.errs = append(d.errs, e)
	}
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	return d.defs, nil
}

type decoder struct {
	defs *Defs
	opts Options
	errs Errors
	// unlisted counts the problems found past MaxErrors; firstUnlisted
	// is the first of them.
	unlisted      int
	firstUnlisted Error
	// tooMany says which limits of counts were reported, so each is once.
	tooManyComponents, tooManyArchetypes bool
}

func (d *decoder) errorf(p Pos, format string, args ...any) {
	if d.unlisted > 0 {
		d.unlisted++ // past MaxErrors: not even formatted
		return
	}
	d.add(Error{p, fmt.Sprintf(format, args...)})
}

// add records e, or counts it past MaxErrors.
func (d *decoder) add(e Error) {
	if len(d.errs) < MaxErrors {
		d.errs = append(d.errs, e)
		return
	}
	if d.unlisted == 0 {
		d.firstUnlisted = e
	}
	d.unlisted++
}

// fields walks the object n, calling set for each known key and reporting
// the others.
func (d *decoder) fields(n *node, what string, set map[string]func(*node)) {
	if n.kind != objectNode {
		d.errorf(n.pos, "%s: want an object, got %v", what, n.kind)
		return
	}
	seen := map[string]bool{}
	for i, k := range n.keys {
		f, ok := set[k]
		switch {
		case !ok:
			known := make([]string, 0, len(set))
			for name := range set {
				known = append(known, strconv.Quote(name))
			}
			slices.Sort(known)
			d.errorf(n.keyPos[i], "%s: unknown field %s (want one of %s)", what, quoteClipped(k), strings.Join(known, ", "))
		case seen[k]:
			d.errorf(n.keyPos[i], "%s: field %s given twice", what, quoteClipped(k))
		default:
			seen[k] = true
			f(n.vals[i])
		}
	}
}

func (d *decoder) str(n *node, what string, dst *string) {
	if n.kind != stringNode {
		d.errorf(n.pos, "%s: want a string, got %v", what, n.kind)
		return
	}
	*dst = n.str
}

func (d *decoder) boolean(n *node, what string, dst *bool) {
	if n.kind != boolNode {
		d.errorf(n.pos, "%s: want true or false, got %v", what, n.kind)
		return
	}
	*dst = n.b
}

func (d *decoder) array(n *node, what string, each func(*node)) {
	if n.kind != arrayNode {
		d.errorf(n.pos, "%s: want an array, got %v", what, n.kind)
		return
	}
	for _, e := range n.elems {
		each(e)
	}
}

// file reads the top level of one file.
func (d *decoder) file(root *node) {
	var pkg string
	pkgPos := root.pos
	d.fields(root, "the file", map[string]func(*node){
		"package":    func(n *node) { pkgPos = n.pos; d.str(n, "package", &pkg) },
		"components": func(n *node) { d.array(n, "components", d.component) },
		"archetypes": func(n *node) { d.array(n, "archetypes", d.archetype) },
	})
	switch {
	case pkg == "":
		d.errorf(pkgPos, "the file needs a \"package\": the Go package the code is generated into")
	case len(pkg) > MaxNameBytes:
		d.errorf(pkgPos, "package name of %d bytes, longer than %d (compgen.MaxNameBytes)", len(pkg), MaxNameBytes)
	case !token.IsIdentifier(pkg) || pkg == "_":
		d.errorf(pkgPos, "package %s is not a Go identifier that names a package", quoteClipped(pkg))
	case d.defs.Package == "":
		d.defs.Package = pkg
	case d.defs.Package != pkg:
		d.errorf(pkgPos, "package %s: another file says %q; every file generates into one package", quoteClipped(pkg), d.defs.Package)
	}
}

func (d *decoder) component(n *node) {
	if len(d.defs.Components) == MaxComponents {
		if !d.tooManyComponents {
			d.tooManyComponents = true
			d.errorf(n.pos, "more than %d components (compgen.MaxComponents); this one and the rest are not read", MaxComponents)
		}
		return
	}
	c := &Component{Pos: n.pos, Storage: "table"}
	what := "component"
	d.fields(n, what, map[string]func(*node){
		"name":       func(v *node) { d.str(v, "component name", &c.Name) },
		"doc":        func(v *node) { d.str(v, "doc", &c.Doc) },
		"storage":    func(v *node) { d.str(v, "storage", &c.Storage); d.oneOf(v, "storage", c.Storage, "table", "sparse") },
		"stableName": func(v *node) { d.str(v, "stableName", &c.StableName) },
		"tag":        func(v *node) { d.boolean(v, "tag", &c.Tag) },
		"fields": func(v *node) {
			d.array(v, "fields", func(f *node) {
				switch {
				case len(c.Fields) < MaxFields:
					c.Fields = append(c.Fields, d.field(f))
				case len(c.Fields) == MaxFields:
					c.Fields = append(c.Fields, nil) // reported once
					d.errorf(f.pos, "more than %d fields in one component (compgen.MaxFields); this one and the rest are not read", MaxFields)
				}
			})
		},
	})
	if len(c.Fields) > MaxFields {
		c.Fields = c.Fields[:MaxFields]
	}
	d.identifier(n.pos, "component", &c.Name)
	if c.Tag && len(c.Fields) > 0 {
		d.errorf(c.Pos, "component %s is a tag: it cannot have fields", c.Name)
	}
	d.defs.Components = append(d.defs.Components, c)
}

func (d *decoder) oneOf(n *node, what, got string, want ...string) {
	if n.kind == stringNode && !slices.Contains(want, got) {
		d.errorf(n.pos, "%s %s: want %s", what, quoteClipped(got), strings.Join(want, " or "))
	}
}

// identifier reports a name that is not an exported Go identifier. One
// too long is cut to MaxNameBytes, so that the messages that name it stay
// short.
func (d *decoder) identifier(p Pos, what string, name *string) {
	switch {
	case *name == "":
		d.errorf(p, "%s needs a \"name\"", what)
	case len(*name) > MaxNameBytes:
		d.errorf(p, "%s name of %d bytes, longer than %d (compgen.MaxNameBytes)", what, len(*name), MaxNameBytes)
		*name = (*name)[:MaxNameBytes]
	case !token.IsIdentifier(*name) || !token.IsExported(*name):
		d.errorf(p, "%s name %s is not an exported Go identifier", what, quoteClipped(*name))
	}
}

func (d *decoder) field(n *node) *Field {
	f := &Field{Pos: n.pos}
	var typ string
	typPos := n.pos
	d.fields(n, "field", map[string]func(*node){
		"name":    func(v *node) { d.str(v, "field name", &f.Name) },
		"doc":     func(v *node) { d.str(v, "doc", &f.Doc) },
		"type":    func(v *node) { typPos = v.pos; d.str(v, "type", &typ) },
		"default": func(v *node) { f.Default = v },
	})
	d.identifier(n.pos, "field", &f.Name)
	if typ == "" {
		d.errorf(typPos, "field %s needs a \"type\"", f.Name)
		return f
	}
	t, err := parseType(typ)
	if err != "" {
		d.errorf(typPos, "field %s: type %s: %s", f.Name, quoteClipped(typ), err)
		return f
	}
	f.Type = t
	return f
}

func (d *decoder) archetype(n *node) {
	if len(d.defs.Archetypes) == MaxArchetypes {
		if !d.tooManyArchetypes {
			d.tooManyArchetypes = true
			d.errorf(n.pos, "more than %d archetypes (compgen.MaxArchetypes); this one and the rest are not read", MaxArchetypes)
		}
		return
	}
	a := &Archetype{Pos: n.pos, Defaults: map[string]*node{}}
	d.fields(n, "archetype", map[string]func(*node){
		"name": func(v *node) { d.str(v, "archetype name", &a.Name) },
		"doc":  func(v *node) { d.str(v, "doc", &a.Doc) },
		"components": func(v *node) {
			d.array(v, "components", func(e *node) {
				var name string
				d.str(e, "component", &name)
				a.Components = append(a.Components, name)
			})
		},
		"defaults": func(v *node) {
			if v.kind != objectNode {
				d.errorf(v.pos, "defaults: want an object of component values, got %v", v.kind)
				return
			}
			for i, k := range v.keys {
				a.Defaults[k] = v.vals[i]
			}
		},
	})
	d.identifier(n.pos, "archetype", &a.Name)
	d.defs.Archetypes = append(d.defs.Archetypes, a)
}

// basicTypes are the Go types a field may name directly.
var basicTypes = []string{"bool", "int", "int8", "int16", "int32", "int64",
	"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "string"}

// maxArrayElems is the most elements an array type holds, through
// directly nested arrays ([N][M]T holds N*M).
const maxArrayElems = 1 << 20

// parseType reads a field type, or returns why it cannot. It reads the
// [] and [N] in front in one pass, at most MaxTypeDepth-1 of them (the
// field is a level too), in time linear in len(s).
func parseType(s string) (*Type, string) {
	var outer []*Type // the slices and arrays, outermost first
	rest := s
	for strings.HasPrefix(rest, "[") {
		if len(outer) == MaxTypeDepth-1 {
			return nil, fmt.Sprintf("more than %d levels of [] and [N]: with the field, its values would nest deeper than %d levels (compgen.MaxTypeDepth)", MaxTypeDepth-1, MaxTypeDepth)
		}
		if strings.HasPrefix(rest, "[]") {
			outer = append(outer, &Type{Kind: Slice})
			rest = rest[2:]
			continue
		}
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, "want [N]T with N from 0 to 1048576"
		}
		length, err := strconv.Atoi(rest[1:end])
		if err != nil || length < 0 || length > maxArrayElems {
			return nil, "want [N]T with N from 0 to 1048576"
		}
		outer = append(outer, &Type{Kind: Array, Len: length})
		rest = rest[end+1:]
	}
	t, why := parseElemType(rest)
	if why != "" {
		return nil, why
	}
	elems := 1 // what t holds through directly nested arrays
	for i := len(outer) - 1; i >= 0; i-- {
		o := outer[i]
		o.Elem = t
		switch {
		case o.Kind == Slice:
			elems = 1
		case o.Len > 0 && elems > maxArrayElems/o.Len: // no overflow on 32 bits
			return nil, "nested arrays of more than 1048576 elements in all"
		default:
			elems *= o.Len
		}
		t = o
	}
	return t, ""
}

// parseElemType reads a type that does not start with [.
func parseElemType(s string) (*Type, string) {
	switch {
	case slices.Contains(basicTypes, s):
		return &Type{Kind: Basic, Name: s}, ""
	case s == "Entity":
		return &Type{Kind: EntityRef}, ""
	case strings.Contains(s, "."):
		i := strings.LastIndex(s, ".")
		path, name := s[:i], s[i+1:]
		if path == "" || !token.IsIdentifier(name) || !token.IsExported(name) || strings.ContainsAny(path, " \t\"\\") {
			return nil, "want an import path and an exported type name, such as image/color.RGBA"
		}
		return &Type{Kind: Imported, Path: path, Name: name}, ""
	case token.IsIdentifier(s):
		return &Type{Kind: Named, Name: s}, ""
	}
	return nil, "unknown type (want bool, a sized integer, int, uint, float32, float64, string, Entity, [N]T, []T, a component of the definitions or path.Type)"
}
