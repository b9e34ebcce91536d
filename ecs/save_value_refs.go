package ecs

import (
	"reflect"
	"unsafe"
)

// refPlan finds the entities inside a value, for SaveCodec.Refs: the
// parts of its type that may hold one, pruned of the rest, so that a
// walk never enters a field, array or slice without entities.
type refPlan struct {
	kind   schemaKind // sEntity, sArray, sSlice or sStruct
	n      int        // sArray: its length
	size   uintptr    // sArray, sSlice: an element's size in memory
	elem   *refPlan   // sArray, sSlice
	fields []refField // sStruct: the fields that may hold entities, in order
}

type refField struct {
	off uintptr
	p   *refPlan
}

// newRefPlan returns the plan of Go type t with schema s, or nil when its
// values hold no entities. O(nodes of s).
func newRefPlan(t reflect.Type, s *schema) *refPlan {
	switch s.kind {
	case sEntity: // also a type defined from Entity, of kind struct
		return &refPlan{kind: sEntity}
	case sArray, sSlice:
		if s.kind == sArray && s.n == 0 {
			return nil
		}
		elem := newRefPlan(t.Elem(), s.elem)
		if elem == nil {
			return nil
		}
		return &refPlan{kind: s.kind, n: s.n, size: t.Elem().Size(), elem: elem}
	case sStruct:
		var fields []refField
		k := 0
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				continue // as in schemaAt
			}
			if fp := newRefPlan(f.Type, s.fields[k].s); fp != nil {
				fields = append(fields, refField{f.Offset, fp})
			}
			k++
		}
		if fields == nil {
			return nil
		}
		return &refPlan{kind: sStruct, fields: fields}
	}
	return nil
}

// appendRefs appends to dst the entities of the value at v that a save
// does not write as the zero Entity (index and generation 0), in the
// order a save writes them: those Decode passes to its mapEntity.
func (r *refPlan) appendRefs(dst []Entity, v unsafe.Pointer) []Entity {
	switch r.kind {
	case sEntity:
		// SAFETY: v points to an Entity (or a type defined from it).
		if e := *(*Entity)(v); e.index != 0 || e.gen&genMask != 0 {
			dst = append(dst, e)
		}
	case sArray:
		for i := range r.n {
			// SAFETY: element i of an array of r.n elements at v.
			dst = r.elem.appendRefs(dst, unsafe.Add(v, uintptr(i)*r.size))
		}
	case sSlice:
		// SAFETY: v points to a slice header, laid out alike whatever the
		// element type; only its data pointer and length are read.
		s := *(*[]byte)(v)
		base := unsafe.Pointer(unsafe.SliceData(s))
		for i := range len(s) {
			// SAFETY: element i of the slice's backing array.
			dst = r.elem.appendRefs(dst, unsafe.Add(base, uintptr(i)*r.size))
		}
	case sStruct:
		for _, f := range r.fields {
			// SAFETY: a field of the struct at v, at its offset.
			dst = f.p.appendRefs(dst, unsafe.Add(v, f.off))
		}
	}
	return dst
}
