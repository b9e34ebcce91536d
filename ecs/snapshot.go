package ecs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Snapshot holds a copy of one world's state, taken by [World.Snapshot] and
// put back by [World.Restore]: the entity index (generations, free list,
// the next new index), every table's rows, every sparse set, every
// resource, and the change-detection state: the change ticks of the types
// that track changes ([TrackChanges]), the world's change clock and the
// last pass of every query. The zero value is an empty snapshot, ready to be taken into. A
// snapshot keeps its buffers from one Snapshot call to the next, so a
// rollback loop that saves into the same few snapshots every tick
// allocates nothing once they have grown to the world's size.
//
// A Snapshot belongs to the world it was taken from; taking one of another
// world into it drops its buffers and starts over. It is not safe for
// concurrent use. Its memory is about the world's live data: the rows, the
// sparse values, 12 bytes per entity index handed out, 8 bytes per value
// of a tracked type and 4 per query, not the capacity the world keeps for
// growth. (The save states of rollback netcode: GGPO's save_game_state,
// GGRS' SaveGameState.)
type Snapshot struct {
	w        *World
	complete bool     // Snapshot finished filling it (a Clone may panic halfway)
	recs     []record // the entity index up to next
	next     uint32
	alive    int
	free     []uint32
	tables   []tableState  // per table id, the tables the world had
	sparse   []sparseState // per sparse set, in World.sparse order
	res      map[reflect.Type]*resourceState
	events   []any // per event queue, in World.events order (see snapshotEvents)

	// The change clock and, per query in World.queries order, its last
	// pass (see snapshotClock).
	tick, clampedAt uint32
	lastRuns        []uint32
}

// tableState is a snapshot's copy of one table.
type tableState struct {
	entities []Entity
	cols     []savedValues // parallel to table.columns
	ticks    []savedTicks  // parallel to table.tracked
}

// sparseState is a snapshot's copy of one sparse set.
type sparseState struct {
	dense  []Entity
	values savedValues
	ticks  savedTicks // when the type tracks changes
}

// savedValues is a typed array of a snapshot's own for one column.
type savedValues struct {
	base unsafe.Pointer // a []T's first element, made by info.alloc
	cap  int
	n    int // values in use
}

// save copies the n values at src into v, growing v when needed.
func (v *savedValues) save(info *componentInfo, src unsafe.Pointer, n int) {
	if info.size == 0 {
		v.n = n
		return
	}
	if n > v.cap {
		v.cap = max(n, v.cap+v.cap/4) // room for a world that keeps growing
		v.base = info.alloc(v.cap)
	} else if !info.pointerFree && v.n > n {
		// SAFETY: rows [n, v.n) lie inside the array of v.cap values.
		info.clearN(unsafe.Add(v.base, uintptr(n)*info.size), v.n-n)
	}
	copyForSnapshot(info, v.base, src, n)
	v.n = n
}

// copyForSnapshot copies n values of info's type from src to dst, deeply
// for a Cloner.
func copyForSnapshot(info *componentInfo, dst, src unsafe.Pointer, n int) {
	if n == 0 || info.size == 0 {
		return
	}
	if info.snap == cloneValues {
		info.cloneN(dst, src, n)
		return
	}
	info.copyN(dst, src, n)
}

// Snapshot copies w's whole state into dst, reusing dst's buffers: after
// the first few calls it allocates nothing unless the world has grown.
// [World.Restore] puts the state back.
//
// Values are copied as memory, except for types that implement [Cloner],
// which are cloned value by value. Strings are copied as they are (Go never
// mutates a string's bytes). A component type stored in the world (with a
// column in a table, even an empty one, or a sparse set), a relation's pair
// type, an event type with a queue or a resource that holds pointers,
// slices, maps or interfaces and has no Clone method makes Snapshot panic,
// naming the type and the two ways out: a Clone method, or a declaration
// that a plain copy is safe ([Shallow]). It panics rather than returning an
// error because the cause is in the program, not in its input, and is the
// same on every call; [World.CanSnapshot] is the checking twin.
//
// Panics inside an iteration, a hook, an observer or a parallel section,
// where the state is in the middle of a change. Complexity: O(live rows
// and sparse values + entity indices handed out + tables + resources +
// queries).
func (w *World) Snapshot(dst *Snapshot) {
	w.mustBeSettled("Snapshot")
	if err := w.CanSnapshot(); err != nil {
		panic(err.Error())
	}
	w.beginMethods("Snapshot") // Clone methods run
	defer w.endMethods()
	if dst.w != w {
		*dst = Snapshot{w: w}
	}
	dst.complete = false
	x := &w.entities
	dst.recs = append(dst.recs[:0], x.recs[:x.next]...)
	dst.next, dst.alive = x.next, x.alive
	dst.free = append(dst.free[:0], x.free...)
	for len(dst.tables) < len(w.tables) {
		dst.tables = append(dst.tables, tableState{})
	}
	for _, t := range w.tables {
		ts := &dst.tables[t.id]
		ts.entities = append(ts.entities[:0], t.entities...)
		if len(ts.cols) != len(t.columns) {
			ts.cols = make([]savedValues, len(t.columns))
		}
		for i := range t.columns {
			col := &t.columns[i]
			ts.cols[i].save(col.info, col.base, len(t.entities))
		}
		if len(ts.ticks) != len(t.tracked) {
			ts.ticks = make([]savedTicks, len(t.tracked))
		}
		for k, i := range t.tracked {
			ts.ticks[k].save(t.columns[i].ticks, len(t.entities))
		}
	}
	for len(dst.sparse) < len(w.sparse) {
		dst.sparse = append(dst.sparse, sparseState{})
	}
	for i, s := range w.sparse {
		ss := &dst.sparse[i]
		ss.dense = append(ss.dense[:0], s.dense...)
		ss.values.save(s.info, s.values.base, len(s.dense))
		if tc := s.values.ticks; tc != nil {
			ss.ticks.save(tc, len(s.dense))
		}
	}
	w.snapshotClock(dst)
	w.snapshotResources(dst)
	w.snapshotEvents(dst)
	dst.complete = true
}

// CanSnapshot reports whether [World.Snapshot] would accept w's component,
// relation pair, resource and event types: nil, or an error naming the
// first type it would refuse (components and pairs by type name, then
// resources, then event queues in creation order) and the two ways to make
// it acceptable. Complexity: O(component types + resources + event types).
func (w *World) CanSnapshot() error {
	var refused *componentInfo
	for _, info := range w.reg.infos {
		if info.snap == refuseValues && w.stores(info) && (refused == nil || info.typ.String() < refused.typ.String()) {
			refused = info
		}
	}
	if refused != nil {
		return fmt.Errorf("%s", refusedComponentMessage("Snapshot", refused))
	}
	if t := w.refusedResource(); t != nil {
		return fmt.Errorf("%s", refusedMessage("Snapshot", "resource", t))
	}
	return w.refusedEvents()
}

// stores reports whether w has storage for info's type: a sparse set, or a
// column in some table.
func (w *World) stores(info *componentInfo) bool {
	if info.sparse != nil {
		return true
	}
	for _, t := range w.tables {
		if t.column(info.id) >= 0 {
			return true
		}
	}
	return false
}

// mustBeSettled panics unless w is between changes: no iteration, hook,
// observer, deferred flush or parallel section is running.
func (w *World) mustBeSettled(op string) {
	switch {
	case w.methodsOf != "":
		panic(methodsMessage(op, w.methodsOf))
	case w.shared:
		panic(fmt.Sprintf("ecs: %s: called inside a parallel section, where systems may be writing; call it between stages or ticks", op))
	case w.mutating && len(w.frames) == 0 && !w.settling && !w.flushing:
		// Only a structural change in progress, and those call no user
		// code: it is another goroutine's.
		panic(concurrentMessage(op))
	case len(w.frames) > 0 || w.settling || w.flushing || w.mutating:
		panic(fmt.Sprintf("ecs: %s: called inside a hook, an observer or the application of deferred changes; call it between changes%s", op, otherGoroutineNote))
	case w.lock > 0:
		panic(fmt.Sprintf("ecs: %s: called inside an iteration%s; call it after the loop%s", op, w.openLoopNote(), otherGoroutineNote))
	}
}

// otherGoroutineNote ends the messages of operations refused because the
// world is busy: the state they see may be another goroutine's.
const otherGoroutineNote = " (or another goroutine is using this World at the same time: a World is not safe for concurrent use outside a parallel section)"
