package main

import (
	"testing"

	"github.com/tessera-ecs/tessera/bench/changes"
)

// TestChangesReport runs the changes suite at its quick sizes, one short
// run per row, and checks that the report has a section and a summary
// line per comparison, Ark's missing change detection, and no NaN.
func TestChangesReport(t *testing.T) {
	checkFixedReport(t, changesSuite, changes.Names(), "**Quick run**", "Ark has no change detection",
		"| plain slice + 2 cursors (floor) |", "| Ark full pass, GetColumns (peer) (full pass) |", "ns per changed entity")
}

// TestChangesFlags checks -quick, -benchtime's default, and that -sizes
// is refused.
func TestChangesFlags(t *testing.T) { checkFixedFlags(t, changesSuite, "events") }
