// Package arena is the logic of the arena game, without Ebitengine: a
// world, its systems on a Tessera scheduler, and the operations the front
// end calls (New, Step, Rewind, Save, Load). A headless run of a script
// (Run), or of a script with saves, loads and rewinds at given frames
// (Replay of a ParsePlan), gives the same world, checksum for checksum,
// as the game in a window, on any number of workers.
//
// What each Tessera feature does here:
//
//   - The hierarchy (ecs.Hierarchy): the ship's turrets and engine are its
//     children, placed each tick by their Offset turned by the ship's
//     heading (attach, over Hierarchy.Cascade); sparks are children of the
//     emitter that made them, so an explosion's sparks die with it.
//   - Prefabs (ecs.Prefab): rocks and bullets are spawned from templates
//     through command buffers (Prefab.SpawnCmd).
//   - Events: the players' controls arrive as PlayerInput events, sent
//     before each tick (Step, StepPlayers; a network server translates its
//     clients' inputs into them), and the steer and fire systems move each
//     ship by its Owner's; the collide system sends a Hit per bullet that
//     hits a rock (sched.EventSender), the damage system reads them in the
//     same tick.
//   - An observer (ecs.OnSet on Health): a rock whose health reaches 0
//     becomes an explosion and scores a kill.
//   - A sparse component (Flash): a hit rock flashes for a few ticks; adding
//     and removing it never moves the rock between tables.
//   - Resources: Score and Rng, so a save or a rewind brings back the
//     numbers to come.
//   - The snapshot ring (ecs.SnapshotRing): a snapshot a tick, RewindTicks
//     deep, for Rewind.
//   - Save files (World.Save, World.Load): Save and Load.
//
// The systems declare what they read and write; Config.Debug has the
// scheduler check every access, which the tests turn on.
package arena
