package ecs

import (
	"math/bits"
	"strconv"
	"testing"
)

// The active-passive set of the dissertation "optimisations for the Entity
// Component System pattern" applied to a sparse-driven query: a bitset
// of member entity indices kept up to date on every change, plus a dense
// member list rebuilt from it when it is stale and iterated instead of the
// driving sparse set. BenchmarkMemberList compares, for a query over
// Position (table) and Heat (sparse) among 100,000 Position entities, the
// way Tessera iterates (driven from the Heat set, with a per-entity table
// check) with iterating a clean member list, and measures the rebuild. The
// "strays" cases add as many Heat holders without Position, which the
// driver must skip and the list never sees.

type mlPosition struct{ X, Y float64 }
type mlHeat struct{ Heat float64 }

// memberList is the prototype active-passive set.
type memberList struct {
	members bitset // by entity index
	list    []Entity
}

// rebuild refills the list from the bitset, in entity index order.
func (m *memberList) rebuild(x *entityIndex) {
	m.list = m.list[:0]
	for wi, word := range m.members {
		for word != 0 {
			i := uint32(wi*64 + bits.TrailingZeros64(word))
			word &= word - 1
			m.list = append(m.list, Entity{i, x.at(i).gen})
		}
	}
}

//go:noinline
func sumDriven(q *Query2[mlPosition, mlHeat]) float64 {
	s := 0.0
	for r := range q.All() {
		s += r.A.X * r.B.Heat
	}
	return s
}

//go:noinline
func sumMemberList(c *queryCache, heat *sparseSet, list []Entity) float64 {
	s := 0.0
	x := &c.w.entities
	for _, e := range list {
		r := x.at(e.index)
		slot := c.slotOf[r.tableID()]
		// SAFETY: e matches the query, so slot >= 0 and the table's column
		// for term 0 stores mlPosition; heat stores mlHeat and holds e.
		p := (*mlPosition)(c.w.tableOf(r).columns[c.cols[int(slot)*2]].at(r.row))
		h := (*mlHeat)(heat.get(e))
		s += p.X * h.Heat
	}
	return s
}

// sumDrivenDirect is the driven walk written for this query alone, as
// sumMemberList is: it separates the cost of the data structure from that of
// entityIter's generality.
//
//go:noinline
func sumDrivenDirect(c *queryCache, heat *sparseSet) float64 {
	s := 0.0
	x := &c.w.entities
	for i, e := range heat.dense {
		r := x.at(e.index)
		slot := c.slotOf[r.tableID()]
		if slot < 0 {
			continue
		}
		// SAFETY: as in sumMemberList; slot i of heat is e's value.
		p := (*mlPosition)(c.w.tableOf(r).columns[c.cols[int(slot)*2]].at(r.row))
		h := (*mlHeat)(heat.values.at(uint32(i)))
		s += p.X * h.Heat
	}
	return s
}

//go:noinline
func rebuildList(m *memberList, x *entityIndex) { m.rebuild(x) }

func BenchmarkMemberList(b *testing.B) {
	const n = 100_000
	type setup struct {
		pct    int
		strays bool
	}
	for _, s := range []setup{{1, false}, {50, false}, {100, false}, {1, true}, {50, true}} {
		name := strconv.Itoa(s.pct) + "pct"
		if s.strays {
			name += "+strays"
		}
		w := NewWorld()
		Register[mlHeat](w, Sparse())
		pos, heat := NewMap[mlPosition](w), NewMap[mlHeat](w)
		var m memberList
		for i := range n {
			e := w.Spawn()
			pos.Add(e, mlPosition{1, 0})
			if i%100 < s.pct {
				heat.Add(e, mlHeat{1})
				m.members.set(componentID(e.index))
				if s.strays {
					heat.Add(w.Spawn(), mlHeat{1})
				}
			}
		}
		q := NewQuery2[mlPosition, mlHeat](w)
		m.rebuild(&w.entities)
		members := len(m.list)
		if members != q.Count() || sumDriven(q) != sumMemberList(q.c, heat.sparse, m.list) || sumDriven(q) != sumDrivenDirect(q.c, heat.sparse) {
			b.Fatalf("%s: the member list disagrees with the query", name)
		}
		report := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(members), "ns/member")
		}
		b.Run("driven/"+name, func(b *testing.B) {
			for b.Loop() {
				sumDriven(q)
			}
			report(b)
		})
		b.Run("direct/"+name, func(b *testing.B) {
			for b.Loop() {
				sumDrivenDirect(q.c, heat.sparse)
			}
			report(b)
		})
		b.Run("list/"+name, func(b *testing.B) {
			for b.Loop() {
				sumMemberList(q.c, heat.sparse, m.list)
			}
			report(b)
		})
		b.Run("rebuild/"+name, func(b *testing.B) {
			for b.Loop() {
				rebuildList(&m, &w.entities)
			}
			report(b)
		})
	}
}
