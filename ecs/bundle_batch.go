package ecs

import (
	"fmt"
	"unsafe"
)

// Batches, init-function spawns, batches over a query and command-buffer
// records of a bundle (see bundle). Each begins here, lets the generic
// method write its typed values where p says, and ends here.

// maxBundle is the most types a handle covers (Map12).
const maxBundle = 12

// checkCount panics, naming the handle and op, if n is negative or n
// entities do not fit ([World.Room]).
func (b *bundle) checkCount(op string, n int) {
	if n < 0 {
		panic(fmt.Sprintf("ecs: %s: negative count %d", handleOp(b.handle, b.infos, op), n))
	}
	if n > b.w.entities.room() {
		panic(b.w.entities.tooMany(handleOp(b.handle, b.infos, op), uint64(n)))
	}
}

// spawnBatch begins a SpawnBatch of n entities with the same values: p
// receives where the first entity's values go, and endBatch copies them to
// the others. While changes are deferred the first entity's add is queued
// (with its values staged) and endBatch queues the others'. Panics as
// checkCount does.
func (b *bundle) spawnBatch(n int, p []unsafe.Pointer) put {
	w := b.w
	b.checkCount("SpawnBatch", n)
	if n == 0 {
		return put{mode: putNothing}
	}
	if w.lock > 0 {
		e := w.Spawn()
		b.queueAdd(e, p)
		return put{e: e, n: n}
	}
	t := b.table
	start := w.spawnRows(t, n)
	first := t.entities[start]
	for i, info := range b.infos {
		if c := b.cols[i]; c >= 0 {
			p[i] = t.columns[c].at(start)
		} else {
			p[i] = info.sparse.add(first)
		}
	}
	return put{e: first, row: start, n: n, mode: putSpawned}
}

// endBatch finishes spawnBatch once the first entity's values are written:
// they are copied to the others (in one pass per column; a zero value is
// written only where rows are stale, see table.dirty), then OnAdd hooks
// and observers run for the batch.
func (b *bundle) endBatch(pt put) {
	w := b.w
	switch pt.mode {
	case putNothing:
		return
	case putQueued:
		buf := &w.cmds
		off := buf.cmds[len(buf.cmds)-1].slot
		var p [maxBundle]unsafe.Pointer
		for range pt.n - 1 {
			e := w.Spawn()
			b.queueAdd(e, p[:len(b.infos)])
			for i, info := range b.infos {
				// The first entity's staged value, found again each time:
				// staging may grow.
				info.copy1(p[i], buf.staging[info.id].col.at(uint32(buf.multi[off+2*uint32(i)+1])))
			}
		}
		return
	}
	t, start, rest := b.table, pt.row, pt.n-1
	for i, info := range b.infos {
		if c := b.cols[i]; c >= 0 {
			col := &t.columns[c]
			first := col.at(start)
			if rest == 0 {
				continue // start+1 may be past the column's end
			}
			if !zeroBytes(first, info.size) {
				info.fillN(col.at(start+1), rest, first)
			} else if start+1 < t.dirty {
				info.clearN(col.at(start+1), int(min(t.dirty-start-1, uint32(rest))))
			}
			continue
		}
		s := info.sparse
		for _, e := range t.entities[start+1 : start+uint32(pt.n)] {
			dst := s.add(e)
			info.copy1(dst, s.get(pt.e)) // after add: it may grow the set
		}
	}
	w.addedRows(t, start, b.infos)
	w.settle()
}

// zeroBytes reports whether the size bytes at p are all zero: a word at a
// time where p is 8-byte aligned, then byte by byte. Note that -0.0 is not
// zero here, as in isZero.
func zeroBytes(p unsafe.Pointer, size uintptr) bool {
	var i uintptr
	// SAFETY: uintptr(p) only tests p's alignment; no pointer is made back
	// from the number.
	if uintptr(p)%8 == 0 {
		for ; i+8 <= size; i += 8 {
			// SAFETY: p+i is 8-byte aligned and i+8 <= size bytes of the value.
			if *(*uint64)(unsafe.Add(p, i)) != 0 {
				return false
			}
		}
	}
	// SAFETY: p addresses a value of size bytes, of which i are checked.
	for _, c := range unsafe.Slice((*byte)(unsafe.Add(p, i)), size-i) {
		if c != 0 {
			return false
		}
	}
	return true
}

// spawnFunc begins a SpawnFunc: outside an iteration it makes the entity
// in its table with zero values, fills p with their addresses and, when
// init will run, raises the iteration count (the caller lowers it: init
// runs like a loop body, so its changes cannot move the row). While changes
// are deferred it returns a queued put, and the caller fills copies and
// queues them (spawnQueued).
func (b *bundle) spawnFunc(p []unsafe.Pointer, init bool) put {
	w := b.w
	if w.lock > 0 {
		return put{}
	}
	t := b.table
	w.enter("SpawnFunc")
	e, r := w.entities.alloc()
	row := t.pushEntity(e)
	r.slot, r.row = t.slot, row
	if row < t.dirty {
		t.clearRow(row)
	}
	if init || b.sparse {
		b.zeroSlots(e, row, p)
	}
	w.leave()
	if init {
		w.lock++
	}
	return put{e: e, mode: putSpawned}
}

// zeroSlots fills p with the slots of the entity e just spawned at row of
// the bundle's table, zeroing sparse ones (a sparse slot may hold a
// removed value; the row was cleaned).
func (b *bundle) zeroSlots(e Entity, row uint32, p []unsafe.Pointer) {
	for i, info := range b.infos {
		p[i] = spawnSlot(e, b.table, row, b.cols[i], info)
		if b.cols[i] < 0 {
			info.clearN(p[i], 1)
		}
	}
}

// spawnBatchFunc begins a SpawnBatchFunc of n entities: outside an
// iteration it makes them in the bundle's table with zero values and
// raises the iteration count for the init calls (the caller lowers it);
// the caller gets each entity's slots from rowSlots. While changes are
// deferred it returns a queued put (the caller spawns each with
// spawnQueued). Panics as checkCount does.
func (b *bundle) spawnBatchFunc(n int) put {
	w := b.w
	b.checkCount("SpawnBatchFunc", n)
	if n == 0 {
		return put{mode: putNothing}
	}
	if w.lock > 0 {
		return put{n: n}
	}
	t := b.table
	start := w.spawnRows(t, n)
	t.cleanRows(start, n)
	w.lock++
	return put{row: start, n: n, mode: putSpawned}
}

// rowSlots returns the i-th entity of a spawnBatchFunc and fills p with
// its zeroed slots.
func (b *bundle) rowSlots(pt put, i int, p []unsafe.Pointer) Entity {
	row := pt.row + uint32(i)
	e := b.table.entities[row]
	b.zeroSlots(e, row, p)
	return e
}

// endRows fires the OnAdd hooks and observers of a spawnBatchFunc's rows.
func (b *bundle) endRows(pt put) {
	b.w.addedRows(b.table, pt.row, b.infos)
	b.w.settle()
}

// addAll begins an AddMatching over q: the values go through the staging
// columns of deferred changes also when applied at once (handing their
// addresses to the types' fill functions would move them to the heap on
// every call). Panics if q belongs to another world, or in a parallel
// section.
func (b *bundle) addAll(q Matcher, p []unsafe.Pointer) (*queryCache, uint32) {
	w := b.w
	c := w.ownCache("AddMatching", q)
	if w.lock > 0 {
		w.mustNotShare("AddMatching", b.infos[0])
	}
	return c, b.stage(&w.cmds, p)
}

// endAddAll applies or queues the AddMatching whose values are staged at off.
func (b *bundle) endAddAll(c *queryCache, off uint32) {
	w := b.w
	buf := &w.cmds
	if w.lock > 0 {
		w.queue(command{kind: cmdAddAllN, id: componentID(len(b.ids)), slot: off, q: c})
		return
	}
	w.addAllMany(c, buf, buf.multi[off:])
	buf.unstage(off)
}

// removeAll takes every type away from each entity q matches, or queues
// that as one change while changes are deferred.
func (b *bundle) removeAll(q Matcher) {
	w := b.w
	c := w.ownCache("RemoveMatching", q)
	if w.lock > 0 {
		w.mustNotShare("RemoveMatching", b.infos[0])
		w.queue(command{kind: cmdRemoveAllN, id: componentID(len(b.ids)), slot: b.stageIDs(&w.cmds), q: c})
		return
	}
	w.removeAllMany(c, b.ids)
}

// spawnCmd records in c the spawn of a pending entity with the types in
// their table, fills p with the staging slots of its values and returns
// the pending entity.
func (b *bundle) spawnCmd(c *Commands, p []unsafe.Pointer) Entity {
	c.checkN(SpawnAccess, "SpawnCmd", nil, b.w, b.handle, b.infos)
	e := c.pending()
	buf := &c.buf
	off := uint32(len(buf.multi))
	buf.multi = append(buf.multi, componentID(len(buf.tables)))
	b.stage(buf, p)
	buf.tables = append(buf.tables, b.table)
	c.push(command{kind: cmdSpawnN, e: e, id: componentID(len(b.ids)), slot: off})
	return e
}

// addCmd records in c an add-or-overwrite of every type on e and fills p
// with the staging slots of the values.
func (b *bundle) addCmd(c *Commands, e Entity, p []unsafe.Pointer) {
	c.checkN(AddAccess, "SetCmd", &e, b.w, b.handle, b.infos)
	off := b.stage(&c.buf, p)
	c.push(command{kind: cmdAddN, e: e, id: componentID(len(b.ids)), slot: off})
}

// exchangeCmd records in c an Exchange on e: when applied, e loses the
// types of rm it has and gains every type of the bundle, in one move (a
// type it has by then is overwritten). p receives the staging slots.
func (b *bundle) exchangeCmd(c *Commands, e Entity, rm *TypeSet, p []unsafe.Pointer) {
	c.checkN(AddAccess, "ExchangeCmd", &e, b.w, b.handle, b.infos)
	b.checkExchange("ExchangeCmd", rm)
	if b.w.checker != nil {
		for _, info := range rm.infos {
			c.report(RemoveAccess, "ExchangeCmd", Entity{}, info)
		}
	}
	off := b.stageExchange(&c.buf, rm, p)
	c.push(command{kind: cmdExchangeN, e: e, id: componentID(len(b.ids)), slot: off})
}

// removeCmd records in c the removal of every type from e.
func (b *bundle) removeCmd(c *Commands, e Entity) {
	c.checkN(RemoveAccess, "RemoveCmd", &e, b.w, b.handle, b.infos)
	c.push(command{kind: cmdRemoveN, e: e, id: componentID(len(b.ids)), slot: b.stageIDs(&c.buf)})
}
