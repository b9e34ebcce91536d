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
	w := &entityWalk{}
	w.add(t, 0)
	if len(w.at) == 0 && len(w.slices) == 0 {
		return nil
	}
	return w
}

func (w *entityWalk) add(t reflect.Type, off uintptr) {
	if t == entityType || (t.Kind() == reflect.Struct && t.ConvertibleTo(entityType)) {
		w.at = append(w.at, off)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			w.add(f.Type, off+f.Offset)
		}
	case reflect.Array:
		if t.Len() == 0 {
			return
		}
		var elem entityWalk
		elem.add(t.Elem(), 0)
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
		if elem := entityWalkOf(t.Elem()); elem != nil {
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
