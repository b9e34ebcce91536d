package arche

import (
	"math"
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

// rounds runs op as the driver does (Reset, if any, before each Run) and
// returns the checksum after the last round.
func rounds(op suite.Op, k int) float64 {
	for range k {
		if op.Reset != nil {
			op.Reset()
		}
		op.Run()
	}
	return op.Check()
}

// TestSmoke runs every workload several rounds on one Op and compares the
// checksum with the floor's after as many rounds.
func TestSmoke(t *testing.T) {
	ref := floor.Candidate()
	for _, c := range Candidates() {
		for _, s := range suite.Specs {
			got, want := s.Get(c), s.Get(ref)
			if got == nil || want == nil {
				continue
			}
			for _, n := range []int{1, 16, 300} {
				a, b := rounds(got(n), 3), rounds(want(n), 3)
				if math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
					t.Errorf("%s (%s) %s n=%d: checksum %v after 3 rounds, want %v", c.Name, c.Variant, s.Name, n, a, b)
				}
			}
		}
	}
}
