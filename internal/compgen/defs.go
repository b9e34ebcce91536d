package compgen

// Defs is what a set of definition files declares, checked: the input of
// the code generator.
type Defs struct {
	Package    string
	Components []*Component // in file order, files in the order given
	Archetypes []*Archetype
}

// Component is one component type.
type Component struct {
	Pos        Pos
	Name       string   // a Go identifier, exported
	Doc        string   // its doc comment, without the name
	Storage    string   // "table" (default) or "sparse"
	StableName string   // the name in save files (ecs.Name); "" for the default
	Tag        bool     // no fields: a zero-size type
	Fields     []*Field // none for a tag
}

// Field is one field of a component.
type Field struct {
	Pos     Pos
	Name    string
	Doc     string
	Type    *Type
	Default *node // nil when the field defaults to zero
}

// Type is a field's type.
type Type struct {
	Kind TypeKind
	Name string // Basic: the Go name; Component: its name; Imported: the type's name
	Path string // Imported: the import path
	Len  int    // Array: its length
	Elem *Type  // Array and Slice: the element type
}

// TypeKind says what a Type is.
type TypeKind uint8

const (
	Basic     TypeKind = iota // bool, the sized integers, int, uint, float32, float64, string
	EntityRef                 // ecs.Entity
	Array                     // [N]T
	Slice                     // []T
	Named                     // another component of the definitions, by value
	Imported                  // a Go type by import path: "image/color.RGBA"
)

// Archetype is a named bundle of components with defaults, for typed
// spawn helpers.
type Archetype struct {
	Pos        Pos
	Name       string
	Doc        string
	Components []string         // component names, in order
	Defaults   map[string]*node // per component, an object of field values
}
