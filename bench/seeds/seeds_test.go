package seeds

import "testing"

func TestSeed004Runs(t *testing.T) {
	res := Seed004([]int{1_000, 10_000}, 3, func(string) {})
	seen := map[string]bool{}
	for _, r := range res {
		seen[r.Workload+"/"+r.Storage] = true
		if r.Stats.Ticks != 3 || r.Stats.Mean <= 0 || r.Stats.Max < r.Stats.Mean || r.Stats.Max < r.Stats.P99 {
			t.Errorf("%s %s N=%d: %+v", r.Workload, r.Storage, r.N, r.Stats)
		}
	}
	for _, want := range []string{"iteration/table", "iteration/sparse", "iteration/naive", "add_remove/table",
		"add_remove/table (batch)", "add_remove/sparse", "add_remove/naive", "particle/table", "particle/sparse", "particle/naive"} {
		if !seen[want] {
			t.Errorf("no result for %s", want)
		}
	}
}

func TestSeed000Profiles(t *testing.T) {
	if len(extras) != 512 {
		t.Fatalf("%d extra types, want 512", len(extras))
	}
	for _, p := range Profiles {
		w := profileWorld(p.Types, p.Systems)
		if got := len(w.Stats().Components); got < p.Types {
			t.Errorf("%s: %d component types registered, want at least %d", p.Name, got, p.Types)
		}
	}
	res := Seed000([]int{100}, 1, func(string) {})
	if len(res) != 3*3*4 {
		t.Fatalf("%d results, want 36", len(res))
	}
	for _, r := range res {
		if r.PerSecond <= 0 {
			t.Errorf("%+v", r)
		}
	}
}

func TestNaiveParticlesKeepTheirPopulation(t *testing.T) {
	p := newNaiveParticles(5000)
	for range 300 {
		p.tick()
		if got := len(p.pos); got < 4900 || got > 5000 || len(p.vel) != got || len(p.life) != got {
			t.Fatalf("%d particles (vel %d, life %d), want within 2%% of 5000", got, len(p.vel), len(p.life))
		}
	}
	sum := 0
	for _, k := range p.perColor {
		sum += k
	}
	if sum != len(p.color) {
		t.Fatalf("stats count %d of %d", sum, len(p.color))
	}
}
