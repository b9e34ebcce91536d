package sched

import (
	"runtime/pprof"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// TestSystemsCarryPprofLabels checks that each system runs with the pprof
// label system=<name>, which CPU profiles record per sample.
func TestSystemsCarryPprofLabels(t *testing.T) {
	s := New(ecs.NewWorld(), Workers(2))
	defer s.Close()
	for _, name := range []string{"alpha", "beta"} {
		s.AddFunc(name, func(*Context) {})
	}
	s.Run()
	for _, x := range s.systems {
		if got, ok := pprof.Label(x.labels, "system"); !ok || got != x.name {
			t.Errorf("system %q runs with label %q", x.name, got)
		}
	}
}
