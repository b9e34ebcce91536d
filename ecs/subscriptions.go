package ecs

import (
	"fmt"
	"strings"
)

// subscription is the observer state of one query: its enter and leave
// observers, and its members in a bitset indexed by entity index (the active
// set of the dissertation "optimisations for the Entity Component System
// pattern"). Settling tests and sets or clears one bit per touched entity,
// O(1); the bitset takes an eighth of the memory of a []bool
// (BenchmarkMembership compares it with a Go map and a []bool). Structural
// operations record the entities they touch only while some query is
// observed, so worlds without observers pay one flag test.
type subscription struct {
	onEnter, onLeave []func(Entity)
	members          bitset // entity index -> member
}

// observe registers fn as an enter (enter true) or leave observer of c.
func (w *World) observe(c *queryCache, enter bool, fn func(Entity)) {
	if w.lock > 0 {
		panic("ecs: OnEnter/OnLeave: called inside an iteration" + w.openLoopNote())
	}
	if c.changes != nil {
		panic("ecs: OnEnter/OnLeave: the query has Added or Changed filters, whose matches depend on when it last ran, not on the entity; observe a query without them, or use OnAdd and OnSet hooks")
	}
	if c.sub == nil {
		c.sub = &subscription{}
		c.recountMembers()
		w.observed = append(w.observed, c)
		w.notify = true
	}
	if enter {
		c.sub.onEnter = append(c.sub.onEnter, fn)
	} else {
		c.sub.onLeave = append(c.sub.onLeave, fn)
	}
}

// touch records that e's components changed.
func (w *World) touch(e Entity) {
	if len(w.observed) > 0 {
		w.touched = append(w.touched, e)
	}
}

// settle fires enter and leave events for the entities touched since the
// last settle, once each, in the order they were first touched. Observers
// run like loop bodies; the changes they make are applied afterwards and
// settled in turn.
func (w *World) settle() {
	if len(w.touched) != 0 || len(w.pairEvents) != 0 {
		w.settleTouched()
	}
}

func (w *World) settleTouched() {
	if w.lock > 0 || w.settling || w.flushing {
		return
	}
	w.settling = true
	defer func() { w.settling = false }()
	for round := 0; len(w.touched) > 0 || len(w.pairEvents) > 0; round++ {
		if round == MaxCascadeRounds {
			w.runawayObservers()
		}
		if len(w.pairEvents) > 0 {
			w.lock++
			w.firePairEvents()
			w.lock--
		}
		// Swap buffers: this round reads one while touches made by its
		// observers' changes go to the other, and neither is reallocated.
		touched := w.touched
		w.touched, w.settleBuf = w.settleBuf[:0], touched
		clear(w.seen)
		if w.seen == nil {
			w.seen = make(map[Entity]struct{})
		}
		w.lock++
		for _, e := range touched {
			if _, dup := w.seen[e]; dup {
				continue
			}
			w.seen[e] = struct{}{}
			r := w.entities.lookup(e)
			for _, c := range w.observed {
				now := r != nil && c.matchesEntity(e, r)
				if was := c.sub.members.test(componentID(e.index)); was == now {
					continue
				}
				if now {
					c.sub.members.set(componentID(e.index))
					for _, f := range c.sub.onEnter {
						f(e)
					}
				} else {
					c.sub.members.unset(componentID(e.index))
					for _, f := range c.sub.onLeave {
						f(e)
					}
				}
			}
		}
		w.lock--
		if w.lock == 0 && len(w.cmds.cmds) != 0 {
			w.flush()
		}
	}
}

// matchesEntity reports whether the live entity e (record r) matches c.
func (c *queryCache) matchesEntity(e Entity, r *record) bool {
	t := c.w.tableOf(r)
	if t.id >= len(c.slotOf) || c.slotOf[t.id] < 0 {
		return false
	}
	for i, sp := range c.sparseTerms {
		if sp != nil && !c.optional[i] && !sp.has(e) {
			return false
		}
	}
	for _, sp := range c.sparseWith {
		if !sp.has(e) {
			return false
		}
	}
	for _, sp := range c.sparseNone {
		if sp.has(e) {
			return false
		}
	}
	return c.relToMatch(e, 0) && c.anyOfSparseMatch(e, t)
}

// runawayObservers panics for observers that keep changing what they
// observe: the entities touched in the round past MaxCascadeRounds and the
// observed queries they keep entering or leaving are named. The touched
// entities are forgotten, so the world stays usable.
func (w *World) runawayObservers() {
	e := w.touched[0]
	var names []string
	for _, t := range w.touched { // name a living entity and what it flips
		r := w.entities.lookup(t)
		if r == nil {
			continue
		}
		e, names = t, names[:0]
		for _, c := range w.observed {
			if c.sub.members.test(componentID(t.index)) != c.matchesEntity(t, r) {
				names = append(names, c.describe())
			}
		}
		if len(names) > 0 {
			break
		}
	}
	if len(names) == 0 {
		names = append(names, "the observed queries")
	}
	n := len(w.touched)
	w.touched = w.touched[:0]
	panic(fmt.Sprintf("ecs: enter and leave observers did not settle after %d rounds: entity %v (and %d other touches) keeps entering and leaving %s; an OnEnter or OnLeave undoes what another one does",
		MaxCascadeRounds, e, n-1, strings.Join(names, ", ")))
}
