package netgame

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// Scenarios lists the scenarios that replicate, for flag help and errors.
const Scenarios = "game or particle"

// View is a client's input: what it asks to see. R == 0 asks for every
// replicated entity; R > 0 for those within R of (X, Y), in the
// scenario's position units. The server's Policy caps what it grants.
type View struct{ X, Y, R float32 }

// Rules returns the replication rules of the named scenario ("game" or
// "particle"): the component types that travel, and View as the input.
// Game: GamePosition, Health and Sprite (velocities, data, players and
// damage stay on the server). Particle: Position and Color (velocities
// and lifetimes stay). Errors: another scenario.
func Rules(name string) (*netcode.Rules, error) {
	r := netcode.NewRules()
	var errs []error
	switch name {
	case "game":
		errs = []error{netcode.Replicate[scenario.GamePosition](r), netcode.Replicate[scenario.Health](r), netcode.Replicate[scenario.Sprite](r)}
	case "particle":
		errs = []error{netcode.Replicate[scenario.Position](r), netcode.Replicate[scenario.Color](r)}
	default:
		return nil, fmt.Errorf("scenario %q does not replicate: want %s", name, Scenarios)
	}
	errs = append(errs, netcode.UseInput[View](r))
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// DefaultFocus is the point a client looks at until it says otherwise:
// the middle of the game's frame, or the middle of the particles'
// emitter row.
func DefaultFocus(name string) (x, y float32) {
	if name == "particle" {
		return 160, 0
	}
	return scenario.FrameWidth / 2, scenario.FrameHeight / 2
}

// Marker gives Replicated to the entities of a world that have the
// scenario's position type and lack it: all of them at first, then those
// spawned since the last call.
type Marker struct {
	collect func(dst []ecs.Entity) []ecs.Entity
	marks   *ecs.Map[netcode.Replicated]
	buf     []ecs.Entity
}

// NewMarker returns the Marker of the named scenario's world w. Errors:
// another scenario.
func NewMarker(name string, w *ecs.World) (*Marker, error) {
	m := &Marker{marks: ecs.NewMap[netcode.Replicated](w)}
	switch name {
	case "game":
		m.collect = unmarked[scenario.GamePosition](w)
	case "particle":
		m.collect = unmarked[scenario.Position](w)
	default:
		return nil, fmt.Errorf("scenario %q does not replicate: want %s", name, Scenarios)
	}
	return m, nil
}

// unmarked returns a function appending the entities with P and without
// Replicated.
func unmarked[P any](w *ecs.World) func([]ecs.Entity) []ecs.Entity {
	q := ecs.NewQuery1[P](w, ecs.Without(ecs.C[netcode.Replicated]()))
	return func(dst []ecs.Entity) []ecs.Entity {
		for ch := range q.Chunks() {
			dst = append(dst, ch.Entities...)
		}
		return dst
	}
}

// Mark gives Replicated to every entity that has the position type and
// lacks it, and returns how many it marked. Call it between ticks: O(the
// entities it marks), plus the tables the query visits.
func (m *Marker) Mark() int {
	m.buf = m.collect(m.buf[:0])
	if len(m.buf) > 0 {
		m.marks.AddEntities(m.buf, netcode.Replicated{})
	}
	return len(m.buf)
}
