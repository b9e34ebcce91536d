package scenario

import (
	"strings"
	"testing"
)

func runPredatorPrey(t *testing.T, cfg Config, ticks int) *PredatorPrey {
	t.Helper()
	p, err := NewPredatorPrey(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	for tick := range ticks {
		p.Tick()
		if err := p.Check(); err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
	}
	return p
}

// TestPredatorPreyPlan: the eight systems declare their structural changes
// by what they touch, and fit in four stages.
func TestPredatorPreyPlan(t *testing.T) {
	p := runPredatorPrey(t, Config{N: 100, Seed: 1}, 0)
	plan := p.Scheduler().Plan()
	if !strings.HasPrefix(plan, "8 systems in 4 stages") {
		t.Fatalf("want 8 systems in at most 4 stages:\n%s", plan)
	}
	want := map[string]int{"grid": 0, "life": 0, "hunt": 1, "steer": 2, "eat": 2, "metabolism": 2, "move": 3, "census": 3}
	for _, st := range p.Scheduler().Stats() {
		if want[st.Name] != st.Stage {
			t.Errorf("%s in stage %d, want %d\n%s", st.Name, st.Stage, want[st.Name], plan)
		}
	}
}

// TestPredatorPreyIsDeterministic: the same seed gives the same world on 1,
// 2, 4 and 8 workers, and in debug mode, where every access is checked
// against the declarations.
func TestPredatorPreyIsDeterministic(t *testing.T) {
	// Long enough for predators to starve while they hunt: debug mode then
	// checks a despawn of every kind of animal.
	n, ticks := 4000, 300
	if testing.Short() {
		n, ticks = 2000, 250
	}
	var want uint64
	for _, cfg := range []Config{{Workers: 1}, {Workers: 2}, {Workers: 4}, {Workers: 8}, {Debug: true}} {
		cfg.N, cfg.Seed = n, 7
		p := runPredatorPrey(t, cfg, ticks)
		if p.State().Starved == 0 || p.State().Eaten == 0 {
			t.Fatalf("%d starved, %d eaten: the run does not reach every kind of despawn", p.State().Starved, p.State().Eaten)
		}
		got := p.Hash()
		if want == 0 {
			want = got
		} else if got != want {
			t.Fatalf("workers %d debug %v: hash %016x, want %016x", cfg.Workers, cfg.Debug, got, want)
		}
	}
	if other := runPredatorPrey(t, Config{N: n, Seed: 8, Workers: 2}, ticks).Hash(); other == want {
		t.Fatal("another seed gave the same hash: the hash does not see the state")
	}
}

// TestPredatorPreyPopulation: animals are born, eaten and starve, the
// population stays within bounds, and the observers saw every chase and
// every prey that left.
func TestPredatorPreyPopulation(t *testing.T) {
	for _, storage := range []string{"table", "sparse"} {
		t.Run(storage, func(t *testing.T) {
			const n = 5000
			p, err := NewPredatorPrey(Config{N: n, Seed: 3, Storage: storage})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			startPrey := p.Census().Prey
			for tick := range 400 {
				p.Tick()
				if alive := p.Alive(); alive < 4*n/5 || alive > 4*n/3 {
					t.Fatalf("tick %d: %d animals, want %d to %d", tick, alive, 4*n/5, 4*n/3)
				}
			}
			if err := p.Check(); err != nil {
				t.Fatal(err)
			}
			// The census counts before the births and deaths applied at the
			// end of the tick.
			c := p.Census()
			if d := c.Prey + c.Predators - p.Alive(); d < -n/20 || d > n/20 || c.Predators == 0 || c.Prey == 0 {
				t.Fatalf("census %+v, %d alive", c, p.Alive())
			}
			if p.State().Born == 0 || p.State().Eaten == 0 || p.State().Chases == 0 {
				t.Fatalf("born %d, eaten %d, chases %d: the world does not change", p.State().Born, p.State().Eaten, p.State().Chases)
			}
			if gone := int64(startPrey) + p.State().PreyBorn - int64(p.preyCount.Count()); p.State().PreyGone != gone || gone < p.State().Eaten {
				t.Fatalf("the observer saw %d prey leave; %d left (%d eaten)", p.State().PreyGone, gone, p.State().Eaten)
			}
		})
	}
}
