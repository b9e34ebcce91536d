package sched

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
)

// pool runs jobs on a fixed set of worker goroutines plus the calling one.
// A job is n numbered items claimed through an atomic counter: the caller
// claims items too and only waits for items others already started, so a
// job started from inside another job (a system splitting its own work)
// never waits for a worker that is busy, and cannot deadlock.
type pool struct {
	workers int // including the calling goroutine
	tasks   chan *job
}

// job is one batch of items.
type job struct {
	n      int
	next   atomic.Int64
	wg     sync.WaitGroup
	run    func(i int)
	label  func(i int) string // names item i in a panic report
	labels context.Context    // pprof labels for the workers that take part, nil for none
	fault  atomic.Pointer[Panic]
}

func newPool(workers int) *pool {
	p := &pool{workers: workers}
	if workers > 1 {
		tasks := make(chan *job, 4*workers)
		p.tasks = tasks
		for range workers - 1 {
			go worker(tasks)
		}
	}
	return p
}

// spinPolls is how many times an idle worker polls for a job before it
// blocks: the stages of a tick follow each other within microseconds, and
// waking a parked goroutine costs tens of them on a virtual machine.
const spinPolls = 2000

// worker runs jobs from tasks until it is closed, polling for a while
// after each job before it parks.
func worker(tasks chan *job) {
	for {
		var j *job
		for range spinPolls {
			select {
			case j = <-tasks:
			default:
				runtime.Gosched()
				continue
			}
			break
		}
		if j == nil {
			var ok bool
			if j, ok = <-tasks; !ok {
				return
			}
		}
		j.work()
		pprof.SetGoroutineLabels(unlabelled)
	}
}

// do runs run(0) to run(n-1), spread over the workers, and returns once all
// have finished. If any panicked, the items not yet claimed still run (with
// several workers), and do then panics with the first *Panic recorded.
func (p *pool) do(n int, run func(i int), label func(i int) string, labels context.Context) {
	if n <= 0 {
		return
	}
	if p.tasks == nil || n == 1 {
		p.serial(n, run, label)
		return
	}
	j := &job{n: n, run: run, label: label, labels: labels}
	j.wg.Add(n)
	for range min(p.workers-1, n-1) {
		select {
		case p.tasks <- j:
		default: // every worker has work queued: the caller does it
		}
	}
	j.work()
	j.wg.Wait()
	if f := j.fault.Load(); f != nil {
		panic(f)
	}
}

// serial runs the items in order on the calling goroutine, with the same
// panic report as a job.
func (p *pool) serial(n int, run func(i int), label func(i int) string) {
	i := 0
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Panic); !ok {
				r = &Panic{Where: label(i), Value: r, Stack: debug.Stack()}
			}
			panic(r)
		}
	}()
	for ; i < n; i++ {
		run(i)
	}
}

// work claims and runs items until none is left.
func (j *job) work() {
	if j.labels != nil {
		pprof.SetGoroutineLabels(j.labels)
	}
	for {
		i := int(j.next.Add(1) - 1)
		if i >= j.n {
			return
		}
		j.item(i)
	}
}

func (j *job) item(i int) {
	defer j.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(*Panic)
			if !ok {
				f = &Panic{Where: j.label(i), Value: r, Stack: debug.Stack()}
			}
			j.fault.CompareAndSwap(nil, f)
		}
	}()
	j.run(i)
}

// close stops the worker goroutines.
func (p *pool) close() {
	if p.tasks != nil {
		close(p.tasks)
		p.tasks = nil
	}
}
