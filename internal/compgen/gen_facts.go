package compgen

// compFacts is what the emitters ask of a component, worked out once:
// a component holds others, which may hold others, so asking again at
// each use would take time exponential in how deeply they nest.
type compFacts struct {
	codec     bool            // it gets EncodeSave and DecodeSave: no field of an imported type, at any depth
	clone     bool            // it holds a slice, at any depth: it gets Clone
	minBytes  int             // the least bytes a value takes in a save file
	nonzero   map[string]bool // the fields whose default is not the zero value
	nonzeroAt []int           // their indexes in Fields, in order
	fieldAt   map[string]int  // a field's name -> its index in Fields
	// defaults is the literal of the default value, X{F: ...}, and
	// defaultParts each field's part of it, in Fields order ("" for a zero
	// one): made on first use (see gen.defaults).
	defaults     string
	defaultParts []string
}

// typeFacts is what the emitters ask of a field's type, worked out once.
type typeFacts struct {
	codec        bool // no imported type, at any depth
	clone        bool // holds a slice: a plain copy would share memory
	holdsNothing bool // an array of length 0, or an array of those: no bytes, no code
	// minBytes is the least bytes a value takes in a save file, for
	// ecs.MakeSaveSlice: its size for a fixed-size value, 1 for a string
	// or slice (its length), the sum for a struct, saturating at mostBytes.
	minBytes int
	levels   int // how many [] and [N] it nests: 0 for any other type
}

// mostBytes is where minBytes saturates: far above any count a save
// file can hold.
const mostBytes = 1 << 30

// comp returns the facts of c, working them out on first use. (Parse has
// refused components that hold themselves, so the recursion ends.)
func (g *gen) comp(c *Component) *compFacts {
	if f := g.comps[c]; f != nil {
		return f
	}
	f := &compFacts{codec: true, nonzero: map[string]bool{}, fieldAt: make(map[string]int, len(c.Fields))}
	for i, fd := range c.Fields {
		f.fieldAt[fd.Name] = i
		t := g.typ(fd.Type)
		f.codec = f.codec && t.codec
		f.clone = f.clone || t.clone
		f.minBytes = min(mostBytes, f.minBytes+t.minBytes)
		if fd.Default != nil || fd.Type.Kind == Named && len(g.comp(g.byName[fd.Type.Name]).nonzero) > 0 {
			f.nonzero[fd.Name] = true
			f.nonzeroAt = append(f.nonzeroAt, i)
		}
	}
	g.comps[c] = f
	return f
}

// hasDefaults reports whether c's default value is not all zero.
func (g *gen) hasDefaults(c *Component) bool { return len(g.comp(c).nonzero) > 0 }

// typ returns the facts of t, working them out on first use.
func (g *gen) typ(t *Type) *typeFacts {
	if f := g.types[t]; f != nil {
		return f
	}
	f := &typeFacts{codec: true, minBytes: 1}
	switch t.Kind {
	case Basic:
		switch t.Name {
		case "bool", "int8", "uint8", "string":
			f.minBytes = 1 // a string: its length
		case "int16", "uint16":
			f.minBytes = 2
		case "int32", "uint32", "float32":
			f.minBytes = 4
		default:
			f.minBytes = 8
		}
	case EntityRef:
		f.minBytes = 8
	case Imported:
		f.codec = false
	case Named:
		c := g.comp(g.byName[t.Name])
		f.codec, f.clone, f.minBytes = c.codec, c.clone, c.minBytes
	case Slice:
		e := g.typ(t.Elem)
		f.codec, f.clone, f.minBytes, f.levels = e.codec, true, 1, 1+e.levels
	case Array:
		e := g.typ(t.Elem)
		f.codec, f.clone, f.levels = e.codec, t.Len > 0 && e.clone, 1+e.levels
		f.holdsNothing = t.Len == 0 || e.holdsNothing
		f.minBytes = mostBytes
		if e.minBytes == 0 || t.Len <= mostBytes/e.minBytes {
			f.minBytes = t.Len * e.minBytes
		}
	}
	g.types[t] = f
	return f
}
