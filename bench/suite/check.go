package suite

import (
	"fmt"
	"math"
)

// Verify prepares every workload c implements at each size, runs it once
// (after Reset, if any) and compares its checksum with want's, the
// reference candidate (the floor). It returns one message per mismatch.
func Verify(c, want *Candidate, sizes []int) []string {
	var bad []string
	for _, s := range Specs {
		got, ref := s.Get(c), s.Get(want)
		if got == nil || ref == nil {
			continue
		}
		for _, n := range sizes {
			a, b := once(got, n), once(ref, n)
			if math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
				bad = append(bad, fmt.Sprintf("%s %s n=%d: checksum %v, want %v", c.Name, s.Name, n, a, b))
			}
		}
	}
	return bad
}

func once(w Workload, n int) float64 {
	op := w(n)
	if op.Reset != nil {
		op.Reset()
	}
	op.Run()
	return op.Check()
}
