package ecs

import (
	"fmt"
	"reflect"
)

// resourceSlot holds a world's resource of type T, nil while it has none.
// A slot, once made, stays in the world's map for the world's life, so a
// Resource handle keeps a pointer to it and sees every AddResource and
// RemoveResource without a lookup.
type resourceSlot[T any] struct {
	v      *T
	policy snapshotPolicy // how snapshots copy the value (snapshotPolicyOf)
}

// resourceStore holds a world's resources (part of World): a
// *resourceSlot[T] per type T ever asked for, with or without a value.
type resourceStore struct {
	resources map[reflect.Type]any
	// resourceOrder lists the types of resources in the order their slots
	// were made, so that what walks every resource (checksums, Diff) need
	// not follow the map's random order, even among types of one name.
	resourceOrder []reflect.Type
}

// slotOf returns w's slot for T, making it if create is set (nil otherwise
// when there is none).
func slotOf[T any](w *World, create bool) *resourceSlot[T] {
	t := reflect.TypeFor[T]()
	if s, ok := w.resources[t]; ok {
		return s.(*resourceSlot[T])
	}
	if !create {
		return nil
	}
	s := &resourceSlot[T]{}
	s.policy, _ = snapshotPolicyOf[T]()
	s.policy = w.reg.lift(t, s.policy)
	w.resources[t] = s
	w.resourceOrder = append(w.resourceOrder, t)
	return s
}

// AddResource stores v as w's resource of type T. Panics if w already has a
// T resource or v is nil, or inside a parallel section. Complexity: one map
// operation.
func AddResource[T any](w *World, v *T) {
	w.mustNotShare("AddResource", nil)
	if v == nil {
		panic(fmt.Sprintf("ecs: AddResource[%v]: nil pointer", reflect.TypeFor[T]()))
	}
	s := slotOf[T](w, true)
	if s.v != nil {
		panic(fmt.Sprintf("ecs: AddResource[%v]: the world already has this resource", reflect.TypeFor[T]()))
	}
	s.v = v
}

// GetResource returns w's resource of type T, or nil if it has none.
// Reported to the access checker as a read. Complexity: one map lookup.
func GetResource[T any](w *World) *T {
	if w.checker != nil {
		w.checker.CheckAccess(ResourceAccess, reflect.TypeFor[T](), false, "GetResource")
	}
	if s := slotOf[T](w, false); s != nil {
		return s.v
	}
	return nil
}

// HasResource reports whether w has a resource of type T. Complexity: one
// map lookup.
func HasResource[T any](w *World) bool {
	s := slotOf[T](w, false)
	return s != nil && s.v != nil
}

// RemoveResource removes w's resource of type T and reports whether there
// was one. Panics inside a parallel section. Complexity: one map lookup.
func RemoveResource[T any](w *World) bool {
	w.mustNotShare("RemoveResource", nil)
	s := slotOf[T](w, false)
	if s == nil || s.v == nil {
		return false
	}
	s.v = nil
	return true
}

// Resource is a cached handle for w's resource of type T, in the shape of
// [Map]: make it once with [NewResource], outside systems, and keep it; it
// sees the resource come and go (AddResource, RemoveResource, Set, Remove)
// and costs no map lookup. Without an access checker, Get is two loads and
// two tests (the world's checker flag and the resource pointer).
//
// Every access through the handle is reported to the world's
// [AccessChecker] as a ResourceAccess: Get, TryGet and Has as reads, Set and
// Remove as writes. So a scheduler's debug mode checks a resource used
// through a handle captured in a system's closure just as it checks
// GetResource. Set and Remove replace the pointer the world holds rather
// than the map entry, so, unlike AddResource and RemoveResource, they are
// allowed in a parallel section, under its rules for writes: no other
// goroutine may read or write the resource meanwhile (a scheduler's
// WritesResource declaration grants that). (Typed resource handles: Ark's
// ecs.Resource[T].)
type Resource[T any] struct {
	w    *World
	slot *resourceSlot[T]
	typ  reflect.Type
}

// NewResource returns the handle for w's resource of type T, whether or not
// w has one yet. Panics inside a parallel section (a running system): make
// handles once, outside systems, and reuse them. Complexity: one map
// operation.
func NewResource[T any](w *World) *Resource[T] {
	w.mustNotMakeShared("NewResource", "handle")
	return &Resource[T]{w: w, slot: slotOf[T](w, true), typ: reflect.TypeFor[T]()}
}

// Get returns the resource. Panics, naming T, if the world has none;
// [Resource.TryGet] is the checking twin. Complexity: O(1), no map lookup.
func (r *Resource[T]) Get() *T {
	if v := r.slot.v; v != nil && !r.w.checked {
		return v
	}
	return r.getSlow()
}

// getSlow is Get with a checker, and its panic.
func (r *Resource[T]) getSlow() *T {
	r.check(false, "Resource.Get")
	v := r.slot.v
	if v == nil {
		panic(fmt.Sprintf("ecs: Resource[%v].Get: the world has no such resource; add it with AddResource or Resource.Set", r.typ))
	}
	return v
}

// TryGet returns the resource and true, or nil and false when the world
// has none. Complexity: O(1).
func (r *Resource[T]) TryGet() (*T, bool) {
	r.check(false, "Resource.TryGet")
	v := r.slot.v
	return v, v != nil
}

// Has reports whether the world has the resource. Unlike HasResource, it is
// reported to the access checker (as a read). Complexity: O(1).
func (r *Resource[T]) Has() bool {
	r.check(false, "Resource.Has")
	return r.slot.v != nil
}

// Set makes v the world's resource of type T, replacing the one it has, if
// any (AddResource refuses to replace). Panics if v is nil. Complexity: O(1).
func (r *Resource[T]) Set(v *T) {
	r.check(true, "Resource.Set")
	if v == nil {
		panic(fmt.Sprintf("ecs: Resource[%v].Set: nil pointer; Remove takes the resource away", r.typ))
	}
	r.slot.v = v
}

// Remove takes the resource away from the world and reports whether it had
// one. Complexity: O(1).
func (r *Resource[T]) Remove() bool {
	r.check(true, "Resource.Remove")
	had := r.slot.v != nil
	r.slot.v = nil
	return had
}

// check reports an access to the resource to the world's checker.
func (r *Resource[T]) check(write bool, op string) {
	if r.w.checked {
		r.w.checker.CheckAccess(ResourceAccess, r.typ, write, op)
	}
}
