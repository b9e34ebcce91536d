// Package inspect looks inside a running Tessera world from a browser: a
// web page and a JSON API that list the world's entities, tables, component
// types, resources and systems, show and edit any entity's components,
// show its parent, children and relation pairs and the world's hierarchy
// as a tree, chart the tick time and each system's time live, and pause,
// step and resume the loop. Nothing to install: the page is embedded in
// the binary and enabling it is one line. It is built only on the public
// API of packages ecs (the introspection calls of World.Reflect:
// Components, Entities, Value, DecodeValue, Relations, PairsOf, PairsTo,
// RelationRoots and the like, and Commands.SetValue) and sched.
//
// # Enabling it
//
// Attach an inspector to the world (and its scheduler), listen, and let the
// game loop run its ticks through it:
//
//	in := inspect.New(w, inspect.Scheduler(s), inspect.Token(os.Getenv("INSPECT_TOKEN")))
//	srv, err := in.Listen("127.0.0.1:7777") // http://127.0.0.1:7777/
//	...
//	for running { // the game loop, on the world's goroutine
//		in.Tick(loop.Step) // serves waiting requests, then one tick unless paused
//		draw()
//	}
//
// Or let the inspector drive the loop at a steady rate until ctx is done:
//
//	in.Run(ctx, 60, loop.Step)
//
// The demo does this: go run ./cmd/tessera demo -inspect 127.0.0.1:7777.
//
// # Threading
//
// A world is not safe for concurrent use, and the HTTP server answers each
// request on a goroutine of its own. So no handler touches the world:
// each request becomes a job on a queue, and the world's own goroutine runs
// the jobs between two ticks, inside [Inspector.Tick], [Inspector.Serve]
// (for loops that tick by themselves) or [Inspector.Run]. Reads and writes
// therefore never overlap a system, and a write lands at a tick boundary:
// the same write at the same tick gives the same world, whatever the number
// of workers. One Serve runs only the requests that waited when it began,
// and none past the first after 4 ms, so a crowd of clients slows the
// answers, not the ticks. A request the loop does not take up within the
// [Wait] time (5 s by default) answers 503 and is dropped, never applied
// later; so does one whose client goes away first.
//
// A hook or observer that panics during a write (an OnSet that refuses a
// value, say) answers 500 with the panic's message, and the world is
// recovered (ecs.World.Recover) so that it stays usable. Hooks run after
// the change they observe, as everywhere in Tessera, so the write has
// been made up to that hook: read the entity back to see where it
// stands.
//
// A world without a loop (a tool, a test, a server that ticks on demand)
// is served under a mutex instead: give [Locker] and hold the lock
// whenever the program uses the world. The requests go through the same
// queue, and a goroutine of the inspector's own, started by the first
// request, drains it: it takes the lock, runs the requests waiting then
// (as Serve does: none begins past the first after 4 ms), and lets it go,
// so a crowd of clients slows the answers, not the program. The Wait time
// and its 503 hold as above. The first call of Tick, Serve or Run hands
// the queue to that loop, and the inspector's goroutine ends;
// [Inspector.Close], or the stop of the server [Inspector.Listen] built,
// ends it too.
//
// # The JSON API
//
// The API follows flecs' REST API (the one its Explorer uses): resources
// named by paths, GET to read, PUT, POST and DELETE to change, JSON in and
// out. Bevy's Remote Protocol offers the same operations as JSON-RPC
// methods; the equivalents are named below. Every answer is JSON except the
// page, its files and the stream; an error is {"error": "message"} with
// its status. Entities are written as in panic messages, "42v3" (index 42,
// generation 3). A component is named by its stable name (the one save
// files use: ecs.Name, or package path and type name, such as
// "github.com/me/game.Position"), or by its Go name ("game.Position") when
// no other type has it; in a path, escape the slashes of a stable name
// (%2F) or not, both work.
//
//	GET /api/world
//	    {"entities", "tables", "components", "resources", "memoryBytes",
//	     "tick", "ticksPerSecond", "paused", "loop", "writes",
//	     "tickTime": {"lastNs", "meanNs", "maxNs"}}
//	    loop: a loop runs ticks through the inspector (pause and step work);
//	    writes: a token is configured. Tick times are over the last 600 ticks.
//	GET /api/components
//	    {"components": [{"name", "goType", "storage": "table"|"sparse",
//	     "count", "size", "bytes", "tracked"}]}, in the world's id order.
//	GET /api/tables
//	    {"tables": [{"index", "components": [stable names], "rows",
//	     "capacity", "bytes"}]}, in creation order (flecs' archetypes).
//	GET /api/resources
//	    {"resources": [{"name", "goType", "value"}]}, sorted by name; a
//	    value JSON cannot hold is null with an "error" beside it.
//	GET /api/entities?with=A,B&without=C&offset=0&limit=100
//	    {"total", "offset", "limit", "entities": [{"id", "components"}]}:
//	    the living entities that have every with and no without type, in
//	    table order (ecs.Reflection.Entities), paged: limit from 1 to 10,000,
//	    100 by default. with and without may repeat. (Bevy: world.query.)
//	GET /api/entities/{id}
//	    {"id", "components": [{"name", "goType", "storage", "value",
//	     "text"}], "parent", "ancestors", "ancestorsMore", "children",
//	     "childCount", "pairs", "pairCount", "targetOf", "targetOfCount"}:
//	    every component as JSON, encoded as World.SaveJSON encodes it,
//	    and as its String() in "text" when its type has one (the types
//	    tessera gen writes do). Then its place in the hierarchy
//	    (ecs.ChildOf): its parent, its ancestors nearest first (at most
//	    100; ancestorsMore when there are more), its children in the
//	    order they were attached (the first 100 of childCount); and its
//	    relation pairs, of every relation, as source ("pairs") and as
//	    target ("targetOf"), the first 100 of each with the counts, each
//	    {"relation", "goType", "source", "target", "value"} (relation: the
//	    pair type's stable name; value: the pair's value, left out for a
//	    type without fields such as ecs.ChildOf). Each relation member is
//	    left out when empty or zero, so an entity in no relation answers
//	    {"id", "components"}. (Bevy: world.get_components.)
//	GET /api/entities/{id}/pairs?as=source|target&relation=NAME&offset=0&limit=100
//	    {"id", "as", "total", "offset", "limit", "pairs": [as above]}:
//	    all of the entity's pairs as source (the default) or as target, of
//	    one relation (stable name, or Go name such as ecs.ChildOf) or of
//	    all, paged as /api/entities is.
//	GET /api/relations
//	    {"relations": [{"name", "goType", "exclusive", "acyclic",
//	     "splitByTarget", "onTargetDespawn", "sources", "targets"}]}, in
//	    declaration order; sources and targets count entities.
//	GET /api/hierarchy?offset=0&limit=100
//	    {"declared", "total", "offset", "limit", "nodes": [{"id",
//	     "childCount", "components"}]}: the roots of the hierarchy (the
//	    entities with children and no parent), in entity index order.
//	    declared: the world declares ecs.ChildOf (reading never declares
//	    it). limit is from 1 to 1,000: however large the hierarchy, an
//	    answer holds at most 1,000 nodes, and a client expands the tree a
//	    node at a time. Costs the loop a walk of the entities with
//	    children.
//	GET /api/hierarchy/{id}?offset=0&limit=100
//	    The same for the children of id, in the order they were attached,
//	    with "id" and its "parent" (left out for a root). Costs
//	    O(offset + limit).
//	GET /api/systems
//	    {"scheduler", "plan", "systems": [{"name", "stage", "enabled",
//	     "runs", "lastNs", "meanNs", "maxNs", "totalNs"}]}: the stage plan
//	    with the reason each system is not in an earlier stage, and each
//	    system's times (sched.Scheduler.Plan and Stats).
//	GET /api/stream
//	    Server-sent events named "tick", at most ten a second, each
//	    {"systems": [names], "samples": [{"tick", "tickNs", "entities",
//	     "systemNs": [per system]}]} with every tick since the previous
//	    event; the first event carries the last 600 ticks. (Bevy: the
//	    +watch methods.)
//
// Writes need the token (below). Each goes through a command buffer
// applied at once, so hooks and observers fire as for any other change:
//
//	PUT    /api/entities/{id}/components/{name}   body: the value as JSON
//	    Adds the component or replaces its value whole (OnAdd or OnSet): a
//	    field the body leaves out is zero. Answers the entity as GET does.
//	    (Bevy: world.insert_components.)
//	PATCH  /api/entities/{id}/components/{name}   body: a JSON merge patch
//	    Changes part of the component's value (OnSet), as RFC 7386 says:
//	    a member the patch leaves out keeps its value; an object merges
//	    into the member recursively; anything else, arrays included,
//	    replaces the member whole; null removes the member, which for a Go
//	    value means: a struct field is set to its zero value (a pointer to
//	    nil, a slice or map to nil), a map entry is deleted. A patch that
//	    is not an object replaces the whole value; a patch of null is a
//	    400 (DELETE removes a component). Content-Type
//	    application/merge-patch+json, or application/json (the same), or
//	    none; any other, JSON Patch (RFC 6902) included, is a 415 with an
//	    Accept-Patch header. 404 if the entity has no such component (PUT
//	    adds one); 409 if its value cannot be written as JSON to merge
//	    into. The patched value is decoded in full before anything
//	    changes.
//	DELETE /api/entities/{id}/components/{name}
//	    Removes it (400 if the entity has none). (Bevy: world.remove_components.)
//	DELETE /api/entities/{id}
//	    Despawns the entity: {"despawned": id}. (Bevy: world.despawn_entity.)
//	POST   /api/entities   body: {"components": {name: value, ...}}
//	    Spawns an entity with those components, all decoded before
//	    anything changes: 201 and the entity. (Bevy: world.spawn_entity.)
//	PUT    /api/systems/{name}   body: {"enabled": false}
//	    Disables or enables a system (sched.Scheduler.Enable).
//	POST   /api/loop/pause, /api/loop/step, /api/loop/resume
//	    {"paused", "tick"}. Step runs one tick while paused; 409 without a
//	    loop, and for a step while running.
//
// The bodies of PUT, PATCH and POST /api/entities are read strictly, and a
// 400 names the component type and the field's path (Pos.X, Path[2].Y,
// Tags["a"]): a field name must be the type's JSON name exactly, so a
// misspelling, a wrong case ("hp" for "HP": encoding/json alone would take
// it) or a field the type lacks is refused, with the near name when there
// is one; a value must fit its field (a string for a number, 300 for an
// int8, -1 for a uint, 1.5 for an int, 1e999 for a float64); then the
// value is decoded by ecs.Reflection.DecodeValue, whose errors also
// answer 400. A type with its own UnmarshalJSON or UnmarshalText, such as
// ecs.Entity ({"index", "generation"}), is read by it. On the demo
// (TESSERA_INSPECT_TOKEN=secret go run ./cmd/tessera demo -scenario game
// -inspect 127.0.0.1:7777), this sets one field of a component and keeps
// the others:
//
//	curl -s -X PATCH -H 'Authorization: Bearer secret' \
//	  -H 'Content-Type: application/merge-patch+json' -d '{"HP": 3}' \
//	  http://127.0.0.1:7777/api/entities/1v0/components/scenario.Health
//
// Statuses: 400 for malformed JSON, unknown component, relation or system
// names, dead entities, bad ids and bad paging, unknown fields and values
// that do not fit; 403 for a write without the right token, a foreign Host
// or Origin; 404 for an unknown path and a PATCH of a component the entity
// lacks; 405 for a method a path does not take; 408 for a body that does
// not arrive in time; 409 as above; 413 for a body over the limit; 415 for
// a PATCH that is not a merge patch; 500 for a hook that panicked (above);
// 503 when the loop does not serve in time or the inspector is closed
// ([Inspector.Close]). Every request refused with a 4xx or 503 changes
// nothing.
//
// Relations are shown, not written: the types a relation keeps its pairs
// in are not listed as components and cannot be written, since a change
// that bypassed the relation's code would break it. Change pairs with the
// game's own Relation and Hierarchy calls.
//
// # Time travel
//
// Give the inspector a snapshot ring and it can show the world as it was
// at any tick the ring holds, compare two ticks, and replay from one with
// a system off or a value changed:
//
//	ring := ecs.NewSnapshotRing(600) // the last 600 ticks: 10 s at 60 ticks a second
//	in := inspect.New(w, inspect.Scheduler(s), inspect.Token(token), inspect.History(ring))
//
// With a loop through [Inspector.Tick] or [Inspector.Run], the inspector
// fills the ring: it saves the world before the first tick and after each
// tick, numbered from the summary's tick count then, one more a tick. A
// program that ticks by itself and calls [Inspector.Serve], or serves
// under a [Locker], saves into the ring itself after each tick
// (ring.Save(w, tick)), numbering ticks one by one. Each save costs the
// tick an [ecs.World.Snapshot] of the world, and the ring holds its depth
// times the world's live data: size it to the world (the demo's -history
// flag counts it against the machine's memory). A world with a type that
// cannot be snapshotted stops the saving, not the loop; GET /api/history
// says why.
//
// The page shows a timeline over the ticks held. Choosing one shows the
// entity list, the open entity and the other panels as they were at the
// end of that tick; the page pauses the loop meanwhile (when it has the
// token) so that the tick stays held, and Live resumes it. It diffs two
// ticks, and branches.
//
//	GET /api/...?at=TICK, GET /api/...?at=branch
//	    Every read of the world (/api/world, /api/components, /api/tables,
//	    /api/resources, /api/entities, /api/entities/{id}) takes at: it
//	    answers as the world was at the end of TICK, or as the open branch
//	    left it. The read runs in one job on the world's goroutine: the
//	    live state is saved into a scratch snapshot, the past restored, the
//	    read answered and the live state restored, so no system ever runs on
//	    the past, and the live world is afterwards exactly what it was (its
//	    checksum included). Such a read costs a snapshot and two restores of
//	    the world. 409 when the ring does not hold TICK (the message names
//	    the ticks it holds) or no branch is open; 400 for a bad tick.
//	    A write with at (PUT, POST, DELETE) answers 409: the past is
//	    read-only.
//	GET /api/history?list=1
//	    {"depth", "count", "contiguous", "oldest", "newest", "saving",
//	     "error", "replay", "branch"}, and with list=1 "ticks": every tick
//	    held, oldest first. depth is 0 without a ring; contiguous: every
//	    tick from oldest to newest is held; saving: the inspector fills the
//	    ring; replay: a branch can run ticks; branch: the open branch (as
//	    below, without its diff) or null.
//	GET /api/history/diff?a=T1&b=T2&limit=100
//	    ecs.Diff of the ring's snapshots of T1 (A) and T2 (B), read where
//	    they are, the world untouched: {"a", "b", "total", "entities",
//	    "parts": [{"part", "type", "n"}], "differences": [{"kind", "part",
//	    "type", "entity", "field", "a", "b"}]}, the first limit differences
//	    (1 to 10,000) in ecs.DiffReport's order, values as Go prints them.
//	    409 for a tick not held.
//	POST   /api/branch   body: {"tick": T, "ticks": N, "systems": {"name": false},
//	                            "set": [{"entity", "component", "value"}], "limit": 100}
//	    Replays from tick T: restores the ring's snapshot of T, sets the
//	    values (as PUT of a component does, hooks included), turns the
//	    named systems off (or on), and runs N ticks (by default up to the
//	    newest tick held; at most 10,000) with the [Replay] step, the
//	    scheduler's Run by default. The result is kept in a snapshot of the
//	    branch's own and diffed against the main line's snapshot of the same
//	    tick (A the main line, B the branch); 201 and {"from", "to",
//	    "ticks", "systems", "set", "diff"}, or a "note" instead of the diff
//	    when the ring holds no such tick. All of it runs in one job, which
//	    first saves the live state and ends by restoring it and the
//	    systems' switches, also when a step or a hook panics (500) or an
//	    entity to set was not alive at T (400): the world is the main
//	    line's whenever the loop could see it. Everything the body names is
//	    checked before anything changes (400 for unknown systems or
//	    components, bad values or counts; 409 for a tick not held, a
//	    branch already open, no scheduler or Replay step).
//	GET    /api/branch
//	    The open branch with its diff; 409 when none is.
//	DELETE /api/branch
//	    Leaves the branch: {"left": T, "tick"}; 409 when none is open.
//
// While a branch is open, the main line is held as it was when the branch
// began, so that leaving finds it exactly so: Tick runs no tick (the loop
// is paused, whatever pause and resume say, which still answer), a step
// and every write but pause and resume answer 409. The reads take
// at=branch to look at the branch. On leaving, the loop goes on from the
// main line as if no branch had happened: the tick the summary shows and
// the ring's numbering leave the branch's ticks out. A scheduler's own
// counters (Scheduler.Ticks, the systems' run counts and times) do count
// them.
//
// Replays and reads of the past are exact only for a world whose state is
// all in the world, as rollback needs: systems that keep state of their
// own (a counter in a closure, a random generator outside the world) see
// the branch's ticks too. Reads of the past and branches restore the world
// (ecs.World.Restore), so, as after any restore, pointers to components
// kept from one tick to the next must not be used after them.
//
// # Security
//
// An inspector can change the world, so it is closed by default:
//
//   - [Inspector.Listen] binds loopback addresses only; any other address
//     needs the [AllowRemote] option.
//   - Without a [Token] it is read-only: every write answers 403. With one,
//     a write must carry "Authorization: Bearer <token>"; the comparison is
//     of SHA-256 digests in constant time. The page asks for the token and
//     keeps it in the tab's session storage.
//   - Requests whose Host header is not localhost, a loopback address or a
//     name given to AllowRemote are refused: that stops DNS rebinding, where
//     a web page's own domain is made to resolve to 127.0.0.1.
//   - Requests from another origin are refused (their Origin or
//     Sec-Fetch-Site header gives them away), and no CORS header is ever
//     sent, so other sites' scripts can neither read nor write.
//   - Bodies and slow clients are limited (below); the page is served with
//     a strict Content-Security-Policy and may not be framed.
//
// # Limits and timeouts
//
// A client cannot hold the world, and holds a connection only for a
// bounded time, whether the inspector runs its own server ([Inspector.Listen])
// or is mounted on the caller's: the handler enforces the body's limits
// itself, and sets its deadlines through [http.ResponseController].
//
//   - A request is checked first: Host, Origin, method and token (403,
//     405), then a Content-Length over the [MaxBody] limit (1 MiB by
//     default), which answers 413 at once, before any of the body is read
//     and before any other work. A refused request's connection is closed
//     rather than read to the end of its body.
//   - Then the body is read whole, into memory, before the request goes
//     to the world: no body is ever read while the [Locker] is held for a
//     request or a request waits in the loop's queue. It must arrive within
//     [BodyTimeout] ([DefaultBodyTimeout]) of the handler's start, however
//     it trickles in, or the request answers 408; a body sent in chunks,
//     with no Content-Length, answers 413 as soon as it passes the limit.
//     Either way the connection is closed.
//   - Each answer must be written within [WriteTimeout]
//     ([DefaultWriteTimeout]) of its first byte, so a client that stops
//     reading is cut off. The stream sets that deadline for each of its
//     events and lifts it between them, so it lasts as long as its client
//     reads it, even on a server whose own WriteTimeout is shorter.
//   - The server Listen builds closes a connection whose request headers
//     take longer than [HeaderTimeout] ([DefaultHeaderTimeout]), and a
//     keep-alive connection idle for [IdleTimeout] ([DefaultIdleTimeout]).
//     It has no ReadTimeout or WriteTimeout, which would cut the stream:
//     the deadlines above take their place. On a server of one's own, set
//     ReadHeaderTimeout and IdleTimeout likewise.
//
// The inspector's read and write deadlines take the place of the server's
// ReadTimeout and WriteTimeout for its requests. A server that does not
// support deadlines (an [http.ResponseWriter] of one's own without an
// Unwrap method, or httptest.ResponseRecorder) gets the limits without the
// deadlines.
//
// # The page
//
// The page at / shows a summary header, pause, step and resume buttons,
// live charts of the tick time and each system's time (uPlot, vendored from
// npm with its MIT licence in web/vendor/uplot), the entity browser with
// filters and paging, the open entity with editable fields, its parent
// (with the path from its root), children and relation pairs, each a link
// to that entity, the hierarchy as a tree that loads a node's children
// when it is expanded, a page at a time, the systems table with the stage
// plan, the archetype table, the component types and the resources, and
// with [History] the time-travel panel (above). It is
// plain HTML, CSS and JavaScript: no build step.
//
// # Cost
//
// An idle inspector costs a tick the check of its queue, two clock reads
// and one sample (the entity count and each system's last time, for the
// charts): 3 small allocations a tick, and the time BenchmarkIdleOverhead
// measures (README.md gives it against the 100,000-particle demo's tick).
// BenchmarkParticleTick times that tick with and without the inspector in
// one run.
// Requests cost the world's goroutine their own work, between ticks; the
// introspection calls are meant for tools, not hot loops.
package inspect
