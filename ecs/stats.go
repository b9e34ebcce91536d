package ecs

import (
	"reflect"
	"unsafe"
)

// Stats is a snapshot of a world's memory use, from [World.Stats]. Bytes
// count the memory the world holds for each structure (capacity, not only
// what is in use), so they show what [World.Shrink] can give back.
type Stats struct {
	Entities    int              // living entities
	EntityIndex EntityIndexStats // the paged entity index
	Components  []ComponentStats // one per component type, in id order (first use)
	Tables      []TableStats     // one per archetype table, in creation order
	TotalBytes  int              // entity index + tables + sparse sets
}

// EntityIndexStats describes the entity index.
type EntityIndexStats struct {
	Capacity int // records the index holds room for (a power of two)
	Free     int // despawned indices waiting to be recycled
	Bytes    int // records and free list
}

// ComponentStats describes the storage of one component type.
type ComponentStats struct {
	Type     reflect.Type
	Storage  Storage
	Count    int // entities that have the component
	Capacity int // values the storage holds room for
	Bytes    int // value memory; for sparse storage also its dense entity array and pages
	Pages    int // sparse storage: pages of 1024 entries in use (pooled ones not counted)
	Pooled   int // sparse storage: empty pages kept for reuse
}

// TableStats describes one archetype table.
type TableStats struct {
	Components []reflect.Type // the table's component types, in id order
	Rows       int
	Capacity   int
	Bytes      int // the entity column and every component column, at capacity
}

var (
	recordSize      = int(unsafe.Sizeof(record{}))
	entitySize      = int(unsafe.Sizeof(Entity{}))
	sparsePageBytes = int(unsafe.Sizeof(sparsePage{}))
)

// Stats reports the world's memory use per component type, per table and
// for the entity index, with totals. Complexity: O(tables x their component
// types + component types).
func (w *World) Stats() Stats {
	st := Stats{Entities: w.Len()}
	x := &w.entities
	st.EntityIndex = EntityIndexStats{
		Capacity: len(x.recs),
		Free:     len(x.free),
		Bytes:    len(x.recs)*recordSize + cap(x.free)*4,
	}
	st.Components = make([]ComponentStats, len(w.reg.infos))
	for i, info := range w.reg.infos {
		cs := &st.Components[i]
		cs.Type = info.typ
		if s := info.sparse; s != nil {
			cs.Storage = SparseStorage
			cs.Count, cs.Capacity = s.len(), int(s.capacity)
			for _, p := range s.pages {
				if p != nil {
					cs.Pages++
				}
			}
			cs.Pooled = len(s.pool)
			cs.Bytes = cs.Capacity*(int(info.size)+entitySize) + (cs.Pages+cs.Pooled)*sparsePageBytes + len(s.pages)*8
		}
	}
	for _, t := range w.tables {
		ts := TableStats{Rows: len(t.entities), Capacity: int(t.capacity)}
		ts.Bytes = ts.Capacity * entitySize
		for _, col := range t.columns {
			ts.Components = append(ts.Components, col.info.typ)
			cs := &st.Components[col.id]
			cs.Count += ts.Rows
			cs.Capacity += ts.Capacity
			cs.Bytes += ts.Capacity * int(col.size)
			ts.Bytes += ts.Capacity * int(col.size)
		}
		st.Tables = append(st.Tables, ts)
		st.TotalBytes += ts.Bytes
	}
	st.TotalBytes += st.EntityIndex.Bytes
	for _, cs := range st.Components {
		if cs.Storage == SparseStorage {
			st.TotalBytes += cs.Bytes
		}
	}
	return st
}
