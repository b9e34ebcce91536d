package netplay

import (
	"errors"

	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// TickRate is the server's ticks a second: the arena's, as in a window.
const TickRate = 60

// MaxShips is how many clients get a ship; later ones watch until a
// player leaves.
const MaxShips = 2

// Lead is the default of how many ticks ahead of the last State it
// applied a client stamps its input: on a network whose round trip is
// under two ticks (33 ms at 60 ticks a second) its inputs arrive before
// the tick they are for. An input that arrives late is dropped by the
// server, which repeats the client's last one.
const Lead = 4

// Rules returns the arena's replication rules, the same on server and
// client: the replicated component types, in order, and arena.Input as
// the input type. It fails only if a type lost its save layout.
func Rules() (*netcode.Rules, error) {
	r := netcode.NewRules()
	return r, errors.Join(
		netcode.Replicate[arena.Pos](r),
		netcode.Replicate[arena.Ship](r),
		netcode.Replicate[arena.Owner](r),
		netcode.Replicate[arena.Turret](r),
		netcode.Replicate[arena.Rock](r),
		netcode.Replicate[arena.Flash](r),
		netcode.Replicate[arena.Bullet](r),
		netcode.Replicate[arena.Particle](r),
		netcode.Replicate[arena.Score](r),
		netcode.UseInput[arena.Input](r),
	)
}
