package changes

import (
	ark "github.com/mlange-42/ark/ecs"
	"github.com/yohamta/donburi/features/events"
)

// Hit is the event of the events workload: 16 bytes.
type Hit struct{ Amount, Angle float64 }

// Position is the component of the changed workload: 16 bytes.
type Position struct{ X, Y float64 }

// Dirty is the zero-size tag of the dirty-tag rows: Tessera stores it
// sparse, Ark as a table component (Ark has no other storage).
type Dirty struct{}

// hitOf is the i-th event of a tick: small values whose sums are exact in
// float64, different for neighbours.
func hitOf(i int) Hit { return Hit{Amount: float64(i%13) + 0.5, Angle: float64(i % 7)} }

// Ark's custom event types come from one registry per program, kept in
// package variables as its documentation asks.
var (
	arkEventTypes = ark.EventRegistry{}
	arkHitEvent   = arkEventTypes.NewEventType()
)

// donburi's typed event bus (features/events) registers a component type
// for the whole process, so its event type is made once.
var dbrHitEvent = events.NewEventType[Hit]()
