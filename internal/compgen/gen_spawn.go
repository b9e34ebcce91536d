package compgen

import (
	"fmt"
	"go/token"
	"slices"
	"strings"
	"unicode"
)

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
	g.p("func (a *%s) Defaults() (%s) {\n", a.Name, tlist)
	values := make([]string, len(comps))
	for i, c := range comps {
		values[i] = g.archetypeDefault(c, a.Defaults[c.Name], fmt.Sprintf("v%d", i))
	}
	g.p("\treturn %s\n}\n\n", strings.Join(values, ", "))

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
		if g.comp(c).clone {
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
