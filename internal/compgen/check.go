package compgen

import (
	"fmt"
	"maps"
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
	seen := map[string]bool{}
	for _, c := range d.defs.Components {
		if c.Name == "" || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
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
				d.errorf(c.Pos, "component %s: stable name %s is %s's already", c.Name, quoteClipped(c.StableName), first.Name)
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
	d.stableNames(byName)
	v := &valueChecker{d: d, byName: byName, fields: map[*Component]map[string]*Field{}}
	for _, c := range d.defs.Components {
		for _, f := range c.Fields {
			if f.Type != nil && d.resolve(f, f.Type, byName) && f.Default != nil {
				v.value(f.Default, f.Type, &valuePath{seg: c.Name + "." + f.Name})
			}
		}
	}
	if d.cycles(byName) {
		d.depths(byName)
	}
	archetypes := map[string]*Archetype{}
	for _, a := range d.defs.Archetypes {
		if first := archetypes[a.Name]; first != nil {
			d.errorf(a.Pos, "archetype %s defined twice (first at %v)", a.Name, first.Pos)
		} else {
			archetypes[a.Name] = a
		}
		v.checkArchetype(a)
	}
}

// resolve reports a named type that no component defines.
func (d *decoder) resolve(f *Field, t *Type, byName map[string]*Component) bool {
	switch t.Kind {
	case Named:
		if byName[t.Name] == nil {
			d.errorf(f.Pos, "field %s: unknown type %s (not a basic type, Entity, or a component of the definitions)", f.Name, quoteClipped(t.Name))
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
// such a type). Entities refer to other entities with Entity fields. It
// reports whether there is none.
func (d *decoder) cycles(byName map[string]*Component) bool {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[string]int{}
	var stack []string     // Component.Field steps from the root of the walk
	at := map[string]int{} // a component being visited -> its step in stack
	none := true
	var visit func(c *Component)
	visit = func(c *Component) {
		state[c.Name] = visiting
		at[c.Name] = len(stack)
		for _, f := range c.Fields {
			next := byName[heldComponent(f.Type)]
			if next == nil {
				continue
			}
			stack = append(stack, c.Name+"."+f.Name)
			switch state[next.Name] {
			case visiting:
				none = false
				d.errorf(f.Pos, "component %s holds itself (%s): a save file cannot describe such a type; refer to other entities with Entity fields instead",
					next.Name, cyclePath(stack[at[next.Name]:], next.Name))
			case unvisited:
				visit(next)
			}
			stack = stack[:len(stack)-1]
		}
		state[c.Name] = done
	}
	for _, c := range d.defs.Components {
		if state[c.Name] == unvisited {
			visit(c)
		}
	}
	return none
}

// heldComponent is the component a field of type t holds, through arrays
// and slices, or "" for none.
func heldComponent(t *Type) string {
	for t != nil && (t.Kind == Array || t.Kind == Slice) {
		t = t.Elem
	}
	if t == nil || t.Kind != Named {
		return ""
	}
	return t.Name
}

// cyclePath writes the steps of a cycle back to name, the middle left out
// of a long one so that the message stays short.
func cyclePath(steps []string, name string) string {
	const keep = 4
	if len(steps) > 2*keep {
		steps = append(append(slices.Clip(steps[:keep]), fmt.Sprintf("(%d more)", len(steps)-2*keep)), steps[len(steps)-keep:]...)
	}
	return strings.Join(append(slices.Clip(steps), name), " -> ")
}

// valueChecker checks default values.
type valueChecker struct {
	d      *decoder
	byName map[string]*Component
	fields map[*Component]map[string]*Field // by name, made on first use
}

// valuePath names the value a check is at, as Health.Slots[].HP: a step
// per level, written out only in a message, so that checking takes time
// linear in the values however long their names.
type valuePath struct {
	up  *valuePath
	seg string // the first: Component.Field or Archetype.Component; then "[]" or ".Field"
}

func (p *valuePath) String() string {
	var segs []string
	for ; p != nil; p = p.up {
		segs = append(segs, p.seg)
	}
	slices.Reverse(segs)
	return strings.Join(segs, "")
}

// value checks that n is a value of type t, as the default at what.
func (v *valueChecker) value(n *node, t *Type, what *valuePath) {
	d := v.d
	want := func(kind string) {
		d.errorf(n.pos, "default of %v: want %s, got %v", what, kind, n.kind)
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
				d.errorf(n.pos, "default of %v: %s is out of the range of %s", what, clipped(string(n.num)), t.Name)
			}
		default:
			if n.kind != numberNode {
				want("an integer")
			} else if !fitsInteger(string(n.num), t.Name) {
				d.errorf(n.pos, "default of %v: %s is not a value of %s%s", what, clipped(string(n.num)), t.Name, map[string]string{
					"int": " on 32-bit machines (use int64)", "uint": " on 32-bit machines (use uint64)"}[t.Name])
			}
		}
	case EntityRef:
		d.errorf(n.pos, "default of %v: an Entity has no default (entities are made at run time)", what)
	case Array, Slice:
		if n.kind != arrayNode {
			want("an array")
			return
		}
		if t.Kind == Array && len(n.elems) > t.Len {
			d.errorf(n.pos, "default of %v: %d elements for [%d]", what, len(n.elems), t.Len)
		}
		elem := &valuePath{what, "[]"}
		for _, e := range n.elems {
			v.value(e, t.Elem, elem)
		}
	case Named:
		if c := v.byName[t.Name]; c != nil { // an unknown one is reported already
			v.componentValue(n, c, what)
		}
	case Imported:
		d.errorf(n.pos, "default of %v: a field of a Go type by import path (%s.%s) takes no default", what, clipped(t.Path), t.Name)
	}
}

// componentValue checks an object of field values of component c.
func (v *valueChecker) componentValue(n *node, c *Component, what *valuePath) {
	if n.kind != objectNode {
		v.d.errorf(n.pos, "default of %v: want an object of %s's fields, got %v", what, c.Name, n.kind)
		return
	}
	fields := v.fields[c]
	if fields == nil {
		fields = make(map[string]*Field, len(c.Fields))
		for _, f := range c.Fields {
			fields[f.Name] = f // the last of a name, reported twice
		}
		v.fields[c] = fields
	}
	for i, k := range n.keys {
		field := fields[k]
		if field == nil {
			v.d.errorf(n.keyPos[i], "default of %v: %s has no field %s", what, c.Name, quoteClipped(k))
			continue
		}
		if field.Type != nil {
			v.value(n.vals[i], field.Type, &valuePath{what, "." + k})
		}
	}
}

// fitsInteger reports whether the JSON number s is an integer that the Go
// type name holds (int and uint as 32 bits, their size on 32-bit machines,
// so that the code builds there too).
func fitsInteger(s, name string) bool {
	bits := 64
	switch name {
	case "int8", "uint8":
		bits = 8
	case "int16", "uint16":
		bits = 16
	case "int", "int32", "uint", "uint32":
		bits = 32
	}
	if strings.HasPrefix(name, "u") {
		if s == "-0" {
			return true
		}
		_, err := strconv.ParseUint(s, 10, bits)
		return err == nil
	}
	_, err := strconv.ParseInt(s, 10, bits)
	return err == nil
}

func (v *valueChecker) checkArchetype(a *Archetype) {
	d, byName := v.d, v.byName
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
			d.errorf(a.Pos, "archetype %s: unknown component %s", a.Name, quoteClipped(name))
		case seen[name]:
			d.errorf(a.Pos, "archetype %s: component %s listed twice", a.Name, name)
		}
		seen[name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(a.Defaults)) {
		n := a.Defaults[name]
		if !seen[name] {
			d.errorf(n.pos, "archetype %s: defaults for %s, which is not one of its components", a.Name, quoteClipped(name))
			continue
		}
		if c := byName[name]; c != nil {
			v.componentValue(n, c, &valuePath{seg: a.Name + "." + name})
		}
	}
}
