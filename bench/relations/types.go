package relations

import (
	ark "github.com/mlange-42/ark/ecs"
	dbr "github.com/yohamta/donburi"
)

// Components of the workloads, each two float64s.
type (
	// Position is where an entity is.
	Position struct{ X, Y float64 }
	// Velocity is how far an entity moves per tick.
	Velocity struct{ X, Y float64 }
	// Local is a node's position relative to its parent (a root's is its
	// world position).
	Local struct{ X, Y float64 }
	// WorldPos is a node's position in the world: its parent's WorldPos
	// plus its Local.
	WorldPos struct{ X, Y float64 }
)

// arkChildOf is Ark's relation component for the parent of an entity: a
// component whose first field is ark.RelationMarker, with the target given
// where it is added (Ark's own example declares its ChildOf this way).
type arkChildOf struct {
	ark.RelationMarker
}

// Donburi registers component types for the whole process, so they are
// made once. Its hierarchy lives in features/transform and needs that
// package's Transform component on every node.
var (
	dbrPosition = dbr.NewComponentType[Position]()
	dbrVelocity = dbr.NewComponentType[Velocity]()
	dbrWorldPos = dbr.NewComponentType[WorldPos]()
)
