package wordsize

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Fixture is kept only by a test's world: not reported.
type Fixture struct{ N int }

func fixture(w *ecs.World) { _ = ecs.NewMap[Fixture](w) }

func TestFixture(t *testing.T) { fixture(ecs.NewWorld()) }
