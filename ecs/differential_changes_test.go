package ecs_test

// Change detection in the differential harness: passes of queries filtered
// by ecs.Added or ecs.Changed (some also declaring ecs.MarksChanged) against
// the model's change log, and Map.MarkChanged.

import (
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/refmodel"
)

// changePass runs one pass of one of the kind's change-filtered queries,
// in a form the chooser picks, and compares the entities it visits with
// the model's. The kind must track changes.
func (c *diffKind[T]) changePass(h *diffHarness) {
	if !h.tracked[c.k] {
		return
	}
	which := h.src.intn(4)
	added, writes := which&2 != 0, which&1 != 0
	q := c.watched[which]
	if q == nil {
		filters := []ecs.Filter{ecs.Changed[T]()}
		if added {
			filters[0] = ecs.Added[T]()
		}
		if writes {
			filters = append(filters, ecs.MarksChanged[T]())
		}
		q = ecs.NewQuery1[T](h.w, filters...)
		c.watched[which] = q
		c.watches[which] = h.m.NewChangeWatch()
	}
	form := h.src.intn(4)
	var got []ecs.Entity
	switch form {
	case 0:
		got = passAll(q)
	case 1:
		got = passChunks(q)
	case 2:
		got = passIter(q)
	default:
		got = passAppend(q)
	}
	want := c.ms.Pass(c.watches[which], added, writes)
	ids := make([]refmodel.EntityID, 0, len(got))
	for _, e := range got {
		id, ok := h.byEnt[e]
		if !ok {
			h.failf("%s pass of %s (form %d) visited %v, which the harness does not know", map[bool]string{false: "Changed", true: "Added"}[added], c.name, form, e)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, want) {
		h.failf("%s[%s] pass (writes %v, form %d): Tessera visits %v, the model %v", map[bool]string{false: "Changed", true: "Added"}[added], c.name, writes, form, ids, want)
	}
	h.cov[covChangePass]++
	if len(want) > 0 && len(want) < c.ms.Len() {
		h.cov[covChangeSome]++
	}
	if err := ecs.CheckChangeTicks(h.w); err != nil {
		h.failf("change ticks: %v", err)
	}
}

// markChanged marks p's value of the kind changed in both worlds, or
// expects Tessera to refuse: an untracked kind, or a value p lacks.
func (c *diffKind[T]) markChanged(h *diffHarness, p diffPair) {
	h.note("MarkChanged["+c.name+"]", p, 0)
	switch {
	case !h.tracked[c.k]:
		h.expectPanic("Tessera Map.MarkChanged["+c.name+"] of an untracked kind", func() { c.tm.MarkChanged(p.e) })
	case !c.ms.Has(p.id):
		h.expectPanic("Tessera Map.MarkChanged["+c.name+"] of a missing value", func() { c.tm.MarkChanged(p.e) })
	default:
		c.tm.MarkChanged(p.e)
		c.ms.MarkChanged(p.id)
	}
}
