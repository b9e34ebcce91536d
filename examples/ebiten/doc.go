// Command ebiten is Tessera's arena game on Ebitengine: a ship with two
// turrets fights a field of rocks. Every system of the arena package runs
// on Tessera's scheduler inside Update, at a fixed 60 ticks a second; Draw
// renders the world through queries.
//
//	go run ./examples/ebiten
//
// Keys: left and right (or A and D) turn, up (or W) thrusts, space fires,
// R held rewinds up to 10 s through the snapshot ring, F5 saves to
// arena.sav and F9 loads it, Esc quits. Flags: -seed, -rocks, -workers,
// -inspect ADDR (the browser inspector), -save FILE, and for tests
// -script (scripted input), -plan (saves, loads and rewinds at given
// frames, as in 120:save,200:rewind=40,260:load; with -script, -ticks past
// its last frame, and -save when it saves), -ticks N (quit after N
// frames), -screenshot FILE and -checksum.
package main
