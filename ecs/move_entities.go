package ecs

import "unsafe"

// readAhead is how many entities moveEntities reads ahead of the one it
// moves.
const readAhead = 16

// readAheadRecords is the entity index length from which moveEntities
// reads ahead.
const readAheadRecords = 1 << 16

// moveEntities moves each entity of es to the table with (add) or without
// the table-stored type info, writing *v into the added column; see
// Map.AddEntities. The checks and the table pair are worked out once per
// source table, not once per entity; each move is World.move's.
func (w *World) moveEntities(op string, es []Entity, info *componentInfo, add bool, v unsafe.Pointer) {
	// Reading ahead pays once the entity index outgrows a core's caches
	// (64Ki records, 768 KiB); below that it only adds work.
	ahead := len(w.entities.recs) >= readAheadRecords
	var from, dst *table // the last source table that needed a move, and its target
	for i, e := range es {
		if ahead && i%readAhead == 0 {
			w.readEntities(es[i:min(i+readAhead, len(es))])
		}
		r := w.entities.lookup(e)
		if r == nil {
			panic(w.deadMessage(op, e, info))
		}
		if src := w.bySlot[r.slot]; src != from {
			if has := src.column(info.id) >= 0; has == add {
				if !add {
					continue // nothing to remove
				}
				panic(presentMessage(e, info, ""))
			}
			from = src
			if add {
				dst = w.withComponent(src, info.id)
			} else {
				dst = w.withoutComponent(src, info.id)
			}
		}
		row := w.move(e, r, dst)
		if add {
			if col := &dst.columns[dst.colOf[info.id]]; col.size != 0 {
				col.copyValue(col.at(row), v)
			}
		}
	}
}

// readEntities reads the record of each entity of es and a byte of its row
// in every column of its table, changing nothing. The reads of different
// entities do not depend on one another, so the processor overlaps their
// cache misses, and the moves that follow find their data in cache.
func (w *World) readEntities(es []Entity) {
	var sink uintptr
	recs := w.entities.recs
	for _, e := range es {
		if uint64(e.index) >= uint64(len(recs)) {
			continue
		}
		r := recs[e.index]
		if r.gen != e.gen || int(r.slot) >= len(w.bySlot) {
			continue
		}
		t := w.bySlot[r.slot]
		if r.row >= uint32(len(t.entities)) {
			continue
		}
		for j := range t.columns {
			col := &t.columns[j]
			if col.size != 0 {
				// SAFETY: r.row is a row of t, so the byte lies inside the column.
				sink += uintptr(*(*byte)(col.at(r.row)))
			}
		}
	}
	w.readSink += sink
}
