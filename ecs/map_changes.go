package ecs

// MarkChanged marks e's T as changed now, for [Changed] filters: call it
// after writing through a pointer from [Map.Get] or a query that does not
// declare [MarksChanged][T]. Panics, naming e and T, if e is not alive, has
// no T, or T does not track changes ([TrackChanges]). Complexity: O(1).
func (m *Map[T]) MarkChanged(e Entity) {
	w := m.w
	if w.checker != nil {
		w.checkComponent(m.info, true, "MarkChanged")
	}
	r := w.checkAlive("MarkChanged", e, m.info)
	if !m.info.track {
		panic(notTracked("MarkChanged", m.info))
	}
	if !w.hasComponent(e, r, m.info) {
		panic(missingComponent(w, "MarkChanged", e, m.info))
	}
	w.touchValue(m.info, e)
}

// Tracked reports whether T keeps change ticks ([TrackChanges]), for
// code that must know whether [Changed] filters and [Map.MarkChanged] are
// valid for T. Complexity: O(1).
func (m *Map[T]) Tracked() bool { return m.info.track }
