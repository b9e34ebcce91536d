package sched_test

import (
	"fmt"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type Position struct{ X, Y float64 }
type Velocity struct{ X, Y float64 }
type Hits struct{ N int }

// Systems that do not conflict share a stage and run in parallel; command
// buffers are applied at the end of each stage, so "report" (in a later
// stage than the structural "spawn") sees the new entity of the same tick.
func Example() {
	w := ecs.NewWorld()
	pos, vel := ecs.NewMap[Position](w), ecs.NewMap[Velocity](w)
	pv := ecs.NewMap2[Position, Velocity](w)
	for i := range 3 {
		pv.Spawn(Position{}, Velocity{float64(i), 1})
	}
	movers := ecs.NewQuery2[Position, Velocity](w)

	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	s.AddFunc("move", func(ctx *sched.Context) {
		for r := range movers.All() {
			r.A.X += r.B.X
			r.A.Y += r.B.Y
		}
	}, sched.Reads[Velocity](), sched.Writes[Position]())
	s.AddFunc("gravity", func(ctx *sched.Context) {}, sched.WritesResource[float64]())
	s.AddFunc("spawn", func(ctx *sched.Context) {
		c := ctx.Commands()
		e := c.Spawn()
		pos.SetCmd(c, e, Position{})
		vel.SetCmd(c, e, Velocity{})
	}, sched.Structural())
	s.AddFunc("report", func(ctx *sched.Context) {
		fmt.Println("moving entities:", movers.Count())
	}, sched.Reads[Position](), sched.Reads[Velocity]())
	fmt.Print(s.Plan())
	s.Run()
	s.Run()
	// Output:
	// 4 systems in 2 stages, 2 workers
	// stage 0:
	//   move: no conflict with an earlier system
	//   gravity: no conflict with an earlier system
	//   spawn: no conflict with an earlier system
	// stage 1:
	//   report: after "move" (component sched_test.Position)
	// moving entities: 4
	// moving entities: 5
}

// Outputs let several systems of one stage contribute to a component
// without a lock: here two systems deal damage as deltas, summed at the end
// of the stage in system order.
func ExampleOutput() {
	w := ecs.NewWorld()
	hits := ecs.NewMap[Hits](w)
	target := hits.Spawn(Hits{})
	s := sched.New(w)
	defer s.Close()
	out := sched.NewOutput(s, func(cur, next Hits) Hits { return Hits{cur.N + next.N} })
	for _, name := range []string{"sword", "arrow"} {
		s.AddFunc(name, func(ctx *sched.Context) {
			out.Emit(ctx, target, Hits{len(name)})
		}, sched.Emits[Hits]())
	}
	s.Run()
	fmt.Println("hits:", hits.Get(target).N)
	// Output: hits: 10
}

// ForEachEmit lets the items of a parallel loop emit: each item appends to
// its own Emitter, and the values reach the Sync in item order, as if one
// goroutine had emitted them, on any number of workers.
func ExampleForEachEmit() {
	w := ecs.NewWorld()
	hits := ecs.NewMap[Hits](w)
	for range 10_000 {
		hits.Spawn(Hits{})
	}
	s := sched.New(w, sched.Workers(2))
	defer s.Close()
	out := sched.NewOutput(s, func(cur, next Hits) Hits { return Hits{cur.N + next.N} })
	q := ecs.NewQuery1[Hits](w)
	var chunks []ecs.Chunk1[Hits]
	s.AddFunc("poison", func(ctx *sched.Context) {
		chunks = q.AppendChunks(chunks[:0], 1024)
		sched.ForEachEmit(ctx, out, chunks, func(c ecs.Chunk1[Hits], em *sched.Emitter[Hits]) {
			for _, e := range c.Entities {
				em.Emit(e, Hits{2})
			}
		})
	}, sched.Reads[Hits](), sched.Emits[Hits]())
	s.Run()
	total := 0
	for r := range q.All() {
		total += r.A.N
	}
	fmt.Println("values:", out.Applied(), "total hits:", total)
	// Output: values: 10000 total hits: 20000
}

// Debug mode catches a system touching a type it did not declare.
func ExampleDebug() {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	e := pos.Spawn(Position{})
	s := sched.New(w, sched.Debug())
	s.AddFunc("teleport", func(ctx *sched.Context) {
		pos.Set(e, Position{X: 10})
	}, sched.Reads[Position]())
	defer func() { fmt.Println(recover()) }()
	s.Run()
	// Output: sched: system "teleport" writes component sched_test.Position (Set) without declaring it; add sched.Writes[sched_test.Position]() to its options
}

// A fixed time step keeps the Time resource current for the systems.
func ExampleFixedLoop() {
	w := ecs.NewWorld()
	s := sched.New(w, sched.Workers(1))
	s.AddFunc("clock", func(ctx *sched.Context) {
		t := ecs.GetResource[sched.Time](ctx.World())
		fmt.Printf("tick %d at %.2fs\n", t.Tick, t.Elapsed)
	}, sched.ReadsResource[sched.Time]())
	loop := sched.NewFixedLoop(s, 250*time.Millisecond)
	fmt.Println("ran", loop.Advance(600*time.Millisecond), "ticks")
	// Output:
	// tick 1 at 0.25s
	// tick 2 at 0.50s
	// ran 2 ticks
}

// Structural changes declared by what they touch move only the systems
// that touch those types: "steer" reads Velocity only, so it shares the
// spawner's stage, while "render" reads Position, which the spawner adds,
// and goes after it. The reaper's despawns wait for the end of the tick
// (ApplyAtTickEnd), so they force nothing into a later stage; debug mode
// checks each despawn against the Despawns declarations. An entity lives
// two ticks.
func Example_structuralDeclarations() {
	w := ecs.NewWorld()
	pos, hits := ecs.NewMap[Position](w), ecs.NewMap[Hits](w)
	drawn, hurt := ecs.NewQuery1[Position](w), ecs.NewQuery1[Hits](w)
	steered := ecs.NewQuery1[Velocity](w)

	s := sched.New(w, sched.Debug())
	defer s.Close()
	s.AddFunc("reap", func(ctx *sched.Context) {
		for r := range hurt.All() {
			if r.A.N >= 2 {
				ctx.Commands().Despawn(r.Entity)
			}
		}
	}, sched.Reads[Hits](), sched.Despawns[Position](), sched.Despawns[Hits](), sched.ApplyAtTickEnd())
	s.AddFunc("spawn", func(ctx *sched.Context) {
		c := ctx.Commands()
		e := c.Spawn()
		pos.SetCmd(c, e, Position{})
		hits.SetCmd(c, e, Hits{N: 1})
	}, sched.Spawns(), sched.Adds[Position](), sched.Adds[Hits]())
	s.AddFunc("steer", func(ctx *sched.Context) {
		for range steered.All() {
		}
	}, sched.Reads[Velocity]())
	s.AddFunc("render", func(ctx *sched.Context) {
		fmt.Println("drawn:", drawn.Count())
	}, sched.Reads[Position]())
	s.AddFunc("age", func(ctx *sched.Context) {
		for r := range hurt.All() {
			r.A.N++
		}
	}, sched.Writes[Hits]())
	fmt.Print(s.Plan())
	for range 3 {
		s.Run()
	}
	// Output:
	// 5 systems in 2 stages, 1 workers
	// stage 0:
	//   reap: no conflict with an earlier system
	//   spawn: no conflict with an earlier system
	//   steer: no conflict with an earlier system
	// stage 1:
	//   render: after "spawn" (structural changes to component sched_test.Position)
	//   age: after "reap" (component sched_test.Hits)
	// drawn: 1
	// drawn: 2
	// drawn: 2
}
