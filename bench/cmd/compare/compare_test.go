package main

import (
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/bench/floor"
	"github.com/tessera-ecs/tessera/bench/suite"
	"github.com/tessera-ecs/tessera/bench/tessera"
)

// TestEveryCandidateComputesTheFloorsResults checks every adapter the
// driver runs, Tessera's forms and each peer's, against the floor: once at
// sizes around the edges (one entity, fewer than a chunk, a thousand), and
// three rounds at a few more, which also checks that Reset restores what
// Run expects.
func TestEveryCandidateComputesTheFloorsResults(t *testing.T) {
	ref := floor.Candidate()
	checks := []struct {
		sizes  []int
		rounds int
	}{
		{[]int{1, 4, 64, 1000}, 1},
		{[]int{1, 16, 300}, 3},
	}
	for _, c := range candidates()[1:] { // after the floor itself
		t.Run(label(c), func(t *testing.T) {
			for _, ch := range checks {
				for _, msg := range suite.VerifyRounds(c, ref, ch.sizes, ch.rounds) {
					t.Error(msg)
				}
			}
		})
	}
}

// TestEveryPeerIsACandidate checks that every adapter package under
// bench/peers is in candidates(), and so in the report and in the check
// above.
func TestEveryPeerIsACandidate(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "candidates.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	imported := map[string]bool{}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		imported[path] = true
	}
	dirs, err := os.ReadDir(filepath.Join("..", "..", "peers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && !imported["github.com/tessera-ecs/tessera/bench/peers/"+d.Name()] {
			t.Errorf("bench/peers/%s is not among the candidates", d.Name())
		}
	}
	if !imported["github.com/tessera-ecs/tessera/bench/tessera"] {
		t.Error("Tessera's adapter is not among the candidates")
	}
}

func TestReport(t *testing.T) {
	if err := setBenchtime(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	cands := append([]*suite.Candidate{floor.Candidate()}, tessera.Candidates()...)
	// A stand-in peer: the floor under another name, so the ratio exists.
	peer := *floor.Candidate()
	peer.Name, peer.Module, peer.Variant = "peer", "example.com/peer v1", ""
	cands = append(cands, &peer)
	specs := pick(suite.Specs, "^(query2|add_remove)$")
	ticks := 0
	r := run(specs, cands, []int{4, 64}, 1, func(string) { ticks++ })
	if want := 2 * (5 + 4); ticks != want { // 2 sizes x (query2: floor, 3 tessera forms, peer; add_remove: floor, 2 tessera forms, peer)
		t.Errorf("%d measurements, want %d", ticks, want)
	}
	for wi := range specs {
		for ci, c := range cands {
			for si, v := range r.nsPerE[wi][ci] {
				if specs[wi].Get(c) != nil && (math.IsNaN(v) || v <= 0) {
					t.Errorf("%s %s size %d: %v ns", specs[wi].Name, label(c), si, v)
				}
			}
		}
	}
	dir := t.TempDir()
	if err := writeReport(dir, r, cands, []int{4, 64}, 1, time.Millisecond, "go run ./cmd/compare -test", time.Second); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	report := string(data)
	for _, want := range []string{"## Summary", "| query2 |", "## add_remove", "tessera (sparse Velocity) *(aside)*",
		"Left out of these ratios", "vs peer) |", "(table Velocity vs peer)",
		"**tessera / best peer**", "`example.com/peer v1`", "go run ./cmd/compare -test", "N=64", "![query2](query2.svg)"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "query2.svg"))
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("plot: %v", err)
	}
}

// TestRunInterleavesCandidates checks that run measures the candidates in
// turn, round by round, starting one further along each round, and that a
// workload measured once is measured at the first size only.
func TestRunInterleavesCandidates(t *testing.T) {
	if err := setBenchtime(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var cands []*suite.Candidate
	for _, name := range []string{"a", "b", "c"} {
		c := *floor.Candidate()
		c.Name, c.Variant = name, ""
		cands = append(cands, &c)
	}
	var got []string
	r := run(pick(suite.Specs, "^(delete2|create_world)$"), cands, []int{4, 8}, 2, func(what string) { got = append(got, what) })
	want := []string{
		"delete2 a", "delete2 b", "delete2 c", "delete2 b", "delete2 c", "delete2 a", // N=4, rounds 1 and 2
		"delete2 a", "delete2 b", "delete2 c", "delete2 b", "delete2 c", "delete2 a", // N=8
		"create_world a", "create_world b", "create_world c", "create_world b", "create_world c", "create_world a", // first size only
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("measured in the order\n  %s\nwant\n  %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
	for ci := range cands {
		if w := r.nsPerE[1][ci]; math.IsNaN(w[0]) || !math.IsNaN(w[1]) {
			t.Errorf("create_world of %s: %v, want a time at the first size only", cands[ci].Name, w)
		}
	}
}

// TestRatioLeavesOutAsides checks that a candidate marked Aside takes no
// part in the ratio, even when it is the fastest.
func TestRatioLeavesOutAsides(t *testing.T) {
	cands := []*suite.Candidate{
		{Name: "tessera", Variant: "table"},
		{Name: "tessera", Variant: "sparse", Aside: "other work"},
		{Name: "peer"},
	}
	r := &result{nsPerE: [][][]float64{{{40}, {10}, {20}}}}
	ratio, tForm, peer := bestRatio(r, 0, 0, cands)
	if ratio != 2 || tForm != "table" || peer != "peer" {
		t.Errorf("bestRatio = %v (%s vs %s), want 2 (table vs peer)", ratio, tForm, peer)
	}
}

// TestGrowthNamesCheapestAndLargestSizes: the "how cost grows" line of a
// workload gives Tessera's and the best peer's cheapest size and the
// largest, and one figure when they are the same size.
func TestGrowthNamesCheapestAndLargestSizes(t *testing.T) {
	cands := []*suite.Candidate{{Name: "tessera"}, {Name: "ark"}, {Name: "arche"}}
	nan := math.NaN()
	r := &result{specs: []suite.Spec{{Name: "query2"}}, nsPerE: [][][]float64{{
		{4, 1, 2},   // tessera: cheapest at N=16, 2 at N=1M
		{nan, 3, 5}, // ark
		{6, 4, 2.5}, // arche: the best peer falls to 2.5 at 1M, its cheapest
	}}}
	var b strings.Builder
	writeGrowth(&b, r, cands, []int{1, 16, 1_000_000})
	got := b.String()
	for _, want := range []string{
		"(Tessera 1.00 ns at N=16, 2.00 at N=1M; best peer 2.50 ns at N=1M)",
		"leave L2", // the reason for query2
	} {
		if !strings.Contains(got, want) {
			t.Errorf("growth section lacks %q:\n%s", want, got)
		}
	}
	if sizeText("1024K") != "1 MiB" || sizeText("48K") != "48 KiB" || sizeText("odd") != "odd" {
		t.Errorf("sizeText: %q %q %q", sizeText("1024K"), sizeText("48K"), sizeText("odd"))
	}
}
