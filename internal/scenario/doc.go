// Package scenario holds the workloads that the demo (cmd/tessera) and the
// benchmarks share, built on packages ecs and sched:
//
//   - [NewParticle]: the particle system of the dissertation "optimisations
//     for the Entity Component System pattern":
//     eight emitters keep a population of particles that fall, move, age and
//     die, about 1% per tick, and are replaced by new ones.
//   - [NewGame]: the game-like "complex systems" workload of the public
//     ecs_benchmark project (github.com/abeimler/ecs_benchmark): movement, data,
//     health, damage, sprites and a 320x240 character frame.
//   - [NewPredatorPrey]: a predator-prey simulation on a torus, eight
//     systems with spawns and despawns every tick, a sparse component,
//     observers, resources and per-entity outputs, declared so that it
//     runs in four stages.
//
// All are parameterised by a [Config] (entity count, seed, workers,
// storage) and report a hash of their world state ([Hash]), which is the
// same for the same seed whatever the number of workers.
package scenario
