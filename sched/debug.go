package sched

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// checker is the access checker of debug mode: told of every access the
// running system makes, it panics on one the system did not declare.
type checker struct{ cur *system }

// CheckAccess panics, naming the running system, the type and the access,
// when the system's declaration does not allow the access.
func (c *checker) CheckAccess(kind ecs.AccessKind, t reflect.Type, write bool, op string) {
	x := c.cur
	if x == nil {
		return
	}
	if kind.Structural() {
		if msg := x.decl.structuralDenied(kind, t); msg != "" {
			panic(fmt.Sprintf("sched: system %q %s (%s) without declaring it; %s", x.name, msg, op, structuralFix(kind, t)))
		}
		return
	}
	if x.decl.allows(kind == ecs.ResourceAccess, t, write) {
		return
	}
	verb := map[bool]string{false: "reads", true: "writes"}[write]
	if pair, _, ok := ecs.RelationSide(t); ok {
		fix := map[bool]string{false: "sched.ReadsRelation(r)", true: "sched.WritesRelation(r)"}[write] + ", " + relationHandle(pair) + ","
		panic(accessError(x.name, verb, "relation "+pair.String(), op, fix))
	}
	what, fix := "component ", "sched.Reads"
	if kind == ecs.ResourceAccess {
		what, fix = "resource ", "sched.ReadsResource"
	}
	if write {
		fix = map[bool]string{false: "sched.Writes", true: "sched.WritesResource"}[kind == ecs.ResourceAccess]
	}
	panic(accessError(x.name, verb, what+t.String(), op, fix+"["+t.String()+"]()"))
}

// relationHandle says what r is in a fix that names sched.ChangesRelation(r)
// and its siblings: the handle of the relation of the given pair type, and
// the call that makes it.
func relationHandle(pair reflect.Type) string {
	if pair == reflect.TypeFor[ecs.ChildOf]() {
		return "r the hierarchy's relation (h.Relation(), h from ecs.NewHierarchy)"
	}
	return fmt.Sprintf("r the relation's handle (from ecs.NewRelation[%v])", pair)
}

func accessError(system, verb, subject, op, fix string) string {
	return fmt.Sprintf("sched: system %q %s %s (%s) without declaring it; add %s to its options", system, verb, subject, op, fix)
}

// structuralDenied says what d did not declare of a structural change of
// the given kind and type, or "" if d allows it.
func (d *decl) structuralDenied(kind ecs.AccessKind, t reflect.Type) string {
	if t != nil && slices.Contains(d.relChanges, t) {
		return "" // a pair of a relation d changes: a relation's despawn, add or remove
	}
	pair, _, rel := ecs.RelationSide(t)
	switch kind {
	case ecs.SpawnAccess:
		if d.spawns || d.structural {
			return ""
		}
		return "spawns entities"
	case ecs.DespawnAccess:
		switch {
		case d.structural:
			return ""
		case t == nil && len(d.despawns) > 0:
			return ""
		case t == nil:
			return "despawns entities"
		case slices.Contains(d.despawns, t):
			return ""
		case rel:
			return fmt.Sprintf("despawns an entity with pairs of relation %v", pair)
		}
		return fmt.Sprintf("despawns an entity with component %v", t)
	case ecs.AddAccess:
		if slices.Contains(d.adds, t) || d.structural && slices.Contains(d.writes, t) {
			return ""
		}
		if rel {
			return fmt.Sprintf("adds pairs of relation %v", pair)
		}
		return fmt.Sprintf("adds component %v", t)
	case ecs.RemoveAccess:
		if slices.Contains(d.removes, t) || d.structural && slices.Contains(d.writes, t) {
			return ""
		}
		if rel {
			return fmt.Sprintf("removes pairs of relation %v", pair)
		}
		return fmt.Sprintf("removes component %v", t)
	}
	return ""
}

// structuralFix names the options that declare a structural change.
func structuralFix(kind ecs.AccessKind, t reflect.Type) string {
	if pair, _, ok := ecs.RelationSide(t); ok {
		return "add sched.ChangesRelation(r) to its options, " + relationHandle(pair)
	}
	switch kind {
	case ecs.SpawnAccess:
		return "add sched.Spawns() to its options"
	case ecs.DespawnAccess:
		if t == nil {
			return "add sched.Despawns[T]() for each component type the despawned entities have, or sched.Structural()"
		}
		return fmt.Sprintf("add sched.Despawns[%v]() to its options (one for each component type the despawned entities have)", t)
	case ecs.AddAccess:
		return fmt.Sprintf("add sched.Adds[%v]() to its options (or sched.Structural() with sched.Writes[%v]())", t, t)
	}
	return fmt.Sprintf("add sched.Removes[%v]() to its options (or sched.Structural() with sched.Writes[%v]())", t, t)
}
