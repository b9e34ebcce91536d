// Package systems starts goroutines, selects among channels and sizes work
// by the machine inside systems (reported) and outside them (not reported).
package systems

import (
	"runtime"
	"sync"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type Pos struct{ X float32 }

func register(s *sched.Scheduler, ch, quit chan int) {
	s.AddFunc("spread", func(ctx *sched.Context) {
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(1)
			go func() { // want `goroutine: a go statement in system code: goroutines finish in any order and run beside the scheduler's workers, .*; split the work with sched.ForEach`
				defer wg.Done()
				_ = i
			}()
		}
		wg.Go(func() {}) // want `goroutine: \(sync.WaitGroup\).Go starts a goroutine in system code`
		wg.Wait()
		select { // want `select: a select with several channel cases in system code picks one at random`
		case v := <-ch:
			_ = v
		case <-quit:
		}
		n := runtime.NumCPU()               // want `workers: runtime.NumCPU in system code sizes work by the machine: results that depend on how the work is split .*; cut the work into parts of a fixed size`
		n += runtime.GOMAXPROCS(0)          // want `workers: runtime.GOMAXPROCS in system code`
		parts := make([]int, ctx.Workers()) // want `workers: \(sched.Context\).Workers in system code sizes work by the number of workers`
		sched.ForEach(ctx, parts, func(p int) {
			go func() {}() // want `goroutine: a go statement in system code`
		})
		_ = n
	})
}

type mover struct{}

func (mover) Update(ctx *sched.Context) {
	go func() {}() // want `goroutine: a go statement in system code`
}

func hooks(w *ecs.World, m *ecs.Map[Pos]) {
	m.SpawnFunc(func(e ecs.Entity, p *Pos) {
		go func() {}() // want `goroutine: a go statement in system code`
	})
	go func() {}() // a function given a world is not system code
}

// Near misses: outside systems, goroutines, selects and the machine's size
// are the program's business (the scheduler's size, a server loop).
func main(w *ecs.World, ch, quit chan int) {
	s := sched.New(w)
	_ = s.Workers()
	_ = runtime.NumCPU()
	go func() {
		select {
		case <-ch:
		case <-quit:
		}
	}()
	s.AddFunc("one case", func(ctx *sched.Context) {
		select {
		case v := <-ch:
			_ = v
		default:
		}
	})
}
