package ecs

import (
	"fmt"
	"slices"
)

// TrackChanges makes the type keep change ticks, so that queries can ask
// for the entities whose value was added ([Added]) or changed ([Changed])
// since their last pass. Each table column of the type, and its sparse set,
// gets two 32-bit ticks per row (added, changed) and the newest tick of the
// column, so a pass skips a table that has no change since its last run
// without reading a row. Types without it pay nothing: no ticks, no stamps,
// only the test of an empty list when a row moves.
//
// What counts as a change, and what does not, is listed in the package
// documentation (Change detection). (Bevy's change ticks, made opt-in per
// type.)
func TrackChanges() ComponentOption { return func(o *componentOptions) { o.track = true } }

// Added filters a query to the entities that gained a T since the query's
// previous pass (or ever, on its first pass): by any add, spawn, batch,
// command buffer, deferred change, clone, prefab or load. It requires T, as
// [With] does. T must have been registered with [TrackChanges]; otherwise
// the query constructor panics. A [World.Restore] puts back the ticks and
// each query's previous pass as they were when the snapshot was taken, so
// the passes after it see what they saw then. Bevy's Added<T>.
func Added[T any]() Filter { return Filter{kind: filterAdded, types: []ComponentType{C[T]()}} }

// Changed filters a query to the entities whose T was added or changed
// since the query's previous pass (or ever, on its first pass): every add
// that [Added] sees, every Set (of a Map, a MapN, a command buffer or a
// sched Output), every [Map.MarkChanged], and every pass of a query that
// declares [MarksChanged][T]. It requires T, as [With] does. T must have been
// registered with [TrackChanges]; otherwise the query constructor panics.
//
// Each query has its own last pass: two queries (two systems) with
// Changed[T] each see every change once. The last pass lives in the world,
// so [World.Restore] rewinds it with the ticks (see [Added]). A query does not see the changes
// made while its own pass was open (its writes and those of its loop
// body), as a Bevy system does not see its own: so a query that both
// filters on Changed[T] and writes T does not feed itself. Several change
// filters on one query must all hold. Bevy's Changed<T>; flecs' change
// detection for cached queries.
func Changed[T any]() Filter { return Filter{kind: filterChanged, types: []ComponentType{C[T]()}} }

// MarksChanged declares that the query writes T through the pointers or
// slices it hands out (flecs' inout terms): when T tracks changes, every
// entity the pass visits is marked changed. The table forms mark a whole
// table, or run of rows, when the pass enters it, so a loop that breaks
// early marks the rest of that table too: a change reported that did not
// happen, never one missed. On a type without [TrackChanges] it does
// nothing. T need not be one of the query's types; it is not required by
// the filter. It is a query filter, not a system's declared access: a
// scheduled system whose query carries it declares sched.Writes[T] too.
// Complexity: the pass also stores one tick per row it visits (one fill
// per table or run in the table forms).
func MarksChanged[T any]() Filter {
	return Filter{kind: filterMarksChanged, types: []ComponentType{C[T]()}}
}

// markChangedN is MarkChanged of a MapN handle over the types infos.
func markChangedN(w *World, handle string, infos []*componentInfo, e Entity) {
	if w.checker != nil {
		for _, info := range infos {
			w.checkComponent(info, true, "MarkChanged")
		}
	}
	r := w.checkAliveN(handle, infos, "MarkChanged", e)
	if !slices.ContainsFunc(infos, func(info *componentInfo) bool { return info.track }) {
		panic(fmt.Sprintf("ecs: %s: none of the types tracks changes; register one with ecs.Register[T](w, ecs.TrackChanges())", handleOp(handle, infos, "MarkChanged")))
	}
	for _, info := range infos {
		if !w.hasComponent(e, r, info) {
			panic(missingComponent(w, handleOp(handle, infos, "MarkChanged"), e, info))
		}
	}
	for _, info := range infos {
		if info.track {
			w.touchValue(info, e)
		}
	}
}

// notTracked is the message for a change filter or mark of a type that
// keeps no ticks.
func notTracked(op string, info *componentInfo) string {
	return fmt.Sprintf("ecs: %s[%v]: the type does not track changes; register it first with ecs.Register[%v](w, ecs.TrackChanges())", op, info.typ, info.typ)
}
