package changes

import (
	"slices"
	"testing"
)

// testConfig is small enough for a test; 500 entities, every 10th
// changing, 50 changes per tick.
func testConfig() Config { return Config{Events: 257, Entities: 500, Stride: 10} }

// TestEventsSameWork runs a few ticks of every events row and checks that
// each of the two readers read every event of the tick once: the tick's
// count and the tick's sum of Amount.
func TestEventsSameWork(t *testing.T) {
	c := testConfig()
	want, n := 0.0, c.Events
	for i := range n {
		want += hitOf(i).Amount
	}
	te, tea := newTesseraEvents(n), newTesseraEvents(n)
	ac, ab := newArkEvents(n, false), newArkEvents(n, true)
	de, fe := newDbrEvents(n), newFloorEvents(n)
	rows := []struct {
		name string
		tick func()
		sums *readSums
	}{
		{"Tessera Send", func() { tesseraSendRead(te) }, &te.sums},
		{"Tessera SendAll", func() { tesseraSendAllRead(tea) }, &tea.sums},
		{"Ark component", func() { arkEmit(ac) }, &ac.sums},
		{"Ark beside", func() { arkEmit(ab) }, &ab.sums},
		{"donburi", func() { dbrPublishProcess(de) }, &de.sums},
		{"floor", func() { floorSendRead(fe) }, &fe.sums},
	}
	for tick := range 5 {
		for _, r := range rows {
			r.tick()
			if got := *r.sums; got != (readSums{want, want, n, n}) {
				t.Errorf("tick %d: %s read %d and %d events summing %v and %v; want %d each summing %v",
					tick, r.name, got.na, got.nb, got.a, got.b, n, want)
			}
		}
	}
	// Tessera's queue keeps no more than a tick's events once both
	// readers have read them.
	if l := te.q.Len(); l != 0 {
		t.Errorf("Tessera's queue holds %d unread events", l)
	}
}

// TestEventsComparisonRows checks that every row of the comparison runs.
func TestEventsComparisonRows(t *testing.T) {
	for _, r := range eventsComparison(testConfig()).Rows {
		r.Run()
		r.Run()
	}
}

// reference is the changed workload's state in plain Go: every entity's
// X, and each tick's expected pass.
type reference struct {
	plan
	x []float64
}

func newReference(c Config) *reference {
	r := &reference{plan: plan{n: c.Entities, stride: c.Stride}, x: make([]float64, c.Entities)}
	for i := range r.x {
		r.x[i] = startPosition(i).X
	}
	return r
}

// tick makes the next tick's changes and returns what a pass over the
// changed entities and one over all of them must find.
func (r *reference) tick() (changed, all passResult) {
	first, x := r.next()
	for i := first; i < r.n; i += r.stride {
		r.x[i] = x
		changed.sum += x
		changed.n++
	}
	for _, v := range r.x {
		all.sum += v
	}
	all.n = r.n
	return changed, all
}

// TestChangedSameWork runs a stride and a half of ticks of every changed
// row (every offset, and some twice) and checks that the rows that find
// the changed entities visit exactly the tick's changes (their number and
// the sum of the values written, which no unchanged entity holds), and the
// full passes every entity with its current value.
func TestChangedSameWork(t *testing.T) {
	c := testConfig()
	ref := newReference(c)
	tc, tca := newTesseraChanged(c, tesseraChangedFilter), newTesseraChanged(c, tesseraChangedFilter)
	td, tf := newTesseraChanged(c, tesseraDirtyTag), newTesseraChanged(c, tesseraFullPass)
	ad, af := newArkChanged(c), newArkChanged(c)
	fl := newFloorChanged(c)
	for tick := range c.Stride * 3 / 2 {
		changed, all := ref.tick()
		if changed.n != c.changedPerTick() {
			t.Fatalf("tick %d changes %d entities, want %d", tick, changed.n, c.changedPerTick())
		}
		tesseraChangedTick(tc, false)
		tesseraChangedTick(tca, true)
		tesseraDirtyTick(td)
		tesseraFullTick(tf)
		arkDirtyTick(ad)
		arkFullTick(af)
		floorTick(fl)
		for _, r := range []struct {
			name      string
			got, want passResult
		}{
			{"Tessera Changed Chunks", tc.res, changed},
			{"Tessera Changed All", tca.res, changed},
			{"Tessera dirty tag", td.res, changed},
			{"Tessera full pass", tf.res, all},
			{"Ark dirty tag", ad.res, changed},
			{"Ark full pass", af.res, all},
			{"floor", fl.res, changed},
		} {
			if r.got != r.want {
				t.Errorf("tick %d: %s visited %d entities summing %v; want %d summing %v", tick, r.name, r.got.n, r.got.sum, r.want.n, r.want.sum)
			}
		}
	}
	// Every world holds the values of the reference.
	for i, e := range tc.es {
		if got := tc.pos.Get(e).X; got != ref.x[i] {
			t.Fatalf("Tessera entity %d has X %v, want %v", i, got, ref.x[i])
		}
		if got := ad.pos.Get(ad.es[i]).X; got != ref.x[i] {
			t.Fatalf("Ark entity %d has X %v, want %v", i, got, ref.x[i])
		}
		if td.dirty.Has(td.es[i]) || ad.dirty.Has(ad.es[i]) {
			t.Fatalf("entity %d still has its dirty tag after the pass", i)
		}
	}
}

// TestChangedComparisonRows checks that every row of the comparison runs,
// and that the baselines the rows name exist.
func TestChangedComparisonRows(t *testing.T) {
	cmp := changedComparison(testConfig())
	var names []string
	for _, r := range cmp.Rows {
		names = append(names, r.Name)
		r.Run()
	}
	for _, r := range cmp.Rows {
		if r.Baseline != "" && !slices.Contains(names, r.Baseline) {
			t.Errorf("%s: no baseline row %q", r.Name, r.Baseline)
		}
	}
}

// TestSuiteConfig checks the sizes the suite refuses, and that -workloads
// picks comparisons by name.
func TestSuiteConfig(t *testing.T) {
	for _, c := range []Config{{Events: 0, Entities: 100, Stride: 10}, {Events: 1, Entities: 105, Stride: 10},
		{Events: 1, Entities: 5, Stride: 10}} {
		if _, err := NewSuite(c, ""); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	s, err := NewSuite(testConfig(), "^events$")
	if err != nil || len(s.Comparisons) != 1 || s.Comparisons[0].Name != "events" {
		t.Errorf("NewSuite(^events$): %v, %v", s, err)
	}
	if !slices.Equal(Names(), []string{"events", "changed"}) {
		t.Errorf("Names() = %v", Names())
	}
}
