package ecs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// componentID numbers component types in the order a world first meets them.
type componentID uint32

// componentInfo describes one component type. The operations are built by
// generic code when the type is first used, so moving and clearing values goes
// through Go's typed copies: the garbage collector sees every pointer a
// component holds, and write barriers run as they must.
type componentInfo struct {
	id          componentID
	typ         reflect.Type
	size        uintptr
	pointerFree bool
	// alloc returns the first element of a new zeroed []T of length n.
	alloc func(n int) unsafe.Pointer
	// words is the type's copy plan (see copyPlan): how copyValue,
	// removeRow and clearRow move one value inline, or 0 for a typed call.
	words copyPlan
	// copy1 copies one value from src to dst with a typed assignment.
	copy1 func(dst, src unsafe.Pointer)
	// copyN copies n values from src to dst (the ranges may overlap).
	copyN func(dst, src unsafe.Pointer, n int)
	// fillN sets n values at dst to the value at v.
	fillN func(dst unsafe.Pointer, n int, v unsafe.Pointer)
	// clearN zeroes n values at p.
	clearN func(p unsafe.Pointer, n int)

	// snap says how snapshots copy the type's values; cloneN copies n
	// values deeply when snap is cloneValues (see snapshotPolicyOf).
	// name is the type's stable name in save files and checksums: the
	// Name option of Register, or its package path and type name.
	name string

	snap   snapshotPolicy
	cloneN func(dst, src unsafe.Pointer, n int)

	// sparse is the type's sparse set when it uses sparse storage, nil for
	// table storage.
	sparse *sparseSet
	// hint is the capacity hint of Register's CapacityHint option.
	hint int
	// hash is the type's hash plan for World.Checksum, built on first use.
	hash *hashPlan
	// hooks are the type's OnAdd, OnSet and OnRemove hooks, nil when none.
	hooks *componentHooks
	// cols holds, per table slot (table.slot), the base address of the
	// type's column in that table, or nil when the table has no such column:
	// the per-type column list of Ark's storage, which lets Map.Get go from
	// an entity's record to its value without reading the table or the
	// column. A column that reallocates updates its entry (table.relink).
	// Its length is the registry's slots, so a slot never indexes past it.
	// In a world with a checker every entry is nil, which sends every Get
	// down the checking path.
	cols []unsafe.Pointer
	// track says the type keeps change ticks (TrackChanges).
	track bool
	// index is the world's entity index (&w.entities, kept apart because
	// the extra load would push Map.Get over the inliner's budget) and w
	// the world, for Map.Get's fast path and its out-of-line twin.
	index *entityIndex
	w     *World

	// ct is the type's ComponentType, for the type-erased tools of
	// introspect.go, which leave out the types relations keep their pairs
	// in (relation is set for those). Last, so that the fields Map.Get
	// reads keep their offsets.
	ct       ComponentType
	relation bool
	// saveN and loadN save and load n values through the type's
	// BinaryCodec methods, nil when it has none (save_binary_codec.go).
	saveN func(e *encoder, p unsafe.Pointer, n int)
	loadN func(d *decoder, w *World, p unsafe.Pointer, n int)
}

// registry gives component types their ids, on first use and without any
// registration step (component containers created on first use and keyed by
// type, as in the "type-erased component registry" tutorial of the
// Multiversal Consciousness engine).
type registry struct {
	byType map[reflect.Type]componentID
	infos  []*componentInfo
	w      *World // the world, for componentInfo.w and componentInfo.index
	slots  int    // table slots in use: the length of every componentInfo.cols
	// shallow holds the types declared with Shallow: snapshots copy their
	// values plainly wherever they live (components, relation pairs,
	// events, resources), nil until the first declaration.
	shallow map[reflect.Type]bool
}

func newRegistry() registry {
	return registry{byType: make(map[reflect.Type]componentID)}
}

// idOf returns the id of T in r, giving T the next id on first use.
// Complexity: one map lookup.
func idOf[T any](r *registry) componentID {
	t := reflect.TypeFor[T]()
	if id, ok := r.byType[t]; ok {
		return id
	}
	var zero T
	info := &componentInfo{
		id:          componentID(len(r.infos)),
		typ:         t,
		size:        unsafe.Sizeof(zero),
		pointerFree: !hasPointers(t),
		alloc: func(n int) unsafe.Pointer {
			// SAFETY: the pointer is to the first of n fresh zero Ts, an array
			// that it keeps alive; callers step through it by T's size, below n.
			return unsafe.Pointer(unsafe.SliceData(make([]T, n)))
		},
		copy1: func(dst, src unsafe.Pointer) {
			// SAFETY: callers pass pointers to values of T.
			*(*T)(dst) = *(*T)(src)
		},
		copyN: func(dst, src unsafe.Pointer, n int) {
			// SAFETY: callers pass pointers to at least n values of T inside
			// allocations made by alloc for this same type.
			copy(unsafe.Slice((*T)(dst), n), unsafe.Slice((*T)(src), n))
		},
		fillN: func(dst unsafe.Pointer, n int, v unsafe.Pointer) {
			// SAFETY: dst points to at least n values of T and v to one.
			fill(unsafe.Slice((*T)(dst), n), *(*T)(v))
		},
		clearN: func(p unsafe.Pointer, n int) {
			// SAFETY: as for copyN.
			clear(unsafe.Slice((*T)(p), n))
		},
	}
	info.snap, info.cloneN = snapshotPolicyOf[T]()
	info.snap = r.lift(t, info.snap)
	info.saveN, info.loadN = binaryCodecOf[T]()
	info.ct = ComponentType{typ: t, id: idOf[T]}
	_, info.relation = any(zero).(relationSide)
	info.name = typeName(t)
	if other := r.named(info.name); other != nil {
		panic(fmt.Sprintf("ecs: component type %v: its stable name %q is taken by %v (ecs.Name); give that type another name", t, info.name, other.typ))
	}
	info.w, info.index = r.w, &r.w.entities
	info.cols = make([]unsafe.Pointer, r.slots)
	info.words = planCopy(info.pointerFree, info.size, unsafe.Alignof(zero))
	r.byType[t] = info.id
	r.infos = append(r.infos, info)
	return info.id
}

// named returns the type whose stable name is name, or nil.
func (r *registry) named(name string) *componentInfo {
	for _, info := range r.infos {
		if info.name == name {
			return info
		}
	}
	return nil
}

// hasPointers reports whether values of t may hold pointers the garbage
// collector must see.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

// ComponentType names a component type without a value of it, for filters
// ([With], [Without], [AnyOf], [Optional]). Make one with [C]. The zero value
// is invalid.
type ComponentType struct {
	typ reflect.Type
	id  func(*registry) componentID
}

// C returns the [ComponentType] of T. Like every other use of a type, it
// needs no registration; T gets its id in a world when the world first sees it.
func C[T any]() ComponentType {
	return ComponentType{typ: reflect.TypeFor[T](), id: idOf[T]}
}

// String returns the Go name of the type; for the types [Relation.AsSource]
// and [Relation.AsTarget] return, the call that made it, such as
// Relation[main.Likes].AsSource().
func (c ComponentType) String() string {
	if c.typ == nil {
		return "<invalid ComponentType>"
	}
	return typeLabel(c.typ)
}

// Type returns the Go type c names, nil for the zero ComponentType.
func (c ComponentType) Type() reflect.Type { return c.typ }
