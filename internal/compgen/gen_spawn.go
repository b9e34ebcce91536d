package compgen

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// defaultFunc writes DefaultX, which returns X with its defaults.
func (g *gen) defaultFunc(c *Component) {
	if g.hasDefaults(c) {
		g.p("// Default%s returns %s's default value, from the defaults of its definition.\n", c.Name, c.Name)
	} else {
		g.p("// Default%s returns %s's default value: all zero.\n", c.Name, c.Name)
	}
	g.p("func Default%s() %s { return %s }\n\n", c.Name, c.Name, g.componentLiteral(c, nil))
}

// hasDefaults reports whether c's literal sets any field.
func (g *gen) hasDefaults(c *Component) bool { return g.componentLiteral(c, nil) != c.Name+"{}" }

// componentLiteral is a composite literal of c: each field from over (an
// object of field values, or nil), else its default, else, for a field
// of a component type, that component's defaults; fields left zero are
// left out.
func (g *gen) componentLiteral(c *Component, over *node) string {
	var parts []string
	for _, f := range c.Fields {
		v := f.Default
		if over != nil {
			for i, k := range over.keys {
				if k == f.Name {
					v = over.vals[i]
				}
			}
		}
		if lit := g.literal(f.Type, v); lit != "" {
			parts = append(parts, f.Name+": "+lit)
		}
	}
	return c.Name + "{" + strings.Join(parts, ", ") + "}"
}

// literal is the Go form of the JSON value n as type t, or "" when n is
// nil and the type's default is its zero value. Parse has checked that n
// fits t.
func (g *gen) literal(t *Type, n *node) string {
	if t.Kind == Named {
		lit := g.componentLiteral(g.byName[t.Name], n)
		if n == nil && lit == t.Name+"{}" {
			return ""
		}
		return lit
	}
	if n == nil {
		return ""
	}
	switch n.kind {
	case boolNode:
		return strconv.FormatBool(n.b)
	case stringNode:
		return strconv.Quote(n.str)
	case numberNode:
		if t.Kind == Basic && strings.HasPrefix(t.Name, "float") {
			// Go's constants reject exponents the JSON may have, such as
			// 1e-4000000000: the value the type holds is written instead.
			bits := 64
			if t.Name == "float32" {
				bits = 32
			}
			f, _ := strconv.ParseFloat(string(n.num), bits)
			return strconv.FormatFloat(f, 'g', -1, bits)
		}
		return string(n.num)
	case arrayNode:
		elems := make([]string, len(n.elems))
		for i, e := range n.elems {
			if elems[i] = g.literal(t.Elem, e); elems[i] == "" {
				elems[i] = g.goType(t.Elem) + "{}"
			}
		}
		return g.goType(t) + "{" + strings.Join(elems, ", ") + "}"
	}
	return ""
}

// archetype writes the spawner of a.
func (g *gen) archetype(a *Archetype) {
	comps := make([]*Component, len(a.Components))
	types := make([]string, len(a.Components))
	params := make([]string, len(a.Components))
	ptrs := make([]string, len(a.Components))
	names := paramNames(a.Components)
	for i, name := range a.Components {
		comps[i], types[i] = g.byName[name], name
		params[i] = names[i] + " " + name
		ptrs[i] = names[i] + " *" + name
	}
	mapType, newMap := "ecs.Map", "ecs.NewMap"
	if len(comps) > 1 {
		mapType = fmt.Sprintf("ecs.Map%d", len(comps))
		newMap = fmt.Sprintf("ecs.NewMap%d", len(comps))
	}
	tlist := strings.Join(types, ", ")
	list := englishList(a.Components)

	g.comment("", docOf(a.Name, a.Doc, "is an archetype: a bundle of components that spawn together."))
	g.p("//\n// A %s spawns entities with %s, in one table move each.\n", a.Name, list)
	g.p("type %s struct{ m *%s[%s] }\n\n", a.Name, mapType, tlist)

	g.p("// New%s returns the spawner of %s entities in w.\n", a.Name, a.Name)
	g.p("func New%s(w *ecs.World) *%s { return &%s{%s[%s](w)} }\n\n", a.Name, a.Name, a.Name, newMap, tlist)

	g.p("// Defaults returns the values a %s spawns with: each component's\n", a.Name)
	g.p("// defaults, with the archetype's own on top. Each call makes new values.\n")
	g.p("func (a *%s) Defaults() (%s) {\n\treturn ", a.Name, tlist)
	for i, c := range comps {
		if i > 0 {
			g.p(", ")
		}
		if v := a.Defaults[c.Name]; v != nil {
			g.p("%s", g.componentLiteral(c, v))
		} else {
			g.p("Default%s()", c.Name)
		}
	}
	g.p("\n}\n\n")

	g.p("// Spawn spawns a %s with Defaults and returns it.\n", a.Name)
	g.p("func (a *%s) Spawn() ecs.Entity { return a.m.Spawn(a.Defaults()) }\n\n", a.Name)

	g.p("// SpawnWith spawns a %s with the given values and returns it.\n", a.Name)
	g.p("func (a *%s) SpawnWith(%s) ecs.Entity { return a.m.Spawn(%s) }\n\n", a.Name, strings.Join(params, ", "), strings.Join(names, ", "))

	// The batch helpers give each entity its own copy of the defaults:
	// a plain copy would share their slices between all n.
	vals := make([]string, len(comps))
	copies := make([]string, len(comps))
	for i, c := range comps {
		vals[i] = fmt.Sprintf("v%d", i)
		copies[i] = vals[i]
		if g.clone[c.Name] {
			copies[i] += ".Clone()"
		}
	}
	needClone := strings.Contains(strings.Join(copies, ""), ".Clone()")
	star := make([]string, len(names))
	for i, n := range names {
		star[i] = "*" + n
	}
	assign := fmt.Sprintf("%s = %s", strings.Join(star, ", "), strings.Join(copies, ", "))

	g.p("// SpawnBatch spawns n %s entities with Defaults, in one table move.\n", a.Name)
	g.p("func (a *%s) SpawnBatch(n int) {\n", a.Name)
	if needClone {
		g.p("\t%s := a.Defaults()\n", strings.Join(vals, ", "))
		g.p("\ta.m.SpawnBatchFunc(n, func(_ ecs.Entity, %s) { %s })\n}\n\n", strings.Join(ptrs, ", "), assign)
	} else {
		g.p("\t%s := a.Defaults()\n", strings.Join(vals, ", "))
		g.p("\ta.m.SpawnBatch(n, %s)\n}\n\n", strings.Join(vals, ", "))
	}

	g.p("// SpawnBatchFunc spawns n %s entities, in one table move, and calls\n", a.Name)
	g.p("// init with each and pointers to its values, set to Defaults, to adjust\n")
	g.p("// them. The rules of the ecs MapN.SpawnBatchFunc apply inside init.\n")
	g.p("func (a *%s) SpawnBatchFunc(n int, init func(e ecs.Entity, %s)) {\n", a.Name, strings.Join(ptrs, ", "))
	g.p("\t%s := a.Defaults()\n", strings.Join(vals, ", "))
	g.p("\ta.m.SpawnBatchFunc(n, func(e ecs.Entity, %s) {\n\t\t%s\n\t\tinit(e, %s)\n\t})\n}\n\n", strings.Join(ptrs, ", "), assign, strings.Join(names, ", "))
}

// paramNames turns component names into parameter names: the leading
// capitals lowered ("URLPath" -> "urlPath"), kept apart from Go's keywords
// and from the names the helpers use themselves.
func paramNames(comps []string) []string {
	reserved := map[string]bool{"a": true, "e": true, "n": true, "init": true, "ecs": true, "fmt": true}
	out := make([]string, len(comps))
	for i, c := range comps {
		r := []rune(c)
		k := 0
		for k < len(r) && unicode.IsUpper(r[k]) {
			k++
		}
		if k > 1 && k < len(r) {
			k-- // the last capital starts the next word
		}
		for j := range k {
			r[j] = unicode.ToLower(r[j])
		}
		name := string(r)
		if token.IsKeyword(name) || reserved[name] || strings.HasPrefix(name, "v") && isDigits(name[1:]) {
			name += "Value"
		}
		for n := 2; slices.Contains(out[:i], name); n++ {
			name = fmt.Sprintf("%s%d", string(r), n)
		}
		out[i] = name
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// englishList joins names as "A", "A and B" or "A, B and C".
func englishList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
