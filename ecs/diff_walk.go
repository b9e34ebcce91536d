package ecs

import (
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// rowLoc is where an entity's row lies in a view: a table and a row, or
// table -1 for none.
type rowLoc struct{ table, row int32 }

// locate returns, per entity index, the table and row of v's living
// entity with that index.
func locate(v *stateView, n uint32) []rowLoc {
	locs := make([]rowLoc, n)
	for i := range locs {
		locs[i].table = -1
	}
	for ti := range v.tables {
		for row, e := range v.tables[ti].entities {
			locs[e.index] = rowLoc{int32(ti), int32(row)}
		}
	}
	return locs
}

// tables compares the entities that live in tables, in A's iteration
// order, then those that live in B only, then the iteration order.
func (d *differ) tables() {
	a, b := d.a, d.b
	n := max(a.next, b.next)
	inB := locate(b, n)
	before := d.total
	for ti := range a.tables {
		ta := &a.tables[ti]
		for row, e := range ta.entities {
			lb := inB[e.index]
			if lb.table < 0 || !liveIn(b, e) {
				d.add(Difference{Kind: OnlyInA, Part: PartEntities, Type: "entities", Entity: e, A: columnNames(ta)})
				continue
			}
			d.row(e, ta, row, &b.tables[lb.table], int(lb.row))
		}
	}
	for ti := range b.tables {
		tb := &b.tables[ti]
		for _, e := range tb.entities {
			if !liveIn(a, e) {
				d.add(Difference{Kind: OnlyInB, Part: PartEntities, Type: "entities", Entity: e, B: columnNames(tb)})
			}
		}
	}
	if d.total == before {
		d.order() // same entities, components and values: the order may differ
	}
}

// format formats a whole value for a difference that is kept, and skips
// the work for one only counted.
func (d *differ) format(t reflect.Type, p unsafe.Pointer) string {
	if !d.keeps() {
		return ""
	}
	return formatValue(t, p)
}

// columnNames lists a table's component names, for an entity that only
// one state has.
func columnNames(t *viewTable) string {
	names := make([]string, len(t.cols))
	for i := range t.cols {
		names[i] = t.cols[i].name
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// row compares entity e's components: row ra of table ta in A, row rb of
// tb in B. Both tables' columns are in key order.
func (d *differ) row(e Entity, ta *viewTable, ra int, tb *viewTable, rb int) {
	i, j := 0, 0
	for i < len(ta.cols) || j < len(tb.cols) {
		switch {
		case j == len(tb.cols) || i < len(ta.cols) && ta.cols[i].key < tb.cols[j].key:
			c := &ta.cols[i]
			d.add(Difference{Kind: OnlyInA, Part: c.part, Type: c.name, Entity: e, A: d.format(c.info.typ, c.at(ra))})
			i++
		case i == len(ta.cols) || tb.cols[j].key < ta.cols[i].key:
			c := &tb.cols[j]
			d.add(Difference{Kind: OnlyInB, Part: c.part, Type: c.name, Entity: e, B: d.format(c.info.typ, c.at(rb))})
			j++
		default:
			d.value(e, &ta.cols[i], ta.cols[i].at(ra), &tb.cols[j], tb.cols[j].at(rb))
			i++
			j++
		}
	}
}

// value compares one value of column ca at pa with one of cb at pb, by
// their hashes, and on a difference reports each differing field.
func (d *differ) value(e Entity, ca *viewColumn, pa unsafe.Pointer, cb *viewColumn, pb unsafe.Pointer) {
	if ca.info.size == 0 && cb.info.size == 0 {
		return
	}
	var ha, hb stateHash
	ha.value(d.a.w.hashPlanOf(ca.info), pa)
	hb.value(d.b.w.hashPlanOf(cb.info), pb)
	if ha == hb {
		return
	}
	if ca.info.typ != cb.info.typ {
		// One name, two Go types: states of two programs. The values are
		// compared whole.
		d.add(Difference{Kind: ValueDiffers, Part: ca.part, Type: ca.name, Entity: e,
			A: d.format(ca.info.typ, pa), B: d.format(cb.info.typ, pb)})
		return
	}
	diffFields(ca.info.typ, pa, pb, func(field, va, vb string) {
		d.add(Difference{Kind: ValueDiffers, Part: ca.part, Type: ca.name, Entity: e, Field: field, A: va, B: vb})
	})
}

// order reports, per component type, the first place where A's and B's
// iteration orders part, when both hold the same entities with the same
// components: the order in which a query over that type sees them, which
// its checksum counts.
func (d *differ) order() {
	before := d.total
	d.typeOrder()
	if d.total == before {
		d.worldOrder()
	}
}

// worldOrder reports the first place where A's and B's entities part, the
// tables' entities one after another: the order of a query over every
// entity, which the entity index's part counts. Every type's own order can
// agree while it differs, with tables of disjoint types made in another
// order.
func (d *differ) worldOrder() {
	a, b := d.a, d.b
	ti, tj, i, j := 0, 0, 0, 0
	for {
		for ti < len(a.tables) && i == len(a.tables[ti].entities) {
			ti, i = ti+1, 0
		}
		for tj < len(b.tables) && j == len(b.tables[tj].entities) {
			tj, j = tj+1, 0
		}
		if ti == len(a.tables) || tj == len(b.tables) {
			return
		}
		ea, eb := a.tables[ti].entities[i], b.tables[tj].entities[j]
		if ea.index != eb.index {
			d.add(Difference{Kind: OrderDiffers, Part: PartEntities, Type: "entities", Entity: ea,
				Field: "iteration order", A: ea.String(), B: eb.String()})
			return
		}
		i, j = i+1, j+1
	}
}

// typeOrder reports, per component type, the first place where A's and
// B's orders of the entities that hold it part.
func (d *differ) typeOrder() {
	sa, sb := typeOrders(d.a), typeOrders(d.b)
	for _, k := range sortedKeys(sa) {
		oa, ob := sa[k], sb[k]
		for i := range min(len(oa.entities), len(ob.entities)) {
			ea, eb := oa.entities[i], ob.entities[i]
			if ea.index != eb.index {
				d.add(Difference{Kind: OrderDiffers, Part: oa.col.part, Type: oa.col.name, Entity: ea,
					Field: "iteration order", A: ea.String(), B: eb.String()})
				break
			}
		}
	}
}

// typeOrder is the entities that hold one type, in iteration order.
type typeOrder struct {
	col      *viewColumn
	entities []Entity
}

// typeOrders returns, per column key, the entities of v that hold it, in
// iteration order.
func typeOrders(v *stateView) map[string]*typeOrder {
	m := map[string]*typeOrder{}
	for ti := range v.tables {
		t := &v.tables[ti]
		for ci := range t.cols {
			o := m[t.cols[ci].key]
			if o == nil {
				o = &typeOrder{col: &t.cols[ci]}
				m[t.cols[ci].key] = o
			}
			o.entities = append(o.entities, t.entities...)
		}
	}
	return m
}

func sortedKeys(m map[string]*typeOrder) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// sparse compares the sparse sets, component types' and relations', set
// by set in key order.
func (d *differ) sparse() {
	a, b := d.a.sparse, d.b.sparse
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].key < b[j].key:
			d.sparseOnly(&a[i], OnlyInA)
			i++
		case i == len(a) || b[j].key < a[i].key:
			d.sparseOnly(&b[j], OnlyInB)
			j++
		default:
			d.sparseBoth(&a[i], &b[j])
			i++
			j++
		}
	}
}

// sparseOnly reports every value of a set that one state has only, on
// entities that both states have (tables reported the others).
func (d *differ) sparseOnly(s *viewSparse, k DiffKind) {
	other := d.b
	if k == OnlyInB {
		other = d.a
	}
	for i, e := range s.dense {
		if !liveIn(other, e) {
			continue
		}
		x := Difference{Kind: k, Part: s.part, Type: s.name, Entity: e}
		if k == OnlyInA {
			x.A = d.format(s.info.typ, s.at(i))
		} else {
			x.B = d.format(s.info.typ, s.at(i))
		}
		d.add(x)
	}
}

// sparseBoth compares one set's values in A and B, entity by entity, and
// then their order.
func (d *differ) sparseBoth(sa, sb *viewSparse) {
	at := make(map[uint32]int32, len(sb.dense))
	for i, e := range sb.dense {
		at[e.index] = int32(i)
	}
	sameSet := len(sa.dense) == len(sb.dense)
	for i, e := range sa.dense {
		k, ok := at[e.index]
		if !ok || sb.dense[k].gen&genMask != e.gen&genMask {
			sameSet = false
			if !liveIn(d.b, e) {
				continue // tables reported the entity
			}
			d.add(Difference{Kind: OnlyInA, Part: sa.part, Type: sa.name, Entity: e, A: d.format(sa.info.typ, sa.at(i))})
			continue
		}
		delete(at, e.index)
		d.value(e, &sa.viewColumn, sa.at(i), &sb.viewColumn, sb.at(int(k)))
	}
	for i, e := range sb.dense {
		if k, ok := at[e.index]; ok && int(k) == i {
			sameSet = false
			if !liveIn(d.a, e) {
				continue
			}
			d.add(Difference{Kind: OnlyInB, Part: sb.part, Type: sb.name, Entity: e, B: d.format(sb.info.typ, sb.at(i))})
		}
	}
	if !sameSet {
		return
	}
	for i, e := range sa.dense {
		if f := sb.dense[i]; f.index != e.index {
			d.add(Difference{Kind: OrderDiffers, Part: sa.part, Type: sa.name, Entity: e,
				Field: "iteration order", A: e.String(), B: f.String()})
			return
		}
	}
}

// resources compares the resources present in either state, by type name.
func (d *differ) resources() {
	a, b := d.a.resources, d.b.resources
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].name < b[j].name:
			d.add(Difference{Kind: OnlyInA, Part: PartResource, Type: a[i].name, A: d.format(a[i].typ, a[i].v)})
			i++
		case i == len(a) || b[j].name < a[i].name:
			d.add(Difference{Kind: OnlyInB, Part: PartResource, Type: b[j].name, B: d.format(b[j].typ, b[j].v)})
			j++
		default:
			ra, rb := &a[i], &b[j]
			var ha, hb stateHash
			ha.value(cachedHashPlan(ra.typ), ra.v)
			hb.value(cachedHashPlan(rb.typ), rb.v)
			if ha != hb {
				if ra.typ != rb.typ {
					d.add(Difference{Kind: ValueDiffers, Part: PartResource, Type: ra.name,
						A: d.format(ra.typ, ra.v), B: d.format(rb.typ, rb.v)})
				} else {
					diffFields(ra.typ, ra.v, rb.v, func(field, va, vb string) {
						d.add(Difference{Kind: ValueDiffers, Part: PartResource, Type: ra.name, Field: field, A: va, B: vb})
					})
				}
			}
			i++
			j++
		}
	}
}
