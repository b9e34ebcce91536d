package sched

import (
	"reflect"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// Option configures a system when it is added with [Scheduler.Add]: what it
// reads and writes, and where it must run relative to other systems.
type Option func(*decl)

// decl is a system's declaration: its access and its ordering constraints.
type decl struct {
	reads, writes       []reflect.Type // component types
	resReads, resWrites []reflect.Type // resource types
	emits               []reflect.Type // component types it emits outputs for
	structural          bool           // any structural change, to any type
	spawns              bool
	adds, removes       []reflect.Type // component types its commands add or remove
	despawns            []reflect.Type // component types the entities it despawns may have
	relChanges          []reflect.Type // the types of the relations it changes (ChangesRelation)
	atTickEnd           bool           // its commands are applied after the last stage
	before, after       []string
}

// Reads declares that the system reads component type T (queries over T or
// filtering on it, Get, TryGet, Has). Systems that only read T can share a
// stage.
func Reads[T any]() Option {
	return func(d *decl) { d.reads = appendType(d.reads, reflect.TypeFor[T]()) }
}

// Writes declares that the system writes component type T (Set, writes
// through pointers); it implies Reads[T]. No other system that reads or
// writes T shares its stage. With [Structural] it also covers SetCmd and
// RemoveCmd of T.
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

// Spawns declares that the system spawns entities through its command
// buffer ([ecs.Commands.Spawn], or the SpawnCmd of a Map2..Map12). The
// components the new entities get are declared with [Adds]. Spawning alone
// conflicts with no system: a new entity is seen only through its
// components. Spawners keep their order of record, so entity ids are handed
// out as in a sequential run.
func Spawns() Option { return func(d *decl) { d.spawns = true } }

// Adds declares that the system gives entities component T through its
// command buffer (SetCmd, or SpawnCmd with T). The changes are applied at
// the end of the system's stage (or of the tick, with [ApplyAtTickEnd]), so
// every later system in the order of record that reads, writes or emits T,
// or filters on it, runs in a later stage and sees them; systems that touch
// other types only may share the stage. Debug mode requires it (or
// [Structural] with [Writes][T]) of every system that records an add of T.
func Adds[T any]() Option {
	return func(d *decl) { d.adds = appendType(d.adds, reflect.TypeFor[T]()) }
}

// Removes declares that the system takes component T away from entities
// through its command buffer (RemoveCmd); placed like [Adds].
func Removes[T any]() Option {
	return func(d *decl) { d.removes = appendType(d.removes, reflect.TypeFor[T]()) }
}

// Despawns declares that the system despawns, through its command buffer,
// entities that may have component T. Declare it once for every type the
// despawned entities can have: a despawn takes all of them away, so every
// later system that reads, writes, emits or filters on one of them runs in
// a later stage; debug mode checks each despawn against the component
// types of the entity and of every entity its despawn takes away with it
// (a hierarchy's subtree, through the relations whose policy is
// ecs.DespawnSources), and names the ones missing. The pairs a despawn
// takes away are declared with [ChangesRelation].
func Despawns[T any]() Option {
	return func(d *decl) { d.despawns = appendType(d.despawns, reflect.TypeFor[T]()) }
}

// ApplyAtTickEnd applies the system's command buffer after the last stage
// of the tick instead of at the end of its own stage, in the order of
// record among such systems (Bevy's deferred commands applied at the end
// of a schedule). Its structural changes then reach no system of the same
// tick, so they force no other system into a later stage: a spawner or a
// reaper that runs in the first stage costs the plan nothing. The systems
// of the tick see the world without those changes, and the next tick sees
// them.
func ApplyAtTickEnd() Option { return func(d *decl) { d.atTickEnd = true } }

// Structural declares that the system makes any structural change at all
// through its command buffer ([Context.Commands]): spawns, despawns, adds
// and removes of any type. Prefer the precise declarations ([Spawns],
// [Adds], [Removes], [Despawns]): since the changes of a Structural system
// can change what any query matches, every system after it in the order of
// record that touches a component type runs in a later stage and sees them,
// as it would if everything ran in sequence, and the systems before it
// never run in a later stage than it. Debug mode accepts any Spawn and
// Despawn of a Structural system, and a SetCmd or RemoveCmd of T when it
// also declares [Writes][T].
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
// type (events, declared with SendsEvents and ReadsEvents, are not).
func (d *decl) touchesComponents() bool {
	return len(d.writes) > 0 || slices.ContainsFunc(d.reads, isComponent) || slices.ContainsFunc(d.emits, isComponent)
}

// touches reports whether d reads, writes or emits component type t.
func (d *decl) touches(t reflect.Type) bool {
	return slices.Contains(d.reads, t) || slices.Contains(d.emits, t)
}

// changesShape reports whether d records structural changes applied at the
// end of its stage.
func (d *decl) changesShape() bool {
	return !d.atTickEnd && (d.structural || d.spawns || len(d.adds)+len(d.removes)+len(d.despawns) > 0)
}

// recordsCommands reports whether d records any structural change, applied
// at the end of its stage or of the tick.
func (d *decl) recordsCommands() bool {
	return d.structural || d.spawns || len(d.adds)+len(d.removes)+len(d.despawns) > 0
}

// changesIDs reports whether d spawns or despawns: such changes hand out
// and free entity ids, so their order decides the ids of later spawns.
func (d *decl) changesIDs() bool {
	return d.structural || d.spawns || len(d.despawns) > 0
}

// sharesShape reports whether d and other add, remove or despawn a common
// component type: changes whose order decides the outcome.
func (d *decl) sharesShape(other *decl) bool {
	for _, ts := range [][]reflect.Type{d.adds, d.removes, d.despawns} {
		for _, t := range ts {
			if slices.Contains(other.adds, t) || slices.Contains(other.removes, t) || slices.Contains(other.despawns, t) {
				return true
			}
		}
	}
	return false
}

// reshaped returns the first component type that d's stage-end structural
// changes add or remove and that other touches, or nil.
func (d *decl) reshaped(other *decl) reflect.Type {
	if d.atTickEnd {
		return nil
	}
	for _, ts := range [][]reflect.Type{d.adds, d.removes, d.despawns} {
		for _, t := range ts {
			if other.touches(t) {
				return t
			}
		}
	}
	return nil
}

// relation says how the later of two systems in the order of record must
// be placed against the earlier one. conflict, when not "", is why it must
// run in a later stage:
//
//   - a write/write or read/write pair on one component type or resource,
//     either way round (they would race);
//   - the earlier emits outputs for a type the later reads or writes (the
//     later must see the merged values);
//   - the earlier's structural changes, applied at the end of its stage,
//     add or remove a type the later touches (the later must see them), or
//     the earlier is [Structural] and the later touches any component.
//
// ordered, when there is no conflict, says the later may share the earlier's
// stage but must not run in an earlier one: its effects applied at the end
// of a stage (outputs, structural changes) would otherwise reach the
// earlier system, or be applied before the earlier one's, unlike in a
// sequential run. That holds when the later emits for a type the earlier
// touches or emits, or its stage-end structural changes reach a type the
// earlier touches, or both make structural changes that do not commute:
// both spawn or despawn (entity ids are handed out as in a sequential run),
// both change one component type, or either is Structural.
func relation(earlier, later *decl) (conflict string, ordered bool) {
	for _, pair := range [][2]*decl{{earlier, later}, {later, earlier}} {
		x, y := pair[0], pair[1]
		for _, t := range x.writes {
			if slices.Contains(y.reads, t) {
				return typeName(t), true
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
			return emitReason(t), true
		}
	}
	if earlier.structural && !earlier.atTickEnd && later.touchesComponents() {
		return "structural changes", true
	}
	if t := earlier.reshaped(later); t != nil {
		return "structural changes to " + typeName(t), true
	}
	for _, t := range later.emits {
		if slices.Contains(earlier.reads, t) || slices.Contains(earlier.emits, t) {
			return "", true
		}
	}
	if later.changesShape() {
		if later.structural && earlier.touchesComponents() || later.reshaped(earlier) != nil {
			return "", true
		}
		if earlier.changesShape() && (earlier.structural || later.structural ||
			earlier.changesIDs() && later.changesIDs() || earlier.sharesShape(later)) {
			return "", true
		}
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

// Relation is what the relation options take: an *ecs.Relation of any
// pair type, which names the component types of its two sides.
type Relation interface {
	RelationTypes() (source, target reflect.Type)
}

// ReadsRelation declares that the system reads relation r: Target,
// Targets, Sources, Has, the hierarchy's walks, queries with r.To, r.ToVar,
// r.AsSource or r.AsTarget. Readers of one relation may share a stage.
func ReadsRelation(r Relation) Option {
	return func(d *decl) {
		s, t := r.RelationTypes()
		d.reads = appendType(appendType(d.reads, s), t)
	}
}

// WritesRelation declares that the system writes the values of relation
// r's pairs through Value or TryValue; it implies ReadsRelation.
func WritesRelation(r Relation) Option {
	return func(d *decl) {
		s, t := r.RelationTypes()
		d.writes = appendType(appendType(d.writes, s), t)
	}
}

// ChangesRelation declares that the system adds and removes pairs of
// relation r through its command buffer (AddCmd, SetCmd, RemoveCmd,
// RemoveTargetsCmd), or despawns, with [Despawns] or [Structural],
// entities that are sources or targets of r, which takes their pairs
// away. It implies [ReadsRelation]. The changes are applied at the end of
// its stage, and every later system that reads r runs in a later stage,
// as with [Adds] and [Removes]. Debug mode requires it of every system
// that records such a change, unless the system is [Structural] (with
// [WritesRelation] for the changes other than despawns).
func ChangesRelation(r Relation) Option {
	return func(d *decl) {
		s, t := r.RelationTypes()
		for _, x := range [...]reflect.Type{s, t} {
			d.reads = appendType(d.reads, x)
			d.adds = appendType(d.adds, x)
			d.removes = appendType(d.removes, x)
			d.relChanges = appendType(d.relChanges, x)
		}
	}
}

// typeName names component type t in the plan and in messages, as
// "component main.Pos", or, for one of the types a relation keeps its
// pairs in, as the relation: "relation main.Likes".
func typeName(t reflect.Type) string {
	if pair, _, ok := ecs.RelationSide(t); ok {
		return "relation " + pair.String()
	}
	return "component " + t.String()
}
