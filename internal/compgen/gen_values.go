package compgen

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
)

// goType is t as Go source.
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

// encodable reports whether c's fields can all be written by generated
// codec methods: none is of an imported type, at any depth. (Parse has
// refused components that hold themselves, so the walk ends.)
func (g *gen) encodable(c *Component) bool {
	for _, f := range c.Fields {
		if !g.encodableType(f.Type) {
			return false
		}
	}
	return true
}

func (g *gen) encodableType(t *Type) bool {
	switch t.Kind {
	case Imported:
		return false
	case Array, Slice:
		return g.encodableType(t.Elem)
	case Named:
		return g.encodable(g.byName[t.Name])
	}
	return true
}

// needsClone reports whether c holds a slice, at any depth, so that a
// plain copy would share memory and it gets a Clone method.
func (g *gen) needsClone(c *Component) bool {
	for _, f := range c.Fields {
		if g.typeNeedsClone(f.Type) {
			return true
		}
	}
	return false
}

func (g *gen) typeNeedsClone(t *Type) bool {
	switch t.Kind {
	case Slice:
		return true
	case Array:
		return t.Len > 0 && g.typeNeedsClone(t.Elem)
	case Named:
		return g.needsClone(g.byName[t.Name])
	}
	return false
}

// minBytes is the least number of bytes a value of t takes in a save
// file, for ecs.MakeSaveSlice: its size for fixed-size values, 1 for a
// string or slice (its length), the sum for a struct. It saturates at
// 1<<30, far above any count a file can hold.
func (g *gen) minBytes(t *Type) int {
	const most = 1 << 30
	switch t.Kind {
	case Basic:
		switch t.Name {
		case "bool", "int8", "uint8", "string":
			return 1
		case "int16", "uint16":
			return 2
		case "int32", "uint32", "float32":
			return 4
		}
		return 8
	case EntityRef:
		return 8
	case Slice:
		return 1
	case Array:
		return min(most, t.Len*g.minBytes(t.Elem))
	case Named:
		sum := 0
		for _, f := range g.byName[t.Name].Fields {
			sum = min(most, sum+g.minBytes(f.Type))
		}
		return sum
	}
	return 1
}

// holdsNothing reports whether values of t take no bytes and need no
// code: arrays of length 0, and arrays of those. (A tag component takes no
// bytes either, but its EncodeSave call is still written.)
func holdsNothing(t *Type) bool {
	return t.Kind == Array && (t.Len == 0 || holdsNothing(t.Elem))
}

// loopVar is the index variable of a loop nested depth deep.
func loopVar(depth int) string { return fmt.Sprintf("i%d", depth) }

// codecName is the SaveEncoder and SaveDecoder method of a basic type:
// Int8 for int8.
func codecName(basic string) string { return strings.ToUpper(basic[:1]) + basic[1:] }

// codecMethods writes EncodeSave and DecodeSave.
func (g *gen) codecMethods(c *Component) {
	g.p("// EncodeSave writes c in Tessera's save format, without reflection\n")
	g.p("// (ecs.BinaryCodec): World.Save calls it.\n")
	if len(c.Fields) == 0 {
		g.p("func (*%s) EncodeSave(*ecs.SaveEncoder) {}\n\n", c.Name)
	} else {
		g.p("func (c *%s) EncodeSave(e *ecs.SaveEncoder) {\n", c.Name)
	}
	for _, f := range c.Fields {
		g.codecBody("c."+f.Name, f.Type, 0, false)
	}
	if len(c.Fields) > 0 {
		g.p("}\n\n")
	}
	g.p("// DecodeSave reads c in Tessera's save format, without reflection\n")
	g.p("// (ecs.BinaryCodec): World.Load calls it for a file saved with this\n")
	g.p("// version of %s, and reads older ones by reflection.\n", c.Name)
	if len(c.Fields) == 0 {
		g.p("func (*%s) DecodeSave(*ecs.SaveDecoder) {}\n\n", c.Name)
		return
	}
	g.p("func (c *%s) DecodeSave(d *ecs.SaveDecoder) {\n", c.Name)
	for _, f := range c.Fields {
		g.codecBody("c."+f.Name, f.Type, 0, true)
	}
	g.p("}\n\n")
}

// codecBody writes the statements of EncodeSave, or of DecodeSave when
// decode, for the value x of type t, in a loop nested depth deep.
func (g *gen) codecBody(x string, t *Type, depth int, decode bool) {
	switch {
	case t.Kind == Basic && decode:
		g.p("%s = d.%s()\n", x, codecName(t.Name))
	case t.Kind == Basic:
		g.p("e.%s(%s)\n", codecName(t.Name), x)
	case t.Kind == EntityRef && decode:
		g.p("d.Entity(&%s)\n", x)
	case t.Kind == EntityRef:
		g.p("e.Entity(%s)\n", x)
	case t.Kind == Named && decode:
		g.p("%s.DecodeSave(d)\n", x)
	case t.Kind == Named:
		g.p("%s.EncodeSave(e)\n", x)
	case t.Kind == Array || t.Kind == Slice:
		if t.Kind == Slice && decode {
			g.p("%s = ecs.MakeSaveSlice[%s](d, %d)\n", x, g.goType(t.Elem), g.minBytes(t.Elem))
		} else if t.Kind == Slice {
			g.p("e.Len(len(%s))\n", x)
		}
		if holdsNothing(t) || holdsNothing(t.Elem) {
			return
		}
		i := loopVar(depth)
		g.p("for %s := range %s {\n", i, x)
		g.codecBody(x+"["+i+"]", t.Elem, depth+1, decode)
		g.p("}\n")
	}
}

// cloneMethod writes Clone, the deep copy ecs snapshots call (ecs.Cloner).
func (g *gen) cloneMethod(c *Component) {
	g.p("// Clone returns a deep copy of c, sharing no slice with it: what ecs\n")
	g.p("// snapshots and World.Clone call (ecs.Cloner). Fields of imported types\n")
	g.p("// are copied by assignment.\n")
	g.p("func (c %s) Clone() %s {\n\tout := c\n", c.Name, c.Name)
	for _, f := range c.Fields {
		if g.typeNeedsClone(f.Type) {
			g.cloneValue("out."+f.Name, "c."+f.Name, f.Type, 0)
		}
	}
	g.p("\treturn out\n}\n\n")
}

// cloneValue writes dst = a deep copy of src, both of type t, which
// needs one.
func (g *gen) cloneValue(dst, src string, t *Type, depth int) {
	switch t.Kind {
	case Named:
		g.p("%s = %s.Clone()\n", dst, src)
	case Array:
		i := loopVar(depth)
		g.p("for %s := range %s {\n", i, src)
		g.cloneValue(dst+"["+i+"]", src+"["+i+"]", t.Elem, depth+1)
		g.p("}\n")
	case Slice:
		if !g.typeNeedsClone(t.Elem) {
			g.p("%s = append(%s(nil), %s...)\n", dst, g.goType(t), src)
			return
		}
		i := loopVar(depth)
		g.p("if %s != nil {\n%s = make(%s, len(%s))\n", src, dst, g.goType(t), src)
		g.p("for %s := range %s {\n", i, src)
		g.cloneValue(dst+"["+i+"]", src+"["+i+"]", t.Elem, depth+1)
		g.p("}\n}\n")
	}
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
	var walk func(t *Type)
	walk = func(t *Type) {
		switch t.Kind {
		case Imported:
			if !slices.Contains(paths, t.Path) {
				paths = append(paths, t.Path)
			}
		case Array, Slice:
			walk(t.Elem)
		}
	}
	for _, c := range defs.Components {
		for _, f := range c.Fields {
			walk(f.Type)
		}
	}
	slices.Sort(paths)
	// Besides the file's own imports and package, an alias must not be a
	// name the generated bodies declare (receivers c and a, out, d, e, n,
	// init, and the i0 and v0 families, kept apart by their digits) nor a
	// predeclared identifier (string, int, ...), which it would shadow.
	taken := map[string]bool{"ecs": true, "fmt": true, defs.Package: true,
		"a": true, "c": true, "d": true, "e": true, "n": true, "out": true, "init": true}
	out := map[string]string{}
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
		if types.Universe.Lookup(name) != nil || (name[0] == 'i' || name[0] == 'v') && isDigits(name[1:]) {
			name = "pkg" + name
		}
		alias := name
		for n := 2; taken[alias]; n++ {
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
