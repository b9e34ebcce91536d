// Package sched runs systems over an [ecs.World]: a deterministic parallel
// scheduler, standard library only.
//
// # Systems
//
// A system is a name, a function and a declaration of what it touches. Plain
// functions are systems (the "super simple ECS" blog post: systems as plain
// functions), registered with [Scheduler.AddFunc]; so is any type with an
// Update method, registered with [Scheduler.Add], which may also have Init
// and Finalize (the life cycle of a student game engine's parallel
// lock-free ECS, the Run/Sync design). The two entry points follow
// net/http's Handle and HandleFunc:
//
//	s := sched.New(w) // GOMAXPROCS workers
//	s.AddFunc("move", func(ctx *sched.Context) {
//		for r := range movers.All() {
//			r.A.X += r.B.X
//		}
//	}, sched.Reads[Velocity](), sched.Writes[Position]())
//	s.Add("spawn", spawner, sched.Spawns(), sched.Adds[Position]())
//	for range 1000 {
//		s.Run() // one tick
//	}
//
// The declaration lists component types read ([Reads]; filtering a query
// on a type reads it too) and written ([Writes]), resources
// ([ReadsResource], [WritesResource]), component types the system emits
// outputs for ([Emits]), and the structural changes its command buffer
// makes: [Spawns], [Adds], [Removes], [Despawns], or [Structural] for any
// change at all. A relation is declared as a whole: [ReadsRelation],
// [WritesRelation] (its pairs' values) and [ChangesRelation] (its pairs,
// added, removed, or taken away by a despawn of one of their entities),
// the last two implying the first. Registration mistakes (an empty or
// taken name, a nil system, one System value twice) are programming errors
// and panic, as they do in http.ServeMux; Before and After mistakes (an
// unknown name, a cycle) are returned by [Scheduler.Build], and Run panics
// with them.
//
// # Stages
//
// Registration order is the order of record; [Before] and [After] move a
// system against it (Build takes, each time, the earliest registered system
// whose constraints are met). Each system then goes into the first stage
// after every earlier system it conflicts with:
//
//   - a write/write or read/write pair on a component type or resource;
//   - an earlier system that emits outputs for a type this one reads or
//     writes (it must see the merged values);
//   - an earlier system whose structural changes add or remove a type this
//     one reads, writes, emits or filters on (it must see the changes; a
//     despawn removes every type declared with [Despawns]), or an earlier
//     [Structural] system, when this one touches any component.
//
// A structural change reaches only the systems that touch the types it
// changes: a spawner that [Adds] Position forces the systems that read
// Position into a later stage and leaves the others beside it. With
// [ApplyAtTickEnd], a system's command buffer is applied after the last
// stage, so its changes force no system of the tick into a later stage at
// all: they are seen from the next tick on.
//
// A system whose outputs or structural changes are applied at the end of
// its stage may share the stage of an earlier system that touches the same
// types (or any component, for a Structural one) but never runs in an
// earlier stage than it: its effects must not reach a system that comes
// before it in the order of record. Systems whose structural changes do
// not commute (both spawn or despawn, both change one component type, or
// either is Structural) keep their order of record, so entity ids are
// handed out as in a sequential run.
//
// The systems of a stage run in parallel on a pool of worker goroutines
// (the calling goroutine is one of them), inside an ecs parallel section.
// When they are all done, the Sync phase runs: outputs are merged
// ([Output]), then each system's command buffer ([Context.Commands]) is
// applied, in the order of record (the buffers of [ApplyAtTickEnd] systems
// wait for the end of the tick). [Scheduler.Plan] prints the stages and
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
// The same holds from one machine to another (amd64, arm64, 386, wasm) as
// long as the systems themselves compute the same bits everywhere: float
// products rounded before they are added, no math.Sin and its kin, no map
// order, no clock, no goroutines of their own. Package ecs's "Determinism"
// section lists the rules; `tessera vet` (cmd/tessera) checks them. Keep
// the tick number in a resource (as [FixedLoop]'s [Time] is): a rollback
// rewinds the world, not [Scheduler.Ticks].
//
// # Shuffled runs
//
// The order of record fixes what a tick means, but leaves the scheduler
// free in two places: the order in which a stage's systems start (they
// conflict with none of each other), and how a ForEach's items are spread
// over the workers. A program that depends on either has a determinism bug
// that the default choices hide: a system that touches what it did not
// declare, state two systems of a stage share, or ForEach items that write
// to each other. [Shuffle](seed) draws both choices from a generator seeded
// with seed, every tick: the stage's start order, and each ForEach's item
// order, shares and share sizes. It keeps the stages, the order of record
// and everything applied in it (outputs, events, command buffers, entity
// ids). A correct program ends in the same world under every seed, with one
// worker or many; with one worker a seed replays the same choices, so a
// failing seed reproduces:
//
//	for seed := range uint64(20) {
//		s := sched.New(w, sched.Workers(1), sched.Shuffle(seed))
//		... // build the systems, run, compare w.Checksum() with a run without Shuffle
//	}
//
// internal/scenario's TestShuffledScenarios runs every scenario this way.
//
// # Sync tests
//
// A tick must come out the same when it runs again from the same state:
// rollback netcode runs ticks again whenever a late input arrives. A
// [SyncTest] checks that on every tick (GGRS' SyncTestSession): it rolls
// the world back k ticks, runs them again and compares each part's
// checksum with the first run's. State kept outside the world, a map
// range, an unseeded random call or the clock fails on the first tick it
// matters, with a [SyncError] that names the tick, the parts, the systems
// declared to write them and the first differing entities and fields:
//
//	st := sched.NewSyncTest(s, 3)
//	for range 600 {
//		if err := st.Step(loop.Step); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// tessera demo -synctest 3 runs a scenario this way; CI runs every
// scenario and the arena game so.
//
// # Run/Sync outputs
//
// The Run/Sync design of a student game engine's parallel lock-free ECS has
// every system write its results to a buffer of its own during the Run phase
// and applies them in a Sync phase through a merge function per component
// type. [Output] does this: [Output.Emit] appends to the emitting system's
// own buffer (no lock), and at the end of the stage the values are folded
// into the components with the merge function ([LastWins] by default; [Sum],
// [Max] or any func(current, next T) T): for each entity, in the order of
// record of the systems and then in emission order, starting from its current
// value (or from its first value, when it has no T and gets it added).
// Without OnSet hooks on T, the values are folded in place as the buffers are
// read, with no sorting: O(values emitted) (BenchmarkOutputMerge and
// BenchmarkOutputDirect compare it with writing the same values directly).
// With the built-in merges ([LastWins], [Sum], [Max]) and a few thousand
// values, that fold is split over the workers by blocks of entity indices,
// each entity's values still folded in the order above. Entities that
// gain T, or all of them when T has OnSet hooks, are set or
// added once each, in the order in which they first received a value (see
// [Output]); nothing depends on the number of workers. Outputs to dead
// entities are dropped and counted, never applied to a recycled id.
//
// # Events
//
// [NewEventSender] gives a scheduler's systems a sender for the world's
// queue of an event type (ecs.EventsOf). [EventSender.Send] appends to the
// calling system's own buffer, with no lock. At the end of the stage the
// buffers are sent to the queue in the order of record, each in send order,
// with the outputs and before the command buffers, so the queue is the same
// with one worker or many. Systems read through ecs.EventReader values made
// before the first Run with [EventSender.NewReader]; readers of one queue
// may share a stage.
//
//	hits := sched.NewEventSender[Hit](s)
//	r := hits.NewReader()
//	s.AddFunc("combat", func(ctx *sched.Context) { hits.Send(ctx, Hit{...}) }, sched.SendsEvents[Hit]())
//	s.AddFunc("damage", func(ctx *sched.Context) {
//		for _, h := range r.Read() { ... }
//	}, sched.ReadsEvents[Hit](), sched.Writes[Health]())
//
// Declare [SendsEvents] and [ReadsEvents]. Senders share stages. A reader
// registered after a sender runs in a later stage and reads that tick's
// events; one registered before it reads them the next tick. Either way it
// reads each event once. Debug mode makes an undeclared Send panic.
// TestEventsDeterministicAcrossWorkers runs 400 ticks on 1, 2, 4 and 8
// workers and compares every read log and checksum.
//
// # Change detection
//
// Queries filtered by ecs.Changed or ecs.Added (over types registered with
// ecs.TrackChanges) remember their own last pass, so a system that makes
// its own queries (as it should: build them before the first Run) sees
// every change made since its previous run exactly once, whatever other
// systems watch the same type. Every system of a stage works at the
// stage's change tick, which moves on when the stage ends: a system sees
// the changes of the earlier stages and of the previous tick, not its own,
// and the result is the same with 1 or 8 workers. A filter reads its type
// and [Writes] must cover ecs.MarksChanged filters (debug mode checks both);
// a change-filtered pass split with [ForEach] over AppendChunks counts as
// one pass. TestChangedAcrossWorkers runs such a program on 1, 2, 4 and 8
// workers and compares what every system saw.
//
// A system's last pass is its query's, kept in the world, not in the
// scheduler: ecs.World.Restore, and so a rollback with ecs.SnapshotRing,
// rewinds it with the change ticks, and the ticks simulated again show
// every system what it saw the first time. Keep the program's own tick
// count in a resource, so it rewinds too. TestRollbackReplaysSystems rolls
// such a program back after every tick and compares what every system saw
// and the checksum, tick by tick, with a straight run.
//
// # Data parallelism
//
// A system can split its own work across the workers with [ForEach], for
// example over a query's chunks cut into row ranges by AppendChunks. Nested
// parallel loops cannot deadlock: the caller works through the items itself
// and only waits for items other workers have started. A loop whose items
// emit outputs uses [ForEachEmit]: each item appends to an [Emitter] of
// its own, and the values join the system's buffer in item order, so the
// Sync folds the same values in the same order on any number of workers.
//
// The items are cut into one contiguous share per worker, and each worker
// runs its own share before it takes what is left of the others' (work
// stealing at the end of a loop, as in Cilk and Rayon): a system that cuts
// the same tables into the same items every tick finds its rows in the
// cache of the core that last touched them. A worker that is busy with
// one system takes its share of another system's loop between two of its
// own items, so that when a stage runs several systems that split the
// same tables, each worker still runs its own rows of every one of them,
// the rows it ran in the stages and ticks before. Idle workers poll for the next
// loop for a while before they park ([SpinWait]), since waking a parked
// goroutine takes as long as a whole loop over 100,000 entities; the
// goroutine that calls Run runs the stage's systems that record structural
// changes, because it applies them afterwards. BenchmarkForEach compares a
// ForEach over 100,000 and 1,000,000 floats with the same loop on one
// goroutine and hand-split over two goroutines; the README's Performance
// section gives the ratios and the command.
//
// # Debugging and insight
//
// [Debug] runs one worker and checks the accesses the world reports against
// the declaration: a system that touches a type it did not declare, writes
// with Set one it only reads, or records structural changes without
// declaring them, panics with a message naming the system, the type and the
// access (writes through pointers handed out by queries and Get are not
// seen; a despawn is checked against the types and relations of the
// entity and of every entity it takes away with it, such as a
// hierarchy's subtree)
// ("sched: system "move" writes component main.Position (Set) without
// declaring it; add sched.Writes[main.Position]() to its options"). A panic
// in a system is re-raised by Run as a *[Panic] naming the system, with the
// stack of the goroutine that panicked. [Scheduler.Stats] gives each
// system's last, mean and max time, and [Scheduler.StageStats] each stage's
// parallel section, output merge and buffer application: the Sync phases
// are the part of a tick that more workers cannot shorten, so their share
// of a one-worker tick bounds the speed-up (Amdahl's law). Every system
// runs with the pprof label
// system=<name>, so CPU profiles (go tool pprof -tagfocus system=move) show
// which system spent the time. [Scheduler.Enable] switches a system off and
// on without changing the plan.
//
// # Fixed time step
//
// [FixedLoop] runs a scheduler at a fixed step, keeping a [Time] resource
// (tick, dt, elapsed) up to date, and spends real time in whole steps.
package sched
