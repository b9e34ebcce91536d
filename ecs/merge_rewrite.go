package ecs

import (
	"reflect"
	"unsafe"
)

// entityWalk lists where the values of one type hold Entity values: at
// offsets inside the value (fields, array elements, nested structs) and
// inside slices the value holds. Prefabs use it to point the entities of
// an instance at each other. Maps, pointers and interfaces are not
// followed: what they reference is not the value's own.
type entityWalk struct {
	at     []uintptr
	slices []sliceWalk
}

// sliceWalk is a slice at offset off whose elements, elemSize bytes
// apart, hold Entity values where elem says.
type sliceWalk struct {
	off, elemSize uintptr
	elem          *entityWalk
}

// entityWalkOf returns the walk of t, or nil when its values hold no
// Entity. A named type whose underlying type is Entity's counts as an
// Entity, as in save files.
func entityWalkOf(t reflect.Type) *entityWalk {
	b := walkBuilder{map[reflect.Type]*entityWalk{}}
	return b.walk(t)
}

// walkBuilder builds the walks of a type and of the element types of its
// slices. A type can hold itself through a slice (type Node struct{ Kids
// []Node }): each type's walk is recorded before it is filled, so such a
// walk refers to itself instead of being built forever, and rewriting a
// value ends because the value is finite.
type walkBuilder struct {
	walks map[reflect.Type]*entityWalk
}

func (b *walkBuilder) walk(t reflect.Type) *entityWalk {
	if w, ok := b.walks[t]; ok {
		return w
	}
	if !holdsEntity(t, false, map[reflect.Type]bool{}) {
		b.walks[t] = nil
		return nil
	}
	w := &entityWalk{}
	b.walks[t] = w
	w.add(b, t, 0)
	return w
}

// holdsEntity reports whether values of t can hold an Entity where a walk
// looks: in fields, array elements and slice elements, and with deep also
// behind pointers and in map keys and values. visiting holds the element
// types being looked at, which a type reached again adds nothing to.
func holdsEntity(t reflect.Type, deep bool, visiting map[reflect.Type]bool) bool {
	if isEntityType(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsEntity(t.Field(i).Type, deep, visiting) {
				return true
			}
		}
	case reflect.Array:
		return t.Len() > 0 && holdsEntity(t.Elem(), deep, visiting)
	case reflect.Map:
		return deep && (holdsEntity(t.Key(), deep, visiting) || holdsElem(t.Elem(), deep, visiting))
	case reflect.Pointer:
		return deep && holdsElem(t.Elem(), deep, visiting)
	case reflect.Slice:
		return holdsElem(t.Elem(), deep, visiting)
	}
	return false
}

func holdsElem(elem reflect.Type, deep bool, visiting map[reflect.Type]bool) bool {
	if visiting[elem] {
		return false
	}
	visiting[elem] = true
	return holdsEntity(elem, deep, visiting)
}

// isEntityType reports whether t is Entity or a type defined from it.
func isEntityType(t reflect.Type) bool {
	return t == entityType || (t.Kind() == reflect.Struct && t.ConvertibleTo(entityType))
}

func (w *entityWalk) add(b *walkBuilder, t reflect.Type, off uintptr) {
	if isEntityType(t) {
		w.at = append(w.at, off)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			w.add(b, f.Type, off+f.Offset)
		}
	case reflect.Array:
		if t.Len() == 0 {
			return
		}
		var elem entityWalk
		elem.add(b, t.Elem(), 0)
		if len(elem.at) == 0 && len(elem.slices) == 0 {
			return
		}
		for i := range t.Len() {
			base := off + uintptr(i)*t.Elem().Size()
			for _, o := range elem.at {
				w.at = append(w.at, base+o)
			}
			for _, s := range elem.slices {
				w.slices = append(w.slices, sliceWalk{base + s.off, s.elemSize, s.elem})
			}
		}
	case reflect.Slice:
		if elem := b.walk(t.Elem()); elem != nil {
			w.slices = append(w.slices, sliceWalk{off, t.Elem().Size(), elem})
		}
	}
}

// rewrite replaces each Entity held by the value at p by f of it.
func (w *entityWalk) rewrite(p unsafe.Pointer, f func(Entity) Entity) {
	for _, o := range w.at {
		// SAFETY: the walk was built from the type of the value at p:
		// an Entity (or a type with Entity's layout) lies at offset o.
		e := (*Entity)(unsafe.Add(p, o))
		*e = f(*e)
	}
	w.rewriteSlices(p, f)
}

// rewriteSlices replaces each Entity held in the slices of the value at p
// by f of it. The slices must be the value's own (as after a Clone
// method; a plain copy shares them with the value copied).
func (w *entityWalk) rewriteSlices(p unsafe.Pointer, f func(Entity) Entity) {
	for _, s := range w.slices {
		// SAFETY: a slice of s.elemSize-byte elements lies at offset s.off.
		sl := *(*[]byte)(unsafe.Add(p, s.off)) // only its pointer and length are read
		base := unsafe.Pointer(unsafe.SliceData(sl))
		for i := range len(sl) {
			s.elem.rewrite(unsafe.Add(base, uintptr(i)*s.elemSize), f)
		}
	}
}
