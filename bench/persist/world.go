package persist

import (
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// particleWorld is the demo's particle world and its state as plain
// slices.
type particleWorld struct {
	p     *scenario.Particle
	w     *ecs.World
	cols  *Columns // the world's data, the floors' input
	close func()
}

// newParticleWorld builds the demo's particle scenario with n particles on
// one worker (it is never ticked while measured), as ecs's own snapshot
// and save benchmarks do.
func newParticleWorld(n int) (*particleWorld, error) {
	p, err := scenario.NewParticle(scenario.Config{N: n, Seed: 1, Workers: 1})
	if err != nil {
		return nil, err
	}
	return &particleWorld{p: p, w: p.World(), cols: ColumnsOf(p.World()), close: p.Close}, nil
}

// particleTarget is a new world ready to load a particle save: the particle
// scenario's component types and state resource, no entities (what a game
// sets up before it loads).
func particleTarget() *ecs.World {
	w := ecs.NewWorld()
	ecs.NewMap[scenario.Emitter](w)
	ecs.NewMap4[scenario.Position, scenario.Velocity, scenario.Color, scenario.Lifetime](w)
	ecs.AddResource(w, &scenario.ParticleState{}) //tessera:nondeterministic-ok a benchmark fixture: the scenario documents its ints
	return w
}
