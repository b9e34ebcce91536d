package scenario

import (
	"fmt"
	"io"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Config parameterises a scenario.
type Config struct {
	N       int    // entities: particles, or game entities
	Seed    uint64 // seeds the one random generator setup and emission use
	Workers int    // scheduler workers; 0 means GOMAXPROCS
	Storage string // "table" (default) or "sparse": where the short-lived or optional components live
	Mixed   bool   // game only: the "mixed entities" variant that fragments the tables
	Debug   bool   // predator only: run the scheduler in debug mode (one worker, every access checked against the declarations)
	// Load, when set, gives the world from a save file (ecs.World.Save of
	// the same scenario and storage) instead of N new entities: particle
	// and game only. N and Seed are then unused.
	Load io.Reader
	// SchedOptions are more options for the scheduler, applied after those
	// the fields above ask for: for tests and debugging, such as
	// sched.Shuffle. Every scenario.
	SchedOptions []sched.SchedulerOption
}

// schedOptions returns the scheduler options c asks for: Workers, or
// Debug, then SchedOptions.
func (c Config) schedOptions() []sched.SchedulerOption {
	if c.Debug {
		return append([]sched.SchedulerOption{sched.Debug()}, c.SchedOptions...)
	}
	return c.workerOptions()
}

// workerOptions returns the scheduler options of a scenario that has no
// debug mode: Workers, then SchedOptions.
func (c Config) workerOptions() []sched.SchedulerOption {
	return append([]sched.SchedulerOption{sched.Workers(c.Workers)}, c.SchedOptions...)
}

// DT is the fixed time step of both scenarios: 1/60 s.
const DT = float32(1.0 / 60)

// Scenario is a running workload.
type Scenario interface {
	// Tick runs one tick of every system.
	Tick()
	// Alive returns the number of live entities.
	Alive() int
	// Hash returns a hash of every entity and component value.
	Hash() uint64
	// Check returns an error if the state breaks an invariant of the
	// scenario (a NaN or infinite value, for instance).
	Check() error
	// Scheduler returns the scheduler running the systems.
	Scheduler() *sched.Scheduler
	// World returns the world.
	World() *ecs.World
	// Close stops the scheduler's workers.
	Close()
}

func (c Config) validate() error {
	if c.N < 0 {
		return fmt.Errorf("scenario: negative entity count %d", c.N)
	}
	if c.Workers < 0 {
		return fmt.Errorf("scenario: negative worker count %d", c.Workers)
	}
	switch c.Storage {
	case "", "table", "sparse":
	default:
		return fmt.Errorf("scenario: unknown storage %q (want table or sparse)", c.Storage)
	}
	return nil
}

func (c Config) sparse() bool { return c.Storage == "sparse" }
