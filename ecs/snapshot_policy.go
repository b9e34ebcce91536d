package ecs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Cloner is implemented by a component or resource type that holds
// references to mutable memory (pointers, slices, maps, interfaces) and
// can copy itself deeply: [World.Snapshot] and [World.Restore] call Clone
// for each value, so the snapshot and the world never share what a value
// references. Clone must return a value equal to the receiver that shares
// no mutable memory with it. Either a value or a pointer receiver works.
// Clone must leave the world alone: a structural change, or a Save,
// Snapshot or Restore of the world, from inside Clone panics, naming the
// change and the operation running it. (Go's maps.Clone and slices.Clone;
// Rust's Clone, which Bevy's snapshot tools require.)
type Cloner[T any] interface {
	Clone() T
}

// snapshotPolicy says how World.Snapshot and World.Restore copy values of
// a type.
type snapshotPolicy uint8

const (
	// copyValues: the type has no reference to mutable memory (strings are
	// immutable, so they count as values), or it was declared shallow.
	copyValues snapshotPolicy = iota
	// cloneValues: the type implements Cloner.
	cloneValues
	// refuseValues: the type holds references and has no way to copy them.
	refuseValues
)

// snapshotPolicyOf returns how values of T are copied by snapshots, and
// the clone function when T implements Cloner.
func snapshotPolicyOf[T any]() (snapshotPolicy, func(dst, src unsafe.Pointer, n int)) {
	var zero T
	if _, ok := any(&zero).(Cloner[T]); ok {
		return cloneValues, func(dst, src unsafe.Pointer, n int) {
			// SAFETY: callers pass pointers to at least n values of T.
			d, s := unsafe.Slice((*T)(dst), n), unsafe.Slice((*T)(src), n)
			for i := range s {
				d[i] = any(&s[i]).(Cloner[T]).Clone()
			}
		}
	}
	if holdsReferences(reflect.TypeFor[T]()) {
		return refuseValues, nil
	}
	return copyValues, nil
}

// holdsReferences reports whether values of t may reference memory that a
// plain copy would share: everything hasPointers reports except strings,
// whose bytes Go never mutates.
func holdsReferences(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		return false
	case reflect.Array:
		return t.Len() > 0 && holdsReferences(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsReferences(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return hasPointers(t)
}

// refusedComponentMessage is refusedMessage for the component type info
// describes; for the type a relation keeps its pairs in, it names the
// relation and its pair type, which is what Shallow declares.
func refusedComponentMessage(op string, info *componentInfo) string {
	r := info.pairsOf()
	if r == nil {
		return refusedMessage(op, "component", info.typ)
	}
	return fmt.Sprintf("ecs: %s: the pair type %v of %s holds pointers, slices, maps or interfaces, which a snapshot would share with the world; "+
		"give it a method Clone() %v that copies them deeply, or, if nothing they reference is ever mutated, declare it with ecs.Shallow[%v](w)", op, r.typ, r.name(), r.typ, r.typ)
}

// refusedMessage is the panic message of a snapshot that meets a type it
// cannot copy; what is "component", "resource" or "event".
func refusedMessage(op, what string, t reflect.Type) string {
	return fmt.Sprintf("ecs: %s: %s type %v holds pointers, slices, maps or interfaces, which a snapshot would share with the world; "+
		"give it a method Clone() %v that copies them deeply, or, if nothing they reference is ever mutated, declare it with ecs.Shallow[%v](w)",
		op, what, t, t, t)
}
