package wordsize

import (
	"github.com/tessera-ecs/tessera/ecs"
	"wordsize/other"
)

func foreign(w *ecs.World) {
	_ = ecs.NewMap[other.Score](w) // want `wordsize: other.Score.Points is an int kept in the world \(ecs.NewMap\)`
	_ = ecs.NewMap[other.Score](w) // once per package
	//tessera:nondeterministic-ok scores stay small
	_ = ecs.NewMap[other.Level](w)
}

func keepTwice(w *ecs.World) { _ = ecs.NewMap[Twice](w) }
