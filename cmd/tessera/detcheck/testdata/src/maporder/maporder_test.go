package maporder

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// In a test file only world code is checked: the assertion loops and
// table-driven subtests of a test do not feed a world.
func TestScaffolding(t *testing.T) {
	cases := map[string]int{"a": 1, "b": 2}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			if want < 0 {
				t.Errorf("%s: %d", name, want)
			}
		})
	}
	_ = 1.5*float64(len(cases)) + 2
}

// spawnFrom is world code: it is checked in a test file too.
func spawnFrom(w *ecs.World, kinds map[string]int) {
	for k := range kinds { // want `maporder: ranging over a Go map`
		println(k)
	}
	x, y := float64(len(kinds)), 2.0
	t := x * y // want `fma: the product x \* y is stored in t`
	println(t + 1)
}
