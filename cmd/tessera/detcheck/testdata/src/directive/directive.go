// Package directive silences reports with //tessera:nondeterministic-ok.
package directive

import (
	"math"
	"math/rand/v2"

	"github.com/tessera-ecs/tessera/ecs"
)

var _ *ecs.World

func silenced(x, y, z float64) float64 {
	r := x*y + z //tessera:nondeterministic-ok only printed, never stored in the world

	//tessera:nondeterministic-ok the debug overlay may differ by machine
	r += math.Sin(x)

	//tessera:nondeterministic-ok a multi-line statement is covered whole
	r = r +
		x*y

	r += rand.Float64() //tessera:nondeterministic-ok	a tab separates the reason too
	return r
}

func notSilenced(x, y, z float64) float64 {
	// want +1 `directive: //tessera:nondeterministic-ok needs a reason after it` `fma: the product x\*y`
	r := x*y + z //tessera:nondeterministic-ok

	r = x*y + z // want `fma: the product x\*y`
	//tessera:nondeterministic-ok a directive below the line does not silence it

	r = r + z   //tessera:nondeterministic-ok a trailing directive covers its own line only
	r = x*y + r // want `fma: the product x\*y`

	//tessera:nondeterministic-okay is not the directive
	r += math.Cos(x) // want `mathfunc: math.Cos`
	return r
}
