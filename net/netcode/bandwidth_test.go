package netcode

import (
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// bandwidth measures, for one client that sees the whole game world,
// the bytes of each tick's State against a full State of the same view
// (every value whole, as a client that joins gets it).
type bandwidth struct {
	ratios  []float64 // delta / full
	perEnt  []float64 // delta bytes / entities with a changed value
	full    []float64 // full bytes / entities
	changed []float64
}

func measureBandwidth(tb testing.TB, n, warm, ticks int) bandwidth {
	g, s, rules := gameServerSide(tb, n, 5)
	v, full := newView(rules.rules), newView(rules.rules)
	m := newMirror(ecs.NewWorld(), rules.rules, 1<<20)
	var out bandwidth
	var prev uint64
	var buf, fbuf []byte
	for i := range warm + ticks {
		g.Tick()
		s.capture()
		for _, x := range []*view{v, full} {
			x.grow(len(s.img.gens))
			copy(x.want, s.img.gens)
		}
		v.collect(&s.img)
		changed := len(v.cands)
		buf = v.encodeState(buf[:0], &s.img, prev, -1, i == 0, false)
		prev = s.tick
		if _, _, err := m.applyState(buf); err != nil {
			tb.Fatal(err)
		}
		if i < warm {
			continue
		}

		fbuf = full.encodeState(fbuf[:0], &s.img, 0, -1, true, false)
		out.ratios = append(out.ratios, float64(len(buf))/float64(len(fbuf)))
		out.perEnt = append(out.perEnt, float64(len(buf))/float64(max(changed, 1)))
		out.full = append(out.full, float64(len(fbuf))/float64(n))
		out.changed = append(out.changed, float64(changed))
	}
	return out
}

func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// TestDeltaIsATenthOfAFullState checks the bandwidth goal on the game
// scenario: a tick's State is at most a tenth of a full one (median).
func TestDeltaIsATenthOfAFullState(t *testing.T) {
	n, ticks := 10000, 100
	if testing.Short() {
		n, ticks = 2000, 60
	}
	b := measureBandwidth(t, n, 40, ticks)
	med := quantile(b.ratios, 0.5)
	t.Logf("delta/full: median %.4f, p95 %.4f; bytes per changed entity: median %.2f; full: %.1f bytes per entity; changed entities: median %.0f of %d",
		med, quantile(b.ratios, 0.95), quantile(b.perEnt, 0.5), quantile(b.full, 0.5), quantile(b.changed, 0.5), n)
	if med > 0.1 {
		t.Errorf("a tick's State is %.3f of a full one (median), above 0.1", med)
	}
}
