package ecs

import (
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// State is a world's state that [Diff] compares: a *[World] as it is now,
// or a *[Snapshot] as it was taken. Only this package implements it.
type State interface {
	diffView() stateView
}

// stateView is what Diff reads of a state, the same for a world and a
// snapshot: the entity index, the non-empty tables in iteration order with
// their columns by name, the non-empty sparse sets and the resources.
type stateView struct {
	w     *World // the world the state belongs to (types, relations)
	recs  []record
	next  uint32
	alive int
	free  []uint32
	// tables are the non-empty tables, in iteration order.
	tables []viewTable
	// sparse are the non-empty sparse sets (components and relation
	// sides), in the order of their part names.
	sparse    []viewSparse
	resources []presentResource
}

type viewTable struct {
	entities []Entity
	cols     []viewColumn // in the order of their names
}

// viewColumn is one type's values in a table or sparse set: n values of
// info's type from base.
type viewColumn struct {
	info *componentInfo
	// key tells the column's type apart from every other: the type's
	// stable name, or for a relation's side Relation[T] or
	// Relation[T].sources. part and name are what Diff reports.
	key  string
	part PartKind
	name string
	base unsafe.Pointer
}

// at returns the address of value i.
func (c *viewColumn) at(i int) unsafe.Pointer {
	// SAFETY: i is below the number of values the column holds, which lie
	// in one array of info.size-byte values from base.
	return unsafe.Add(c.base, uintptr(i)*c.info.size)
}

type viewSparse struct {
	viewColumn
	dense []Entity
}

// componentColumn is the view of a component type's values from base.
func componentColumn(info *componentInfo, base unsafe.Pointer) viewColumn {
	return viewColumn{info: info, key: info.name, part: PartComponent, name: info.name, base: base}
}

// sparseColumn is the view of a sparse set's values from base: a component
// type's, or one side of a relation's pairs, which Diff reports as the
// relation Relation[T] (its targets' side's key ends in ".sources").
func sparseColumn(s *sparseSet, base unsafe.Pointer) viewColumn {
	if s.rel == nil {
		return componentColumn(s.info, base)
	}
	name := "Relation[" + typeName(s.rel.typ) + "]"
	key := name
	if s.relIn {
		key += ".sources"
	}
	return viewColumn{info: s.info, key: key, part: PartRelation, name: name, base: base}
}

func (w *World) diffView() stateView {
	if w.shared {
		panic("ecs: Diff: called inside a parallel section, where systems may be writing; compare between stages or ticks")
	}
	x := &w.entities
	v := stateView{w: w, recs: x.recs[:x.next], next: x.next, alive: x.alive, free: x.free}
	for _, t := range w.tables {
		if len(t.entities) == 0 {
			continue
		}
		vt := viewTable{entities: t.entities}
		for i := range t.columns {
			c := &t.columns[i]
			vt.cols = append(vt.cols, componentColumn(c.info, c.base))
		}
		sortColumns(vt.cols)
		v.tables = append(v.tables, vt)
	}
	for _, s := range w.sparse {
		if len(s.dense) > 0 {
			v.sparse = append(v.sparse, viewSparse{sparseColumn(s, s.values.base), s.dense})
		}
	}
	sortSparse(v.sparse)
	v.resources = w.presentResources()
	return v
}

func (s *Snapshot) diffView() stateView {
	if s == nil || s.w == nil {
		panic("ecs: Diff: the snapshot is empty; fill it with World.Snapshot first")
	}
	if !s.complete {
		panic("ecs: Diff: the snapshot is incomplete: a Clone method panicked while World.Snapshot filled it; take it again")
	}
	w := s.w
	v := stateView{w: w, recs: s.recs, next: s.next, alive: s.alive, free: s.free}
	// Tables are never dropped, and a snapshot's tables are the world's by
	// id: table id's columns are w.tables[id]'s.
	for id := range s.tables {
		ts := &s.tables[id]
		if len(ts.entities) == 0 {
			continue
		}
		t := w.tables[id]
		vt := viewTable{entities: ts.entities}
		for i := range t.columns {
			info := t.columns[i].info
			vt.cols = append(vt.cols, componentColumn(info, ts.cols[i].base))
		}
		sortColumns(vt.cols)
		v.tables = append(v.tables, vt)
	}
	for i := range s.sparse {
		ss := &s.sparse[i]
		if len(ss.dense) > 0 {
			sp := w.sparse[i]
			v.sparse = append(v.sparse, viewSparse{sparseColumn(sp, ss.values.base), ss.dense})
		}
	}
	sortSparse(v.sparse)
	for _, t := range w.resourceOrder { // as presentResources orders them
		st := s.res[t]
		if st == nil || st.ptr == nil || st.val == nil {
			continue
		}
		v.resources = append(v.resources, presentResource{typeName(t), t, reflect.ValueOf(st.val).UnsafePointer()})
	}
	slices.SortStableFunc(v.resources, func(a, b presentResource) int { return strings.Compare(a.name, b.name) })
	return v
}

func sortColumns(cs []viewColumn) {
	slices.SortStableFunc(cs, func(a, b viewColumn) int { return strings.Compare(a.key, b.key) })
}

func sortSparse(ss []viewSparse) {
	slices.SortStableFunc(ss, func(a, b viewSparse) int { return strings.Compare(a.key, b.key) })
}
