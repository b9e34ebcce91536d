package ecs

import (
	"fmt"
	"unsafe"
)

// Map is a cached handle for reading and writing one component type T: the
// component mapper of Artemis. It looks the type's id up once, at
// construction, so every call costs an entity-index lookup and a column
// lookup, with no map or interface call. Make one per type and keep it.
//
// Pointers returned by Get and TryGet point into table memory. They stay valid
// until the next structural change of the entity's table (a spawn into it,
// an add, remove or despawn that moves a row of it); after that they may point
// at another entity's value or at a discarded array (the stale-pointer trap
// of the "type-erased component registry" tutorial of the Multiversal
// Consciousness engine). Do not keep them across structural changes.
type Map[T any] struct {
	w      *World
	id     componentID
	info   *componentInfo
	sparse *sparseSet // the type's sparse set, nil for table storage
	table  *table     // the table of T alone, for Spawn (nil when sparse)
	col    int32      // T's column in table
	one    bundle     // T as a bundle of one, for Exchange
}

// NewMap returns the handle for component type T in w, registering T on
// its first use. Panics inside a parallel section (a running system): make
// handles once, outside systems, and reuse them. Complexity: O(1)
// amortised, plus a scan of the queries when T's table is new.
func NewMap[T any](w *World) *Map[T] {
	w.mustNotMakeShared("NewMap", "handle")
	id := idOf[T](&w.reg)
	info := w.reg.infos[id]
	m := &Map[T]{w: w, id: id, info: info, sparse: info.sparse}
	m.one = newBundle(w, "Map", []componentID{id})
	if m.sparse == nil {
		m.table = w.tableFor([]componentID{id})
		m.col = m.table.colOf[id]
	}
	return m
}

// Spawn creates an entity with the single component v and returns it, in
// one step rather than a Spawn and an Add. Inside an iteration the entity is
// created at once and v is added when the iteration ends.
// Complexity: O(1) amortised.
func (m *Map[T]) Spawn(v T) Entity {
	w := m.w
	if w.lock > 0 || m.sparse != nil {
		e := w.Spawn()
		m.add(e, w.entities.at(e.index), v)
		return e
	}
	w.enter("Spawn")
	e, r := w.entities.alloc()
	r.slot, r.row = m.table.slot, m.table.pushEntity(e)
	p := m.table.columns[m.col].at(r.row)
	// SAFETY: column m.col of m.table stores T values; r.row is e's row.
	*(*T)(p) = v
	w.leave()
	if w.notify {
		w.spawned(e, []*componentInfo{m.info})
	}
	return e
}

// SpawnBatch creates n entities that all start with the single component v,
// growing the storage once. Panics if n < 0 or if n entities do not
// fit ([World.Room]). Complexity: O(n).
func (m *Map[T]) SpawnBatch(n int, v T) {
	w := m.w
	if n < 0 {
		panic(fmt.Sprintf("ecs: SpawnBatch[%v]: negative count %d", m.info.typ, n))
	}
	if n > w.entities.room() {
		panic(w.entities.tooMany(fmt.Sprintf("SpawnBatch[%v]", m.info.typ), uint64(n)))
	}
	if n == 0 {
		return
	}
	if w.lock > 0 || m.sparse != nil {
		for range n {
			m.Spawn(v)
		}
		return
	}
	start := w.spawnRows(m.table, n)
	// A zero value is written only where the rows are stale (table.dirty).
	if t := m.table; isZero(&v) {
		t.cleanRows(start, n)
	} else {
		// SAFETY: spawnRows made rows [start, start+n) of m.table, whose
		// column m.col stores T values.
		fill(unsafe.Slice((*T)(t.columns[m.col].at(start)), n), v)
	}
	w.addedRows(m.table, start, []*componentInfo{m.info})
	w.settle()
}

// SpawnFunc creates one entity with a zero T and, when init is not nil,
// calls it once to fill it in, as [Map2.SpawnFunc] does (the single form of
// Ark's NewEntityFn). The pointer is valid during the call only; init runs
// like a loop body. With a nil init and table storage outside an iteration
// nothing is written: the table's rows past its last despawn or batch are
// zero already. Complexity: O(1) amortised.
func (m *Map[T]) SpawnFunc(init func(e Entity, v *T)) Entity {
	w := m.w
	if w.lock > 0 || m.sparse != nil || init != nil {
		return m.spawnFuncSlow(init)
	}
	t := m.table
	w.enter("SpawnFunc")
	e, r := w.entities.alloc()
	row := t.pushEntity(e)
	r.slot, r.row = t.slot, row
	if row < t.dirty {
		t.clearRow(row)
	}
	w.leave()
	if w.notify {
		w.spawned(e, []*componentInfo{m.info})
	}
	return e
}

// spawnFuncSlow is SpawnFunc inside an iteration, for sparse storage or
// with an init function. init's changes, and for sparse storage the Add of
// the value init wrote, are deferred until init returns.
func (m *Map[T]) spawnFuncSlow(init func(e Entity, v *T)) Entity {
	w := m.w
	if w.lock > 0 || m.sparse != nil {
		var v T
		e := w.Spawn()
		w.lock++
		defer w.unlock()
		if init != nil {
			init(e, &v)
		}
		m.add(e, w.entities.at(e.index), v)
		return e
	}
	t := m.table
	w.enter("SpawnFunc")
	e, r := w.entities.alloc()
	row := t.pushEntity(e)
	r.slot, r.row = t.slot, row
	t.cleanRows(row, 1)
	w.leave()
	w.lock++
	defer w.unlock()
	// SAFETY: column m.col of t stores T values; row is e's row, which
	// stays put while init's structural changes are deferred.
	init(e, (*T)(t.columns[m.col].at(row)))
	w.spawned(e, []*componentInfo{m.info})
	return e
}

// SpawnBatchFunc creates n entities with a zero T and, when init is not nil,
// calls it once per entity, in spawn order, to fill it in, as
// [Map2.SpawnBatchFunc] does (a nil init leaves the values zero). The
// pointer is valid during the call only. init runs like a loop body:
// structural changes it makes are deferred until the batch (or the
// enclosing iteration) ends. Panics if n < 0 or if n entities do not
// fit ([World.Room]). Complexity: O(n).
func (m *Map[T]) SpawnBatchFunc(n int, init func(e Entity, v *T)) {
	w := m.w
	if n < 0 {
		panic(fmt.Sprintf("ecs: SpawnBatchFunc[%v]: negative count %d", m.info.typ, n))
	}
	if n > w.entities.room() {
		panic(w.entities.tooMany(fmt.Sprintf("SpawnBatchFunc[%v]", m.info.typ), uint64(n)))
	}
	if n == 0 {
		return
	}
	if w.lock > 0 || m.sparse != nil {
		// One at a time, with the adds deferred as in a loop body.
		w.lock++
		defer w.unlock()
		for range n {
			var v T
			e := w.Spawn()
			if init != nil {
				init(e, &v)
			}
			m.Add(e, v)
		}
		return
	}
	t := m.table
	start := w.spawnRows(t, n)
	t.cleanRows(start, n)
	// init runs as a loop body does: structural changes it makes are
	// deferred, so it cannot move the rows being filled in.
	w.lock++
	defer w.unlock()
	if init != nil {
		// SAFETY: spawnRows made rows [start, start+n) of t, whose column
		// m.col stores T values; cleanRows made them zero.
		vs := unsafe.Slice((*T)(t.columns[m.col].at(start)), n)
		for i := range vs {
			init(t.entities[start+uint32(i)], &vs[i])
		}
	}
	w.addedRows(t, start, []*componentInfo{m.info})
	w.settle()
}

// Get returns a pointer to e's T. Panics, naming e, T and the operation, if
// e is not alive or has no T; [Map.TryGet] is the checking twin.
// Complexity: O(1), no allocation. For table storage in a world without an
// access checker, Get inlines into the caller and makes no call (see
// map_lookup.go); sparse storage, a checker and errors take one call.
func (m *Map[T]) Get(e Entity) *T {
	// SAFETY: the value is a T: valueAt finds it in a column of T values,
	// getSlow in a column or the sparse set of T.
	return (*T)(m.info.valueAt(e, getSlow))
}

// TryGet returns a pointer to e's T and true, or nil and false when e is not
// alive or has no T. Complexity: O(1), no allocation; one call (the second
// result puts it just over the inliner's budget), with Get's lookup inside.
func (m *Map[T]) TryGet(e Entity) (*T, bool) {
	// SAFETY: as in Get.
	p := (*T)(m.info.valueAt(e, tryGetSlow))
	return p, p != nil
}

// Has reports whether e is alive and has a T. Complexity: O(1); inlines as
// Get does.
func (m *Map[T]) Has(e Entity) bool {
	return m.info.hasValue(e, hasSlow)
}

// Add gives e the component v, moving e to the table of its new archetype.
// Panics if e is not alive or already has a T ([Map.Set] adds or
// overwrites). Inside an iteration the add is deferred and judged against
// the state the changes queued before it leave: after a queued Remove of T
// it is legal, after a queued Add or Set of T it panics as a duplicate,
// and after a queued despawn of e it is dropped when applied.
// Complexity: O(number of e's components).
func (m *Map[T]) Add(e Entity, v T) {
	if s := m.sparse; s != nil && m.w.quiet() {
		w := m.w
		w.enter("Add")
		done := addQuiet(s, &w.entities, e, v)
		w.leave()
		if done {
			return
		}
	}
	m.addChecked(e, v)
}

// TryAdd is the checking twin of [Map.Add]: it adds v to e, exactly as Add
// would, and returns true when Add would not panic; it returns false and
// does nothing when e is not alive, or has a T, or, inside an iteration,
// will have one once the changes queued before it apply (a queued Add or
// Set of T). It is the guard that agrees with Add inside a loop, where
// [Map.Has] answers for the current state (see "Deferred structural
// changes" in the package documentation). Complexity: that of Add, plus O(1) when nothing
// of e is queued. (flecs' add is idempotent; Ark's Add panics on a
// duplicate and has no twin.)
func (m *Map[T]) TryAdd(e Entity, v T) bool {
	r := m.w.entities.lookup(e)
	if r == nil || !m.w.addable(e, r, m.info) {
		return false
	}
	m.addChecked(e, v)
	return true
}

// Exchange takes from e the types of remove it has and gives it v, in a
// single table move, as [Map2.Exchange] does for several types: OnRemove
// hooks of the removed types first, then OnAdd of T. Panics if e is not
// alive or has a T already, if remove holds T, or if remove is nil or of
// another world. Inside an iteration it is judged as Add and queued as one
// change. Complexity: O(number of e's components). (Ark's Exchange.)
func (m *Map[T]) Exchange(e Entity, remove *TypeSet, v T) {
	var p [1]unsafe.Pointer
	pt := m.one.exchange(e, remove, p[:])
	// SAFETY: p[0] stores a T (a column, a sparse set or a staging column).
	*(*T)(p[0]) = v
	m.one.end(pt)
}

// ExchangeCmd records in c a [Map.Exchange] of e, applied in one table
// move, as [Map2.ExchangeCmd] does for several types. Panics like it.
// Complexity: O(1) amortised to record.
func (m *Map[T]) ExchangeCmd(c *Commands, e Entity, remove *TypeSet, v T) {
	var p [1]unsafe.Pointer
	m.one.exchangeCmd(c, e, remove, p[:])
	// SAFETY: p[0] is a staging slot of T values.
	*(*T)(p[0]) = v
}

// addChecked is Add off the quiet sparse path: checks, hooks, observers and
// deferral.
func (m *Map[T]) addChecked(e Entity, v T) {
	if m.sparse != nil && m.w.lock == 0 {
		m.w.checkAlive("Add", e, m.info)
		m.w.enter("Add")
		p, added := m.sparse.insert(e)
		m.w.leave()
		if !added {
			m.panicPresent(e)
		}
		// SAFETY: p is e's new slot in m.sparse, which stores T values.
		*(*T)(p) = v
		m.w.added(m.info, e, p)
		m.w.settle()
		return
	}
	w := m.w
	r := w.checkAlive("Add", e, m.info)
	if w.lock > 0 {
		w.mustNotShare("Add", m.info)
		w.judgeAdd(e, r, m.info, false)
		w.queue(command{kind: cmdAdd, e: e, id: m.id, slot: stage(&w.cmds, m.info, v)})
		return
	}
	if w.hasComponent(e, r, m.info) {
		m.panicPresent(e)
	}
	m.add(e, r, v)
}

// Set gives e the value v for T: an overwrite in place when e has a T, an
// [Map.Add] otherwise (the add-or-update of the "type-erased component
// registry" tutorial). Panics if e is not alive. Inside an iteration, a Set
// on a component e has, with no change of it queued, is a write and takes
// effect at once; otherwise it is queued as an add-or-overwrite, after the
// changes queued before it, so the value is never undone by them.
func (m *Map[T]) Set(e Entity, v T) {
	w := m.w
	if w.checker != nil {
		w.checkComponent(m.info, true, "Set")
	}
	if w.lock > 0 && w.mayHaveQueued() {
		r := w.checkAlive("Set", e, m.info)
		if w.judgeAdd(e, r, m.info, true) {
			m.add(e, r, v)
			return
		}
	}
	if m.sparse != nil {
		if p := m.sparse.get(e); p != nil {
			// SAFETY: p is e's slot in m.sparse, which stores T values.
			*(*T)(p) = v
			m.w.overwritten(m.info, e, p)
			return
		}
	}
	r := m.w.checkAlive("Set", e, m.info)
	if m.sparse == nil {
		t := w.tableOf(r)
		if c := t.column(m.id); c >= 0 {
			col := &t.columns[c]
			p := col.at(r.row)
			// SAFETY: as in Get.
			*(*T)(p) = v
			if col.ticks != nil {
				col.ticks.touch(r.row) // the row is at hand: no second lookup
			}
			m.w.setHooks(m.info, e, p)
			return
		}
	}
	m.add(e, r, v)
}

func (m *Map[T]) add(e Entity, r *record, v T) {
	w := m.w
	if w.lock > 0 {
		w.mustNotShare("Add", m.info)
		w.queue(command{kind: cmdAdd, e: e, id: m.id, slot: stage(&w.cmds, m.info, v)})
		return
	}
	p := w.addSlot(e, r, m.info)
	// SAFETY: p is the slot for e's T, just made.
	*(*T)(p) = v
	if w.notify {
		w.added(m.info, e, p)
		w.settle()
	}
}

// Remove takes T away from e, moving e to the table of its new archetype. It
// does nothing if e has no T. Panics if e is not alive. Inside an iteration
// the removal is deferred. Complexity: O(number of e's components).
func (m *Map[T]) Remove(e Entity) {
	if s := m.sparse; s != nil && m.w.quiet() {
		w := m.w
		w.enter("Remove")
		done := removeQuiet[T](s, e)
		w.leave()
		if done {
			return
		}
	}
	m.removeChecked(e)
}

// removeChecked is Remove off the quiet sparse path.
func (m *Map[T]) removeChecked(e Entity) {
	w := m.w
	if m.sparse != nil && w.lock == 0 && m.info.hooks == nil {
		w.enter("Remove")
		removed := m.sparse.remove(e)
		w.leave()
		if !removed {
			w.checkAlive("Remove", e, m.info) // absent is fine; dead is not
		}
		w.settle()
		return
	}
	r := w.checkAlive("Remove", e, m.info)
	if w.lock > 0 {
		w.mustNotShare("Remove", m.info)
		w.queue(command{kind: cmdRemove, e: e, id: m.id})
		return
	}
	w.removeComponent(e, r, m.id)
	w.settle()
}

func (m *Map[T]) panicPresent(e Entity) { panic(presentMessage(e, m.info, "")) }
