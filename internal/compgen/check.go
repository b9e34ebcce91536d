package compgen

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// generatedMethods are the methods the generator gives component types: no
// field may take their names.
var generatedMethods = []string{"Checksum", "Clone", "DecodeSave", "EncodeSave", "String"}

// generatedNames reports two top-level names of the generated file that
// are the same: a component X brings X and DefaultX, an archetype A
// brings A and NewA, and the file has Register. (A component and an
// archetype of one name are reported by checkArchetype.)
func (d *decoder) generatedNames() {
	type owner struct {
		pos  Pos
		what string
	}
	names := map[string]owner{"Register": {what: "the generated function Register"}}
	claim := func(name string, pos Pos, what string) {
		if first, ok := names[name]; ok {
			if first.pos == (Pos{}) {
				d.errorf(pos, "%s: the name %s is taken by %s", what, name, first.what)
			} else {
				d.errorf(pos, "%s: the name %s is taken by %s (at %v)", what, name, first.what, first.pos)
			}
			return
		}
		names[name] = owner{pos, what}
	}
	var comps []*Component // each name once: a duplicate is reported by check
	for _, c := range d.defs.Components {
		if _, taken := names[c.Name]; c.Name == "" || taken && slices.ContainsFunc(comps, func(o *Component) bool { return o.Name == c.Name }) {
			continue
		}
		comps = append(comps, c)
		claim(c.Name, c.Pos, "component "+c.Name)
	}
	for _, c := range comps {
		claim("Default"+c.Name, c.Pos, "component "+c.Name+"'s generated function Default"+c.Name)
	}
	for _, a := range d.defs.Archetypes {
		if a.Name != "" {
			if _, isComponent := names[a.Name]; !isComponent {
				claim(a.Name, a.Pos, "archetype "+a.Name)
			}
			claim("New"+a.Name, a.Pos, "archetype "+a.Name+"'s generated function New"+a.Name)
		}
	}
}

// check runs the checks that need every file: names, references, cycles
// and default values.
func (d *decoder) check() {
	byName := map[string]*Component{}
	stable := map[string]*Component{}
	for _, c := range d.defs.Components {
		if first, ok := byName[c.Name]; ok {
			d.errorf(c.Pos, "component %s defined twice (first at %v)", c.Name, first.Pos)
			continue
		}
		byName[c.Name] = c
		if c.StableName != "" {
			if first, ok := stable[c.StableName]; ok {
				d.errorf(c.Pos, "component %s: stable name %q is %s's already", c.Name, c.StableName, first.Name)
			}
			stable[c.StableName] = c
		}
		fieldNames := map[string]bool{}
		for _, f := range c.Fields {
			if fieldNames[f.Name] {
				d.errorf(f.Pos, "component %s: field %s defined twice", c.Name, f.Name)
			}
			if slices.Contains(generatedMethods, f.Name) {
				d.errorf(f.Pos, "component %s: field %s has the name of a generated method (%s)", c.Name, f.Name, strings.Join(generatedMethods, ", "))
			}
			fieldNames[f.Name] = true
		}
	}
	d.generatedNames()
	for _, c := range d.defs.Components {
		for _, f := range c.Fields {
			if f.Type != nil && d.resolve(f, f.Type, byName) && f.Default != nil {
				d.value(f.Default, f.Type, c.Name+"."+f.Name, byName)
			}
		}
	}
	d.cycles(byName)
	for i, a := range d.defs.Archetypes {
		d.checkArchetype(a, d.defs.Archetypes[:i], byName)
	}
}

// resolve reports a named type that no component defines.
func (d *decoder) resolve(f *Field, t *Type, byName map[string]*Component) bool {
	switch t.Kind {
	case Named:
		if byName[t.Name] == nil {
			d.errorf(f.Pos, "field %s: unknown type %q (not a basic type, Entity, or a component of the definitions)", f.Name, t.Name)
			return false
		}
	case Array, Slice:
		return d.resolve(f, t.Elem, byName)
	}
	return true
}

// cycles reports a component that holds itself, through fields of
// component, array and slice types: by value its size would be infinite,
// and through a slice its save-file schema would be (ecs refuses to save
// such a type). Entities refer to other entities with Entity fields.
func (d *decoder) cycles(byName map[string]*Component) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[string]int{}
	var visit func(c *Component, path []string)
	visit = func(c *Component, path []string) {
		state[c.Name] = visiting
		for _, f := range c.Fields {
			t := f.Type
			for t != nil && (t.Kind == Array || t.Kind == Slice) {
				t = t.Elem
			}
			if t == nil || t.Kind != Named || byName[t.Name] == nil {
				continue
			}
			next := byName[t.Name]
			switch state[next.Name] {
			case visiting:
				d.errorf(f.Pos, "component %s holds itself (%s): a save file cannot describe such a type; refer to other entities with Entity fields instead",
					next.Name, strings.Join(append(path, c.Name+"."+f.Name, next.Name), " -> "))
			case unvisited:
				visit(next, append(path, c.Name+"."+f.Name))
			}
		}
		state[c.Name] = done
	}
	for _, c := range d.defs.Components {
		if state[c.Name] == unvisited {
			visit(c, nil)
		}
	}
}

// value checks that n is a value of type t, as a default of what.
func (d *decoder) value(n *node, t *Type, what string, byName map[string]*Component) {
	want := func(kind string) {
		d.errorf(n.pos, "default of %s: want %s, got %v", what, kind, n.kind)
	}
	switch t.Kind {
	case Basic:
		switch {
		case t.Name == "bool":
			if n.kind != boolNode {
				want("true or false")
			}
		case t.Name == "string":
			if n.kind != stringNode {
				want("a string")
			}
		case strings.HasPrefix(t.Name, "float"):
			bits := 64
			if t.Name == "float32" {
				bits = 32
			}
			if n.kind != numberNode {
				want("a number")
			} else if _, err := strconv.ParseFloat(string(n.num), bits); err != nil {
				d.errorf(n.pos, "default of %s: %s is out of the range of %s", what, n.num, t.Name)
			}
		default:
			if n.kind != numberNode {
				want("an integer")
			} else if !fitsInteger(string(n.num), t.Name) {
				d.errorf(n.pos, "default of %s: %s is not a value of %s%s", what, n.num, t.Name, map[string]string{
					"int": " on 32-bit machines (use int64)", "uint": " on 32-bit machines (use uint64)"}[t.Name])
			}
		}
	case EntityRef:
		d.errorf(n.pos, "default of %s: an Entity has no default (entities are made at run time)", what)
	case Array, Slice:
		if n.kind != arrayNode {
			want("an array")
			return
		}
		if t.Kind == Array && len(n.elems) > t.Len {
			d.errorf(n.pos, "default of %s: %d elements for [%d]", what, len(n.elems), t.Len)
		}
		for _, e := range n.elems {
			d.value(e, t.Elem, what+"[]", byName)
		}
	case Named:
		if c := byName[t.Name]; c != nil { // an unknown one is reported already
			d.componentValue(n, c, what, byName)
		}
	case Imported:
		d.errorf(n.pos, "default of %s: a field of a Go type by import path (%s.%s) takes no default", what, t.Path, t.Name)
	}
}

// componentValue checks an object of field values of component c.
func (d *decoder) componentValue(n *node, c *Component, what string, byName map[string]*Component) {
	if n.kind != objectNode {
		d.errorf(n.pos, "default of %s: want an object of %s's fields, got %v", what, c.Name, n.kind)
		return
	}
	for i, k := range n.keys {
		var field *Field
		for _, f := range c.Fields {
			if f.Name == k {
				field = f
			}
		}
		if field == nil {
			d.errorf(n.keyPos[i], "default of %s: %s has no field %q", what, c.Name, k)
			continue
		}
		if field.Type != nil {
			d.value(n.vals[i], field.Type, what+"."+k, byName)
		}
	}
}

// fitsInteger reports whether the JSON number s is an integer that the Go
// type name holds (int and uint as 32 bits, their size on 32-bit machines).
func fitsInteger(s, name string) bool {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return false
	}
	// int and uint defaults must fit 32 bits, so that the code builds
	// on 32-bit machines too.
	bits := map[string]uint{"int": 32, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
		"uint": 32, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}[name]
	if strings.HasPrefix(name, "u") {
		return v.Sign() >= 0 && v.BitLen() <= int(bits)
	}
	lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), bits-1))
	hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits-1), big.NewInt(1))
	return v.Cmp(lo) >= 0 && v.Cmp(hi) <= 0
}

func (d *decoder) checkArchetype(a *Archetype, before []*Archetype, byName map[string]*Component) {
	for _, b := range before {
		if b.Name == a.Name {
			d.errorf(a.Pos, "archetype %s defined twice (first at %v)", a.Name, b.Pos)
		}
	}
	if c := byName[a.Name]; c != nil {
		d.errorf(a.Pos, "archetype %s has the name of a component (at %v)", a.Name, c.Pos)
	}
	if len(a.Components) == 0 {
		d.errorf(a.Pos, "archetype %s needs at least one component", a.Name)
	}
	if len(a.Components) > maxArchetype {
		d.errorf(a.Pos, "archetype %s: %d components, more than the %d its spawn helpers take (ecs.Map%d)", a.Name, len(a.Components), maxArchetype, maxArchetype)
	}
	seen := map[string]bool{}
	for _, name := range a.Components {
		switch {
		case byName[name] == nil:
			d.errorf(a.Pos, "archetype %s: unknown component %q", a.Name, name)
		case seen[name]:
			d.errorf(a.Pos, "archetype %s: component %s listed twice", a.Name, name)
		}
		seen[name] = true
	}
	for name, v := range a.Defaults {
		if !seen[name] {
			d.errorf(v.pos, "archetype %s: defaults for %q, which is not one of its components", a.Name, name)
			continue
		}
		if c := byName[name]; c != nil {
			d.componentValue(v, c, a.Name+"."+name, byName)
		}
	}
}
