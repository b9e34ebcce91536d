package ecs

import (
	"reflect"
	"slices"
	"unsafe"
)

// A relation keeps its pairs in two sparse sets of its own component
// types, so that everything the world does with components (snapshots,
// checksums, save files, merges, despawn cleanup of the source) works on
// relations too. The source of a pair holds relOne (exclusive relations)
// or relMany (the others); the target holds relIn, the list of its
// sources, so Sources(t) reads one value instead of scanning. The
// relation's code keeps both sides in step. Their fields are exported for
// encoding/json only: the types are not.

// relationSide marks the component types a relation keeps its pairs in:
// they are the relation's bookkeeping, which the introspection calls hide
// and the type-erased writes refuse (introspect.go), since a change that
// bypassed the relation's code would break the two sides' agreement. Its
// method returns the relation's pair type and whether the type is the
// sources' side, so that messages name the relation instead of the type
// (relation_names.go).
type relationSide interface {
	relationSide() (pair reflect.Type, source bool)
}

func (relOne[T]) relationSide() (reflect.Type, bool)  { return reflect.TypeFor[T](), true }
func (relMany[T]) relationSide() (reflect.Type, bool) { return reflect.TypeFor[T](), true }
func (relIn[T]) relationSide() (reflect.Type, bool)   { return reflect.TypeFor[T](), false }

// relOne is what a source of an exclusive relation holds: its one target
// and the pair's value. Target is the first field: relation reads it
// through an *Entity.
type relOne[T any] struct {
	Target Entity
	Value  T
}

// relMany is what a source of a Multi relation holds: its targets in the
// order they were added and one value per target. Targets is the first
// field: relation reads it through a *[]Entity.
type relMany[T any] struct {
	Targets []Entity
	Values  []T
}

// Clone copies the lists (and each value through its own Clone, when T
// has one), so snapshots of a Multi relation share nothing with the world.
func (m relMany[T]) Clone() relMany[T] {
	out := relMany[T]{Targets: slices.Clone(m.Targets), Values: slices.Clone(m.Values)}
	for i := range out.Values {
		if c, ok := any(&out.Values[i]).(Cloner[T]); ok {
			out.Values[i] = c.Clone()
		}
	}
	return out
}

// Checksum hashes the targets (index and generation, as Checksum does
// every entity) and the values field by field.
func (m *relMany[T]) Checksum() uint64 {
	var h stateHash
	hashEntities(&h, m.Targets)
	plan := relHashPlan[T]()
	for i := range m.Values {
		if c, ok := any(&m.Values[i]).(Checksummer); ok {
			h.word(c.Checksum())
		} else {
			// SAFETY: &m.Values[i] is a live T, the type relHashPlan[T] is for.
			h.value(plan, unsafe.Pointer(&m.Values[i]))
		}
	}
	return h.sum()
}

// relIn is what a target holds: the sources that have a pair with it, in
// the order the pairs were made. Sources is the only field: relation
// reads it through a *[]Entity.
type relIn[T any] struct {
	Sources []Entity
}

// Clone copies the list of sources.
func (in relIn[T]) Clone() relIn[T] { return relIn[T]{Sources: slices.Clone(in.Sources)} }

// Checksum hashes the sources in order.
func (in *relIn[T]) Checksum() uint64 {
	var h stateHash
	hashEntities(&h, in.Sources)
	return h.sum()
}

// hashEntities hashes a list of entities as World.Checksum hashes one:
// index and generation, without the world's tag.
func hashEntities(h *stateHash, es []Entity) {
	h.word(uint64(len(es)))
	for _, e := range es {
		h.word(uint64(e.index)<<32 | uint64(e.gen&genMask))
	}
}

func relHashPlan[T any]() *hashPlan { return cachedHashPlan(reflect.TypeFor[T]()) }

// pairSnapshotPolicy makes snapshots copy the source side of r by the
// rules of T, the pair type, as for a component of type T: through T's
// Clone when it has one, a plain copy for a T without references or
// declared [Shallow] in r's world, and refused otherwise. It is called
// when r is declared and again by Shallow[T].
func pairSnapshotPolicy[T any](r *relation) {
	info := r.out.info
	pol, _ := snapshotPolicyOf[T]()
	pol = r.w.reg.lift(reflect.TypeFor[T](), pol)
	switch {
	case pol == refuseValues:
		// A Multi relation's cloneN (relMany's own Clone) stays, for a
		// later Shallow[T] to bring back.
		info.snap = refuseValues
	case !r.exclusive:
		// relMany's own Clone copies the lists, and each value through T's
		// Clone when it has one, plainly otherwise.
		info.snap = cloneValues
	case pol == cloneValues:
		info.snap = cloneValues
		info.cloneN = func(dst, src unsafe.Pointer, n int) {
			// SAFETY: callers pass pointers to at least n values of relOne[T].
			d, s := unsafe.Slice((*relOne[T])(dst), n), unsafe.Slice((*relOne[T])(src), n)
			for i := range s {
				d[i] = relOne[T]{Target: s[i].Target, Value: any(&s[i].Value).(Cloner[T]).Clone()}
			}
		}
	default:
		info.snap, info.cloneN = copyValues, nil
	}
}

// Checksum hashes the target and the value, through the value's own
// Checksum method when T has one, field by field otherwise. The three
// pair types hash through pointer receivers: World.Checksum calls them
// on the values where they lie, with nothing copied or allocated.
func (o *relOne[T]) Checksum() uint64 {
	var h stateHash
	h.word(uint64(o.Target.index)<<32 | uint64(o.Target.gen&genMask))
	if c, ok := any(&o.Value).(Checksummer); ok {
		h.word(c.Checksum())
	} else {
		// SAFETY: &o.Value is a live T, the type relHashPlan[T] is for.
		h.value(relHashPlan[T](), unsafe.Pointer(&o.Value))
	}
	return h.sum()
}
