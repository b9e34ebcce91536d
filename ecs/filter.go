package ecs

// filterKind says how a Filter constrains a query.
type filterKind uint8

const (
	filterWith filterKind = iota
	filterWithout
	filterAnyOf
	filterOptional
	filterRelTo        // a relation's sources of one target (Relation.To, Relation.ToVar)
	filterAdded        // Added[T]
	filterChanged      // Changed[T]
	filterMarksChanged // MarksChanged[T]
)

// Filter narrows a query beyond the component types it reads (the all, none
// and one-of aspects of Artemis, as in the dissertation "optimisations for
// the Entity Component System pattern"). Make filters with [With], [Without],
// [AnyOf] and [Optional] and pass them to a query constructor such as
// [NewQuery2].
type Filter struct {
	kind  filterKind
	types []ComponentType
	rel   *relation  // filterRelTo
	to    Entity     // filterRelTo: the fixed target
	toVar *TargetVar // filterRelTo: the per-pass target, when not nil
}

// With requires the listed component types without reading them.
func With(types ...ComponentType) Filter { return Filter{kind: filterWith, types: types} }

// Without excludes entities that have any of the listed component types.
func Without(types ...ComponentType) Filter { return Filter{kind: filterWithout, types: types} }

// AnyOf requires at least one of the listed component types. Several AnyOf
// filters on one query must each be satisfied.
func AnyOf(types ...ComponentType) Filter { return Filter{kind: filterAnyOf, types: types} }

// Optional marks some of the query's own component types as optional: the
// query also visits entities that lack them, and hands out nil pointers (or
// nil column slices) for the missing ones. Each listed type must be one of
// the query's type parameters, or the query constructor panics.
func Optional(types ...ComponentType) Filter { return Filter{kind: filterOptional, types: types} }
