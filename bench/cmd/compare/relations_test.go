package main

import (
	"testing"

	"github.com/tessera-ecs/tessera/bench/relations"
)

// TestRelationsReport runs the relations suite at its quick sizes, one
// short run per row, and checks that the report has a section and a
// summary line per comparison, the query goal's verdict and no NaN.
func TestRelationsReport(t *testing.T) {
	checkFixedReport(t, relationsSuite, relations.Names(), "**Quick run**", "Prefabs: Tessera's instances are copies",
		"Goal: Tessera's pass with relations within 5%", "| Ark stack + query, leaves known (peer) (aside) |",
		"(aside, not in the ratio: ")
}

// TestRelationsFlags checks -quick, -benchtime's default, and that -sizes
// is refused.
func TestRelationsFlags(t *testing.T) { checkFixedFlags(t, relationsSuite, "cascade") }

// TestPairedRatio checks that ratios are taken round by round: a row twice
// as fast as another in every round is at 0.5 however the rounds drift.
func TestPairedRatio(t *testing.T) {
	a := relResult{rowResult{ns: 20}, []float64{10, 20, 40}}
	b := relResult{rowResult{ns: 30}, []float64{20, 40, 80}}
	if got := pairedRatio(a, b); got != 0.5 {
		t.Errorf("paired ratio %v, want 0.5 (the medians' ratio is %v)", got, a.ns/b.ns)
	}
	if got := pairedRatio(relResult{rowResult: rowResult{ns: 3}}, relResult{rowResult: rowResult{ns: 4}}); got != 0.75 {
		t.Errorf("without runs: %v, want 0.75", got)
	}
}

// TestGoalVerdict checks the 5% goal on both sides of it.
func TestGoalVerdict(t *testing.T) {
	c := &relations.Comparison{Rows: []relations.Row{
		{Name: "with", Kind: relations.Tessera, Baseline: "without"},
		{Name: "without", Kind: relations.Tessera, Plain: true},
	}}
	for _, tc := range []struct {
		with float64
		want string
	}{{104, "met (1.04)"}, {106, "not met (1.06)"}} {
		if got := goalVerdict(c, []relResult{{rowResult: rowResult{ns: tc.with}}, {rowResult: rowResult{ns: 100}}}); got != tc.want {
			t.Errorf("%v against 100: %q, want %q", tc.with, got, tc.want)
		}
	}
}
