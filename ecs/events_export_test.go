package ecs

// EventsHeld returns the length and capacity of q's buffer: the events it
// holds in memory, read by every reader or not, and the room it has. For
// the tests of dropping, which run outside the package.
func EventsHeld[E any](q *Events[E]) (held, room int) { return len(q.buf), cap(q.buf) }
