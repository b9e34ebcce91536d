package sched

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

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
	what, verb, fix := "component", "reads", "sched.Reads"
	if kind == ecs.ResourceAccess {
		what, fix = "resource", "sched.ReadsResource"
	}
	if write {
		verb = "writes"
		fix = map[bool]string{false: "sched.Writes", true: "sched.WritesResource"}[kind == ecs.ResourceAccess]
	}
	fix += "[" + t.String() + "]()"
	if isRelationSide(t) {
		fix = map[bool]string{false: "sched.ReadsRelation(r)", true: "sched.WritesRelation(r)"}[write] + ", r the relation's handle,"
	}
	panic(accessError(x.name, verb, what, t, op, fix))
}

// isRelationSide reports whether t is one of the component types in which
// package ecs keeps a relation's pairs, which users cannot name: the
// message then points to the relation options.
func isRelationSide(t reflect.Type) bool {
	if t == nil || t.PkgPath() != "github.com/tessera-ecs/tessera/ecs" {
		return false
	}
	n := t.Name()
	return strings.HasPrefix(n, "relOne[") || strings.HasPrefix(n, "relMany[") || strings.HasPrefix(n, "relIn[")
}

func accessError(system, verb, what string, t reflect.Type, op, fix string) string {
	return fmt.Sprintf("sched: system %q %s %s %v (%s) without declaring it; add %s to its options", system, verb, what, t, op, fix)
}

// structuralDenied says what d did not declare of a structural change of
// the given kind and type, or "" if d allows it.
func (d *decl) structuralDenied(kind ecs.AccessKind, t reflect.Type) string {
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
		}
		return fmt.Sprintf("despawns an entity with component %v", t)
	case ecs.AddAccess:
		if slices.Contains(d.adds, t) || d.structural && slices.Contains(d.writes, t) {
			return ""
		}
		return fmt.Sprintf("adds component %v", t)
	case ecs.RemoveAccess:
		if slices.Contains(d.removes, t) || d.structural && slices.Contains(d.writes, t) {
			return ""
		}
		return fmt.Sprintf("removes component %v", t)
	}
	return ""
}

// structuralFix names the options that declare a structural change.
func structuralFix(kind ecs.AccessKind, t reflect.Type) string {
	if isRelationSide(t) {
		return "add sched.ChangesRelation(r) to its options, r the relation's handle"
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
