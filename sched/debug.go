package sched

import (
	"fmt"
	"reflect"

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
	if kind == ecs.StructuralAccess {
		if !x.decl.structural {
			panic(fmt.Sprintf("sched: system %q records a structural change (%s) without declaring it; add sched.Structural() to its options", x.name, op))
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
	panic(accessError(x.name, verb, what, t, op, fix+"["+t.String()+"]()"))
}

func accessError(system, verb, what string, t reflect.Type, op, fix string) string {
	return fmt.Sprintf("sched: system %q %s %s %v (%s) without declaring it; add %s to its options", system, verb, what, t, op, fix)
}
