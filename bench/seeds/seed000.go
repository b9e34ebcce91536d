package seeds

import (
	"fmt"
	"slices"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// Components of the workloads of Pierre Vigier, "Entity-Component-System –
// Part 1" (the ECS of the game Vagabond); "k components" are the first k.
type (
	Pos  struct{ X, Y float32 }
	Vel  struct{ X, Y float32 }
	Mass struct{ V float32 }
)

// Profiles fix how many extra component types and systems a world holds
// (Vigier's A, AA and AAA).
var Profiles = []struct {
	Name           string
	Types, Systems int
}{{"A", 32, 16}, {"AA", 128, 32}, {"AAA", 512, 64}}

// bit0, bit1 and extra build 512 distinct component types at compile time,
// doubling the count at each of nine levels of instantiation. extra leaves
// its type parameters unused, so all 512 have the underlying type
// struct{ V float32 } and share one GC shape: the compiler makes one copy
// of the generic code they use, not 512 (a minute of build time).
type (
	bit0            struct{}
	bit1            struct{}
	extra[A, B any] struct{ V float32 }
)

// extraType makes one of the extra types real in a world: register it, and
// build a system's query over it and another extra type.
type extraType struct {
	register func(*ecs.World)
	ct       ecs.ComponentType
	query    func(w *ecs.World, with ecs.ComponentType)
}

func level0[T any](out *[]extraType) {
	*out = append(*out, extraType{
		register: func(w *ecs.World) { ecs.NewMap[T](w) },
		ct:       ecs.C[T](),
		query:    func(w *ecs.World, with ecs.ComponentType) { ecs.NewQuery1[T](w, ecs.With(with)) },
	})
}
func level1[T any](o *[]extraType) { level0[extra[T, bit0]](o); level0[extra[T, bit1]](o) }
func level2[T any](o *[]extraType) { level1[extra[T, bit0]](o); level1[extra[T, bit1]](o) }
func level3[T any](o *[]extraType) { level2[extra[T, bit0]](o); level2[extra[T, bit1]](o) }
func level4[T any](o *[]extraType) { level3[extra[T, bit0]](o); level3[extra[T, bit1]](o) }
func level5[T any](o *[]extraType) { level4[extra[T, bit0]](o); level4[extra[T, bit1]](o) }
func level6[T any](o *[]extraType) { level5[extra[T, bit0]](o); level5[extra[T, bit1]](o) }
func level7[T any](o *[]extraType) { level6[extra[T, bit0]](o); level6[extra[T, bit1]](o) }
func level8[T any](o *[]extraType) { level7[extra[T, bit0]](o); level7[extra[T, bit1]](o) }
func level9[T any](o *[]extraType) { level8[extra[T, bit0]](o); level8[extra[T, bit1]](o) }

var extras = func() []extraType {
	var out []extraType
	level9[bit0](&out)
	return out
}()

// profileWorld returns a world holding the profile's extra types and
// systems (queries), each system over a different pair of extra types.
func profileWorld(types, systems int) *ecs.World {
	w := ecs.NewWorld()
	for _, x := range extras[:types] {
		x.register(w)
	}
	for s := range systems {
		extras[s].query(w, extras[(s+systems)%types].ct)
	}
	return w
}

// Seed000Result is one line of the report on Vigier's workloads: entities
// per second.
type Seed000Result struct {
	Profile, Workload string
	K, N              int
	PerSecond         float64
}

// spawner creates n entities with the first k of Pos, Vel, Mass.
type spawner struct {
	p   *ecs.Map[Pos]
	pv  *ecs.Map2[Pos, Vel]
	pvm *ecs.Map3[Pos, Vel, Mass]
	k   int
}

func newSpawner(w *ecs.World, k int) *spawner {
	return &spawner{p: ecs.NewMap[Pos](w), pv: ecs.NewMap2[Pos, Vel](w), pvm: ecs.NewMap3[Pos, Vel, Mass](w), k: k}
}

//go:noinline
func (s *spawner) create(n int, out []ecs.Entity) []ecs.Entity {
	for i := range n {
		var e ecs.Entity
		switch s.k {
		case 1:
			e = s.p.Spawn(Pos{float32(i), 0})
		case 2:
			e = s.pv.Spawn(Pos{float32(i), 0}, Vel{1, 1})
		default:
			e = s.pvm.Spawn(Pos{float32(i), 0}, Vel{1, 1}, Mass{1})
		}
		out = append(out, e)
	}
	return out
}

//go:noinline
func removeReverse(w *ecs.World, es []ecs.Entity) {
	for i := len(es) - 1; i >= 0; i-- {
		w.Despawn(es[i])
	}
}

//go:noinline
func iterateK(k int, q1 *ecs.Query1[Pos], q2 *ecs.Query2[Pos, Vel], q3 *ecs.Query3[Pos, Vel, Mass]) float32 {
	s := float32(0)
	switch k {
	case 1:
		for r := range q1.All() {
			s += r.A.X
		}
	case 2:
		for r := range q2.All() {
			s += r.A.X + r.B.X
		}
	default:
		for r := range q3.All() {
			s += r.A.X + r.B.X + r.C.V
		}
	}
	return s
}

// Seed000 measures every profile, k and size, reps times each (the median
// is kept), calling progress before each.
func Seed000(sizes []int, reps int, progress func(string)) []Seed000Result {
	var out []Seed000Result
	median := func(f func() time.Duration, entities int) float64 {
		runs := make([]float64, reps)
		for i := range runs {
			runs[i] = float64(entities) / f().Seconds()
		}
		slices.Sort(runs)
		return runs[reps/2]
	}
	for _, pr := range Profiles {
		for k := 1; k <= 3; k++ {
			for _, n := range sizes {
				progress(fmt.Sprintf("profile %s k=%d N=%d", pr.Name, k, n))
				es := make([]ecs.Entity, 0, n)
				out = append(out, Seed000Result{pr.Name, "create", k, n, median(func() time.Duration {
					w := profileWorld(pr.Types, pr.Systems)
					s := newSpawner(w, k)
					t0 := time.Now()
					s.create(n, es[:0])
					return time.Since(t0)
				}, n)})
				w := profileWorld(pr.Types, pr.Systems)
				newSpawner(w, k).create(n, es[:0])
				q1, q2, q3 := ecs.NewQuery1[Pos](w), ecs.NewQuery2[Pos, Vel](w), ecs.NewQuery3[Pos, Vel, Mass](w)
				out = append(out, Seed000Result{pr.Name, "iterate", k, n, median(func() time.Duration {
					t0 := time.Now()
					iterateK(k, q1, q2, q3)
					return time.Since(t0)
				}, n)})
				for _, rounds := range []int{1, 10} {
					out = append(out, Seed000Result{pr.Name, fmt.Sprintf("create_then_remove K=%d", rounds), k, n,
						median(func() time.Duration {
							w := profileWorld(pr.Types, pr.Systems)
							s := newSpawner(w, k)
							t0 := time.Now()
							for range rounds {
								es = s.create(n, es[:0])
								removeReverse(w, es)
							}
							return time.Since(t0)
						}, n*rounds)})
				}
			}
		}
	}
	return out
}
