// Package relations holds the workloads of cmd/compare -suite relations:
// what relations between entities cost in Tessera ([ecs.NewRelation],
// [ecs.NewHierarchy]) against the Go libraries that have them, Ark's
// relation components and donburi's parent-child hierarchy.
//
// A [Comparison] is one operation done by each library, one [Row] per
// way of doing it; [NewSuite] builds them all at the sizes of a [Config]
// ([Full] for the report, [Quick] for a smoke run):
//
//   - reparent: move one child to another parent, following a fixed plan
//     that every library follows (Tessera's Hierarchy.SetParent, Ark's
//     Map.SetRelation, donburi's transform.ChangeParent).
//   - children and children_read: for every target, visit its sources,
//     reading each one's handle, or its Position too (Tessera's
//     Hierarchy.AppendChildren, or a query filtered by Relation.ToVar;
//     Ark's query filtered by relation target; donburi's
//     transform.GetChildren).
//   - cascade: despawn the root of a tree, which must take the whole tree
//     with it; the tree is rebuilt before each despawn, outside the
//     timing (a Row with a Reset). Ark does not cascade, so its rows walk
//     the tree by hand.
//   - query: a pass of p += v over a world whose entities are parents and
//     children, against the same pass without relations: Tessera keeps
//     relation pairs in sparse sets and its tables do not change; Ark keeps
//     one table per relation target (as flecs does), so its tables split.
//   - transform: propagate world positions down a forest, parents first,
//     with an explicit stack of the nodes whose children are next
//     (Tessera: Hierarchy.AppendChildren, a Relation.ToVar query or
//     Hierarchy.Descendants; Ark: a query per node; donburi:
//     transform.GetChildren, or its own transform.WorldPosition).
//
// How the three libraries store a relation decides most results. Tessera
// keeps both sides of each pair in two sparse component types: a source's
// target, a target's list of sources. Ark makes the relation target part
// of an entity's archetype, so a target's sources are one table and a
// query filtered by target walks it, but each target adds a table. donburi
// keeps a parent pointer and a slice of child entries in two components
// of its features/transform package, whose Transform component every node
// must hold.
//
// Every measured call is one //go:noinline kernel, for every library: with
// Go 1.26 a kernel written inside a benchmark loop compiles to slower code
// (see bench/suite). The tests check that each library does the same work: the same
// parents after the same moves, the same sources visited, the same
// entities left after a cascade, the same positions after a query pass,
// and bit-identical world positions after propagation.
package relations
