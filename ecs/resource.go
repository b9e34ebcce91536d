package ecs

import (
	"fmt"
	"reflect"
)

// Resources are values that exist once per world rather than once per entity:
// the clock, a random source, settings (Bevy's resources). A world holds at
// most one resource of each type. Resource calls cost a map lookup by type;
// keep the pointer when a hot loop needs it.

// AddResource stores v as w's resource of type T. Panics if w already has a
// T resource or v is nil. Complexity: one map operation.
func AddResource[T any](w *World, v *T) {
	w.mustNotShare("AddResource", nil)
	t := reflect.TypeFor[T]()
	if v == nil {
		panic(fmt.Sprintf("ecs: AddResource[%v]: nil pointer", t))
	}
	if _, ok := w.resources[t]; ok {
		panic(fmt.Sprintf("ecs: AddResource[%v]: the world already has this resource", t))
	}
	w.resources[t] = v
}

// GetResource returns w's resource of type T, or nil if it has none.
func GetResource[T any](w *World) *T {
	if w.checker != nil {
		w.checker.CheckAccess(ResourceAccess, reflect.TypeFor[T](), false, "GetResource")
	}
	v, _ := w.resources[reflect.TypeFor[T]()].(*T)
	return v
}

// HasResource reports whether w has a resource of type T.
func HasResource[T any](w *World) bool {
	_, ok := w.resources[reflect.TypeFor[T]()]
	return ok
}

// RemoveResource removes w's resource of type T and reports whether there was one.
func RemoveResource[T any](w *World) bool {
	w.mustNotShare("RemoveResource", nil)
	t := reflect.TypeFor[T]()
	_, ok := w.resources[t]
	delete(w.resources, t)
	return ok
}
