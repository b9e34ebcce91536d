package seeds

import (
	"fmt"
	"math/rand/v2"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// Components of the workloads of the dissertation "optimisations for the
// Entity Component System pattern": float32 pairs, and eight tags.
type (
	Position struct{ X, Y float32 }
	Velocity struct{ X, Y float32 }
	C1       struct{ V float32 }
	C2       struct{ V float32 }
	C3       struct{ V float32 }
	C4       struct{ V float32 }
	C5       struct{ V float32 }
	C6       struct{ V float32 }
	C7       struct{ V float32 }
	C8       struct{ V float32 }
)

// Storages are the ways the dissertation's workloads are run: Tessera with
// table storage, with sparse storage (Velocity for iteration, C1 for
// add_remove, Color and Lifetime for the particles), and the naive baseline.
// The add_remove workload also runs as "table (batch)" (see addRemove).
var Storages = []string{"table", "sparse", "naive"}

// Result is one line of the report on the dissertation's workloads.
type Result struct {
	Workload, Storage string
	N                 int
	Stats             TickStats
}

// Seed004 runs the three workloads at the given sizes for ticks ticks each
// (fewer for a million entities), calling progress after each run.
func Seed004(sizes []int, ticks int, progress func(string)) []Result {
	var out []Result
	for _, n := range sizes {
		t := ticks
		if n >= 1_000_000 {
			t = max(ticks/5, 10)
		}
		for _, s := range Storages {
			progress(fmt.Sprintf("iteration %s N=%d", s, n))
			out = append(out, Result{"iteration", s, n, iteration(n, s, t)})
			progress(fmt.Sprintf("add_remove %s N=%d", s, n))
			out = append(out, Result{"add_remove", s, n, addRemove(n, s, t)})
			if s == "table" {
				s := "table (batch)"
				progress(fmt.Sprintf("add_remove %s N=%d", s, n))
				out = append(out, Result{"add_remove", s, n, addRemove(n, s, t)})
			}
			if n >= 10_000 {
				progress(fmt.Sprintf("particle %s N=%d", s, n))
				out = append(out, Result{"particle", s, n, particle(n, s, t)})
			}
		}
	}
	return out
}

// iteration: half the entities have Position and Velocity, the rest a
// random subset of C1..C8 (with Position); one system moves the movers.
func iteration(n int, storage string, ticks int) TickStats {
	base := heapNow()
	rng := rand.New(rand.NewPCG(4, 4))
	if storage == "naive" {
		w := newNaiveWorld()
		for i := range n {
			e := w.spawn()
			w.pos[e] = Position{1, 1}
			if i%2 == 0 {
				w.vel[e] = Velocity{1, 1}
				continue
			}
			bits := rng.IntN(256)
			for b := range 8 {
				if bits>>b&1 == 1 {
					w.tags[b][e] = struct{}{}
				}
			}
		}
		return runTicks(ticks, func() { naiveMove(w) }, func() int { return int(w.next) }, base)
	}
	w := ecs.NewWorld()
	if storage == "sparse" {
		ecs.Register[Velocity](w, ecs.Sparse(), ecs.CapacityHint(n/2))
	}
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	adders := tagAdders(w)
	for i := range n {
		e := pos.Spawn(Position{1, 1})
		if i%2 == 0 {
			vel.Add(e, Velocity{1, 1})
			continue
		}
		bits := rng.IntN(256)
		for b := range 8 {
			if bits>>b&1 == 1 {
				adders[b](e)
			}
		}
	}
	q := ecs.NewQuery2[Position, Velocity](w)
	return runTicks(ticks, func() { move(q) }, w.Len, base)
}

//go:noinline
func move(q *ecs.Query2[Position, Velocity]) {
	for r := range q.All() {
		r.A.X += r.B.X
		r.A.Y += r.B.Y
	}
}

func tagAdders(w *ecs.World) [8]func(ecs.Entity) {
	c1, c2, c3, c4 := ecs.NewMap[C1](w), ecs.NewMap[C2](w), ecs.NewMap[C3](w), ecs.NewMap[C4](w)
	c5, c6, c7, c8 := ecs.NewMap[C5](w), ecs.NewMap[C6](w), ecs.NewMap[C7](w), ecs.NewMap[C8](w)
	return [8]func(ecs.Entity){
		func(e ecs.Entity) { c1.Add(e, C1{}) }, func(e ecs.Entity) { c2.Add(e, C2{}) },
		func(e ecs.Entity) { c3.Add(e, C3{}) }, func(e ecs.Entity) { c4.Add(e, C4{}) },
		func(e ecs.Entity) { c5.Add(e, C5{}) }, func(e ecs.Entity) { c6.Add(e, C6{}) },
		func(e ecs.Entity) { c7.Add(e, C7{}) }, func(e ecs.Entity) { c8.Add(e, C8{}) },
	}
}

// addRemove: n entities with Position; each tick the next 10% of a fixed
// shuffled cycle gain C1 and the previous tick's 10% lose it; a system
// iterates Position+C1. The "table (batch)" storage makes each tick's
// changes with one Map.RemoveEntities and one Map.AddEntities call instead
// of a Remove or Add per entity.
func addRemove(n int, storage string, ticks int) TickStats {
	base := heapNow()
	order := rand.New(rand.NewPCG(7, 7)).Perm(n)
	step := max(n/10, 1)
	at := 0
	prev, cur := make([]int, 0, step), make([]int, 0, step)
	next := func() {
		prev, cur = cur, prev[:0]
		for range step {
			cur = append(cur, order[at])
			at = (at + 1) % n
		}
	}
	if storage == "naive" {
		w := newNaiveWorld()
		ids := make([]uint32, n)
		for i := range ids {
			ids[i] = w.spawn()
			w.pos[ids[i]] = Position{float32(i), 0}
		}
		return runTicks(ticks, func() {
			next()
			for _, i := range prev {
				delete(w.tags[0], ids[i])
			}
			for _, i := range cur {
				w.tags[0][ids[i]] = struct{}{}
			}
			naiveSumTagged(w)
		}, func() int { return n }, base)
	}
	w := ecs.NewWorld()
	if storage == "sparse" {
		ecs.Register[C1](w, ecs.Sparse(), ecs.CapacityHint(step))
	}
	pos, c1 := ecs.NewMap[Position](w), ecs.NewMap[C1](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = pos.Spawn(Position{float32(i), 0})
	}
	q := ecs.NewQuery2[Position, C1](w)
	if storage == "table (batch)" {
		lost, gained := make([]ecs.Entity, 0, step), make([]ecs.Entity, 0, step)
		return runTicks(ticks, func() {
			next()
			lost, gained = gained, lost[:0]
			for _, i := range cur {
				gained = append(gained, es[i])
			}
			c1.RemoveEntities(lost)
			c1.AddEntities(gained, C1{1})
			sumTagged(q)
		}, w.Len, base)
	}
	return runTicks(ticks, func() {
		next()
		for _, i := range prev {
			c1.Remove(es[i])
		}
		for _, i := range cur {
			c1.Add(es[i], C1{1})
		}
		sumTagged(q)
	}, w.Len, base)
}

//go:noinline
func sumTagged(q *ecs.Query2[Position, C1]) float32 {
	s := float32(0)
	for r := range q.All() {
		s += float32(r.A.X * r.B.V)
	}
	return s
}

// particle runs the particle scenario of internal/scenario on one worker,
// or its naive twin.
func particle(n int, storage string, ticks int) TickStats {
	base := heapNow()
	if storage == "naive" {
		p := newNaiveParticles(n)
		return runTicks(ticks, p.tick, func() int { return len(p.pos) }, base)
	}
	p, err := scenario.NewParticle(scenario.Config{N: n, Seed: 1, Workers: 1, Storage: storage})
	if err != nil {
		panic(err)
	}
	defer p.Close()
	return runTicks(ticks, p.Tick, p.Alive, base)
}
