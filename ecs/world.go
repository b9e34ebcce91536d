package ecs

import "reflect"

// World owns entities, their components, the archetype tables, the cached
// queries, the resources and the deferred command buffer. A World is not safe
// for concurrent use: every call, iteration included (an iteration updates
// the world's iteration count), must come from one goroutine at a time.
type World struct {
	// checked is checker != nil (see misuseGuard), kept beside the entity
	// index that the fast path of Map.Get loads anyway, so a world without
	// a checker pays a test of a byte on the same cache line, and one
	// world's checker never slows another's Get. checked, entities and reg
	// stay first: the hot paths read them.
	checked  bool
	entities entityIndex
	reg      registry

	componentStore // tables, sparse sets and query caches (storage.go)
	deferral       // the iteration count and the queue of deferred changes (deferred.go)
	misuseGuard    // parallel section, access checker, mutation mark (misuse_guard.go)
	hookState      // hooks registered and hook calls in progress (hooks.go)
	pendingIndex   // per entity, its queued changes (pending.go)
	observerState  // enter/leave observers and settle's buffers (query_observers.go)
	resourceStore  // resources (resource.go)
	eventStore     // event queues (events.go)
	changeClock    // the change tick (change_tick_clock.go)
	relationState  // the relations (relation.go)
	pairHookQueue  // pair hooks waiting for the next settle (relation_hooks.go)
	despawnWalk    // despawn cascades' buffers (relation_despawn.go)

	scratch  []Entity // reused by batch operations that go entity by entity
	readSink uintptr  // keeps readEntities' reads from being optimised away
}

// NewWorld returns an empty world.
func NewWorld() *World {
	w := &World{
		entities:       newEntityIndex(nextWorldTag()),
		reg:            newRegistry(),
		componentStore: componentStore{tableByKey: make(map[string]*table), bySlot: []*table{deadTable}},
		resourceStore:  resourceStore{resources: make(map[reflect.Type]any)},
		pendingIndex:   pendingIndex{queueEpoch: 1},
		changeClock:    changeClock{tick: 1, clampedAt: 1},
	}
	w.reg.w = w
	w.entities.unmark = w.leave
	w.reg.slots = 1 // slot 0 is deadTable's
	w.empty = w.tableFor(nil)
	return w
}

// Spawn creates an entity with no components and returns it. It is a
// structural change the running iterations cannot see, so it takes effect at
// once even inside a loop. Complexity: O(1) amortised.
func (w *World) Spawn() Entity {
	w.mustNotShare("Spawn", nil)
	w.enter("Spawn")
	e, r := w.entities.alloc()
	r.slot = w.empty.slot
	r.row = w.empty.pushEntity(e)
	w.leave()
	return e
}

// Despawn removes e and every component it has; its index is recycled with a
// new generation, so e and every copy of it are dead from then on.
// Inside an iteration the despawn is deferred until the outermost iteration
// ends (e stays alive until then). Panics if e is not alive.
// Complexity: O(number of e's components).
func (w *World) Despawn(e Entity) {
	r := w.entities.lookup(e)
	if r == nil {
		panic(w.deadMessage("Despawn", e, nil))
	}
	if w.lock > 0 {
		w.mustNotShare("Despawn", nil)
		w.queue(command{kind: cmdDespawn, e: e})
		return
	}
	w.despawn(e, r)
	w.settle()
}

func (w *World) despawn(e Entity, r *record) {
	if len(w.relations) != 0 && w.guardsSources(e) {
		w.despawnTree(e)
		return
	}
	w.despawnOne(e, r)
}

// despawnOne despawns e alone: its hooks, its relations' pairs (see
// unlinkRelations), its sparse values and its row.
func (w *World) despawnOne(e Entity, r *record) {
	locked := false
	if w.notify {
		locked = w.hooked && w.despawning(e, r)
		w.touch(e)
		r = w.entities.at(e.index) // the hooks may have spawned: the index may have moved
	}
	unlinked := len(w.relations) != 0
	if unlinked {
		w.unlinkRelations(e)
		r = w.entities.at(e.index) // a cascade may have spawned through hooks
	}
	w.enter("Despawn")
	for _, s := range w.sparse {
		if s.rel != nil && unlinked {
			continue // unlinkRelations emptied e's slots in the relations' sets
		}
		s.remove(e)
	}
	t := w.tableOf(r)
	if moved := t.removeRow(r.row); !moved.IsZero() {
		w.entities.at(moved.index).row = r.row
	}
	w.entities.release(e.index, r)
	w.leave()
	if locked {
		w.unlock()
	}
}

// Alive reports whether e is a living entity of this world. The zero Entity
// and despawned entities are never alive. Complexity: O(1).
func (w *World) Alive(e Entity) bool { return w.entities.lookup(e) != nil }

// Len returns the number of living entities.
func (w *World) Len() int { return w.entities.alive }

// Reserve pre-allocates the entity index for n more entities, so the next n
// spawns do not grow it (the reserve of Pierre Vigier, "Entity-Component-System
// – Part 1", the ECS of the game Vagabond). Table columns grow when rows are
// added; see the spawn handles' batch methods for reserving those. Panics
// when n entities do not fit in the world ([MaxEntities], [World.Room]);
// n <= 0 does nothing. Complexity: O(n) at most, for the copy of the index.
func (w *World) Reserve(n int) {
	w.mustNotShare("Reserve", nil)
	if n > 0 {
		w.entities.mustHold("Reserve", n)
		w.entities.reserve(n)
	}
}

// Room returns how many more entities w can hold: [MaxEntities] less the
// entity indices handed out, plus the despawned ones it will recycle. A
// batch spawn of more panics; this is its checking twin. Complexity: O(1).
func (w *World) Room() int { return w.entities.room() }

// IsIterating reports whether an iteration is in progress, so structural
// changes are being deferred. Outside every loop it must be false: if it is
// true there, a loop was left by a panic without [World.Recover], or a
// cursor was left without Close, and every structural change since then is
// waiting ([World.Pending] counts them). Panic messages that may be caused
// by such waiting changes say so and name the loop.
func (w *World) IsIterating() bool { return w.lock > 0 }

// Pending returns the number of structural changes queued and not yet
// applied: the changes made since the outermost open iteration began (0
// when none is open). Complexity: O(1).
func (w *World) Pending() int { return len(w.cmds.cmds) - w.applied }

// checkAlive returns e's record or panics naming op and the component type.
func (w *World) checkAlive(op string, e Entity, info *componentInfo) *record {
	r := w.entities.lookup(e)
	if r == nil {
		panic(w.deadMessage(op, e, info))
	}
	return r
}

// checkAliveN is checkAlive for a handle of several types: its panic
// message names the operation with all of the handle's types, as in
// "Map2[main.Pos,main.Vel].Add".
func (w *World) checkAliveN(handle string, infos []*componentInfo, op string, e Entity) *record {
	r := w.entities.lookup(e)
	if r == nil {
		panic(w.deadMessage(handleOp(handle, infos, op), e, nil))
	}
	return r
}

// tableFor returns the table of the given sorted component ids, creating it
// (and telling every query about it) when it does not exist yet.
func (w *World) tableFor(ids []componentID) *table { return w.tableForPairs(ids, nil) }

// tableForPairs returns the table of the given sorted component ids whose
// rows are the sources of the given pairs of split relations (see
// SplitByTarget; pairs sorted by relation), creating it when needed.
func (w *World) tableForPairs(ids []componentID, pairs []tablePair) *table {
	var mask bitset
	for _, id := range ids {
		mask.set(id)
	}
	key := tableKey(mask, pairs)
	if t, ok := w.tableByKey[key]; ok {
		return t
	}
	t := &table{id: len(w.tables), slot: uint32(len(w.tables) + 1), mask: mask, ids: append([]componentID(nil), ids...)}
	if len(pairs) > 0 {
		t.pairs = append([]tablePair(nil), pairs...)
		for _, p := range pairs {
			p.rel.splitTables[p.target] = append(p.rel.splitTables[p.target], t)
		}
	}
	maxID := -1
	if len(ids) > 0 {
		maxID = int(ids[len(ids)-1])
	}
	t.colOf = make([]int32, maxID+1)
	for i := range t.colOf {
		t.colOf[i] = -1
	}
	t.columns = make([]column, len(ids))
	hint := 0
	for i, id := range ids {
		info := w.reg.infos[id]
		t.columns[i] = newColumn(info, 0)
		t.colOf[id] = int32(i)
		if info.size != 0 && !info.pointerFree {
			t.pointerCols = append(t.pointerCols, int32(i))
		}
		if info.track {
			t.columns[i].ticks = newTickColumn(&w.tick, false, 0)
			t.tracked = append(t.tracked, int32(i))
		}
		hint = max(hint, info.hint)
	}
	w.bySlot = append(w.bySlot, t)
	w.tables = w.bySlot[1:]
	w.addColumnSlot(t)
	t.reserve(uint32(hint)) // after the slot exists, so reserve relinks it
	w.tableByKey[key] = t
	for _, q := range w.queries {
		q.consider(t)
	}
	return t
}

// tableOf returns the table of the record r: deadTable for a dead record.
func (w *World) tableOf(r *record) *table { return w.bySlot[r.slot] }

// withComponent returns the table t reaches by adding id (an edge of the
// archetype graph, cached after the first use).
func (w *World) withComponent(t *table, id componentID) *table {
	if int(id) < len(t.addEdge) {
		if n := t.addEdge[id]; n != nil {
			return n
		}
	}
	ids := make([]componentID, 0, len(t.ids)+1)
	inserted := false
	for _, x := range t.ids {
		if !inserted && id < x {
			ids = append(ids, id)
			inserted = true
		}
		ids = append(ids, x)
	}
	if !inserted {
		ids = append(ids, id)
	}
	n := w.tableForPairs(ids, t.pairs)
	setEdge(&t.addEdge, id, n)
	setEdge(&n.removeEdge, id, t)
	return n
}

// withoutComponent returns the table t reaches by removing id.
func (w *World) withoutComponent(t *table, id componentID) *table {
	if int(id) < len(t.removeEdge) {
		if n := t.removeEdge[id]; n != nil {
			return n
		}
	}
	ids := make([]componentID, 0, len(t.ids))
	for _, x := range t.ids {
		if x != id {
			ids = append(ids, x)
		}
	}
	n := w.tableForPairs(ids, t.pairs)
	setEdge(&t.removeEdge, id, n)
	setEdge(&n.addEdge, id, t)
	return n
}

func setEdge(edges *[]*table, id componentID, t *table) {
	for len(*edges) <= int(id) {
		*edges = append(*edges, nil)
	}
	(*edges)[id] = t
}

// move moves e (whose record is r) from its table to dst, copying the
// components both tables have, and returns e's new row. Components dst lacks
// are dropped; components src lacks are left for the caller to write.
func (w *World) move(e Entity, r *record, dst *table) uint32 {
	w.enter("a move between tables (Add or Remove)")
	src := w.tableOf(r)
	row := dst.pushEntity(e)
	for i := range dst.columns {
		col := &dst.columns[i]
		if col.size == 0 {
			continue
		}
		if j := src.column(col.id); j >= 0 {
			col.copyValue(col.at(row), src.columns[j].at(r.row))
		}
	}
	for _, i := range dst.tracked {
		// pushEntity stamped the row as new; the types e had keep their
		// ticks.
		col := &dst.columns[i]
		if j := src.column(col.id); j >= 0 {
			col.ticks.carry(row, src.columns[j].ticks, r.row)
		}
	}
	if moved := src.removeRow(r.row); !moved.IsZero() {
		w.entities.at(moved.index).row = r.row
	}
	r.slot = dst.slot
	r.row = row
	w.leave()
	if w.notify {
		w.touch(e)
	}
	return row
}
