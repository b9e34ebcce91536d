package compgen

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
)

// goType is t as Go source. Its size grows with how deeply t nests: code
// written once per level of a nested type names types with typeName.
func (g *gen) goType(t *Type) string {
	switch t.Kind {
	case EntityRef:
		return "ecs.Entity"
	case Array:
		return fmt.Sprintf("[%d]%s", t.Len, g.goType(t.Elem))
	case Slice:
		return "[]" + g.goType(t.Elem)
	case Imported:
		return g.alias[t.Path] + "." + t.Name
	}
	return t.Name // Basic, Named
}

// stringMethod writes String, the debug form fmt, logs and tools print.
func (g *gen) stringMethod(c *Component) {
	g.p("// String formats the value for debugging, as %s{Field: value, ...}.\n", c.Name)
	if len(c.Fields) == 0 {
		g.p("func (%s) String() string { return %q }\n\n", c.Name, c.Name+"{}")
		return
	}
	var format, args []string
	for _, f := range c.Fields {
		verb := "%v"
		if holdsStrings(f.Type) {
			verb = "%q"
		}
		format = append(format, f.Name+": "+verb)
		args = append(args, "c."+f.Name)
	}
	g.p("func (c %s) String() string {\n", c.Name)
	g.p("\treturn fmt.Sprintf(%q, %s)\n}\n\n", c.Name+"{"+strings.Join(format, ", ")+"}", strings.Join(args, ", "))
}

// holdsStrings reports whether t is a string or an array or slice of
// them, which print quoted.
func holdsStrings(t *Type) bool {
	for t.Kind == Array || t.Kind == Slice {
		t = t.Elem
	}
	return t.Kind == Basic && t.Name == "string"
}

// importAliases names the imported packages in the generated file: the
// last element of each path, made an identifier and numbered apart from
// each other and from the names the file already uses.
func importAliases(defs *Defs) map[string]string {
	var paths []string
	seen := map[string]bool{}
	for _, c := range defs.Components {
		for _, f := range c.Fields {
			t := f.Type
			for t.Kind == Array || t.Kind == Slice {
				t = t.Elem
			}
			if t.Kind == Imported && !seen[t.Path] {
				seen[t.Path] = true
				paths = append(paths, t.Path)
			}
		}
	}
	slices.Sort(paths)
	// Besides the file's own imports and package, an alias must not be a
	// name the generated bodies declare (receivers c and a, out, d, e, n,
	// init, and the f0, i0, t0, v0 and w0 families, kept apart by their
	// digits) nor a predeclared identifier (string, int, ...), which it
	// would shadow.
	taken := map[string]bool{"ecs": true, "fmt": true, defs.Package: true,
		"a": true, "c": true, "d": true, "e": true, "n": true, "out": true, "init": true}
	out := map[string]string{}
	next := map[string]int{} // a name -> the number to try next after it
	for _, path := range paths {
		base := path[strings.LastIndex(path, "/")+1:]
		var b strings.Builder
		for _, r := range base {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
				b.WriteRune(r)
			}
		}
		name := strings.ToLower(b.String())
		if name == "" || !unicode.IsLetter(rune(name[0])) || token.IsKeyword(name) {
			name = "pkg" + name
		}
		if types.Universe.Lookup(name) != nil || strings.IndexByte("fitvw", name[0]) >= 0 && isDigits(name[1:]) {
			name = "pkg" + name
		}
		alias := name
		for taken[alias] {
			n := max(next[name], 2) // the smaller ones are taken
			next[name] = n + 1
			alias = fmt.Sprintf("%s%d", name, n)
		}
		taken[alias] = true
		out[path] = alias
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
