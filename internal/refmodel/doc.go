// Package refmodel is the ECS of the "super simple ECS" blog post (one map
// per component type, systems as plain functions), rebuilt in plain Go:
// entities are bare ids, every component type has its own Go map from entity
// id to value, a query intersects the key sets of those maps, and systems are
// ordinary functions.
//
// It has two jobs in Tessera:
//
//   - Test oracle. The differential and fuzz tests of package ecs drive
//     Tessera and this model with the same operation sequences and compare
//     their whole state after every step. For that the model mirrors
//     Tessera's observable rules exactly, including how structural changes
//     made during an iteration are deferred (see "Deferral rules"). It is
//     written for obviousness, not speed, so that a disagreement is almost
//     certainly Tessera's fault.
//   - Naive baseline. It is the simplest ECS that works: a map lookup per
//     component per entity and a sort per query pass, the yardstick to
//     measure the archetype storage against.
//
// # Deferral rules
//
// While an iteration runs ([World.IsIterating]), structural changes are
// recorded and applied, in the order they were made, when the outermost
// iteration ends:
//
//   - [World.Spawn] is never deferred: the new entity is alive at once, with
//     no components. Spawning with components is Spawn followed by Adds, so
//     inside an iteration the adds are deferred.
//   - [World.Despawn] is deferred; the entity stays alive until it is applied.
//     Deferred removes and despawns of an entity that an earlier deferred
//     change despawned are dropped when applied.
//   - Adds and Sets are judged against the state the changes deferred before
//     them leave (the "queued state"), not the state now. The queued state of
//     one component of one entity is: despawned, if a despawn of the entity
//     is deferred (or running its OnRemove hooks); otherwise decided by the
//     newest deferred change among the entity's adds and removes of that
//     component and the batches over it (AddMatching and RemoveMatching of
//     that component, any DespawnMatching): "gains", "loses", or "unknown"
//     after a batch, whose entities are only known when it is applied;
//     "none" if there is no such change.
//   - [Store.Add] panics for "gains", and for "none" when the entity has
//     the component now; otherwise it defers an add (which, applied,
//     overwrites a value the entity has by then, and is dropped if the
//     entity is dead by then).
//   - [Store.Set], for "none", writes at once when the entity has the
//     component now (like a write through a pointer); otherwise it defers
//     an add.
//   - [Store.Remove] is deferred and does nothing when applied if the
//     component is absent by then.
//   - [Store.Update] (the model's write through a pointer) is immediate.
//   - The batch operations [Store.AddMatching], [Store.RemoveMatching] and
//     [World.DespawnMatching] are deferred as one command each and select
//     their entities when they are applied.
//   - [World.CopyEntity] spawns the clone at once, empty, and defers its
//     filling, which copies the components and pairs the entity has when it
//     is applied, if both are still alive and the clone is still empty. The
//     filling counts in no queued state: an Add to the clone after it is
//     legal and overwrites the copy.
//
// Outside an iteration every change is immediate.
//
// # Relations
//
// [NewRelation] declares a relation, Tessera's ecs.Relation: pairs of a
// source and a target, each with a value, exclusive (one target per
// source) or Multi, optionally acyclic, with a [CleanupPolicy] for
// despawned targets. Per source the model keeps its pairs in the order
// they were made, per target its sources in the same order; removing a
// pair keeps the order of the others, and an exclusive Set that replaces
// the target counts as a new pair. [World.CopyEntity] copies an entity's
// pairs as a source, not those that have it as their target. Inside an
// iteration relation changes are deferred with the other changes and, when
// applied, do nothing if one of their entities has died; a change refused
// when applied (a cycle, a second exclusive target, a RefuseDespawn despawn)
// panics out of the application, and [World.Recover] applies the changes
// after it, as in Tessera.
//
// [World.Despawn] applies the policies as Tessera does: it gathers the
// entities below the target through every DespawnSources relation
// ([World.DespawnOrder] gives them in order: each entity after those
// gathered below it, the last gathered first), refuses before anything
// changes when a RefuseDespawn pair has a target among them and a source
// outside them, and then despawns them one by one, each losing all its
// pairs, with the changes their OnRemove hooks make deferred until the
// whole cascade is over.
//
// # Snapshots
//
// [World.Snapshot] copies the whole state (id counter, living entities,
// store values, relation pairs, observer members) and [World.Restore] puts it back, firing
// nothing, as Tessera's World.Snapshot and World.Restore do. Both panic
// unless the world is between operations.
//
// # Hooks and observers
//
// The model has its own version of Tessera's component hooks (ecs.OnAdd,
// ecs.OnSet, ecs.OnRemove) and query observers (OnEnter, OnLeave), written so
// that a harness can predict, per operation, the multiset of callbacks
// Tessera makes.
//
// Hooks fire at the moment the model changes a store:
//
//   - OnAdd when an entity gains a T, by any path (an immediate Add or Set,
//     a deferred add being applied, AddMatching, a CopyEntity), with the new
//     value.
//   - OnSet when a Set (immediate, also inside an iteration), a deferred add
//     or an AddMatching overwrites the T an entity has, with the new value.
//     [Store.Update] fires nothing.
//   - OnRemove before an entity loses its T, by any path (Remove,
//     RemoveMatching, Despawn, DespawnMatching, immediate or deferred), with
//     the value it had.
//
// Hooks and observers run with the world iterating: structural changes they
// make are deferred and applied once the operation that fired them (or the
// whole set of deferred changes being applied) is complete.
//
// Observer membership is settled lazily, as in Tessera: changes mark the
// entities they touch, and once a top-level operation, a [World.Batch] or
// the application of the deferred changes is complete, each touched entity
// is compared once with each observed query's member set; a new match fires
// OnEnter, a lost one OnLeave. An entity that gains and loses a component
// within one settling period fires neither. Entities that match when a
// query gets its first observer count as members and fire nothing.
//
// Query results and iteration are in increasing id order, so the model is
// deterministic even though Go map order is not.
//
// The package imports only the standard library.
package refmodel
