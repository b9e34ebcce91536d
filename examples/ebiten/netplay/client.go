package netplay

import (
	"context"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// ClientConfig sets up a Client.
type ClientConfig struct {
	Token string // the server's token
	Lead  int    // ticks ahead of the last State its inputs are for; 0 means Lead
}

// Client is one player's connection: the server's world replicated into
// W, drawn as the arena's (W has the arena's types registered), and the
// player's inputs sent to the server. W and the methods belong to one
// goroutine, the one that calls Update.
type Client struct {
	Net    *netcode.Client
	W      *ecs.World
	lead   uint64
	sent   uint64 // the tick of the last input sent
	scores *ecs.Query1[arena.Score]
	ships  *ecs.Query2[arena.Owner, arena.Ship]
}

// Dial connects to the server at url (ws://host:port/tessera/v1) and
// returns once the server welcomed the client. Errors: the rules do not
// build, the dial failed, or the server refused the client (a
// *netcode.CloseError: wrong token, other rules, full).
func Dial(ctx context.Context, url string, cfg ClientConfig) (*Client, error) {
	rules, err := Rules()
	if err != nil {
		return nil, err
	}
	if cfg.Lead <= 0 {
		cfg.Lead = Lead
	}
	w := ecs.NewWorld()
	arena.Register(w)
	nc, err := netcode.Dial(ctx, url, w, rules, netcode.ClientOptions{Token: cfg.Token})
	if err != nil {
		return nil, err
	}
	return &Client{Net: nc, W: w, lead: uint64(cfg.Lead),
		scores: ecs.NewQuery1[arena.Score](w), ships: ecs.NewQuery2[arena.Owner, arena.Ship](w)}, nil
}

// Update applies the States that arrived since the last call (see
// netcode.Client.Update): how many, and the connection's error once it
// ended.
func (c *Client) Update() (int, error) { return c.Net.Update() }

// InputTick returns the server tick an input sent now is for: Lead ticks
// after the last State applied.
func (c *Client) InputTick() uint64 { return c.Net.Tick() + c.lead }

// Send sends in as the player's input for InputTick, once per tick: a
// call before InputTick moved on since the last input sent sends nothing,
// nor does one before the first State, when the client does not know the
// server's tick. (The server closes a client that sends more than three
// messages a tick, inputs and acknowledgements together; a tick whose
// input was not sent gets the last one again.) Errors: the connection
// ended, or its queue is full.
func (c *Client) Send(in arena.Input) error {
	t := c.InputTick()
	if c.Net.Tick() == 0 || t <= c.sent {
		return nil
	}
	c.sent = t
	return netcode.SendInput(c.Net, t, in)
}

// Player returns the player this client's ship belongs to (its Owner):
// the client's id.
func (c *Client) Player() uint32 { return uint32(c.Net.ID()) }

// Ship returns this client's ship in W, or false while it has none:
// before the server seated it, or while MaxShips others play. O(ships).
func (c *Client) Ship() (ecs.Entity, bool) {
	for r := range c.ships.All() {
		if r.A.Player == c.Player() {
			return r.Entity, true
		}
	}
	return ecs.Entity{}, false
}

// Score returns the score as the server last sent it, or false before it
// arrived.
func (c *Client) Score() (arena.Score, bool) {
	for r := range c.scores.All() {
		return *r.A, true
	}
	return arena.Score{}, false
}

// Play runs the client without a window, for bots and tests: every
// period it applies what arrived and sends input(tick), the controls for
// the server tick the input is for. It returns nil when ctx is done, or
// the connection's error when it ends. The world is Play's while it runs.
func (c *Client) Play(ctx context.Context, period time.Duration, input func(tick uint64) arena.Input) error {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			c.Update()
			return nil
		case <-t.C:
			if _, err := c.Update(); err != nil {
				return err
			}
			if err := c.Send(input(c.InputTick())); err != nil {
				return err
			}
		}
	}
}

// Close ends the connection; W keeps what it holds.
func (c *Client) Close() { c.Net.Close() }
