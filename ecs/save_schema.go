package ecs

import (
	"fmt"
	"math"
	"reflect"
	"slices"
)

// schemaKind is the kind of a saved value, as a save file names it. Go's
// int, uint and uintptr are saved as 64-bit kinds, so a file does not
// depend on the word size of the machine that wrote it.
type schemaKind uint8

const (
	sBool schemaKind = iota + 1
	sInt8
	sInt16
	sInt32
	sInt64
	sUint8
	sUint16
	sUint32
	sUint64
	sFloat32
	sFloat64
	sComplex64
	sComplex128
	sString
	sEntity // an Entity: index and generation, without the world's tag
	sArray
	sSlice
	sStruct
	sKindEnd
)

var schemaKindNames = [...]string{sBool: "bool", sInt8: "int8", sInt16: "int16", sInt32: "int32", sInt64: "int64",
	sUint8: "uint8", sUint16: "uint16", sUint32: "uint32", sUint64: "uint64", sFloat32: "float32", sFloat64: "float64",
	sComplex64: "complex64", sComplex128: "complex128", sString: "string", sEntity: "ecs.Entity", sArray: "array",
	sSlice: "slice", sStruct: "struct"}

func (k schemaKind) String() string {
	if k > 0 && k < sKindEnd {
		return schemaKindNames[k]
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// schema describes the layout of a saved type: a save file carries one per
// component and resource type, so a file still loads after the type gained,
// lost or reordered fields (fields are matched by name).
type schema struct {
	kind   schemaKind
	n      int           // sArray: the length
	elem   *schema       // sArray, sSlice
	fields []schemaField // sStruct, in declaration order
}

type schemaField struct {
	name string
	s    *schema
}

// fixedSize is the size of a saved value of s in bytes, or -1 when it
// varies (it holds a string or slice). A value that takes no bytes
// (an array of length 0, whatever its element, a struct of such fields,
// an array of those) has size 0, however many elements it claims. The
// size saturates at math.MaxInt: a schema read from a file may describe
// values larger than memory, of which the file then holds none.
func (s *schema) fixedSize() int {
	switch s.kind {
	case sBool, sInt8, sUint8:
		return 1
	case sInt16, sUint16:
		return 2
	case sInt32, sUint32, sFloat32:
		return 4
	case sInt64, sUint64, sFloat64, sComplex64, sEntity:
		return 8
	case sComplex128:
		return 16
	case sArray:
		if s.n == 0 {
			return 0
		}
		switch e := s.elem.fixedSize(); {
		case e < 0:
			return -1
		case e > 0 && s.n > math.MaxInt/e:
			return math.MaxInt
		default:
			return e * s.n
		}
	case sStruct:
		total := 0
		for _, f := range s.fields {
			n := f.s.fixedSize()
			if n < 0 {
				return -1
			}
			total = min(total, math.MaxInt-n) + n // saturating
		}
		return total
	}
	return -1
}

// schemaOf returns the schema of Go type t, or an error naming the first
// field (by path) of a kind a save cannot hold: pointers, maps, channels,
// functions and interfaces.
//
// A type nested deeper than a file may describe (maxSchemaDepth: a level
// per field, array or slice element) is refused too, so that Save never
// writes a file Load would then refuse.
func schemaOf(t reflect.Type) (*schema, error) { return schemaOfAt(t, t.String()) }

// schemaOfAt is schemaOf with the paths in its errors starting at path
// instead of t's name.
func schemaOfAt(t reflect.Type, path string) (*schema, error) {
	s, err := schemaAt(t, path, nil)
	if err == nil && s.depth() > maxSchemaDepth {
		return nil, fmt.Errorf("%s is nested %d levels deep (fields, array and slice elements), more than the %d a save file describes", path, s.depth(), maxSchemaDepth)
	}
	return s, err
}

// depth returns how deeply s nests: 0 for a schema without fields or
// elements, one more per level of fields and elements below it, as
// decoder.schema counts them.
func (s *schema) depth() int {
	d := 0
	if s.elem != nil {
		d = s.elem.depth() + 1
	}
	for _, f := range s.fields {
		d = max(d, f.s.depth()+1)
	}
	return d
}

// schemaAt is schemaOf for the value at path, inside the struct types of
// within (outermost first): a type that holds itself, through a slice, has
// no finite schema, and is refused rather than described forever.
func schemaAt(t reflect.Type, path string, within []reflect.Type) (*schema, error) {
	if t == entityType || (t.Kind() == reflect.Struct && t.ConvertibleTo(entityType)) {
		// Also a type defined from Entity (type Ref ecs.Entity): same
		// layout, and its tag must be replaced on load all the same.
		return &schema{kind: sEntity}, nil
	}
	if t.Kind() == reflect.Array && t.Len() == 0 {
		// Holds nothing, whatever its element (the [0]func() that makes a
		// struct incomparable): no element schema needed.
		return &schema{kind: sArray, elem: &schema{kind: sStruct}}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return &schema{kind: sBool}, nil
	case reflect.Int8:
		return &schema{kind: sInt8}, nil
	case reflect.Int16:
		return &schema{kind: sInt16}, nil
	case reflect.Int32:
		return &schema{kind: sInt32}, nil
	case reflect.Int, reflect.Int64:
		return &schema{kind: sInt64}, nil
	case reflect.Uint8:
		return &schema{kind: sUint8}, nil
	case reflect.Uint16:
		return &schema{kind: sUint16}, nil
	case reflect.Uint32:
		return &schema{kind: sUint32}, nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return &schema{kind: sUint64}, nil
	case reflect.Float32:
		return &schema{kind: sFloat32}, nil
	case reflect.Float64:
		return &schema{kind: sFloat64}, nil
	case reflect.Complex64:
		return &schema{kind: sComplex64}, nil
	case reflect.Complex128:
		return &schema{kind: sComplex128}, nil
	case reflect.String:
		return &schema{kind: sString}, nil
	case reflect.Array, reflect.Slice:
		if t.Kind() == reflect.Array && t.Len() > math.MaxInt32 {
			// A file's counts stop at 2^31-1 (decoder.count): refused
			// here, so Save never writes what Load would refuse.
			return nil, fmt.Errorf("%s is an array of %d elements, more than the %d a save file describes", path, t.Len(), math.MaxInt32)
		}
		elem, err := schemaAt(t.Elem(), path+"[]", within)
		if err != nil {
			return nil, err
		}
		if t.Kind() == reflect.Slice {
			return &schema{kind: sSlice, elem: elem}, nil
		}
		return &schema{kind: sArray, n: t.Len(), elem: elem}, nil
	case reflect.Struct:
		if slices.Contains(within, t) {
			return nil, fmt.Errorf("%s is a %v, inside a %v: a type that holds itself cannot be saved (its schema would never end)", path, t, t)
		}
		within = append(within, t)
		s := &schema{kind: sStruct}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				continue // blank fields hold nothing a program can read
			}
			fs, err := schemaAt(f.Type, path+"."+f.Name, within)
			if err != nil {
				return nil, err
			}
			s.fields = append(s.fields, schemaField{f.Name, fs})
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s is a %v, which a save cannot hold (pointers, maps, channels, functions and interfaces are not saved)", path, t.Kind())
}

// sameSchema reports whether a and b describe the same layout.
func sameSchema(a, b *schema) bool {
	if a.kind != b.kind || a.n != b.n || len(a.fields) != len(b.fields) {
		return false
	}
	if a.elem != nil && !sameSchema(a.elem, b.elem) {
		return false
	}
	for i := range a.fields {
		if a.fields[i].name != b.fields[i].name || !sameSchema(a.fields[i].s, b.fields[i].s) {
			return false
		}
	}
	return true
}

// writeSchema appends s to e.
func (e *encoder) schema(s *schema) {
	e.uvarint(uint64(s.kind))
	switch s.kind {
	case sArray:
		e.uvarint(uint64(s.n))
		e.schema(s.elem)
	case sSlice:
		e.schema(s.elem)
	case sStruct:
		e.uvarint(uint64(len(s.fields)))
		for _, f := range s.fields {
			e.str(f.name)
			e.schema(f.s)
		}
	}
}

// maxSchemaDepth bounds the nesting of a schema read from a file, so a
// hostile file cannot exhaust the stack.
const maxSchemaDepth = 64

// schema reads a schema written by encoder.schema.
func (d *decoder) schema(depth int) *schema {
	if depth > maxSchemaDepth {
		d.fail("a type nested more than %d deep", maxSchemaDepth)
		return nil
	}
	k := schemaKind(d.uvarint())
	if d.err != nil {
		return nil
	}
	if k == 0 || k >= sKindEnd {
		d.fail("unknown value kind %d", uint8(k))
		return nil
	}
	s := &schema{kind: k}
	switch k {
	case sArray:
		// An array larger than the file is no error here: the file may
		// hold no value of it (inside an empty slice). Its size saturates
		// (fixedSize), and reading a value checks the bytes are there.
		s.n = d.count(0)
		s.elem = d.schema(depth + 1)
	case sSlice:
		s.elem = d.schema(depth + 1)
	case sStruct:
		n := d.count(2) // a field is at least a name length and a kind
		for range n {
			if d.err != nil {
				return nil
			}
			name := d.str()
			s.fields = append(s.fields, schemaField{name, d.schema(depth + 1)})
		}
	}
	if d.err != nil {
		return nil
	}
	return s
}
