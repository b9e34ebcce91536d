package ecs

// SetIsPlainWrite reports whether, at this moment, m.Set(e, v) for a live
// entity e that already has a T would do nothing but store v: no OnSet hook
// is registered for T, T does not track changes (TrackChanges: a Set marks
// it changed), no access checker is installed, and the world is
// neither inside an iteration nor in a parallel section (where a Set may be
// judged against, or queued behind, deferred changes).
//
// It exists for batch writers, such as sched.Output's merge, that update
// many components at once: when it reports true, writing through the
// pointer [Map.TryGet] returns is equivalent to Set, without Set's per-call
// checks. The answer holds until a hook or an access checker is registered
// or an iteration or parallel section begins, so a caller must not run code
// that may do either (a hook, a Set of another type) between asking and
// writing. Complexity: O(1).
func (m *Map[T]) SetIsPlainWrite() bool {
	w := m.w
	h := m.info.hooks
	return w.lock == 0 && w.checker == nil && (h == nil || len(h.onSet) == 0) && !m.info.track
}

// PointerFree reports whether values of T hold no pointers the garbage
// collector must see (no pointers, slices, maps, strings, interfaces,
// channels or functions, at any depth). Batch writers that keep values of T
// in buffers of their own, such as sched.Output, use it to skip clearing
// spent buffers. Complexity: O(1), decided when T was first seen.
func (m *Map[T]) PointerFree() bool { return m.info.pointerFree }
