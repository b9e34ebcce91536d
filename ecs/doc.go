// Package ecs is the core of Tessera, an Entity Component System: the data
// layer of games and simulations. An entity is an id; a component is a plain
// Go value attached to it; a query visits every entity that has a set of
// components; a system is a function that runs queries every tick (package
// sched runs systems, in parallel where they do not conflict).
//
//	w := ecs.NewWorld()
//	bodies := ecs.NewMap2[Position, Velocity](w)
//	bodies.Spawn(Position{}, Velocity{X: 1})
//	q := ecs.NewQuery2[Position, Velocity](w)
//	for r := range q.All() { // r.Entity, r.A (*Position), r.B (*Velocity)
//		r.A.X += r.B.X
//	}
//
// # Outline
//
// The main types, with the calls of each in short; the sections below say
// what each promises.
//
//   - [World]: the entities, their components, resources and events.
//     [NewWorld]; [World.Spawn], [World.Despawn], [World.Alive], [World.Len],
//     [World.Reserve], [World.Room]. Its methods take no type parameters.
//   - [Entity]: a handle, an index with a generation and the world's tag.
//     The zero Entity is never alive.
//   - [Map]: one component type of single entities, made once with
//     [NewMap]: Get, TryGet, Has, Add, TryAdd (the checking twin of Add,
//     which agrees with it inside loops), Set, Remove, Exchange (remove the
//     types of a [TypeSet] and add T in one table move), MarkChanged.
//   - [Map2] to [Map12]: the verbs of Map for several types at once, each
//     change one table move, also inside a loop; and Spawn, SpawnFunc,
//     SpawnBatch, SpawnBatchFunc, AddMatching, RemoveMatching, AddEntities,
//     RemoveEntities and the command verbs.
//   - [Query1] to [Query8]: the entities that have the query's types, made
//     once with [NewQuery2] and its siblings and a list of filters over
//     component types ([Filter], [C]): [With], [Without], [AnyOf], [Optional],
//     [Changed], [Added],
//     [MarksChanged], and a relation's [Relation.To]. Three iteration forms:
//     Chunks (a table at a time, as slices), All (an entity at a time, for
//     range), Iter (a cursor); Count; AppendChunks (a pass cut into row
//     ranges).
//   - [Commands]: a buffer of structural changes, applied later in order by
//     [World.Apply]: [World.NewCommands], [Commands.Spawn],
//     [Commands.Despawn], [Map.SpawnCmd], [Map.SetCmd], [Map.RemoveCmd],
//     [Map.ExchangeCmd] (and those of Map2 to Map12), then
//     [Commands.Resolve] for the entity a pending one became.
//   - Hooks and observers: [OnAdd], [OnSet], [OnRemove] per component type;
//     [Query1.OnEnter] and [Query1.OnLeave] per query.
//   - [Relation]: pairs of a source and a target with a value each,
//     exclusive or [Multi], both sides indexed ([NewRelation],
//     [Relation.Set], [Relation.Targets], [Relation.Sources]; [SplitByTarget]
//     for tables per target; a [CleanupPolicy] through [OnTargetDespawn];
//     pair hooks [Relation.OnAdd], [Relation.OnRemove]; filters
//     [Relation.To], [Relation.ToVar], [Relation.AsSource],
//     [Relation.AsTarget]). [Hierarchy] is the tree of [ChildOf]
//     ([NewHierarchy], [Hierarchy.SetParent], [Hierarchy.Cascade]).
//   - [Prefab]: a tree of entities captured once ([NewPrefab]) and spawned
//     many times ([Prefab.Spawn], [Prefab.SpawnBatch],
//     [Prefab.SpawnBatchFunc], [Prefab.SpawnCmd], [Prefab.SpawnCmdNodes]),
//     with [PrefabValue]; [World.CopyEntity] copies one entity.
//   - [Events] and [EventReader]: messages within a tick. [EventsOf],
//     [Events.Send], [Events.NewReader], [EventReader.Read].
//   - Resources: one value of a type per world. [AddResource],
//     [GetResource], [HasResource], [RemoveResource], or a [Resource] handle
//     made once with [NewResource].
//   - [Snapshot] and [SnapshotRing]: the whole world copied out and put back
//     exactly ([World.Snapshot], [World.Restore]), and the last few ticks
//     kept for rollback ([SnapshotRing.Save], [SnapshotRing.Rollback],
//     [SnapshotRing.At]); [Cloner] or [Shallow] for types that hold
//     pointers.
//   - Checksums and diffs: [World.Checksum] (the whole observable state in 64
//     bits), [World.Checksums] (one per part) and [DiffChecksums]; [Diff]
//     (two worlds or snapshots, field by field) and [DiffSaves] (two save
//     files, without their Go types). Package sched's NewSyncTest rolls
//     back and compares every tick.
//   - Save files: [World.Save] and [World.Load] (binary), [World.SaveJSON]
//     and [World.LoadJSON]; [World.Merge] and [World.MergeJSON] add a file's
//     entities to a world that has its own, returning an [EntityMapping];
//     [Name] gives a type a stable name; [BinaryCodec] types skip
//     reflection; [SaveCodec] writes and reads one value in the same format.
//   - [Reflection], from [World.Reflect]: reading and changing a world
//     without type parameters, for tools. [ParallelControl], from
//     [World.Parallel]: a scheduler's plumbing.
//   - Storage and memory: [Register] with [Sparse], [CapacityHint],
//     [TrackChanges] and [Name] before a type's first use; [World.Stats],
//     [World.Shrink].
//   - After a recovered panic in a loop or a hook: [World.Recover];
//     [World.IsIterating] and [World.Pending] tell a loop left open.
//
// # Operations at a glance
//
// What creates, changes and destroys entities, by how many entities a call
// reaches. A name is a method of [Map], and of [Map2] to [Map12] for
// several types at once, unless it names its type; a dash means there is
// no such form.
//
//	verb      one entity     one, with an   n new entities   a query's matches       a slice of       a command buffer
//	                         init function                                             entities
//	--------  -------------  -------------  ---------------  ----------------------  ---------------  ----------------
//	spawn     Spawn,         SpawnFunc      SpawnBatch,      -                       -                SpawnCmd,
//	          World.Spawn                   SpawnBatchFunc                                            Commands.Spawn
//	add       Add, TryAdd    -              -                AddMatching             AddEntities      SetCmd
//	set       Set            -              -                -                       -                SetCmd
//	remove    Remove         -              -                RemoveMatching          RemoveEntities   RemoveCmd
//	exchange  Exchange       -              -                -                       -                ExchangeCmd
//	despawn   World.Despawn  -              -                World.DespawnMatching   -                Commands.Despawn
//
// Add panics when the entity has the type already, Set adds or overwrites,
// Remove of an absent type does nothing, and Exchange removes some types
// and adds others in one table move. A [Prefab] spawns trees with Spawn,
// SpawnBatch, SpawnBatchFunc, SpawnCmd and SpawnCmdNodes; a [Relation]
// adds, sets and removes pairs with Add, Set, Remove and their Cmd forms,
// a [Hierarchy] with SetParent, RemoveParent and theirs;
// [Commands.SetValue] and [Commands.RemoveValue] record changes of a type
// known only at run time. Inside a loop, every one of these is deferred
// (see Deferred structural changes).
//
// # Entities
//
// [World.Spawn] returns an [Entity]: a 32-bit index plus a 24-bit generation
// and an 8-bit world tag. [World.Despawn] removes the entity with every
// component it has and recycles its index with the generation bumped, so old
// handles never reach the new entity; [World.Alive] tells them apart in O(1).
// The zero Entity is never alive. An index whose generation would wrap
// around is retired rather than recycled: after 16,777,215 reuses.
//
// The entity index is one flat array of 12-byte records (each entity's
// table slot, row and generation), as in Ark and EnTT; it starts at 16
// records and doubles, and [World.Reserve] pre-allocates it. A world holds
// at most [MaxEntities] entities (2^30-1 on 64-bit machines, 2^27-1 on
// 32-bit ones), which keeps the index within what the machine can address:
// a batch spawn, a prefab batch or a Reserve of more than [World.Room]
// panics with the limit before it allocates, and Load and Merge refuse a
// file that does not fit with an error. The records hold no pointers, so
// the garbage collector never scans the index and writing a record needs no
// write barrier. [Map.Get] and [Map.Has] inline into the caller: a record,
// the type's column for the record's table slot, and the value, three
// dependent loads.
//
// Each world tags its handles with a number of its own, taken from a
// process-wide counter modulo 256 (worlds made 256 apart share a tag and
// cannot tell their handles apart), and keeps the tag beside the generation
// in its entity index, so the one comparison that rejects a stale handle
// also rejects a handle of another world: it is not alive there, and an
// operation given one panics saying so,
//
//	ecs: Despawn: entity 1v0 belongs to another world
//
// at no cost to lookups. (Generational indices, as in the slotmap crate and
// Weissflog's "Handles are the better pointers"; the tag is a run-time
// owner check.) Index and Generation repeat across worlds, Entity values do
// not: two worlds built by the same calls hand out entities with equal
// Index and Generation but different tags, so compare those, not the
// Entity values, to compare the entities of two worlds.
//
// # Components
//
// Any Go type is a component, with no registration: a type gets its id in a
// world the first time the world sees it (as in the "type-erased component
// registry" tutorial of the Multiversal Consciousness engine). There is no
// limit below 1024 types. Zero-size types (tags) take no column memory.
// Components may hold pointers, slices, maps and strings: storage is typed Go
// memory the garbage collector scans, and a removed component's slot is
// zeroed so what it referenced can be collected.
//
// Read and write components through a [Map], a cached per-type handle (the
// component mapper of Artemis):
//
//	pos := ecs.NewMap[Position](w)
//	pos.Add(e, Position{X: 1})  // panics if e already has one
//	pos.Set(e, Position{X: 2})  // add or overwrite
//	p := pos.Get(e)             // *Position; panics if missing
//	p, ok := pos.TryGet(e)      // checking twin
//	pos.Remove(e)               // no-op if absent
//
// [Map2] to [Map12] do the same for several types at once, and spawn (the
// table above): Add, Set, Remove and Exchange move the entity once rather
// than once per type, and SpawnFunc with a nil init spawns zero values.
//
//	pv := ecs.NewMap2[Position, Velocity](w)
//	pv.Set(e, Position{}, Velocity{X: 1}) // adds the types e lacks, overwrites the others
//
// TryAdd is the checking twin of Add. Exchange removes some types and adds
// others in one table move (Ark's Exchange): a state change such as Idle ->
// Walking, with the removed types named once in a [TypeSet]:
//
//	startWalking := ecs.NewTypeSet(w, ecs.C[Idle]())
//	walking.Exchange(e, startWalking, Walking{Speed: 2})
//
// Programming errors on these paths (a dead entity, a missing component, a
// duplicate Add) panic with a message naming the operation, the component
// type and the entity, such as
//
//	ecs: Get[main.Position]: entity 42v3 does not have the component
//
// and each has a checking twin: [World.Alive], [Map.Has], [Map.TryGet].
//
// # Pointer stability
//
// A pointer from Get, TryGet or an iteration points into a table column (or a
// sparse set's value array). It stays valid until the next structural change
// of that table (or set): a spawn into it, or an add, remove or despawn that
// moves a row in or out of it, or a [World.Shrink]. After that it may point
// at another entity's value, or at a column that has been reallocated (the
// registry tutorial's stale-pointer trap). Keep entities, not pointers,
// across structural changes; inside a loop, structural changes are deferred
// (see Deferred structural changes), so pointers handed out by the loop stay
// valid for its whole run.
//
// # Queries
//
// A query ([Query1] to [Query8]) names the component types it reads and takes
// filters: [With] (required, not read), [Without] (excluded), [AnyOf] (at
// least one of) and [Optional] (read when present, nil otherwise), the all /
// none / one-of aspects of Artemis, kept by the dissertation "optimisations
// for the Entity Component System pattern". Make a query once and keep it:
// its list of matching tables is updated when a table is created, so a pass
// never searches for matches. Tables are visited in creation order, rows in
// table order: the same calls give the same order.
//
// There are three ways to iterate, none of which allocates:
//
//	// Per table: plain slice loops, the fastest form.
//	for c := range q.Chunks() {
//		ps, vs := c.A, c.B[:len(c.A)] // locals: see below
//		for i := range ps {
//			ps[i].X += vs[i].X
//		}
//	}
//
//	// Per entity with range over func: as fast once inlined.
//	for r := range q.All() {
//		r.A.X += r.B.X // r.Entity is the entity
//	}
//
//	// Cursor: manual control, for example to step several queries together.
//	it := q.Iter()
//	for it.Next() {
//		p, v := it.Get()
//		p.X += v.X
//	}
//
// Which to pick: All for everyday code; it runs at the speed of a plain
// slice loop because the compiler inlines the iterator and the loop body
// (keep the body in the same function). Chunks when the work suits whole
// columns (SIMD-friendly loops, copying, sorting a column) or when a panic in
// the body must leave the world consistent by itself; copy the chunk's
// slices into local variables before the row loop, as above. Indexing c.A[i]
// inside it makes the compiler load c.A again after every store through it
// (Go has no type-based alias analysis, so the store might have changed c),
// which costs the loop its speed. For the same reason, keep what the row
// loop adds up in a variable of the chunk's body: the body of a range over
// Chunks is a closure, and a variable of the enclosing function that it
// changes lives in memory, so every add would store and load it.
//
//	sum := 0.0
//	for c := range q.Chunks() {
//		s := sum // in a register for the chunk; the adds keep their order
//		for _, p := range c.A {
//			s += p.X
//		}
//		sum = s
//	}
//
// The cursor when the loop cannot be a range statement; it is the slowest
// of the three per entity, and it needs Close when left early.
//
// # Batch operations
//
// [Map.AddMatching], [Map.RemoveMatching] and [World.DespawnMatching] act on
// every entity a query matches, a table at a time: each matched table's rows
// move as one run into the target table, one column copy per component type
// instead of one per entity. [Map2.AddMatching] and [Map2.RemoveMatching]
// (up to Map12) do it for all their types at once, in one move per table,
// for the entities the query matches before any of them changes: calling
// Map.AddMatching once per type is not the same when the query excludes one
// of the types, since the entities stop matching once they have it. A query
// with sparse terms, or a sparse or hooked type, makes a batch go entity by
// entity. Inside an iteration they are deferred like single changes, as one
// change each, and select their entities when applied.
//
// [Map.AddEntities] and [Map.RemoveEntities] act on a list of entities
// instead (EnTT's registry.insert and remove over a range): the same
// changes, panics and final state, row order included, as calling Add or
// Remove for each in turn, made in one tight loop when the type is
// table-stored and nothing hooks or observes it. Once the entity index
// outgrows a core's caches (64Ki records), that loop reads the records and
// rows of the next 16 entities before it moves them; those reads do not
// depend on one another, so their cache misses overlap, and a list of
// entities scattered at random costs far less than one call per entity.
// The trade-off: a list must be built first, and a panic at one entity
// leaves the ones before it changed, as a loop of single calls would.
// [Map2.AddEntities] and [Map2.RemoveEntities] (up to Map12) do the same
// for several types at once.
//
// # Deferred structural changes
//
// Spawning, despawning, adding and removing while any iteration runs would
// move rows under the loop. Instead, while an iteration is in progress
// ([World.IsIterating]), those changes are recorded in a command buffer and
// applied in the order they were made when the outermost iteration ends,
// whether it ran to the end, left by break, or was closed. Nested iterations
// work; only the outermost applies. Hooks and observers run the same way
// (their changes wait for the operation that fired them). Rules while
// deferred:
//
//   - Spawn creates the entity at once (so its handle works) with no
//     components; the components of Map2.Spawn and the like are added when
//     the iteration ends.
//   - The entity stays as it is until then: Get, Has, TryGet, Alive and
//     queries see the current state, not the queued one.
//   - Writing through a pointer is immediate.
//   - Batch operations ([Map.AddMatching], [Map.RemoveMatching],
//     [World.DespawnMatching], and [Map2.AddMatching], [Map2.RemoveMatching]
//     and the like, for all their types at once) are recorded as one change
//     and select their entities when applied.
//   - Add, Set, Remove and Despawn of one entity are judged against the
//     state the changes queued before them leave, never against a state the
//     queue will undo. For one component T of one entity, that queued state
//     is: "despawned" if a Despawn of the entity is queued (or its despawn
//     is running its OnRemove hooks); otherwise the newest queued change
//     among the entity's Add, Set and Remove of T and the batches over T
//     (an AddMatching or RemoveMatching of a handle of T, any
//     DespawnMatching) decides: "gains T", "loses T", or "unknown" after a
//     batch, whose entities are only known when it is applied; "none" if
//     nothing is queued.
//
// Inside a loop, one rule: reads answer for the current state, changes are
// judged against the queued one. The effect of each operation on one
// entity and its component T, by queued state, and the guard that agrees
// with it:
//
//	operation | none                     | gains T        | loses T  | despawned       | unknown          | guard
//	----------+--------------------------+----------------+----------+-----------------+------------------+----------------
//	Has       | the current state: false while an add waits, true while a removal waits         | (reads)
//	TryGet    | the current state, as Has                                                        | (reads)
//	Get       | the current value; panics if e lacks T now                                      | TryGet
//	Add       | has T now: panics;       | panics         | queued   | queued, dropped | queued: adds, or | TryAdd (false
//	          | else queued              | (duplicate)    |          | when applied    | overwrites       | where Add panics)
//	TryAdd    | as Add; false instead of panicking, and nothing queued                          | none needed
//	Set       | has T now: writes at     | queued:        | queued   | queued, dropped | queued: adds or  | Alive
//	          | once (OnSet now); else   | overwrites     |          | when applied    | overwrites       |
//	          | queued                   |                |          |                 |                  |
//	Remove    | queued                   | queued         | queued   | queued, dropped | queued           | Alive
//	Despawn   | queued                   | queued         | queued   | queued, dropped | queued           | Alive
//
// Map2..Map12 judge each of their types the same way and queue one change
// for all of them, applied as one table move (their hooks see the entity
// with every type, as outside a loop); nothing is queued if one type
// panics. Their Set writes at once only when every type would be written
// at once, and is otherwise queued whole; their TryAdd is false when Add
// would panic for any type. A Has guard does not protect an Add inside a
// loop (a queued Set makes the Add a duplicate while Has still says no):
// use TryAdd.
//
// So a Remove then an Add (or Set) of T in one loop leaves the entity with
// the new T; an Add then a Remove leaves it without; Set after a queued Add
// overwrites the queued value; changes after a queued Despawn are dropped,
// as the despawn removes everything. A queued add applied to an entity that
// has T by then overwrites it (OnSet fires rather than OnAdd). [Commands]
// buffers record without judging: each change is judged when applied, by
// the same rules as a queued change.
//
// Panics: the per-table form ends its iteration with defer, so a panic that
// escapes its loop body unwinds cleanly and the recorded changes are applied.
// The per-entity form and the cursor do not use defer: a defer in the
// iterator would keep the compiler from inlining it, and every entity would
// pay for the call. If a panic escapes their loop body and the caller
// recovers it, the world still counts the loop as running: structural changes
// keep being recorded, in order, and nothing is lost ([World.IsIterating]
// and [World.Pending] tell). Call [World.Recover] in the recovering
// function to end the open iterations and apply the recorded changes.
//
// # Command buffers
//
// A [Commands] buffer records structural changes without making them
// (Bevy's Commands, flecs' deferred mode), the verbs of the table's last
// column: [Commands.Spawn] returns a pending entity, made real when the
// buffer is applied; [Map.SpawnCmd] and [Map2.SpawnCmd] make the entity
// directly in its table; the SetCmd, RemoveCmd and ExchangeCmd of Map2 to
// Map12 are one table move for all their types. Relation changes and
// prefab spawns record there too. [World.Apply] carries the changes out in
// order, firing hooks, and settles observers once at the end; afterwards
// [Commands.Resolve] turns a pending entity into the entity it became,
// until the buffer records again. Recording only reads the world, so each
// goroutine of a parallel section can fill a buffer of its own; applying
// the buffers in a fixed order afterwards gives the same ids and state
// whatever ran first.
//
//	c := w.NewCommands()
//	e := pv.SpawnCmd(c, Position{}, Velocity{1, 0}) // pending
//	w.Apply(c)
//	real, ok := c.Resolve(e)
//
// # Hooks and observers
//
// Hooks run when a component type is added, overwritten or removed, by any
// path (single calls, spawning, despawning, batches, deferred changes,
// command buffers):
//
//	ecs.OnAdd(w, func(e ecs.Entity, h *Health) { ... })
//	ecs.OnSet(w, func(e ecs.Entity, h *Health) { ... })
//	ecs.OnRemove(w, func(e ecs.Entity, h *Health) { ... }) // before removal
//
// Queries report entities that start or stop matching them (Artemis'
// subscription listeners; onManagedEntityAdded and onManagedEntityRemoved
// in Pierre Vigier, "Entity-Component-System – Part 1", the ECS of the game
// Vagabond):
//
//	q.OnEnter(func(e ecs.Entity) { ... })
//	q.OnLeave(func(e ecs.Entity) { ... })
//
// Enter and leave are settled once per touched entity when the operation,
// batch, or application of deferred changes that touched it is complete (the
// dissertation's delayed subscriptions): an entity that gains and loses a
// component within one loop's deferred changes fires neither. Hooks and
// observers run in registration order and, like loop bodies, the structural
// changes they make are deferred until the operation that fired them is
// complete. A world without hooks or observers pays a flag test.
//
// Callbacks that keep firing each other, which would overflow the stack or
// loop forever, are stopped with a panic that names the chain, the types and
// the entity: hook calls nested more than [MaxHookDepth] deep (an OnSet that
// calls Set on the entity and type it observes), changes whose consequences
// go on for more than [MaxCascadeRounds] rounds (an OnAdd of T that removes T
// while an OnRemove of T adds it back), and enter and leave observers that do
// not settle within as many rounds (an OnEnter that removes what an OnLeave
// adds back). Call [World.Recover] after recovering such a panic, as after
// any panic in a hook.
//
// # Resources
//
// A resource is a value that exists once per world rather than once per
// entity (a clock, a random source, settings; Bevy's resources). A world
// holds at most one resource of each type, as a *T the caller provides:
// [AddResource], [GetResource], [HasResource], [RemoveResource], each a map
// lookup by type. [NewResource] makes a [Resource] handle (Ark's typed
// resource handles), made once like a Map, whose Get, TryGet, Has, Set and
// Remove cost no lookup and are reported to the access checker, so a
// scheduler's debug mode checks them too:
//
//	clock := ecs.NewResource[Clock](w) // once, outside systems
//	clock.Set(&Clock{})                // add or replace
//	clock.Get().Tick++                 // *Clock; panics if absent
//	c, ok := clock.TryGet()            // checking twin
//
// # Events
//
// An event is a message from one part of a tick to others: "A hit B for 5",
// "the level is complete". [EventsOf] returns a world's queue for an event
// type (one per type, made on first use). [Events.Send] appends to it, and
// each [EventReader], made with [Events.NewReader], has a cursor of its own
// and reads every event sent after it was made exactly once, in the order
// sent, however rarely it reads (Bevy's Events<T> and EventReader):
//
//	hits := ecs.EventsOf[Hit](w)
//	r := hits.NewReader()              // once, before the first Run
//	hits.Send(Hit{From: a, To: b})     // outside parallel sections; loops and hooks too
//	for _, h := range r.Read() { ... } // what r has not read yet, now marked read
//
// An event lives until every open reader has read it, not a fixed number of
// ticks. With no open reader it is dropped at once. A reader that never
// reads keeps every event, so close readers that are done
// ([EventReader.Close]). Read events are dropped outside parallel sections,
// once they are half of what the queue holds: O(1) amortised per event.
// [Events.SendAll] sends a slice in one bulk copy. Inside a parallel
// section any number of readers may read at once, each on its own
// goroutine. Sending there panics: systems of package sched send through
// sched.EventSender, whose per-system buffers are merged at the end of the
// stage in the order of record. Snapshots, restores and save files carry
// the unread events and every reader's cursor; the checksum hashes what is
// left to read, not how many events were sent (history a save file need
// not keep). A save file gives the cursors back to the loading program's
// readers in the order it makes them ([Events.NewReader]), so a program
// that loads, then makes its systems, reads on where the saved one
// stopped.
//
// # Change detection
//
// A system that only reacts to what changed (re-sort a spatial index when
// positions move, redraw a health bar, send a network delta) should not walk
// every entity. Register the type with [TrackChanges] and filter a query
// with [Changed] or [Added]:
//
//	ecs.Register[Health](w, ecs.TrackChanges()) // before any other use
//	hurt := ecs.NewQuery1[Health](w, ecs.Changed[Health]())
//	...
//	for r := range hurt.All() { redraw(r.Entity, r.A) } // changed since hurt's last pass
//
// Each query remembers when its last pass ended and sees every change made
// after it exactly once, so two queries (two systems) each see each change;
// its first pass sees every value. Tracking is opt-in per type (Bevy's
// change ticks, made opt-in): an untracked type pays no memory, and its row
// moves and spawns test one empty list (BenchmarkQuery2, Get and Spawn2
// measure no difference). A tracked column keeps two 32-bit ticks per row
// (added, changed) beside the values and the newest tick of the column, so
// a pass skips, without reading a row, every table with no change since its
// last run (as flecs skips unchanged tables); a sparse set keeps the newest
// tick per block of 1,024 slots too. The Chunks form hands out runs of
// consecutive changed rows, so a pass over 100% changed rows still gets
// whole tables.
//
// What is a change of a tracked T, seen by [Changed]:
//   - an add by any path: [Map.Add], Set of a missing value, spawns (single,
//     batch, SpawnFunc), [Map.AddMatching], MapN handles, command buffers,
//     deferred changes when they are applied, [World.CopyEntity], prefab
//     instances, [World.Load], [World.LoadJSON] and [World.Merge]. [Added]
//     sees these only;
//   - an overwrite: [Map.Set], MapN Set, AddMatching over a present value, a
//     command buffer's or a deferred add over a present value, a sched
//     Output's merge;
//   - [Map.MarkChanged] (and MapN's), after a write through a pointer;
//   - a pass of a query that declares [MarksChanged][T] (flecs' inout terms):
//     the table forms mark every row of each table, or run, they enter.
//
// What is not: a write through a pointer from [Map.Get], [Map.TryGet] or
// a query row, unless marked; a move of the entity to another table (its
// value keeps its ticks); changes of other types; relation pairs (relations
// are not tracked). Removing T forgets its ticks, so a later add is an add.
//
// When: a pass's last run is the tick at which it ended, and the tick moves
// on at the end of every change-filtered pass and of every parallel
// section. So a query does not see the changes made while its own pass was
// open (its MarksChanged marks, its loop body's Sets), as a Bevy system does
// not see its own, and a query that filters on Changed[T] and writes T does
// not feed itself; the structural changes its loop deferred are applied
// after it ends and are seen next time. Under package sched every system of
// a stage works at the stage's tick, so the result does not depend on the
// number of workers. A pass that breaks out of its loop early still ends a
// pass: the changed rows it did not reach are not reported again. A pass
// left by a panic (then [World.Recover]) keeps its previous last run: it
// sees those changes again. [Query1.Count] and batch operations over a
// change-filtered query select the same entities without ending a pass.
// [Query1.AppendChunks] is a pass (sched's ForEach splits one). Observers
// ([Query1.OnEnter]) on a change-filtered query panic: membership would
// depend on when the query last ran.
//
// Ticks are 32-bit and wrap: ticks are compared modulo 2^32, and every
// 2^29 ticks the world moves every tick older than 2^30 up to that age
// (Bevy's check_change_ticks), so comparisons stay exact however long the
// world runs. A query idle for more than 2^30 ticks may then see values as
// changed that did not change since its last pass; it never misses one.
// Snapshots carry the ticks, the clock and every query's last pass, and
// [World.Restore] puts them back: the passes after a restore see what they
// saw after the snapshot (a query made since sees every value, as a new
// query does), so a rollback that simulates the same ticks again repeats
// what every change filter saw, and the world with it. A restore is not a
// change. Saves and [World.Checksum] leave ticks out: a loaded world's
// values are all added at the load.
//
// Cost: a pass over a table with no change since its last run costs the
// table check alone; with changes it scans 4 bytes per row and touches the
// values of the changed rows only.
//
// # Relations
//
// A relation links entities in pairs, a source and a target, each pair
// holding a value of the relation's type T (an empty struct for a plain
// link): [NewRelation] declares it once per world. An exclusive relation
// (the default) gives a source one target, which [Relation.Set] replaces:
// the unit a soldier follows, the parent of a node. A [Multi] relation
// gives it any number: the inventories an item is listed in, the groups a
// unit belongs to.
//
//	likes := ecs.NewRelation[Likes](w, ecs.Multi())
//	likes.Set(alice, bob, Likes{Since: 3})
//	for _, fan := range likes.Sources(bob) { ... }
//
// Storage: both sides are indexed. The source holds its targets with their
// values, the target the list of its sources, each in a sparse set of the
// relation's own, kept in step by every operation. Targets(e) and
// Sources(t) read one list, O(its length); adding or removing a pair is
// O(1) amortised plus the length of the lists it edits, and moves no table
// row, so a relation never fragments tables or slows queries that do not
// use it. Because the lists are components, snapshots, the checksum, save
// files and [World.Merge] carry relations with everything else.
//
// An exclusive relation declared [SplitByTarget] also stores its sources
// in tables per target (as flecs and Ark do), on top of the two lists: a
// query filtered by one target (To, or ToVar per pass) walks that target's
// tables with no per-entity check, and its Chunks form hands out a whole
// table per target, which reads the sources' values faster than Children
// and Map.Get do. Pick it when queries read many sources of one target and
// targets are few and lasting. Keep the default otherwise: with the
// option, a pair change moves the source's row, and each target leaves a
// table per set of component types, kept when it dies, so a query over
// every entity walks one table per target and slows down where the
// default storage leaves it within noise (bench/results/RELATIONS.md has
// the figures).
//
// When a target is despawned its relation's [CleanupPolicy] applies:
// [RemovePairs] (the default) removes the pairs, [DespawnSources] despawns
// the sources and theirs in turn, children before parents (a walk with an
// explicit stack: any depth), and [RefuseDespawn] panics, naming both
// entities, before anything changes. A despawned source always loses its
// pairs. An [Acyclic] relation refuses a pair that would make an entity
// its own ancestor. [World.Load], [World.Merge] and their JSON twins
// check a file's pairs before anything changes, in time linear in the
// file whatever the shape of its trees: both sides list the same pairs of
// living entities, once each, and an Acyclic relation has no cycle;
// otherwise they return an error. Inside an iteration, a hook or an
// observer, relation changes are deferred with the other structural
// changes and applied in order when the outermost iteration ends; reads
// see the pairs applied so far. A cascade's OnRemove hooks run with the
// world locked: what they change waits for the end of the cascade.
//
// Queries select by relation: [Relation.To] keeps the sources of one
// target (walking that target's list, so the cost is the number of sources,
// not the world's size), [Relation.ToVar] reads the target from a
// [TargetVar] at the start of each pass, and With or Without of
// [Relation.AsSource] and [Relation.AsTarget] keep the entities that have
// targets or sources (Without(h.Relation().AsSource()): the roots). Command
// buffers record relation changes (AddCmd, SetCmd, RemoveCmd, and
// [Hierarchy.SetParentCmd] and RemoveParentCmd for the tree), pending
// entities serving as sources and as targets; a cycle is judged when the
// buffer is applied, on the tree as it is then (SetParentCmd refuses an
// entity made its own parent at once). Package sched declares a system's
// access with ReadsRelation, WritesRelation and ChangesRelation.
//
// The hierarchy is the relation [ChildOf], exclusive, acyclic and
// cascading, with the walks of a scene graph on [Hierarchy]: SetParent
// (which reparents), Parent, Children (in the order they were attached),
// Root, Depth, Ancestors and Descendants (depth first, each node before its
// children). [Hierarchy.Cascade] visits a query's entities parents first,
// by depth (flecs' cascade), which transform propagation needs:
//
//	for e := range h.Cascade(q) {
//		if p, ok := h.Parent(e); ok {
//			*world.Get(e) = compose(*world.Get(p), *local.Get(e))
//		}
//	}
//
// Pair hooks, [Relation.OnAdd] and [Relation.OnRemove], run once per pair
// made or removed, with its source and target, when the operation is
// complete (after a cascade, after a loop's deferred changes), in order,
// before the enter and leave observers of the same changes. SetParent and a
// cascade allocate nothing once warm, and a query over a world with
// relations runs within noise of one over a world without.
//
// # Cloning and prefabs
//
// [World.CopyEntity] copies an entity with every component, by the copy rules
// of snapshots ([Cloner] types through their Clone method, [Shallow] ones
// plainly, others refused with a panic naming the type), and with its
// relation pairs as a source: a clone of a child is its sibling.
//
// A [Prefab] is a template for spawning the same tree of entities many
// times. Build the template with the ordinary API, capture it with
// [NewPrefab] (the root and its descendants through [ChildOf]), and the
// template may go: the prefab keeps its own copies.
//
//	ship := ecs.NewPrefab(w, hull) // hull and its turrets
//	w.Despawn(hull)
//	first := ship.Spawn()
//	ship.SpawnBatchFunc(100, func(i int, inst []ecs.Entity) {
//		pos.Get(inst[0]).X = float64(i) // a per-instance override
//	})
//
// Each instance gets new entities in the template's tables, copies of its
// values, and its own tree; Entity values and relation pairs that point
// into the template point into the instance. [PrefabValue] changes the
// prefab for the instances spawned later; those spawned before keep
// their values (an instance is a copy, not a link as flecs' IsA is). The
// spawn plan is worked out once, so a batch costs about a batch spawn of
// the same entities. A system that records into a [Commands] buffer spawns
// with [Prefab.SpawnCmd], which returns the pending root, or
// [Prefab.SpawnCmdNodes], which hands out every node's pending entity; the
// instance is filled when the buffer is applied, and changes recorded on
// those entities afterwards (a child's override through [Map.SetCmd])
// apply on top.
//
// # Snapshots and rollback
//
// [World.Snapshot] copies a world's whole state into a [Snapshot] and
// [World.Restore] puts it back: afterwards the world is the one of the
// snapshot in every observable way (alive handles, the ids the next spawns
// return, iteration order, values, sparse sets, resources, observer
// membership), and no hook or observer fired on the way. A snapshot keeps
// its buffers, so saving into the same few snapshots every tick, as a
// rollback netcode loop does (GGPO, GGRS), allocates nothing once warm:
//
//	var save ecs.Snapshot
//	w.Snapshot(&save)  // before a predicted tick
//	...                // the tick runs; the remote input disagrees
//	w.Restore(&save)   // back, then re-simulate with the right input
//
// Values are copied as memory; strings are shared, since Go never mutates
// them. A type that holds pointers, slices, maps or interfaces needs a
// Clone method ([Cloner]) or a declaration that sharing is safe
// ([Shallow], one call per type, wherever its values live: components,
// relation pairs, events, resources); otherwise Snapshot panics naming the
// type, and [World.CanSnapshot] says so beforehand. Keep the simulation's
// random source in a resource, so a restore rewinds it too. Change
// detection rewinds with the rest: the change ticks, the clock and each
// query's last pass are the snapshot's after a restore, so systems that
// filter on [Added] or [Changed] see in a re-simulation exactly what they
// saw the first time. [SnapshotRing] keeps the snapshots of the last few
// ticks for rollback; [SnapshotRing.At] and [SnapshotRing.Ticks] read its
// past ticks without rolling back.
//
// # Checksums and diffs
//
// [World.Checksum] hashes the whole observable state of a world (the entity
// index with its free list, every non-empty table's rows in iteration order,
// the sparse sets, the resources, the events left to read) into 64 bits,
// so that two simulations that must agree, a lockstep peer and its twin or
// a world before a save and after the load, can be compared in one number
// (the desync check of GGPO and GGRS). Equal worlds give equal checksums
// however they were built: the order in which types were first used,
// tables made and emptied on the way and the worlds' tags do not count,
// and padding bytes are never read. Floats count by their bits, except
// that every NaN is one NaN; strings by content; pointer, slice, map and
// interface fields not at all, unless the type implements [Checksummer].
// Events count by what readers have left to read, not by how many were
// ever sent: a peer that joined from a save file agrees with the peers
// that ran from the start.
//
// One checksum says that two runs disagree, not where. [World.Checksums]
// gives one sum per part ([PartChecksum]: the entity index, each component
// type, relation, resource and event queue) in one pass over the rows, so
// that per-tick logs of two runs name the first tick and the types that
// diverged ([DiffChecksums]; package desync reads and compares such logs).
// [Diff] then compares two states, each a world or a [Snapshot] (of one
// world or of two: two runs, two peers), entity by entity, component by
// component and field by field, in time linear in their size, and reports
// the first differences with both values and counts them all: entities,
// components, relation pairs and resources, and the entity index and
// iteration order that checksums count. Values compare as the checksum
// hashes them.
//
//	r := ecs.Diff(ring.At(tick), w, 10) // the tick as it was, against now
//	fmt.Print(&r)                       // entity 7v0 component game.Pos field X: differs: A 1.5, B 1.25
//
// [DiffSaves] does the same for two binary save files without the
// program's Go types, each value read by its file's schema, so a tool
// (`tessera diff`) compares any program's saves; for two worlds saved by
// one program it reports what Diff reports of them, plus the event
// queues. It checks the files as Load does (CRCs, counts, entity indices)
// and returns an error for anything it cannot read, never a panic, in
// memory linear in the files' sizes. Package sched's sync test
// (NewSyncTest) rolls a world back and compares it this way every tick.
//
// # Save files
//
// [World.Save] writes a world to an io.Writer in a versioned binary format
// and [World.Load] reads it into a new world: the same entity ids and
// generations, free list, rows in order, sparse sets, resources and event
// queues (the events left to read and the readers' cursors, which the
// loading program's readers take in the order it makes them), so the
// checksum after the load is the one before the save, and a program that
// saves, loads and runs on gives the checksums, tick for tick, of the run
// that never saved. The same world saves to the same bytes on any machine
// (little-endian numbers; int, uint and uintptr as 64 bits). Component
// types are named by a stable name ([Name], by default the Go package path
// and type name) and described by a schema of their fields, so a file
// still loads after a type was renamed (keep its Name) or gained, lost or
// reordered fields; a field whose kind changed is an error naming it.
//
// Load checks the whole file before it changes anything: any bytes give
// an error or a world, never a panic or half a world, in time and memory
// bounded by the file's size: every count it gives is checked against the
// bytes left, values that take no bytes (empty arrays and structs, arrays
// of those, nested at any depth) are read or skipped at once however many
// a schema claims, and a schema nested more than 64 deep is an error. The
// file is cut into sections (the entity index, the types, each table,
// sparse set, resource and event queue), each with a CRC-32C that Load
// checks first: a damaged file, a single flipped bit in a value included,
// is an error naming the section and its bytes rather than a world with a
// wrong value (a CRC-32C finds every change of up to 32 bits in a row,
// and misses wider random damage about once in 2^32). Files of format
// version 1 (no events, no CRCs) still load. [World.SaveJSON] and
// [World.LoadJSON] do the same in JSON, each component through
// encoding/json, for people and tools; a JSON save carries no CRC, since
// people edit it, so a changed digit inside a number loads as that number.
//
// Values are written by a codec built by reflection once per Save, and
// runs of plain numbers as memory. A component type whose pointer has the
// [BinaryCodec] methods, EncodeSave and DecodeSave (the code `tessera gen`
// writes from JSON definitions has them), writes and reads its own bytes
// instead, the same bytes, without reflection: Load uses it when the
// file's schema of the type is the type's own and falls back to
// reflection for a file saved before the type changed. A type that holds
// itself (through a slice) has no finite schema: Save returns an error
// naming it.
//
// [SaveCodec] writes and reads one value of a type in the same format,
// the bytes Save writes for a component's value, without a world or a
// file: for replication, network messages and caches. Its Decode checks
// the bytes as Load does (any bytes give a value or an error, never a
// panic, in memory bounded by their length) and passes each entity inside
// the value to a function of the caller's, as Merge maps a file's
// entities; [SaveCodec.Refs] lists those entities beforehand, and
// [SaveCodec.Schema] fingerprints the layout, so that two programs can
// check they agree on it. Append into a buffer with room, and Decode, of a
// value of a fixed size allocate nothing (beyond what a type's own
// BinaryCodec methods allocate).
//
// [World.Merge] and [World.MergeJSON] read the same files into a world that
// already has entities (EnTT's continuous loader): each of the file's
// entities becomes a new one, spawned in the order of the file's indices,
// every [Entity] inside the loaded values is rewritten to the new entity it
// names (or to the zero Entity when it named none), and the returned
// [EntityMapping] says which file entity became which ([EntityMapping.Get]
// of a saved handle gives the new entity). Merge leaves the world's
// resources alone; a file it cannot read leaves the world as it was.
//
// # Determinism
//
// The same calls give the same world: the same entity ids (index and
// generation), the same iteration order and the same [World.Checksum], on
// amd64, arm64, 386 and wasm alike, with any number of scheduler workers,
// after a snapshot is restored, after a rollback and its re-simulation,
// and after a save is loaded (on the same machine or another) and the run
// continues. Nothing in the core reads the clock, a random source, a map's
// order or the machine's word size: ids come from the entity index's free
// list, tables and columns are ordered by first use and by stable name,
// and int, uint and uintptr count as 64 bits in checksums and save files.
// Repository CI runs every scenario and example on the four machines
// (arm64 and 386 under qemu-user, wasm under Node) and compares the
// checksum after every tick; every scenario also runs under 20 seeds of
// sched.Shuffle, which reorders what the scheduler is free to reorder, and
// gives one checksum.
//
// The promise covers what the world does; user code keeps it by following
// rules that the analyzer behind `tessera vet` (package
// github.com/tessera-ecs/tessera/cmd/tessera/detcheck) checks:
//
//   - Round a float product before adding it: x += float32(v * dt), not
//     x += v * dt. The Go specification lets a compiler fuse x*y + z into
//     one multiply-add that rounds once, and arm64's does; an explicit
//     conversion prevents it.
//   - Take Sin, Cos and Sincos from package detmath, not math: math's
//     differ in the last bit between arm64 and amd64 (and Exp and Pow
//     between amd64 and 386). Sqrt, Abs, Floor, Mod and the other exact
//     functions of math are safe.
//   - Never let a Go map's order reach the world: range over sorted keys.
//   - Draw randomness from a seeded generator kept in a resource (so
//     snapshots, rollbacks and save files carry it), never from math/rand's
//     global functions; never read the clock inside a tick.
//   - Split work with sched.ForEach and combine per-chunk results in chunk
//     order; a goroutine of one's own inside a system has no fixed order.
//   - Keep every value the simulation reads in the world (components,
//     resources, relations): a counter in a Go variable is not rolled back
//     or saved.
//
// # Concurrency
//
// A World is not safe for concurrent use outside a parallel section: every
// call must come from one goroutine at a time, iterations included
// (starting and ending a loop updates the world's count of running
// iterations). w.Parallel().Begin ([ParallelControl.Begin]) opens a
// parallel section, in which any number of goroutines may iterate queries,
// read components and resources, and overwrite components in place, as
// long as no two write one component type and none reads a type another
// writes; structural changes go to per-goroutine [Commands] buffers, and
// direct ones panic. [Query2.AppendChunks] (and its siblings) cut a pass
// into row ranges that different goroutines may write. Package sched
// builds its parallel stages on this, and checks the access rules. Handles
// and queries are made once, before the first run, and reused: making one
// inside a parallel section panics and says so.
//
// Two goroutines changing one world outside a parallel section is caught
// on a best-effort basis, like the Go runtime's "concurrent map writes":
// every structural mutation marks the world while it runs, and one that
// finds the mark set panics with "concurrent structural change" instead
// of corrupting the world (the race detector catches every case). An
// [Events] queue has a mark of its own: two goroutines sending to or
// reading one queue at once panic with "concurrent use" instead of losing
// events. Operations that need a settled world (Snapshot, Save, Load,
// Merge) name another goroutine as a possible cause when they find the
// world busy.
//
// A scheduler's plumbing sits behind [World.Parallel], apart from the game
// code's calls: the parallel section ([ParallelControl.Begin],
// [ParallelControl.End], [ParallelControl.Active]), the access checker of
// a debug mode ([ParallelControl.SetAccessChecker]) and the test a batch
// writer makes before storing values without Set
// ([ParallelControl.SetIsPlainWrite]).
//
// # Storage and memory
//
// Every distinct set of component types is an archetype with one table. A
// table has an entity column and one column per component type, all of one
// length (struct of arrays), so iterating one component type walks
// contiguous memory. Adding or removing a component moves the entity's row
// to another table; the moves between tables are edges of an archetype graph,
// cached after their first use, so a move is a lookup and a copy per
// component. Removing a row moves the table's last row into its place
// (swap-and-pop).
//
// Rows past a table's length are kept zero where that is cheap (the zero
// tail, as in Ark): a batch despawn ([World.DespawnMatching]) zeroes the
// rows it empties in bulk, and a single despawn or move leaves its vacated
// row stale and marks it. A spawn of zero values ([Map.SpawnFunc] with a nil
// init, a SpawnBatch of zero values) then writes nothing into zero rows and
// clears only the marked ones, so creating entities costs their bookkeeping,
// not their bytes. The trade-off: a DespawnMatching pays the zeroing (a
// memclr of the rows' bytes) instead of the spawns that follow it.
//
// A component type can instead live in a sparse set of its own, chosen once
// per world before the type's first use:
//
//	ecs.Register[Burning](w, ecs.Sparse())
//
// A sparse set is a paged sparse array indexed by entity index (pages of 1024
// entries, allocated only where entities hold the type and pooled once
// empty), a dense entity array and a dense value array, with swap-and-pop
// removal. A sparse component is not part of the archetype: adding or
// removing it is O(1) and never moves the entity's table row, which makes it
// the choice for components that come and go often (BenchmarkAddRemoveSparse
// compares it with a table). The price is in iteration: a query checks sparse
// terms per entity, and a query whose rarest required term is sparse is
// driven from that set: its dense array is walked, with one entity-index
// lookup per holder to find the table row and check the table matches. The
// driven walk reads the driving set's values in order (BenchmarkMemberList
// compares it with the dissertation's active-passive sets, which were not
// adopted). Everything else (maps, filters, the three iteration forms,
// deferred changes, batches) works the same for both storages. Chunks and
// AppendChunks of a query whose one term is a sparse type hand out runs of
// the set's dense arrays (up to 1024 entities, in the set's order); with
// table terms beside sparse ones, a chunk holds one entity, because the
// table values of consecutive holders are not next to each other. Sparse
// pages cost 4 bytes per entity index in the range the holders span, so a
// component spread thinly over many entities is smaller in a table.
// [CapacityHint] sizes a type's storage up front.
//
// [World.Stats] reports memory per component type, per table and for the
// entity index; [World.Shrink] gives back what is allocated but unused.
//
// # Introspection
//
// Tools that do not know a world's types at compile time (the browser
// inspector of package inspect, a debug console, an editor) read and
// change it without type parameters (as flecs' reflection and Bevy's
// remote protocol do). Their calls sit behind [World.Reflect], which keeps
// them apart from the game code's:
//
//	r := w.Reflect()
//	for _, c := range r.Components() { ... }  // c.Name, c.GoType, c.Storage, c.Count
//	ct, ok := r.ComponentNamed("game.Health")  // by stable name (Name)
//	for e := range r.Entities(with, without) { // in table order
//		for _, c := range r.ComponentsOf(e, nil) {
//			v, _ := r.Value(e, c) // a copy, boxed: its dynamic type is the component's
//		}
//	}
//	v, err := r.DecodeValue(ct, []byte(`{"HP": 10}`)) // strict JSON, as SaveJSON writes
//	cmds := w.NewCommands()
//	cmds.SetValue(e, v) // add or overwrite, hooks fire at Apply
//	w.Apply(cmds)
//
// [Commands.RemoveValue] removes a type named by its [ComponentType].
// [Reflection.EntityAt] turns an index a person typed into a handle, and
// [Reflection.Resources] lists the resources. Relations are read the same
// way, without their pair types: [Reflection.Relations] lists them,
// [Reflection.PairsOf] and [Reflection.PairsTo] yield an entity's pairs as
// source and as target (relation, both entities and a boxed copy of the
// value), [Reflection.NumPairs] counts them, and
// [Reflection.RelationRoots] yields the tops of a relation's trees (for
// [ChildOf], the hierarchy's roots) in entity index order. These calls
// allocate and walk the world's type list: they are for tools, not for
// systems.
package ecs
