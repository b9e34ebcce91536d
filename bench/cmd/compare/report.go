package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/tessera-ecs/tessera/bench/suite"
)

// writeReport writes dir/REPORT.md and one SVG plot per workload.
func writeReport(dir string, r *result, cands []*suite.Candidate, sizes []int, count int, benchtime time.Duration, cmd string, took time.Duration) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Tessera against the Go ECS peers\n\n")
	fmt.Fprintf(&b, "The workloads of the public go-ecs-benchmarks project (github.com/mlange-42/go-ecs-benchmarks), ")
	fmt.Fprintf(&b, "run for every candidate in one process; each does the work of that project's benchmark of the same name, the same for every candidate (bench/suite says exactly what each one times). ")
	fmt.Fprintf(&b, "Times are nanoseconds per entity (per world for create_world), ")
	fmt.Fprintf(&b, "the median of %d runs of about %v each, the candidates measured in turn round by round: `testing.Benchmark` for repeated work, and for work that needs an unmeasured reset between rounds (create, delete) a loop timing each round with the monotonic clock, which adds two clock reads (about 50 ns) per round, for every candidate alike. ", count, benchtime)
	fmt.Fprintf(&b, "The ratio is Tessera's best form over the best peer: below 1 means Tessera is faster. ")
	fmt.Fprintf(&b, "Rows marked *aside* do other work than the suite's; they are shown for reference and left out of every ratio. ")
	fmt.Fprintf(&b, "The floor is the same work on plain slices; it is not a peer. ")
	fmt.Fprintf(&b, "In the query workloads the floor and the per-table forms of Tessera and Ark run one copy of the row loop (`suite.MoveRows`), so that where a loop's code lands in the binary, which moved cells at 256k entities by 2-3%%, is the same for all of them.\n\n")
	fmt.Fprintf(&b, "- Command: `%s` (took %v)\n", cmd, took.Round(time.Second))
	fmt.Fprintf(&b, "- Machine: %s\n", machine())
	fmt.Fprintf(&b, "- Candidates:\n")
	seen := map[string]bool{}
	for _, c := range cands {
		if c.Module != "" && !seen[c.Module] {
			seen[c.Module] = true
			fmt.Fprintf(&b, "  - %s: `%s`\n", c.Name, c.Module)
		}
	}
	fmt.Fprintf(&b, "\n## Summary: Tessera's best form / the best peer\n\n")
	header(&b, "workload", sizes)
	for wi, s := range r.specs {
		fmt.Fprintf(&b, "| %s |", s.Name)
		for si := range sizes {
			ratio, _, _ := bestRatio(r, wi, si, cands)
			fmt.Fprintf(&b, " %s |", fmtRatio(ratio))
		}
		b.WriteString("\n")
	}
	first := true
	for _, c := range cands {
		if c.Aside == "" {
			continue
		}
		if first {
			b.WriteString("\nLeft out of these ratios:\n\n")
			first = false
		}
		fmt.Fprintf(&b, "- %s: %s.\n", label(c), c.Aside)
	}
	writeGrowth(&b, r, cands, sizes)
	for wi, s := range r.specs {
		fmt.Fprintf(&b, "\n## %s\n\n", s.Name)
		header(&b, "candidate", sizes)
		var asides []string
		for ci, c := range cands {
			row := r.nsPerE[wi][ci]
			if allNaN(row) {
				continue
			}
			name := rowLabel(c, cands, s)
			if c.Aside != "" {
				asides = append(asides, fmt.Sprintf("- *%s*: %s.\n", name, c.Aside))
				name += " *(aside)*"
			}
			fmt.Fprintf(&b, "| %s |", name)
			for _, v := range row {
				fmt.Fprintf(&b, " %s |", fmtNs(v))
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "| **tessera / best peer** |")
		for si := range sizes {
			ratio, t, p := bestRatio(r, wi, si, cands)
			if math.IsNaN(ratio) {
				b.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&b, " **%s** (%s vs %s) |", fmtRatio(ratio), t, p)
		}
		b.WriteString("\n")
		name := plotName(s.Name)
		// A log axis needs two sizes: create_world runs at N = 1 only.
		plotted := spansSizes(r.nsPerE[wi], sizes)
		if plotted {
			if err := plotWorkload(filepath.Join(dir, name), s.Name, r.nsPerE[wi], cands, sizes); err != nil {
				return err
			}
		}
		if len(asides) > 0 {
			b.WriteString("\n")
			for _, a := range asides {
				b.WriteString(a)
			}
		}
		if plotted {
			fmt.Fprintf(&b, "\n![%s](%s)\n", s.Name, name)
		}
	}
	return os.WriteFile(filepath.Join(dir, "REPORT.md"), []byte(b.String()), 0o644)
}

func header(b *strings.Builder, first string, sizes []int) {
	fmt.Fprintf(b, "| %s |", first)
	for _, n := range sizes {
		fmt.Fprintf(b, " N=%s |", fmtN(n))
	}
	b.WriteString("\n|---|")
	for range sizes {
		b.WriteString("---|")
	}
	b.WriteString("\n")
}

// bestRatio returns Tessera's best time over the best peer's at size si,
// with the names of the two forms. Aside candidates take no part.
func bestRatio(r *result, wi, si int, cands []*suite.Candidate) (float64, string, string) {
	bestT, nameT, bestP, nameP := bests(r, wi, si, cands)
	if math.IsInf(bestT, 1) || math.IsInf(bestP, 1) {
		return math.NaN(), "", ""
	}
	return bestT / bestP, nameT, nameP
}

// bests returns Tessera's best time at size si and its form, and the best
// peer's and its name; +Inf where there is none. Aside candidates and the
// floor take no part.
func bests(r *result, wi, si int, cands []*suite.Candidate) (bestT float64, nameT string, bestP float64, nameP string) {
	bestT, bestP = math.Inf(1), math.Inf(1)
	for ci, c := range cands {
		v := r.nsPerE[wi][ci][si]
		if math.IsNaN(v) || c.Name == "floor" || c.Aside != "" {
			continue
		}
		if c.Name == "tessera" {
			if v < bestT {
				bestT, nameT = v, c.Variant
			}
		} else if v < bestP {
			bestP, nameP = v, c.Name
		}
	}
	return bestT, nameT, bestP, nameP
}

func allNaN(row []float64) bool {
	for _, v := range row {
		if !math.IsNaN(v) {
			return false
		}
	}
	return true
}

func fmtNs(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func fmtRatio(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

// fmtN writes round decimal counts short: 16k for 16000, 1M for 1000000.
func fmtN(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000 && n%1_000 == 0:
		return fmt.Sprintf("%dk", n/1_000)
	}
	return fmt.Sprint(n)
}

// rowLabel names c's row in the table of workload s: with its variant when
// another candidate of the same library also does s, else by its name
// alone (a variant named for an iteration form says nothing in, say,
// delete2).
func rowLabel(c *suite.Candidate, cands []*suite.Candidate, s suite.Spec) string {
	for _, o := range cands {
		if o != c && o.Name == c.Name && s.Get(o) != nil {
			return label(c)
		}
	}
	return c.Name
}

// spansSizes reports whether rows have measurements at two sizes or more.
func spansSizes(rows [][]float64, sizes []int) bool {
	seen := -1
	for _, row := range rows {
		for si, v := range row {
			if !math.IsNaN(v) && v > 0 {
				if seen >= 0 && sizes[si] != sizes[seen] {
					return true
				}
				seen = si
			}
		}
	}
	return false
}

func plotName(workload string) string {
	return strings.NewReplacer("/", "_").Replace(workload) + ".svg"
}

// plotWorkload draws ns per entity against N, both on log scales, one line
// per candidate.
func plotWorkload(path, workload string, rows [][]float64, cands []*suite.Candidate, sizes []int) error {
	names := make([]string, len(cands))
	for ci, c := range cands {
		names[ci] = label(c)
	}
	return plotCurves(path, workload, "ns per entity", sizes, names, rows)
}

// plotCurves draws rows[i] (one value per size, NaN or <= 0 for none)
// against sizes, both on log scales, one line per name; it writes nothing
// when no row has a value.
func plotCurves(path, title, ylabel string, sizes []int, names []string, rows [][]float64) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "entities (N)"
	p.Y.Label.Text = ylabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	var lines []any
	for i, row := range rows {
		var pts plotter.XYs
		for si, v := range row {
			if !math.IsNaN(v) && v > 0 {
				pts = append(pts, plotter.XY{X: float64(sizes[si]), Y: v})
			}
		}
		if len(pts) > 0 {
			lines = append(lines, names[i], pts)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	return p.Save(9*vg.Inch, 6*vg.Inch, path)
}

// cpuModel reads the processor's name from /proc/cpuinfo, where there is one.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// machine describes the machine a report was measured on: the processor,
// how many CPUs Go sees, the platform and Go's version.
func machine() string {
	return fmt.Sprintf("%s, %d CPUs, %s/%s, %s", cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}
