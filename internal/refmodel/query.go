package refmodel

import (
	"errors"
	"fmt"
	"slices"
)

// Query selects entities by the component kinds they have, with the four
// filter kinds of Tessera (the all / none / one-of aspects of Artemis, as in
// the dissertation "optimisations for the Entity Component System pattern",
// plus optional terms):
//
//   - Terms are the kinds the query reads. Each is required unless it is
//     listed in Optional.
//   - With lists further required kinds, not read.
//   - Without lists excluded kinds: an entity with any of them is skipped.
//   - AnyOf lists groups; an entity must have at least one kind of every group.
//   - Optional marks some Terms as not required.
//
// A Query is a plain value; do not change one that a deferred batch
// operation may still use (the model copies it, but not its slices' contents).
type Query struct {
	Terms    []Kind
	With     []Kind
	Without  []Kind
	AnyOf    [][]Kind
	Optional []Kind
}

// Required returns the kinds an entity must have: the non-optional Terms and
// With, without repeats, in increasing order.
func (q *Query) Required() []Kind {
	var req []Kind
	for _, k := range q.Terms {
		if !slices.Contains(q.Optional, k) {
			req = append(req, k)
		}
	}
	req = append(req, q.With...)
	slices.Sort(req)
	return slices.Compact(req)
}

// Validate reports why q cannot be used with w, or nil. The rules are
// Tessera's: every kind belongs to w; Terms are distinct; every Optional
// kind is a Term; every AnyOf group is non-empty; no kind is both required
// and excluded; and the query requires something (a required kind or an
// AnyOf group).
func (q *Query) Validate(w *World) error {
	check := func(what string, ks []Kind) error {
		for _, k := range ks {
			if k < 0 || int(k) >= len(w.stores) {
				return fmt.Errorf("%s: unknown component kind %d", what, k)
			}
		}
		return nil
	}
	if err := check("Terms", q.Terms); err != nil {
		return err
	}
	if err := check("With", q.With); err != nil {
		return err
	}
	if err := check("Without", q.Without); err != nil {
		return err
	}
	if err := check("Optional", q.Optional); err != nil {
		return err
	}
	for i, g := range q.AnyOf {
		if len(g) == 0 {
			return fmt.Errorf("AnyOf group %d is empty", i)
		}
		if err := check("AnyOf", g); err != nil {
			return err
		}
	}
	for i, k := range q.Terms {
		if slices.Contains(q.Terms[:i], k) {
			return fmt.Errorf("term %s is listed twice", w.stores[k].label())
		}
	}
	for _, k := range q.Optional {
		if !slices.Contains(q.Terms, k) {
			return fmt.Errorf("Optional(%s) is not one of the terms", w.stores[k].label())
		}
	}
	req := q.Required()
	for _, k := range q.Without {
		if slices.Contains(req, k) {
			return fmt.Errorf("%s is both required and excluded", w.stores[k].label())
		}
	}
	if len(req) == 0 && len(q.AnyOf) == 0 {
		return errors.New("the query requires nothing")
	}
	return nil
}

func (w *World) mustBeValid(op string, q *Query) {
	if err := q.Validate(w); err != nil {
		panic("refmodel: " + op + ": invalid query: " + err.Error())
	}
}

func (q *Query) clone() *Query {
	c := *q
	return &c
}

// Matches reports whether the living entity e passes q. A dead entity never
// matches. It does not validate q.
func (w *World) Matches(q *Query, e EntityID) bool {
	if !w.Alive(e) {
		return false
	}
	for _, k := range q.Required() {
		if !w.stores[k].has(e) {
			return false
		}
	}
	for _, k := range q.Without {
		if w.stores[k].has(e) {
			return false
		}
	}
	for _, g := range q.AnyOf {
		if !slices.ContainsFunc(g, func(k Kind) bool { return w.stores[k].has(e) }) {
			return false
		}
	}
	return true
}

// Match returns the entities q matches now, in increasing id order. It is the
// key intersection of the "super simple ECS" blog post: the candidates are
// the keys of the smallest required store (or, when nothing but AnyOf groups
// is required, the union of the first group's stores), each checked against
// the other conditions. Panics if q is invalid for w.
func (w *World) Match(q *Query) []EntityID {
	w.mustBeValid("Match", q)
	var candidates []EntityID
	if req := q.Required(); len(req) > 0 {
		smallest := w.stores[req[0]]
		for _, k := range req[1:] {
			if s := w.stores[k]; s.size() < smallest.size() {
				smallest = s
			}
		}
		candidates = smallest.keys()
	} else {
		seen := make(map[EntityID]bool)
		for _, k := range q.AnyOf[0] {
			for _, e := range w.stores[k].keys() {
				if !seen[e] {
					seen[e] = true
					candidates = append(candidates, e)
				}
			}
		}
	}
	out := candidates[:0]
	for _, e := range candidates {
		if w.Matches(q, e) {
			out = append(out, e)
		}
	}
	slices.Sort(out)
	return out
}

// Count returns the number of entities q matches now. Panics if q is invalid.
func (w *World) Count(q *Query) int { return len(w.Match(q)) }

// Each calls f for every entity q matched when Each was called, in increasing
// id order, until f returns false. Structural changes f makes are deferred
// until the outermost iteration ends. Panics if q is invalid; if f panics,
// the iteration is still ended.
func (w *World) Each(q *Query, f func(e EntityID) bool) {
	ids := w.Match(q)
	w.BeginIteration()
	defer w.EndIteration()
	for _, e := range ids {
		if !f(e) {
			return
		}
	}
}

// Cursor walks the entities of a query one at a time. It holds an iteration
// open from [World.Iter] until Next returns false or Close is called.
type Cursor struct {
	w    *World
	ids  []EntityID
	i    int
	open bool
}

// Iter starts an iteration over the entities q matches now, in increasing id
// order. Panics if q is invalid.
func (w *World) Iter(q *Query) *Cursor {
	ids := w.Match(q)
	w.BeginIteration()
	return &Cursor{w: w, ids: ids, i: -1, open: true}
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the cursor is closed.
func (c *Cursor) Next() bool {
	if !c.open {
		return false
	}
	c.i++
	if c.i < len(c.ids) {
		return true
	}
	c.Close()
	return false
}

// Entity returns the current entity. Valid only after Next returned true.
func (c *Cursor) Entity() EntityID { return c.ids[c.i] }

// Close ends the iteration; if it was the outermost one, the deferred changes
// are applied. Closing twice, or after Next returned false, does nothing.
func (c *Cursor) Close() {
	if c.open {
		c.open = false
		c.w.EndIteration()
	}
}
