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

// Parse reads and checks definition files. It returns every problem it
// finds, each at its place, sorted; a file that is not JSON stops at its
// first syntax error, and the others are still read. Parse never panics,
// whatever the bytes.
func Parse(files ...File) (*Defs, Errors) {
	d := &decoder{defs: &Defs{}}
	for _, f := range files {
		root, err := parseTree(f.Name, f.Data)
		if err != nil {
			d.errs = append(d.errs, *err)
			continue
		}
		d.file(root)
	}
	d.check()
	d.errs.sort()
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	return d.defs, nil
}

type decoder struct {
	defs *Defs
	errs Errors
}

func (d *decoder) errorf(p Pos, format string, args ...any) {
	d.errs = append(d.errs, Error{p, fmt.Sprintf(format, args...)})
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
			d.errorf(n.keyPos[i], "%s: unknown field %q (want one of %s)", what, k, strings.Join(known, ", "))
		case seen[k]:
			d.errorf(n.keyPos[i], "%s: field %q given twice", what, k)
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
	case !token.IsIdentifier(pkg) || pkg == "_":
		d.errorf(pkgPos, "package %q is not a Go identifier that names a package", pkg)
	case d.defs.Package == "":
		d.defs.Package = pkg
	case d.defs.Package != pkg:
		d.errorf(pkgPos, "package %q: another file says %q; every file generates into one package", pkg, d.defs.Package)
	}
}

func (d *decoder) component(n *node) {
	c := &Component{Pos: n.pos, Storage: "table"}
	what := "component"
	d.fields(n, what, map[string]func(*node){
		"name":       func(v *node) { d.str(v, "component name", &c.Name) },
		"doc":        func(v *node) { d.str(v, "doc", &c.Doc) },
		"storage":    func(v *node) { d.str(v, "storage", &c.Storage); d.oneOf(v, "storage", c.Storage, "table", "sparse") },
		"stableName": func(v *node) { d.str(v, "stableName", &c.StableName) },
		"tag":        func(v *node) { d.boolean(v, "tag", &c.Tag) },
		"fields":     func(v *node) { d.array(v, "fields", func(f *node) { c.Fields = append(c.Fields, d.field(f)) }) },
	})
	d.identifier(n.pos, "component", c.Name)
	if c.Tag && len(c.Fields) > 0 {
		d.errorf(c.Pos, "component %s is a tag: it cannot have fields", c.Name)
	}
	d.defs.Components = append(d.defs.Components, c)
}

func (d *decoder) oneOf(n *node, what, got string, want ...string) {
	if n.kind == stringNode && !slices.Contains(want, got) {
		d.errorf(n.pos, "%s %q: want %s", what, got, strings.Join(want, " or "))
	}
}

// identifier reports a name that is not an exported Go identifier.
func (d *decoder) identifier(p Pos, what, name string) {
	switch {
	case name == "":
		d.errorf(p, "%s needs a \"name\"", what)
	case !token.IsIdentifier(name) || !token.IsExported(name):
		d.errorf(p, "%s name %q is not an exported Go identifier", what, name)
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
	d.identifier(n.pos, "field", f.Name)
	if typ == "" {
		d.errorf(typPos, "field %s needs a \"type\"", f.Name)
		return f
	}
	t, err := parseType(typ)
	if err != "" {
		d.errorf(typPos, "field %s: type %q: %s", f.Name, typ, err)
		return f
	}
	f.Type = t
	return f
}

func (d *decoder) archetype(n *node) {
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
	d.identifier(n.pos, "archetype", a.Name)
	d.defs.Archetypes = append(d.defs.Archetypes, a)
}

// arrayElems is the number of elements an array type's element holds
// through directly nested arrays: 1 for anything else.
func arrayElems(t *Type) int {
	if t.Kind == Array {
		return t.Len * arrayElems(t.Elem)
	}
	return 1
}

// basicTypes are the Go types a field may name directly.
var basicTypes = []string{"bool", "int", "int8", "int16", "int32", "int64",
	"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "string"}

// parseType reads a field type, or returns why it cannot.
func parseType(s string) (*Type, string) {
	switch {
	case slices.Contains(basicTypes, s):
		return &Type{Kind: Basic, Name: s}, ""
	case s == "Entity":
		return &Type{Kind: EntityRef}, ""
	case strings.HasPrefix(s, "[]"):
		elem, err := parseType(s[2:])
		if err != "" {
			return nil, err
		}
		return &Type{Kind: Slice, Elem: elem}, ""
	case strings.HasPrefix(s, "["):
		n, rest, ok := strings.Cut(s[1:], "]")
		length, err := strconv.Atoi(n)
		if !ok || err != nil || length < 0 || length > 1<<20 {
			return nil, "want [N]T with N from 0 to 1048576"
		}
		elem, why := parseType(rest)
		if why != "" {
			return nil, why
		}
		if elems := length * arrayElems(elem); elems > 1<<20 {
			return nil, "nested arrays of more than 1048576 elements in all"
		}
		return &Type{Kind: Array, Len: length, Elem: elem}, ""
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
