package compgen

// depths reports a field whose values nest deeper than MaxTypeDepth, the
// depth of types ecs.World.Load reads: a level for the field, one for each
// [] and [N] of its type, and those of a component it holds. A component
// whose field is too deep only because of another component it holds is
// left to that component's report. Called when no component holds
// itself; its time is linear in the size of the definitions.
func (d *decoder) depths(byName map[string]*Component) {
	heights := map[string]int{}
	var height func(c *Component) int
	var typeHeight func(t *Type) int
	// typeHeight is how many levels below a value of t its parts nest.
	typeHeight = func(t *Type) int {
		switch t.Kind {
		case Array:
			if t.Len == 0 {
				return 1 // a save describes no element: ecs writes an empty struct
			}
			return 1 + typeHeight(t.Elem)
		case Slice:
			return 1 + typeHeight(t.Elem)
		case Named:
			if c := byName[t.Name]; c != nil {
				return height(c)
			}
		}
		return 0
	}
	height = func(c *Component) int {
		if h, ok := heights[c.Name]; ok {
			return h
		}
		h := 0
		for _, f := range c.Fields {
			if f.Type != nil {
				h = max(h, 1+typeHeight(f.Type))
			}
		}
		heights[c.Name] = h
		return h
	}
	for _, c := range d.defs.Components {
		if byName[c.Name] != c {
			continue // a duplicate, reported
		}
		for _, f := range c.Fields {
			if f.Type == nil {
				continue
			}
			levels := 1 + typeHeight(f.Type)
			if levels <= MaxTypeDepth {
				continue
			}
			if held := byName[heldComponent(f.Type)]; held != nil && height(held) > MaxTypeDepth {
				continue
			}
			d.errorf(f.Pos, "component %s: field %s nests its values %d levels deep (one for the field, each [] and [N], and each component held), more than %d (compgen.MaxTypeDepth): ecs.World.Load refuses such a type",
				c.Name, f.Name, levels, MaxTypeDepth)
			break
		}
	}
}
