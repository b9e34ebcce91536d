// Package netplay plays the arena (package arena) between machines,
// server-authoritative, over Tessera's replication (package netcode),
// without Ebitengine:
//
//   - a Server runs the game at TickRate ticks a second, gives each client
//     that joins a ship (MaxShips at most: later clients watch), moves each
//     ship by its own client's inputs, and replicates what a player sees;
//   - a Client replicates the server's world into a world of its own and
//     sends its player's input for a tick a few ticks ahead of the last
//     one it holds (Lead). It shows the server's state as it arrives: no
//     prediction.
//
// What replicates: every entity with a place except emitters (the
// engines and explosions, which only make sparks), with Pos, Ship, Owner,
// Turret, Rock, Flash, Bullet and Particle, and the score on an entity of
// its own (arena.Score). Velocities, offsets, health and the hierarchy
// stay on the server: the client draws, it does not simulate.
//
// The clients' inputs arrive as netcode.Input[arena.Input] events, one
// per client and tick (the last one repeated when one is late); the
// server turns each into an arena.PlayerInput of player
// uint32(client id), the player its ship's Owner names.
//
// The command in the directory above uses it for -serve and -connect;
// the command in ./arenaserver serves without a display.
package netplay
