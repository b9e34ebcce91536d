package sched

import "fmt"

// Panic reports a panic in a system or in a parallel loop of one, re-raised
// on the goroutine that called [Scheduler.Run] once the stage has stopped.
type Panic struct {
	Where string // the system, and the item of a parallel loop
	Value any    // what was passed to panic
	Stack []byte // the stack of the goroutine that panicked
}

// Error formats the panic as "sched: <where> panicked: <value>", followed by
// the stack of the goroutine that panicked.
func (p *Panic) Error() string {
	return fmt.Sprintf("sched: %s panicked: %v\n\n%s", p.Where, p.Value, p.Stack)
}
