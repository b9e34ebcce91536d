package ecs

import "reflect"

// Shallow declares that values of type T, wherever they live in w (a
// component, the values of a relation's pairs, the events of a queue, a
// resource), are copied by a plain copy in snapshots ([World.Snapshot],
// [World.Restore]), by [World.CopyEntity] and by prefabs, although T holds
// references (pointers, slices, maps, interfaces): the copies then share
// what those reference with the world, and the caller promises not to
// mutate it while a snapshot may be restored (read-only assets, for
// example: a *Mesh, a []Frame shared by every sprite). Without it, and
// without a [Cloner] method, Snapshot, CopyEntity and [NewPrefab] panic for
// such a type, naming it, and [World.CanSnapshot] returns the error.
//
// It may be called before or after T's first use in w, as often as wanted;
// it lasts as long as w. A T that implements [Cloner] is still copied
// through its Clone method, and a T without references needs nothing: for
// both it changes nothing. Panics inside a parallel section. Complexity:
// O(event types in w), a scan of a short list, plus map operations. (A
// property of the type, not of where it is stored, as Rust's Copy marker
// trait is.)
func Shallow[T any](w *World) {
	w.mustNotShare("Shallow", nil)
	t := reflect.TypeFor[T]()
	if w.reg.shallow == nil {
		w.reg.shallow = make(map[reflect.Type]bool)
	}
	w.reg.shallow[t] = true
	if id, ok := w.reg.byType[t]; ok {
		info := w.reg.infos[id]
		info.snap = w.reg.lift(t, info.snap)
	}
	if r := w.relationOf[t]; r != nil {
		pairSnapshotPolicy[T](r)
	}
	for _, q := range w.events {
		if q, ok := q.(*Events[T]); ok {
			q.policy = w.reg.lift(t, q.policy)
		}
	}
	if s, ok := w.resources[t].(*resourceSlot[T]); ok {
		s.policy = w.reg.lift(t, s.policy)
	}
}

// lift returns the policy snapshots use for values of t whose own policy
// is pol: a plain copy where pol refuses a type declared [Shallow], pol
// otherwise.
func (r *registry) lift(t reflect.Type, pol snapshotPolicy) snapshotPolicy {
	if pol == refuseValues && r.shallow[t] {
		return copyValues
	}
	return pol
}
