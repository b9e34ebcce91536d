package refmodel

import "fmt"

// observer is the observer state of one query (identified by pointer).
type observer struct {
	q                *Query
	members          map[EntityID]bool
	onEnter, onLeave []func(EntityID)
}

// OnAdd registers fn to run whenever an entity gains a T (see "Hooks and
// observers" in the package documentation). Hooks of one store run in
// registration order.
func (s *Store[T]) OnAdd(fn func(e EntityID, v T)) { s.onAdd = append(s.onAdd, fn) }

// OnSet registers fn to run whenever a Set, a deferred add or an AddMatching
// overwrites the T an entity already has.
func (s *Store[T]) OnSet(fn func(e EntityID, v T)) { s.onSet = append(s.onSet, fn) }

// OnRemove registers fn to run just before an entity loses its T, by any
// path, despawning included; fn receives the value being removed.
func (s *Store[T]) OnRemove(fn func(e EntityID, v T)) { s.onRemove = append(s.onRemove, fn) }

// OnEnter registers fn to run whenever a living entity starts matching q.
// Observers are keyed by the *Query pointer: the first registration on q
// takes the entities matching now as members, without firing anything. q
// must not be changed afterwards. Panics inside an iteration or if q is
// invalid.
func (w *World) OnEnter(q *Query, fn func(e EntityID)) {
	o := w.observerOf("OnEnter", q)
	o.onEnter = append(o.onEnter, fn)
}

// OnLeave registers fn to run whenever an entity stops matching q,
// despawning included; see [World.OnEnter].
func (w *World) OnLeave(q *Query, fn func(e EntityID)) {
	o := w.observerOf("OnLeave", q)
	o.onLeave = append(o.onLeave, fn)
}

func (w *World) observerOf(op string, q *Query) *observer {
	if w.depth > 0 {
		panic(fmt.Sprintf("refmodel: %s: called inside an iteration", op))
	}
	w.mustBeValid(op, q)
	for _, o := range w.observers {
		if o.q == q {
			return o
		}
	}
	o := &observer{q: q, members: make(map[EntityID]bool)}
	for _, e := range w.Match(q) {
		o.members[e] = true
	}
	w.observers = append(w.observers, o)
	return o
}

// Batch runs f as one operation: observer membership is settled once, when
// f returns, instead of after each change f makes. It models Tessera's
// operations that the model performs as several steps: spawning with
// components (Spawn then Adds), a MapN Add or Remove of several types, a
// SpawnBatch. Hooks still fire per change. Batches may nest.
func (w *World) Batch(f func()) {
	w.batching++
	defer func() {
		w.batching--
		w.done()
	}()
	f()
}

// touch marks e for the next settling, when something observes.
func (w *World) touch(e EntityID) {
	if len(w.observers) > 0 {
		w.touched = append(w.touched, e)
	}
}

// fire runs a hook or observer call with the world iterating.
func (w *World) fire(f func()) {
	w.depth++
	defer func() { w.depth-- }()
	f()
}

// done ends a structural operation: outside iterations and batches it
// applies the changes hooks deferred and settles observer membership,
// repeating while observers defer further changes.
func (w *World) done() {
	if w.depth > 0 || w.batching > 0 || w.settling {
		return
	}
	w.settling = true
	defer func() { w.settling = false }()
	for {
		if len(w.pending) > 0 {
			w.flush()
		}
		if len(w.touched) == 0 {
			return
		}
		touched := w.touched
		w.touched = nil
		seen := make(map[EntityID]bool, len(touched))
		for _, e := range touched {
			if seen[e] {
				continue
			}
			seen[e] = true
			for _, o := range w.observers {
				now := w.Matches(o.q, e)
				if o.members[e] == now {
					continue
				}
				fns := o.onLeave
				if now {
					o.members[e] = true
					fns = o.onEnter
				} else {
					delete(o.members, e)
				}
				for _, fn := range fns {
					w.fire(func() { fn(e) })
				}
			}
		}
	}
}
