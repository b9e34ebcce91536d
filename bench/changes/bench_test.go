package changes

import (
	"strings"
	"testing"
)

// BenchmarkRows runs one tick of every row of the suite at its full sizes,
// for profiling a row on its own (cmd/compare -suite changes is the
// report):
//
//	go test ./changes -run '^$' -bench 'Rows/changed/Tessera_Changed' -cpuprofile cpu.out
func BenchmarkRows(b *testing.B) {
	s, err := NewSuite(Full(), "")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range s.Comparisons {
		for _, r := range c.Rows {
			b.Run(c.Name+"/"+strings.ReplaceAll(r.Name, " ", "_"), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r.Run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.PerRun), "ns/"+strings.ReplaceAll(c.Unit, " ", "-"))
			})
		}
	}
}
