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

// observerState is the world's side of enter and leave observers (part of
// World): the observed queries, the entities touched since the last
// settle, and settle's reused buffers.
type observerState struct {
	observed  []*queryCache       // queries with enter/leave observers
	touched   []Entity            // entities changed since the last settle
	settleBuf []Entity            // settle's second buffer, swapped with touched
	seen      map[Entity]struct{} // settle's duplicate filter, reused
	seenPeak  int                 // the most entries seen has held since it was made
	settling  bool                // settle is firing observers and pair hooks
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
			w.runawaySettle()
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
		w.resetSeen(len(touched))
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

// resetSeen empties settle's duplicate filter for a round of n touched
// entities. Clearing a Go map costs time in proportion to the most entries
// it ever held, not to the entries in it: after a settle of 100,000 spawns,
// every later settle of a few hundred entities would pay for 100,000. So a
// filter much larger than the round is made anew.
func (w *World) resetSeen(n int) {
	if w.seen == nil || w.seenPeak > 4*n+256 {
		w.seen, w.seenPeak = make(map[Entity]struct{}, n), n
		return
	}
	w.seenPeak = max(w.seenPeak, len(w.seen))
	clear(w.seen)
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

// runawaySettle panics for a settle that did not end after
// MaxCascadeRounds rounds: pair hooks that keep making or removing pairs,
// or enter and leave observers that keep changing what they observe, or
// both feeding each other. The message names what is still pending: the
// relations and hooks of the pair events, the entities and queries whose
// membership keeps flipping. Both are dropped first, so the world stays
// usable and [World.Recover] finds nothing left to fire.
func (w *World) runawaySettle() {
	var who, what []string
	if len(w.pairEvents) > 0 {
		who = append(who, "relation pair hooks")
		what = append(what, w.runawayPairs())
	}
	if flips := w.runawayTouches(); flips != "" || len(who) == 0 {
		who = append(who, "enter and leave observers")
		if flips == "" {
			flips = fmt.Sprintf("%d touched entities keep changing the observed queries", len(w.touched))
		}
		what = append(what, flips)
	}
	w.pairEvents = w.pairEvents[:0]
	w.touched = w.touched[:0]
	panic(fmt.Sprintf("ecs: %s did not settle after %d rounds: %s; the pending pair events and touches were dropped; call World.Recover after recovering this panic",
		strings.Join(who, " and "), MaxCascadeRounds, strings.Join(what, "; ")))
}

// runawayPairs describes the pending pair events: the relations they
// belong to with the pair hooks each has, and the last pair.
func (w *World) runawayPairs() string {
	var rels []string
	seen := map[*relation]bool{}
	for _, ev := range w.pairEvents {
		if seen[ev.r] {
			continue
		}
		seen[ev.r] = true
		var hooks []string
		if len(ev.r.onAdd) > 0 {
			hooks = append(hooks, ev.r.name()+".OnAdd")
		}
		if len(ev.r.onRemove) > 0 {
			hooks = append(hooks, ev.r.name()+".OnRemove")
		}
		rels = append(rels, strings.Join(hooks, " and "))
	}
	last := w.pairEvents[len(w.pairEvents)-1]
	return fmt.Sprintf("the pair hooks %s keep making or removing pairs that fire them again (%d pair events pending, the last of the pair %v -> %v)",
		strings.Join(rels, ", "), len(w.pairEvents), last.e, last.t)
}

// runawayTouches describes a living touched entity that keeps entering or
// leaving observed queries, and those queries, or returns "" when no
// touched entity changes membership (the touches are then the trace of
// pair hooks' changes, not a fight between observers).
func (w *World) runawayTouches() string {
	for _, t := range w.touched {
		r := w.entities.lookup(t)
		if r == nil {
			continue
		}
		var names []string
		for _, c := range w.observed {
			if c.sub.members.test(componentID(t.index)) != c.matchesEntity(t, r) {
				names = append(names, c.describe())
			}
		}
		if len(names) > 0 {
			return fmt.Sprintf("entity %v (and %d other touches) keeps entering and leaving %s; an OnEnter or OnLeave undoes what another one does",
				t, len(w.touched)-1, strings.Join(names, ", "))
		}
	}
	return ""
}
