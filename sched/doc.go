// Package sched runs systems over an [ecs.World]: a deterministic parallel
// scheduler, standard library only.
//
// # Systems
//
// A system is a name, a function and a declaration of what it touches. Plain
// functions are systems (seed 002); so is any type with an Update method,
// which may also have Init and Finalize (seed 003's life cycle):
//
//	s := sched.New(w) // GOMAXPROCS workers
//	s.Add("move", func(ctx *sched.Context) {
//		for r := range movers.All() {
//			r.A.X += r.B.X
//		}
//	}, sched.Reads[Velocity](), sched.Writes[Position]())
//	s.Add("spawn", spawner, sched.Structural())
//	for range 1000 {
//		s.Run() // one tick
//	}
//
// The declaration lists component types read ([Reads]) and written
// ([Writes]), resources ([ReadsResource], [WritesResource]), component types
// the system emits outputs for ([Emits]), and whether it makes structural
// changes ([Structural]). Registering two systems under one name, or one
// System value twice, is an error.
//
// # Stages
//
// Registration order is the order of record; [Before] and [After] move a
// system against it (Build takes, each time, the earliest registered system
// whose constraints are met; a cycle is an error). Each system then goes
// into the first stage after every earlier system it conflicts with:
//
//   - a write/write or read/write pair on a component type or resource;
//   - an earlier system that emits outputs for a type this one reads or
//     writes (it must see the merged values);
//   - an earlier structural system, when this one touches any component
//     (it must see the changes).
//
// A system whose outputs or structural changes are applied at the end of
// its stage may share the stage of an earlier system that touches the same
// types (or any component, for a structural one) but never runs in an
// earlier stage than it: its effects must not reach a system that comes
// before it in the order of record.
//
// The systems of a stage run in parallel on a pool of worker goroutines
// (the calling goroutine is one of them), inside an ecs parallel section.
// When they are all done, the Sync phase runs: outputs are merged
// ([Output]), then each system's command buffer ([Context.Commands]) is
// applied, in the order of record. [Scheduler.Plan] prints the stages and
// why each system is where it is.
//
// # Determinism
//
// The stage plan depends only on the declarations, never on the number of
// workers; within a stage no system sees another's writes; structural
// changes and outputs are applied after the stage in the order of record,
// and entity ids are handed out then. So a tick gives the same world with
// one worker or many, and [Workers](1) runs everything on the calling
// goroutine for debugging. TestDeterministicAcrossWorkers checks this
// bit for bit over 1,000 ticks with spawns, despawns, outputs and merges on
// 1, 2, 4 and 8 workers.
//
// # Run/Sync outputs
//
// The Run/Sync design of a student game engine's parallel lock-free ECS
// has every system write its results to a buffer of its own during the Run
// phase and applies them in a Sync phase through a merge function per
// component type. [Output] does this: [Output.Emit] appends to the emitting
// system's own buffer (no lock), and at the end of the stage the values are
// grouped by entity, without sorting, and folded with the merge function
// ([LastWins] by default; [Sum], [Max] or any func(current, next T) T):
// for each entity, in the order of record of the systems and then in
// emission order, starting from its current value (or from its first
// value, when it has no T and gets it added). Different entities are
// updated in the order in which they first received a value, which
// depends only on what the systems emitted, never on the number of
// workers; when T has no OnSet hook, the entities that already have a T
// are merged in place before the others are set or added (see [Output]).
// Outputs to dead entities are dropped and counted, never applied to a
// recycled id.
//
// # Data parallelism
//
// A system can split its own work across the workers with [ForEach], for
// example over a query's chunks cut into row ranges by AppendChunks. Nested
// parallel loops cannot deadlock: the caller works through the items itself
// and only waits for items other workers have started.
//
// # Debugging and insight
//
// [Debug] runs one worker and checks the accesses the world reports against
// the declaration: a system that touches a type it did not declare, writes
// with Set one it only reads, or records structural changes without
// declaring them, panics with a message naming the system, the type and the
// access (writes through pointers handed out by queries and Get are not
// seen)
// ("sched: system "move" writes component main.Position (Set) without
// declaring it; add sched.Writes[main.Position]() to its options"). A panic
// in a system is re-raised by Run as a *[Panic] naming the system, with the
// stack of the goroutine that panicked. [Scheduler.Stats] gives each
// system's last, mean and max time; every system runs with the pprof label
// system=<name>, so CPU profiles (go tool pprof -tagfocus system=move) show
// which system spent the time. [Scheduler.Enable] switches a system off and
// on without changing the plan.
//
// # Fixed time step
//
// [FixedLoop] runs a scheduler at a fixed step, keeping a [Time] resource
// (tick, dt, elapsed) up to date, and spends real time in whole steps.
package sched
