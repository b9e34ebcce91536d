package detcheck_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/tessera-ecs/tessera/cmd/tessera/detcheck"
)

// The testdata packages are a GOPATH tree (testdata/src) with stand-ins for
// the ecs and sched packages; api_test.go checks the stand-ins' names
// against the real packages. Each package holds reports (// want) and near
// misses that must not be reported.

func TestFMA(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), detcheck.Analyzer, "fma")
}

func TestMapOrder(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), detcheck.Analyzer, "maporder")
}

func TestMapOrderImports(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), detcheck.Analyzer, "mapimports")
}

func TestRandom(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "random")
}

func TestWallClock(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "wallclock")
}

// TestSystems covers goroutines, select and work sized by the machine,
// which are reported only in system code.
func TestSystems(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "systems")
}

func TestMathFunc(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "mathfunc")
}

func TestAddress(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "address")
}

func TestComplex(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "complexarith")
}

func TestDirective(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "directive")
}

// TestNoImport checks that a package that imports neither ecs nor sched
// gets no report, whatever it holds.
func TestNoImport(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "noimport")
}

// TestParticleMove checks the report and fix on the line shape of the
// particle scenario's move: p[i].X += v[i].X * DT, once per line, while the
// constant product 9.81 * DT of gravity is left alone.
func TestParticleMove(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), detcheck.Analyzer, "scenario")
	if len(results) != 1 {
		t.Fatalf("got %d results, want 1", len(results))
	}
	var lines []int
	for _, d := range results[0].Diagnostics {
		lines = append(lines, results[0].Pass.Fset.Position(d.Pos).Line)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "src", "scenario", "particle.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "+= v[i].X * DT") || strings.Contains(line, "+= v[i].Y * DT") {
			want = append(want, i+1)
		}
	}
	if len(want) != 2 || !slices.Equal(lines, want) {
		t.Errorf("reported lines %v, want the lines of p[i].X += v[i].X * DT and p[i].Y += v[i].Y * DT: %v", lines, want)
	}
}

func TestWordSize(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detcheck.Analyzer, "wordsize")
}
