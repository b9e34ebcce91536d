package ark

import (
	"testing"

	"github.com/tessera-ecs/tessera/bench/floor"
	"github.com/tessera-ecs/tessera/bench/suite"
)

func TestVerify(t *testing.T) {
	for _, c := range Candidates() {
		for _, msg := range suite.Verify(c, floor.Candidate(), []int{1, 4, 64, 1000}) {
			t.Errorf("%s (%s): %s", c.Name, c.Variant, msg)
		}
	}
}
