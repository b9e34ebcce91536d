package suite

import (
	"fmt"
	"math"
)

// Verify prepares every workload c implements at each size, runs it once
// (after Reset, if any) and compares its checksum with want's, the
// reference candidate (the floor). It returns one message per mismatch.
func Verify(c, want *Candidate, sizes []int) []string { return VerifyRounds(c, want, sizes, 1) }

// VerifyRounds is Verify with k rounds (Reset, if any, then Run) on each
// prepared Op, as the driver runs them, which also checks that Reset
// restores what Run expects.
func VerifyRounds(c, want *Candidate, sizes []int, k int) []string {
	var bad []string
	for _, s := range Specs {
		got, ref := s.Get(c), s.Get(want)
		if got == nil || ref == nil {
			continue
		}
		for _, n := range sizes {
			a, b := rounds(got(n), k), rounds(ref(n), k)
			if math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
				bad = append(bad, fmt.Sprintf("%s %s n=%d: checksum %v after %d rounds, want %v", c.Name, s.Name, n, a, k, b))
			}
		}
	}
	return bad
}

// rounds runs op k times as the driver does and returns its checksum.
func rounds(op Op, k int) float64 {
	for range k {
		if op.Reset != nil {
			op.Reset()
		}
		op.Run()
	}
	return op.Check()
}
