package compgen

import (
	"fmt"
	"strings"
)

// The code for a field of a nested type ([][]T, [N][]T) loops once per
// level, and is written so that its size is linear in the depth of the
// type. Types in function bodies nested deeper than inlineLevels are
// named by local aliases (type t1 = []t0) rather than written out at
// each level; and a field's loops nest at most loopLevels deep: each
// deeper level is a closure, declared first (f0 := func(v0 *t1) {...}),
// that loops once and calls the closure of the next level, since gofmt
// indents each nested loop by one more tab.

// inlineLevels is how many [] and [N] a type written in a function body
// may nest; a deeper one is named by a local alias.
const inlineLevels = 2

// loopLevels is how many loops the code for one field nests in a
// function body; deeper levels are closures.
const loopLevels = 3

// beginFunc starts a function body: the local names of the last one are
// out of scope.
func (g *gen) beginFunc() {
	clear(g.locals)
	clear(g.closures)
	g.nextLocal, g.nextClosure = 0, 0
}

// typeName is t as Go source in the function being written: t itself
// when it nests at most inlineLevels deep, else a local alias, declared
// where it is first needed (type t0 = []t1, t1 the alias of the element
// type), so that each level of a nested type adds code of constant size.
// A caller calls it before it starts a line, and uses the alias in the
// block it is declared in or in blocks inside it.
func (g *gen) typeName(t *Type) string {
	if g.typ(t).levels <= inlineLevels {
		return g.goType(t)
	}
	if name, ok := g.locals[t]; ok {
		return name
	}
	prefix := "[]"
	if t.Kind == Array {
		prefix = fmt.Sprintf("[%d]", t.Len)
	}
	elem := g.typeName(t.Elem)
	name := fmt.Sprintf("t%d", g.nextLocal)
	g.nextLocal++
	g.p("type %s = %s%s\n", name, prefix, elem)
	g.locals[t] = name
	return name
}

// closure declares a closure that writes the code of one level of type
// t, and returns its name: f0 := func(v0 *T) { body }, or with copy,
// f0 := func(v0, w0 *T) { body }.
func (g *gen) closure(t *Type, copy bool, body func()) string {
	typ := g.typeName(t)
	name := fmt.Sprintf("f%d", g.nextClosure)
	g.nextClosure++
	if copy {
		g.p("%s := func(v0, w0 *%s) {\n", name, typ)
	} else {
		g.p("%s := func(v0 *%s) {\n", name, typ)
	}
	body()
	g.p("}\n")
	g.closures[t] = name
	return name
}

// loopVar is the index variable of a loop nested depth deep.
func loopVar(depth int) string { return fmt.Sprintf("i%d", depth) }

// index is the expression x[i].
func index(x, i string) string {
	if strings.HasPrefix(x, "*") {
		return "(" + x + ")[" + i + "]"
	}
	return x + "[" + i + "]"
}

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
	g.beginFunc()
	for _, f := range c.Fields {
		g.codecField("c."+f.Name, f.Type, false)
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
	g.beginFunc()
	for _, f := range c.Fields {
		g.codecField("c."+f.Name, f.Type, true)
	}
	g.p("}\n\n")
}

// codecField writes the statements of EncodeSave, or of DecodeSave when
// decode, for the field x of type t: first the closures of its levels
// past loopLevels, deepest first, then its loops.
func (g *gen) codecField(x string, t *Type, decode bool) {
	var deep []*Type // the levels past loopLevels that the code reaches
	for depth, u := 0, t; u.Kind == Array || u.Kind == Slice; depth, u = depth+1, u.Elem {
		if depth >= loopLevels {
			deep = append(deep, u)
		}
		if g.typ(u).holdsNothing || g.typ(u.Elem).holdsNothing {
			break // no loop, so no deeper level
		}
	}
	for i := len(deep) - 1; i >= 0; i-- {
		g.closure(deep[i], false, func() { g.codecBody("*v0", deep[i], 0, 1, decode) })
	}
	g.codecBody(x, t, 0, loopLevels, decode)
}

// codecBody writes the statements of EncodeSave, or of DecodeSave when
// decode, for the value x of type t, in a loop nested depth deep: at
// depth most, a slice or array is left to its closure.
func (g *gen) codecBody(x string, t *Type, depth, most int, decode bool) {
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
	case depth == most:
		g.p("%s(&%s)\n", g.closures[t], x)
	case t.Kind == Array || t.Kind == Slice:
		if t.Kind == Slice && decode {
			elem := g.typeName(t.Elem)
			g.p("%s = ecs.MakeSaveSlice[%s](d, %d)\n", x, elem, g.typ(t.Elem).minBytes)
		} else if t.Kind == Slice {
			g.p("e.Len(len(%s))\n", x)
		}
		if g.typ(t).holdsNothing || g.typ(t.Elem).holdsNothing {
			return
		}
		i := loopVar(depth)
		g.p("for %s := range %s {\n", i, x)
		g.codecBody(index(x, i), t.Elem, depth+1, most, decode)
		g.p("}\n")
	}
}

// cloneMethod writes Clone, the deep copy ecs snapshots call (ecs.Cloner).
func (g *gen) cloneMethod(c *Component) {
	g.p("// Clone returns a deep copy of c, sharing no slice with it: what ecs\n")
	g.p("// snapshots and World.CopyEntity call (ecs.Cloner). Fields of imported types\n")
	g.p("// are copied by assignment.\n")
	g.p("func (c %s) Clone() %s {\n\tout := c\n", c.Name, c.Name)
	g.beginFunc()
	for _, f := range c.Fields {
		if g.typ(f.Type).clone {
			g.cloneField("out."+f.Name, "c."+f.Name, f.Type)
		}
	}
	g.p("\treturn out\n}\n\n")
}

// loops reports whether cloneValue loops over the elements of t, a type
// that needs a deep copy.
func (g *gen) loops(t *Type) bool {
	return t.Kind == Array || t.Kind == Slice && g.typ(t.Elem).clone
}

// cloneField writes dst = a deep copy of src, the field of type t: first
// the closures of its levels past loopLevels, deepest first, then its
// loops.
func (g *gen) cloneField(dst, src string, t *Type) {
	var deep []*Type
	for depth, u := 0, t; g.loops(u); depth, u = depth+1, u.Elem {
		if depth >= loopLevels {
			deep = append(deep, u)
		}
	}
	for i := len(deep) - 1; i >= 0; i-- {
		g.closure(deep[i], true, func() { g.cloneValue("*v0", "*w0", deep[i], 0, 1) })
	}
	g.cloneValue(dst, src, t, 0, loopLevels)
}

// cloneValue writes dst = a deep copy of src, both of type t, which
// needs one, in a loop nested depth deep: at depth most, a slice or
// array that loops is left to its closure.
func (g *gen) cloneValue(dst, src string, t *Type, depth, most int) {
	switch {
	case t.Kind == Named:
		g.p("%s = %s.Clone()\n", dst, src)
	case !g.loops(t): // a slice of values that copy by assignment
		name := g.typeName(t)
		g.p("%s = append(%s(nil), %s...)\n", dst, name, src)
	case depth == most:
		g.p("%s(&%s, &%s)\n", g.closures[t], dst, src)
	case t.Kind == Array:
		i := loopVar(depth)
		g.p("for %s := range %s {\n", i, src)
		g.cloneValue(index(dst, i), index(src, i), t.Elem, depth+1, most)
		g.p("}\n")
	default: // a slice of values that need a deep copy
		name := g.typeName(t)
		i := loopVar(depth)
		g.p("if %s != nil {\n%s = make(%s, len(%s))\n", src, dst, name, src)
		g.p("for %s := range %s {\n", i, src)
		g.cloneValue(index(dst, i), index(src, i), t.Elem, depth+1, most)
		g.p("}\n}\n")
	}
}
