package compgen

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// Default values are written in code of a size linear in the JSON they
// come from. A component's defaults are written in full once, in
// DefaultX; where another value of X takes some of them (a field of type
// X without a default of its own, or an object of X's fields that leaves
// some out), they are written again only when short (inlineDefaults),
// and are otherwise taken from DefaultX(): the field is DefaultX(), and
// the object func() X { out := DefaultX(); out.F = ...; return out }().
// Copying long defaults into each value would write them once per value,
// which is quadratic in the number of values, and exponential in how
// deeply components hold components.

// inlineDefaults is the size, in bytes, of the longest literal of a
// component's defaults that is written again where a value takes them.
const inlineDefaults = 100

// defaultFunc writes DefaultX, which returns X with its defaults.
func (g *gen) defaultFunc(c *Component) {
	if g.hasDefaults(c) {
		g.p("// Default%s returns %s's default value, from the defaults of its definition.\n", c.Name, c.Name)
	} else {
		g.p("// Default%s returns %s's default value: all zero.\n", c.Name, c.Name)
	}
	g.p("func Default%s() %s { return %s }\n\n", c.Name, c.Name, g.defaults(c))
}

// defaults returns c's default value as a literal, X{F: ...}, fields left
// zero left out, writing it on first use.
func (g *gen) defaults(c *Component) string {
	facts := g.comp(c)
	if facts.defaultParts == nil {
		facts.defaultParts = make([]string, len(c.Fields))
		var parts []string
		for i, f := range c.Fields {
			if facts.nonzero[f.Name] {
				facts.defaultParts[i] = f.Name + ": " + g.capture(func() { g.literal(f.Type, f.Default, false) })
				parts = append(parts, facts.defaultParts[i])
			}
		}
		facts.defaults = c.Name + "{" + strings.Join(parts, ", ") + "}"
	}
	return facts.defaults
}

// writeDefaults writes c's default value: its literal when short, else
// DefaultX().
func (g *gen) writeDefaults(c *Component) {
	if lit := g.defaults(c); len(lit) <= inlineDefaults {
		g.buf.WriteString(lit)
	} else {
		g.p("Default%s()", c.Name)
	}
}

// given returns the fields the object n of c's fields sets, in c's
// order, each once (the last value of a key given twice, as JSON
// decoders do), with their values, in time linear in n's keys (not in
// c's fields: a value may set few of many). Parse has checked that each
// key is a field of c.
func (g *gen) given(c *Component, n *node) ([]int, []*node) {
	fieldAt := g.comp(c).fieldAt
	last := make(map[int]int, len(n.keys)) // field index -> place in n
	for i, k := range n.keys {
		last[fieldAt[k]] = i
	}
	fields := make([]int, 0, len(last))
	for f := range last {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	vals := make([]*node, len(fields))
	for i, f := range fields {
		vals[i] = n.vals[last[f]]
	}
	return fields, vals
}

// setsDefaults reports whether fields, indexes of c's, hold each field
// of c whose default is not zero, so that a literal of just them is c's
// value.
func (g *gen) setsDefaults(c *Component, fields []int) bool {
	nonzero := g.comp(c).nonzero
	n := 0
	for _, f := range fields {
		if nonzero[c.Fields[f].Name] {
			n++
		}
	}
	return n == len(nonzero)
}

// object writes the value of c that the object n of field values gives:
// its fields from n, the others at their defaults.
func (g *gen) object(c *Component, n *node) {
	fields, vals := g.given(c, n)
	switch {
	case len(fields) == 0:
		if g.hasDefaults(c) {
			g.writeDefaults(c)
		} else {
			g.p("%s{}", c.Name)
		}
	case g.setsDefaults(c, fields):
		g.objectLiteral(c, fields, vals, false)
	case len(g.defaults(c)) <= inlineDefaults:
		g.objectLiteral(c, fields, vals, true)
	default:
		g.p("func() %s {\nout := Default%s()\n", c.Name, c.Name)
		g.assign("out", c, fields, vals)
		g.p("return out\n}()")
	}
}

// objectLiteral writes X{...} of the given fields and values, and, with
// others, of the defaults of c's other fields, in c's order. It takes time
// linear in the fields given and the fields with defaults, not in all of
// c's.
func (g *gen) objectLiteral(c *Component, fields []int, vals []*node, others bool) {
	var withDefaults []int
	if others {
		withDefaults = g.comp(c).nonzeroAt
	}
	g.p("%s{", c.Name)
	sep := ""
	for i, j := 0, 0; i < len(fields) || j < len(withDefaults); {
		switch {
		case j == len(withDefaults) || i < len(fields) && fields[i] <= withDefaults[j]:
			if j < len(withDefaults) && fields[i] == withDefaults[j] {
				j++ // given: its default is not written
			}
			g.p("%s%s: ", sep, c.Fields[fields[i]].Name)
			g.literal(c.Fields[fields[i]].Type, vals[i], false)
			i++
		default:
			g.p("%s%s", sep, g.comp(c).defaultParts[withDefaults[j]])
			j++
		}
		sep = ", "
	}
	g.p("}")
}

// assign writes x.F = value for each of c's given fields and values.
func (g *gen) assign(x string, c *Component, fields []int, vals []*node) {
	for i, f := range fields {
		g.p("%s.%s = ", x, c.Fields[f].Name)
		g.literal(c.Fields[f].Type, vals[i], false)
		g.p("\n")
	}
}

// archetypeDefault writes what an archetype's Defaults needs for its
// value of c, given n, the archetype's object of values for c, or nil,
// and returns the expression of the value: DefaultX(), a literal, or the
// variable v, set to DefaultX() with n's fields on top.
func (g *gen) archetypeDefault(c *Component, n *node, v string) string {
	if n == nil {
		return "Default" + c.Name + "()"
	}
	fields, vals := g.given(c, n)
	switch {
	case len(fields) == 0:
		return "Default" + c.Name + "()"
	case g.setsDefaults(c, fields):
		return g.capture(func() { g.objectLiteral(c, fields, vals, false) })
	case len(g.defaults(c)) <= inlineDefaults:
		return g.capture(func() { g.objectLiteral(c, fields, vals, true) })
	}
	g.p("%s := Default%s()\n", v, c.Name)
	g.assign(v, c, fields, vals)
	return v
}

// capture returns what write writes, instead of writing it.
func (g *gen) capture(write func()) string {
	saved := g.buf
	g.buf = &bytes.Buffer{}
	write()
	out := g.buf.String()
	g.buf = saved
	return out
}

// literal writes the Go form of the JSON value n as type t: the value of
// a field, or, when elided, of an element inside an array or slice
// literal, which leaves out the type of an inner array or slice literal
// ({1, 2}, not [2]int32{1, 2}). n is nil only for a field of component
// type with no default, which takes that component's defaults. Parse has
// checked that n fits t.
func (g *gen) literal(t *Type, n *node, elided bool) {
	if t.Kind == Named {
		c := g.byName[t.Name]
		if n == nil {
			g.writeDefaults(c)
		} else {
			g.object(c, n)
		}
		return
	}
	switch n.kind {
	case boolNode:
		g.buf.WriteString(strconv.FormatBool(n.b))
	case stringNode:
		g.buf.WriteString(strconv.Quote(n.str))
	case numberNode:
		if t.Kind == Basic && strings.HasPrefix(t.Name, "float") {
			// Go's constants reject exponents the JSON may have, such as
			// 1e-4000000000: the value the type holds is written instead.
			bits := 64
			if t.Name == "float32" {
				bits = 32
			}
			f, _ := strconv.ParseFloat(string(n.num), bits)
			g.buf.WriteString(strconv.FormatFloat(f, 'g', -1, bits))
		} else {
			g.buf.WriteString(string(n.num))
		}
	case arrayNode:
		if !elided {
			g.buf.WriteString(g.goType(t))
		}
		g.p("{")
		for i, e := range n.elems {
			if i > 0 {
				g.p(", ")
			}
			g.literal(t.Elem, e, true)
		}
		g.p("}")
	}
}
