package desync_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/desync"
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type body struct{ X, Y float32 }
type vel struct{ X, Y float32 }

const dt = float32(1.0 / 60)

// fault is the one thing run B does differently.
type fault int

const (
	noFault      fault = iota
	swappedOrder       // gravity runs before move instead of after
	fusedAdd           // move fuses its multiply-add, as arm64 may
	unseededRand       // a system nudges an entity chosen by an unseeded random call
)

// run is one run of a small simulation of n bodies: move, then gravity,
// then a nudge at tick 30 of the entity the picker picks.
type run struct {
	w      *ecs.World
	s      *sched.Scheduler
	es     []ecs.Entity
	nudged ecs.Entity
}

func newRun(t testing.TB, n int, f fault) *run {
	r := &run{w: ecs.NewWorld()}
	bv := ecs.NewMap2[body, vel](r.w)
	rng := rand.New(rand.NewPCG(1, 2))
	r.es = make([]ecs.Entity, n)
	for i := range r.es {
		r.es[i] = bv.Spawn(body{rng.Float32() * 100, rng.Float32() * 100}, vel{rng.Float32() - 0.5, rng.Float32()})
	}
	q := ecs.NewQuery2[body, vel](r.w)
	r.s = sched.New(r.w, sched.Workers(1))
	t.Cleanup(r.s.Close)
	move := func(*sched.Context) {
		for c := range q.All() {
			if f == fusedAdd {
				c.A.X = float32(math.FMA(float64(c.B.X), float64(dt), float64(c.A.X)))
			} else {
				c.A.X += float32(c.B.X * dt)
			}
			c.A.Y += float32(c.B.Y * dt)
		}
	}
	gravity := func(*sched.Context) {
		for c := range q.All() {
			c.B.Y -= float32(9.81 * dt)
		}
	}
	tick := 0
	nudge := func(*sched.Context) {
		tick++
		if tick != 30 {
			return
		}
		i := 4242
		if f == unseededRand {
			i = rand.IntN(n) //tessera:nondeterministic-ok the unseeded call is the fault this test must find
		}
		r.nudged = r.es[i]
		_, v := bv.Get(r.nudged)
		v.X = -v.X
	}
	if f == swappedOrder {
		r.s.AddFunc("gravity", gravity, sched.Writes[vel]())
		r.s.AddFunc("move", move, sched.Reads[vel](), sched.Writes[body]())
	} else {
		r.s.AddFunc("move", move, sched.Reads[vel](), sched.Writes[body]())
		r.s.AddFunc("gravity", gravity, sched.Writes[vel]())
	}
	r.s.AddFunc("nudge", nudge, sched.Writes[vel]())
	return r
}

// logRun runs ticks ticks of a run, writing its log.
func logRun(t testing.TB, n, ticks int, f fault) ([]byte, *run) {
	r := newRun(t, n, f)
	var buf bytes.Buffer
	log := desync.NewWriter(&buf)
	for tick := 1; tick <= ticks; tick++ {
		r.s.Run()
		if err := log.Write(uint64(tick), r.w); err != nil {
			t.Fatal(err)
		}
	}
	if err := log.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), r
}

// TestFirstDivergenceNamesTickEntityComponentField runs a simulation of
// 100,000 bodies twice, the second run differing by one thing, as two
// processes would: each writes a log of per-part checksums. The logs give
// the first divergent tick and the component; both runs again to that tick
// (a save of each, or a snapshot ring, would do the same) and Diff names
// the entity and field. The diagnosis, from the two logs to the field,
// takes under a second.
func TestFirstDivergenceNamesTickEntityComponentField(t *testing.T) {
	n, ticks := 100_000, 40
	if testing.Short() {
		n = 10_000
	}
	cases := []struct {
		name  string
		f     fault
		tick  uint64
		part  string
		field string
	}{
		{"system order", swappedOrder, 1, "desync_test.body", "Y"},
		{"fused multiply-add", fusedAdd, 1, "desync_test.body", "X"},
		{"unseeded random call", unseededRand, 30, "desync_test.vel", "X"},
	}
	logA, _ := logRun(t, n, ticks, noFault)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			logB, rb := logRun(t, n, ticks, c.f)
			if c.f == unseededRand && rb.nudged.Index() == 4243 {
				t.Skip("the unseeded call picked the entity the seeded one does")
			}
			t0 := time.Now()
			fa, err := desync.ReadLog(bytes.NewReader(logA))
			if err != nil {
				t.Fatal(err)
			}
			fb, err := desync.ReadLog(bytes.NewReader(logB))
			if err != nil {
				t.Fatal(err)
			}
			d, ok := desync.FirstDivergence(fa, fb)
			if !ok {
				t.Fatalf("the logs agree")
			}
			logTime := time.Since(t0)
			if d.Tick != c.tick || len(d.Parts) == 0 || !strings.HasSuffix(d.Parts[0].Name, c.part) {
				t.Fatalf("%v; want tick %d, part %s first", d, c.tick, c.part)
			}
			// Both runs again, to the divergent tick.
			a, b := newRun(t, n, noFault), newRun(t, n, c.f)
			for range d.Tick {
				a.s.Run()
				b.s.Run()
			}
			t1 := time.Now()
			rep := ecs.Diff(a.w, b.w, 5)
			diffTime := time.Since(t1)
			if rep.Equal() {
				t.Fatalf("the worlds at tick %d agree", d.Tick)
			}
			first := rep.Differences[0]
			if !strings.HasSuffix(first.Type, c.part) || first.Field != c.field {
				t.Fatalf("first difference %v; want component %s field %s", first, c.part, c.field)
			}
			switch c.f {
			case unseededRand:
				// Entities of two worlds compare by index and generation.
				got := map[uint32]bool{}
				for _, x := range rep.Differences {
					got[x.Entity.Index()] = true
				}
				if rep.Total != 2 || !got[a.nudged.Index()] || !got[b.nudged.Index()] {
					t.Fatalf("%d differences; want 2, on the entities nudged, %v and %v\n%v",
						rep.Total, a.nudged, b.nudged, &rep)
				}
			case fusedAdd:
				checkOneRounding(t, first)
			case swappedOrder:
				if first.Entity != a.es[0] {
					t.Fatalf("first difference on %v; want the first body, %v", first.Entity, a.es[0])
				}
			}
			t.Logf("%v\n%v(logs %v, diff %v)", d, &rep, logTime, diffTime)
			if total := logTime + diffTime; total > time.Second {
				t.Errorf("diagnosis took %v; want under a second at %d entities", total, n)
			}
		})
	}
}

// checkOneRounding checks that a fused and an unfused float32 result
// differ by at most one unit in the last place.
func checkOneRounding(t *testing.T, d ecs.Difference) {
	t.Helper()
	a64, errA := strconv.ParseFloat(d.A, 32)
	b64, errB := strconv.ParseFloat(d.B, 32)
	if errA != nil || errB != nil {
		t.Fatalf("values %q and %q: %v %v", d.A, d.B, errA, errB)
	}
	a, b := float32(a64), float32(b64)
	if a == b || math.Nextafter32(a, b) != b {
		t.Fatalf("fused %v and unfused %v: want one unit in the last place apart", b, a)
	}
}
