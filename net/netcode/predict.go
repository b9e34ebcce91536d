package netcode

import (
	"errors"
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

// Prediction runs a client's own systems ahead of the server, so that
// what its player controls answers at once (client-side prediction, as in
// Unity's Netcode for Entities, lightyear and GGPO). Each Advance predicts
// one tick: it sends the player's input to the server for that tick, runs
// the step function with it, and saves the world in a snapshot ring. When
// the server's State for an earlier tick S arrives, Update rolls the world
// back to the client's own tick S, sets every replicated value to the
// server's, and runs the ticks after S again with the inputs they had.
//
// Rollback restores the whole world (ecs.SnapshotRing), so the client's
// non-replicated state rewinds with it; re-simulation must repeat the
// first run, which Tessera's determinism rules give (see ecs's doc,
// Determinism, and `tessera vet`). A Prediction is used from the goroutine
// that owns the world, in place of Client.Update.
type Prediction[I any] struct {
	c      *Client
	w      *ecs.World
	ring   *ecs.SnapshotRing
	step   func(tick uint64, in I)
	inputs []I
	ticks  []uint64 // the tick each slot of inputs is for
	tick   uint64   // the newest tick predicted
	lead   uint64
	// predicted: the world holds predicted values (an Advance since the
	// server last passed the predicted tick).
	predicted bool

	// rollbacks counts the States that made the world roll back;
	// resims the ticks run again.
	rollbacks, resims uint64
}

// DefaultPredictionDepth is the ticks a Prediction can roll back by
// default.
const DefaultPredictionDepth = 16

// NewPrediction predicts the world of c with step, which runs one tick
// of the client's systems given the player's input for it (send it as an
// event the systems read, say, then step the loop). lead is how many ticks
// ahead of the last server tick applied the client runs: enough for its
// inputs to reach the server before their tick (a round trip, in ticks,
// plus one); depth is the ticks the snapshot ring holds, more than lead.
// Errors: the rules have no input type I, lead is 0, or depth <= lead.
func NewPrediction[I any](c *Client, w *ecs.World, step func(tick uint64, in I), lead, depth int) (*Prediction[I], error) {
	if _, ok := c.rules.input.(*typedInput[I]); !ok {
		return nil, errors.New("netcode: NewPrediction: the rules' input type is not this one")
	}
	if lead < 1 || depth <= lead {
		return nil, fmt.Errorf("netcode: NewPrediction: lead %d and depth %d: want 1 <= lead < depth", lead, depth)
	}
	if w != c.mirror.w {
		return nil, errors.New("netcode: NewPrediction: the world is not the client's")
	}
	return &Prediction[I]{c: c, w: w, ring: ecs.NewSnapshotRing(depth), step: step,
		inputs: make([]I, depth), ticks: make([]uint64, depth), lead: uint64(lead)}, nil
}

// maxCatchUp bounds the ticks one Advance runs to get back to the lead.
const maxCatchUp = 4

// Advance predicts with the player's input in: it sends in to the server
// for the next tick, runs step and saves the world, and does so again (up
// to four ticks a call) while the client is less than the lead ahead of
// the last server tick applied, so its inputs keep arriving in time
// however its frames and the server's ticks drift. While the client is
// twice the lead ahead it waits (a fast client clock), and before the
// first State it does nothing; it reports whether it ran a tick. A client
// that fell behind the server jumps to the server's tick plus the lead.
// Errors: the connection ended.
func (p *Prediction[I]) Advance(in I) (bool, error) {
	server := p.c.Tick()
	if server == 0 {
		return false, p.c.Err()
	}
	if p.tick+1 > server+2*p.lead {
		return false, nil
	}
	if p.tick < server {
		p.tick = server + p.lead - 1
		p.ring = ecs.NewSnapshotRing(p.ring.Depth()) // the old ticks are past
	}
	for k := 0; k == 0 || p.tick < server+p.lead && k < maxCatchUp; k++ {
		next := p.tick + 1
		if err := SendInput(p.c, next, in); err != nil {
			return k > 0, err
		}
		slot := next % uint64(len(p.inputs))
		p.inputs[slot], p.ticks[slot] = in, next
		p.step(next, in)
		p.ring.Save(p.w, next)
		p.tick = next
		p.predicted = true
	}
	return true, nil
}

// Update applies the States that arrived (Client.Update) and, if the
// newest is for a tick the client already predicted, rolls back to it,
// sets the server's values and runs the later ticks again. It returns the
// States applied. A State older than the ring is applied without a
// rollback: the client then holds the server's values until it predicts
// again.
func (p *Prediction[I]) Update() (int, error) {
	n, err := p.c.Update()
	if n == 0 {
		return 0, err
	}
	s := p.c.Tick()
	if s > p.tick {
		// The server passed every tick predicted: the world may still
		// hold predicted values the States did not touch.
		if p.predicted {
			p.c.mirror.reconcile()
			p.predicted = false
		}
		return n, err
	}
	if p.ring.Rollback(p.w, s) != nil {
		return n, err
	}
	p.rollbacks++
	p.c.mirror.reconcile()
	for t := s + 1; t <= p.tick; t++ {
		k := t % uint64(len(p.inputs))
		in := p.inputs[k]
		if p.ticks[k] != t {
			in = p.inputs[(t-1)%uint64(len(p.inputs))] // held, as the server holds a missing input
		}
		p.step(t, in)
		p.ring.Save(p.w, t)
		p.resims++
	}
	return n, err
}

// Tick returns the newest tick predicted (0 before the first Advance).
func (p *Prediction[I]) Tick() uint64 { return p.tick }

// Rollbacks returns how many States made the world roll back, and how
// many ticks were run again in all.
func (p *Prediction[I]) Rollbacks() (rollbacks, resimulated uint64) { return p.rollbacks, p.resims }
