package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tessera-ecs/tessera/bench/seeds"
	"github.com/tessera-ecs/tessera/internal/display"
)

// key names one row of the Vigier suite: a profile, k and N.
type key struct {
	p    string
	k, n int
}

// runSeeds runs the seeds suite (-suite seeds) and writes dir/SEEDS.md.
func runSeeds(dir string, quick bool, cmd string, progress func(string)) error {
	s004, s000 := []int{1_000, 10_000, 100_000, 1_000_000}, []int{1_000, 10_000, 100_000}
	ticks, reps := 200, 5
	if quick {
		s004, s000, ticks, reps = []int{1_000, 10_000}, []int{1_000}, 20, 1
	}
	start := time.Now()
	r004 := seeds.Seed004(s004, ticks, progress)
	r000 := seeds.Seed000(s000, reps, progress)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Tessera on the suites of two public sources\n\n")
	fmt.Fprintf(&b, "- Command: `%s` (took %v)\n", cmd, time.Since(start).Round(time.Second))
	fmt.Fprintf(&b, "- Machine: %s\n\n", machine())
	fmt.Fprintf(&b, "## The dissertation \"optimisations for the Entity Component System pattern\": iteration, add/remove, particle system\n\n")
	fmt.Fprintf(&b, "Time per tick over %d ticks (a fifth of that at a million entities) on one goroutine, and the live heap per entity after a forced GC. ", ticks)
	fmt.Fprintf(&b, "Storages: Tessera's tables; in add_remove also \"table (batch)\", each tick's changes made with one Map.RemoveEntities and one Map.AddEntities call instead of a call per entity; Tessera with the churning or optional component sparse (Velocity in iteration, C1 in add_remove, Color and Lifetime in particle); ")
	fmt.Fprintf(&b, "and the naive ECS of the \"super simple ECS\" blog post, one Go map per component type with key intersection (its particle system follows the same rules with one generator).\n\n")
	fmt.Fprintf(&b, "| workload | N | storage | mean | p99 | max | heap bytes per entity | mean / naive |\n|---|---|---|---|---|---|---|---|\n")
	naive := map[string]time.Duration{}
	for _, r := range r004 {
		if r.Storage == "naive" {
			naive[fmt.Sprint(r.Workload, r.N)] = r.Stats.Mean
		}
	}
	for _, r := range r004 {
		ratio := "–"
		if m, ok := naive[fmt.Sprint(r.Workload, r.N)]; ok && m > 0 {
			ratio = fmt.Sprintf("%.3f", float64(r.Stats.Mean)/float64(m))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %v | %v | %v | %.0f | %s |\n", r.Workload, fmtN(r.N), r.Storage,
			display.Round(r.Stats.Mean), display.Round(r.Stats.P99), display.Round(r.Stats.Max), r.Stats.HeapBytesPerAlive, ratio)
	}
	b.WriteString("\nThe cost per entity of a tick against N, one line per storage:\n")
	for _, wl := range []string{"iteration", "add_remove", "particle"} {
		storages := []string{"table", "sparse", "naive"}
		if wl == "add_remove" {
			storages = []string{"table", "table (batch)", "sparse", "naive"}
		}
		rows := make([][]float64, len(storages))
		for i, st := range storages {
			rows[i] = make([]float64, len(s004))
			for si, n := range s004 {
				rows[i][si] = math.NaN()
				for _, r := range r004 {
					if r.Workload == wl && r.Storage == st && r.N == n {
						rows[i][si] = float64(r.Stats.Mean.Nanoseconds()) / float64(n)
					}
				}
			}
		}
		name := "seeds_" + wl + ".svg"
		if err := plotCurves(filepath.Join(dir, name), "dissertation: "+wl, "ns per entity per tick", s004, storages, rows); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\n![%s](%s)\n", wl, name)
	}
	b.WriteString("\n" + seedsGrowth() + "\n")
	fmt.Fprintf(&b, "\n## Pierre Vigier, \"Entity-Component-System – Part 1\" (the ECS of the game Vagabond): create, iterate, create then remove\n\n")
	fmt.Fprintf(&b, "Millions of entities per second, the median of %d runs. Profiles A, AA and AAA hold 32, 128 and 512 extra registered component types and 16, 32 and 64 extra systems (queries, each over a pair of the extra types), all kept up to date while the workload runs. ", reps)
	fmt.Fprintf(&b, "The claim to check: throughput is flat across N and across profiles.\n\n")
	fmt.Fprintf(&b, "| profile | k | N | create | iterate | create_then_remove K=1 | create_then_remove K=10 |\n|---|---|---|---|---|---|---|\n")
	rows0 := map[key]map[string]float64{}
	var order []key
	for _, r := range r000 {
		kk := key{r.Profile, r.K, r.N}
		if rows0[kk] == nil {
			rows0[kk] = map[string]float64{}
			order = append(order, kk)
		}
		rows0[kk][r.Workload] = r.PerSecond
	}
	for _, kk := range order {
		m := rows0[kk]
		fmt.Fprintf(&b, "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f |\n", kk.p, kk.k, fmtN(kk.n), m["create"]/1e6, m["iterate"]/1e6,
			m["create_then_remove K=1"]/1e6, m["create_then_remove K=10"]/1e6)
	}
	b.WriteString("\nNanoseconds per entity (one over the throughput) against N, one line per profile and k:\n")
	for _, wl := range []string{"create", "iterate", "create_then_remove K=1", "create_then_remove K=10"} {
		var names []string
		var rows [][]float64
		for _, kk := range order {
			if kk.n != s000[0] {
				continue
			}
			row := make([]float64, len(s000))
			for si, n := range s000 {
				row[si] = math.NaN()
				if m := rows0[key{kk.p, kk.k, n}]; m[wl] > 0 {
					row[si] = 1e9 / m[wl]
				}
			}
			names = append(names, fmt.Sprintf("%s k=%d", kk.p, kk.k))
			rows = append(rows, row)
		}
		name := "seeds_vigier_" + strings.NewReplacer(" ", "_", "=", "").Replace(wl) + ".svg"
		if err := plotCurves(filepath.Join(dir, name), "Vigier: "+wl, "ns per entity", s000, names, rows); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\n![%s](%s)\n", wl, name)
	}
	return os.WriteFile(filepath.Join(dir, "SEEDS.md"), []byte(b.String()), 0o644)
}
