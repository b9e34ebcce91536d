package sched

import (
	"reflect"
	"slices"
)

// Option configures a system when it is added with [Scheduler.Add]: what it
// reads and writes, and where it must run relative to other systems.
type Option func(*decl)

// decl is a system's declaration: its access and its ordering constraints.
type decl struct {
	reads, writes       []reflect.Type // component types
	resReads, resWrites []reflect.Type // resource types
	emits               []reflect.Type // component types it emits outputs for
	structural          bool
	before, after       []string
}

// Reads declares that the system reads component type T (queries over T,
// Get, TryGet, Has). Systems that only read T can share a stage.
func Reads[T any]() Option {
	return func(d *decl) { d.reads = appendType(d.reads, reflect.TypeFor[T]()) }
}

// Writes declares that the system writes component type T (Set, writes
// through pointers, AddCmd and RemoveCmd); it implies Reads[T]. No other
// system that reads or writes T shares its stage.
func Writes[T any]() Option {
	return func(d *decl) { d.writes = appendType(d.writes, reflect.TypeFor[T]()) }
}

// ReadsResource declares that the system reads the world's resource of
// type T.
func ReadsResource[T any]() Option {
	return func(d *decl) { d.resReads = appendType(d.resReads, reflect.TypeFor[T]()) }
}

// WritesResource declares that the system writes the world's resource of
// type T; it implies ReadsResource[T].
func WritesResource[T any]() Option {
	return func(d *decl) { d.resWrites = appendType(d.resWrites, reflect.TypeFor[T]()) }
}

// Emits declares that the system emits outputs for component type T through
// an [Output]. Emitters of one type may share a stage (their outputs are
// merged in the order of record at the end of it); a system that reads or
// writes T and comes after an emitter in the order of record runs in a later
// stage and sees the merged values, and one that comes before it never runs
// in a later stage than the emitter.
func Emits[T any]() Option {
	return func(d *decl) { d.emits = appendType(d.emits, reflect.TypeFor[T]()) }
}

// Structural declares that the system spawns or despawns entities, or adds
// or removes components, through its command buffer ([Context.Commands]);
// debug mode requires it of every system that records such changes. The
// changes are applied at the end of the system's stage, and since they can
// change what any query matches, every system after it in the order of
// record that touches a component type runs in a later stage and sees them,
// as it would if everything ran in sequence; the systems before it never run
// in a later stage than it.
func Structural() Option { return func(d *decl) { d.structural = true } }

// Before makes the system run in an earlier stage than the named systems,
// whatever the registration order.
func Before(names ...string) Option {
	return func(d *decl) { d.before = append(d.before, names...) }
}

// After makes the system run in a later stage than the named systems,
// whatever the registration order.
func After(names ...string) Option {
	return func(d *decl) { d.after = append(d.after, names...) }
}

func appendType(ts []reflect.Type, t reflect.Type) []reflect.Type {
	if slices.Contains(ts, t) {
		return ts
	}
	return append(ts, t)
}

// touchesComponents reports whether d reads, writes or emits any component
// type.
func (d *decl) touchesComponents() bool {
	return len(d.reads)+len(d.writes)+len(d.emits) > 0
}

// relation says how the later of two systems in the order of record must
// be placed against the earlier one. conflict, when not "", is why it must
// run in a later stage:
//
//   - a write/write or read/write pair on one component type or resource,
//     either way round (they would race);
//   - the earlier emits outputs for a type the later reads or writes (the
//     later must see the merged values);
//   - the earlier is structural and the later touches components (the later
//     must see its changes).
//
// ordered, when there is no conflict, says the later may share the earlier's
// stage but must not run in an earlier one: its effects applied at the end
// of a stage (outputs, structural changes) would otherwise reach the
// earlier system, or be applied before the earlier one's, unlike in a
// sequential run. That holds when the later emits for a type the earlier
// touches or emits, or is structural while the earlier touches components
// or is structural too.
func relation(earlier, later *decl) (conflict string, ordered bool) {
	for _, pair := range [][2]*decl{{earlier, later}, {later, earlier}} {
		x, y := pair[0], pair[1]
		for _, t := range x.writes {
			if slices.Contains(y.reads, t) {
				return "component " + t.String(), true
			}
		}
		for _, t := range x.resWrites {
			if slices.Contains(y.resReads, t) {
				return "resource " + t.String(), true
			}
		}
	}
	for _, t := range earlier.emits {
		if slices.Contains(later.reads, t) {
			return "outputs for component " + t.String(), true
		}
	}
	if earlier.structural && later.touchesComponents() {
		return "structural changes", true
	}
	for _, t := range later.emits {
		if slices.Contains(earlier.reads, t) || slices.Contains(earlier.emits, t) {
			return "", true
		}
	}
	if later.structural && (earlier.touchesComponents() || earlier.structural) {
		return "", true
	}
	return "", false
}

// allows reports whether d permits the given access.
func (d *decl) allows(resource bool, t reflect.Type, write bool) bool {
	if resource {
		return slices.Contains(d.resWrites, t) || !write && slices.Contains(d.resReads, t)
	}
	return slices.Contains(d.writes, t) || !write && slices.Contains(d.reads, t)
}
