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
//
// # Two players on two machines
//
// One machine serves the game, headless and authoritative (package
// netplay): a ship for each of the first two clients that connect, moved
// by that client's keys alone; later clients watch. Every machine that
// plays connects to it, the server's machine too if its user plays:
//
//	export TESSERA_NET_TOKEN=some-long-secret     # on every machine, or -token on each command
//	go run ./examples/ebiten -serve :7800 -hosts gamebox.lan,192.168.1.20
//	go run ./examples/ebiten -connect ws://gamebox.lan:7800/tessera/v1
//
// A player at the server's machine connects to ws://127.0.0.1:7800/tessera/v1.
// -serve ADDR listens at ADDR (:7800 on every interface, whose port the
// machine's firewall must let in; 127.0.0.1:7800, this machine only);
// -seed, -rocks and -workers set up its arena. -hosts lists the names and addresses the other
// machines dial the server by: the server refuses any other Host (as a
// defence against DNS rebinding), loopback and -serve's own host aside.
// -origins lists web page origins (https://host:port) whose scripts may
// connect, for a browser client; the browser build has no network play
// yet. The token must be the same on the server and its clients; a wrong
// one is refused. -connect URL plays on the server at URL, drawing what
// it sends: the player's own ship white, the other's orange. -lead N
// stamps each input N server ticks ahead (default 4; raise it on a slow
// network, where late inputs are dropped and the last one repeated).
// With -connect, -script plays the scripted input, -checksum prints the
// world's checksum and -screenshot FILE writes the last frame when the
// client quits (Esc, -ticks, or the server closing).
//
// On Linux, Ebitengine opens the X display when the program starts, so
// the game cannot even serve on a machine without one: arenaserver, in
// the directory of that name, is the same server without Ebitengine:
//
//	go run ./examples/ebiten/arenaserver -serve :7800 -hosts gamebox.lan
package main
