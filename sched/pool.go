package sched

import (
	"context"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

// pool runs jobs on a fixed set of worker goroutines plus the calling one.
//
// A job's n items are cut into one contiguous range per participant, and a
// participant runs its own range first, then takes the items left in the
// others' (work stealing at the end of a job, as in Cilk and Rayon). The
// caller runs range "home" (the worker index of the goroutine it runs on,
// 0 outside the workers) and worker k range k, so a system that cuts the
// same table into the same items every tick finds its share of the rows in
// its own core's cache. Between the items of its own range, a participant
// runs its range of any job another goroutine started (help), so two
// systems of a stage that split the same tables keep their rows on the
// same cores. While the caller waits for the last items of its job, it
// runs the items of other jobs (a system of the same stage splitting its
// work). Items are claimed through atomic counters: the
// caller only waits for items others already started, so a job started from
// inside another job (a system splitting its own work) never waits for a
// busy worker, and cannot deadlock.
//
// An idle worker polls for a new job for up to spin before it parks, and
// the caller polls for the end of its job for as long before it blocks
// (see SpinWait). The polls never yield: runtime.Gosched would let the
// caller and a worker swap processors, and with them caches.
type pool struct {
	workers int // including the calling goroutine
	spin    time.Duration
	// tasks queues jobs for the workers; nil with one worker. Set once:
	// workers read it between items (help) until they stop.
	tasks chan *job
	// offerMu orders a worker's offer of its own job again (help) before
	// close: a worker may still be in help when the last item of its job
	// ends and the caller closes the pool, and a send on a closed channel
	// panics. closed is written under it, by close; the goroutine that
	// calls close reads it without the lock.
	offerMu sync.RWMutex
	closed  bool
}

// job is one batch of items.
type job struct {
	n      int
	parts  []part
	left   atomic.Int64  // items not finished
	done   chan struct{} // closed when left reaches 0
	run    func(i, who int)
	label  func(i int) string // names item i in a panic report
	labels context.Context    // pprof labels for the workers that take part, nil for none
	fault  atomic.Pointer[Panic]
}

// part is one participant's share of a job's items: next is the first
// unclaimed item, end the first item past the share. Padded to its own
// cache line, so that two workers claiming items from their own shares do
// not contend.
type part struct {
	next atomic.Int64
	end  int64
	_    [48]byte
}

func newPool(workers int, spin time.Duration) *pool {
	p := &pool{workers: workers, spin: spin}
	if workers > 1 {
		tasks := make(chan *job, 4*workers)
		p.tasks = tasks
		for k := 1; k < workers; k++ {
			go worker(p, tasks, k, spin)
		}
	}
	return p
}

// worker runs jobs from tasks until it is closed, polling for a while
// after each job before it parks. who is its index, from 1.
func worker(p *pool, tasks chan *job, who int, spin time.Duration) {
	for {
		j, ok := poll(tasks, spin)
		if !ok {
			return
		}
		j.work(p, who)
		pprof.SetGoroutineLabels(unlabelled)
	}
}

// poll returns the next job of tasks, spinning for up to spin before it
// blocks, and false once tasks is closed.
func poll(tasks chan *job, spin time.Duration) (*job, bool) {
	var start time.Time
	for k := 1; spin > 0; k++ {
		select {
		case j, ok := <-tasks:
			return j, ok
		default:
		}
		if k%64 != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > spin {
			break
		}
	}
	j, ok := <-tasks
	return j, ok
}

// do runs run(0, who) to run(n-1, who), spread over the workers, and returns
// once all have finished; who is the index of the goroutine that runs the
// item. home is the index of the calling goroutine (0 if it is not a
// worker). If any item panicked, the items not yet claimed still run (with
// several workers), and do then panics with the first *Panic recorded.
func (p *pool) do(home, n int, run func(i, who int), label func(i int) string, labels context.Context) {
	p.doCut(home, n, run, label, labels, nil)
}

// doCut is do with the participants' shares given: participant k's share
// is items [cuts[k], cuts[k+1]). With nil cuts the shares are equal.
func (p *pool) doCut(home, n int, run func(i, who int), label func(i int) string, labels context.Context, cuts []int) {
	if n <= 0 {
		return
	}
	if p.tasks == nil || p.closed || n == 1 {
		p.serial(home, n, run, label)
		return
	}
	j := &job{n: n, run: run, label: label, labels: labels, done: make(chan struct{})}
	j.parts = make([]part, p.workers)
	for k := range j.parts {
		if cuts != nil {
			j.parts[k].next.Store(int64(cuts[k]))
			j.parts[k].end = int64(cuts[k+1])
			continue
		}
		j.parts[k].next.Store(int64(k * n / p.workers))
		j.parts[k].end = int64((k + 1) * n / p.workers)
	}
	j.left.Store(int64(n))
	for range min(p.workers-1, n-1) {
		select {
		case p.tasks <- j:
		default: // every worker has work queued: the caller does it
		}
	}
	j.work(p, home)
	j.wait(p, home)
	if f := j.fault.Load(); f != nil {
		panic(f)
	}
}

// serial runs the items in order on the calling goroutine, with the same
// panic report as a job.
func (p *pool) serial(who, n int, run func(i, who int), label func(i int) string) {
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
		run(i, who)
	}
}

// work runs the items of the caller's own share, then those left in the
// others', until none is left. Between the items of its own share it runs
// its share of any job another goroutine started meanwhile (help), so that
// when a stage runs several systems that split the same tables, each
// worker still runs its own share of every system's rows, the rows it ran
// in the previous stage and tick, and finds them in its core's cache:
// without it, a worker busy with one system leaves the whole of another's
// loop to the other worker, and each stage's rows change cores.
func (j *job) work(p *pool, who int) {
	if j.labels != nil {
		pprof.SetGoroutineLabels(j.labels)
	}
	w := len(j.parts)
	for r := range w {
		part := &j.parts[(who+r)%w]
		for {
			i := part.next.Add(1) - 1
			if i >= part.end {
				break
			}
			j.item(int(i), who)
			if r == 0 {
				p.help(j, who)
			}
		}
	}
}

// help runs, without waiting for anything, share who of a job that another
// goroutine started, if one is queued, and returns. The job is taken off
// the queue: its creator runs what is left of the shares, and waits only
// for items already started. A goroutine that finds its own job queues it
// again, so that the other workers can still join it.
func (p *pool) help(cur *job, who int) {
	if p.tasks == nil {
		return
	}
	// Two tries: the first may find the goroutine's own job, queued again
	// at the back, where it cannot hide another job from the second.
	for range 2 {
		select {
		case o, ok := <-p.tasks:
			switch {
			case !ok: // the pool is closing
				return
			case o != cur:
				o.share(p, who)
				restoreLabels(cur.labels)
				return
			}
			p.offer(o) // its own job: offered again, for another worker to join
		default:
			return
		}
	}
}

// offer queues j again unless the queue is full or the pool is closing.
func (p *pool) offer(j *job) {
	p.offerMu.RLock()
	defer p.offerMu.RUnlock()
	if p.closed {
		return
	}
	select {
	case p.tasks <- j:
	default:
	}
}

// share runs the items of share who of j, and of the jobs it helps with
// between them.
func (j *job) share(p *pool, who int) {
	if who >= len(j.parts) {
		return
	}
	if j.labels != nil {
		pprof.SetGoroutineLabels(j.labels)
	}
	part := &j.parts[who]
	for {
		i := part.next.Add(1) - 1
		if i >= part.end {
			return
		}
		j.item(int(i), who)
		p.help(j, who)
	}
}

// wait returns once every item has finished. Meanwhile it runs the items of
// jobs other goroutines started (a system of the same stage splitting its
// work): it polls for up to spinTime after the last such item, then blocks.
func (j *job) wait(p *pool, home int) {
	var start time.Time
	for k := 1; j.left.Load() > 0; k++ {
		select {
		case o := <-p.tasks:
			if o != j {
				o.work(p, home)
				restoreLabels(j.labels)
				start = time.Time{}
			}
			continue
		default:
		}
		if k%64 != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > p.spin {
			<-j.done
			return
		}
	}
}

// restoreLabels gives the calling goroutine back the pprof labels of the
// job it waits for, after it ran another job's items.
func restoreLabels(labels context.Context) {
	if labels == nil {
		labels = unlabelled
	}
	pprof.SetGoroutineLabels(labels)
}

func (j *job) item(i, who int) {
	defer func() {
		if j.left.Add(-1) == 0 {
			close(j.done)
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(*Panic)
			if !ok {
				f = &Panic{Where: j.label(i), Value: r, Stack: debug.Stack()}
			}
			j.fault.CompareAndSwap(nil, f)
		}
	}()
	j.run(i, who)
}

// close stops the worker goroutines.
func (p *pool) close() {
	if p.tasks != nil && !p.closed {
		p.offerMu.Lock()
		p.closed = true
		close(p.tasks)
		p.offerMu.Unlock()
	}
}
